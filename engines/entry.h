/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An engine's entry (struct twheel_entry): what twheel_add() and the other
 * operations call through its ops. The generators here are for engines
 * only: an engine with fast paths (FAST in engines/list.h) makes its
 * kind-known fast paths with TWHEEL_FAST_PATHS() in its header and its
 * entry with TWHEEL_FAST_ENTRY() and TWHEEL_FAST_ENTRY_OPS() in its C
 * file; any other engine's entry is TWHEEL_GENERIC_ENTRY, the
 * engine-independent operations of twheel_core.c.
 */
#ifndef TWHEEL_ENGINES_ENTRY_H
#define TWHEEL_ENGINES_ENTRY_H

#include "twheel.h"

/*
 * The run of each engine with fast paths, tw_<name>_entry_run(), which
 * engines/run.c makes from the registry (its advance and pop inline); the
 * other engines run with twheel_ops_run().
 */
#define TW_ENTRY_RUN_DECL_FAST(name)	tw_##name##_entry_run,
#define TW_ENTRY_RUN_DECL_SLOW(...)
#define TW_ENTRY_RUN_DECL(path, name, ...)	TW_ENTRY_RUN_DECL_##path(name)
twheel_entry_run_fn
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_ENTRY_RUN_DECL(path, name, NAME, exact)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	twheel_ops_run;

/*
 * TWHEEL_FAST_PATHS(name): in engines/<name>.h of an engine with fast
 * paths, after its inlined tw_<name>_add(), _del(), _mod(), _pop() and
 * _step() (one jiffy, the clock's own), which take what
 * tw_<name>_fast_of(e) gives: the same as tw_<name>_fast_add() and the
 * others, taking the engine, for twheel_add_as() (engines/registry.h) and
 * TWHEEL_FAST_ENTRY(). Needs twheel_ops_advance() (twheel.h).
 */
#define TWHEEL_FAST_PATHS(name)							\
static __always_inline int tw_##name##_fast_add(struct twheel_engine *e,	\
						struct twheel_timer *t,		\
						unsigned long expires)		\
{										\
	return tw_##name##_add(tw_##name##_fast_of(e), t, expires);		\
}										\
static __always_inline bool tw_##name##_fast_del(struct twheel_engine *e,	\
						 struct twheel_timer *t)	\
{										\
	return tw_##name##_del(tw_##name##_fast_of(e), t);			\
}										\
static __always_inline bool tw_##name##_fast_mod(struct twheel_engine *e,	\
						 struct twheel_timer *t,	\
						 unsigned long expires)		\
{										\
	return tw_##name##_mod(tw_##name##_fast_of(e), t, expires);		\
}										\
static __always_inline struct twheel_timer *					\
tw_##name##_fast_pop(struct twheel_engine *e)					\
{										\
	return tw_##name##_pop(tw_##name##_fast_of(e));						\
}										\
static __always_inline bool tw_##name##_fast_advance(struct twheel_engine *e,	\
						     unsigned long now)		\
{										\
	if (now != e->clk)							\
		return twheel_ops_advance(e, now);				\
	e->st.advances++;							\
	e->st.jiffies++;							\
	return tw_##name##_step(tw_##name##_fast_of(e));			\
}

/*
 * TWHEEL_FAST_ENTRY(name): in engines/<name>.c of an engine with fast
 * paths, its fast paths out of line, for its ops' .entry (given by
 * TWHEEL_FAST_ENTRY_OPS(name)): what twheel_add() and the others call.
 */
#define TWHEEL_FAST_ENTRY(name)							\
static int tw_##name##_entry_add(struct twheel_engine *e,			\
				 struct twheel_timer *t, unsigned long x)	\
{										\
	return tw_##name##_fast_add(e, t, x);					\
}										\
static bool tw_##name##_entry_del(struct twheel_engine *e,			\
				  struct twheel_timer *t)			\
{										\
	return tw_##name##_fast_del(e, t);					\
}										\
static bool tw_##name##_entry_mod(struct twheel_engine *e,			\
				  struct twheel_timer *t, unsigned long x)	\
{										\
	return tw_##name##_fast_mod(e, t, x);					\
}										\
static struct twheel_timer *tw_##name##_entry_pop(struct twheel_engine *e)	\
{										\
	return tw_##name##_fast_pop(e);						\
}										\
static bool tw_##name##_entry_advance(struct twheel_engine *e,			\
				      unsigned long now)			\
{										\
	return tw_##name##_fast_advance(e, now);				\
}

/*
 * The entry of an engine whose TWHEEL_FAST_ENTRY() is in its file; its run
 * is engines/run.c's.
 */
#define TWHEEL_FAST_ENTRY_OPS(name) {					\
	.add		= tw_##name##_entry_add,			\
	.del		= tw_##name##_entry_del,			\
	.mod		= tw_##name##_entry_mod,			\
	.pop		= tw_##name##_entry_pop,			\
	.advance	= tw_##name##_entry_advance,			\
	.run		= tw_##name##_entry_run,			\
}

/* The entry of an engine without fast paths: the ops composed. */
#define TWHEEL_GENERIC_ENTRY {						\
	.add		= twheel_ops_add,				\
	.del		= twheel_ops_del,				\
	.mod		= twheel_ops_mod,				\
	.pop		= twheel_ops_pop,				\
	.advance	= twheel_ops_advance,				\
	.run		= twheel_ops_run,				\
}

#endif /* TWHEEL_ENGINES_ENTRY_H */
