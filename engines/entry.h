/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An engine's entry (struct twheel_entry): what twheel_add() and the other
 * operations call through its ops. For engines only: an engine with fast
 * paths (FAST in engines/list.h) gives TWHEEL_FAST_ENTRY(name), any other
 * TWHEEL_GENERIC_ENTRY, the engine-independent operations of twheel_core.c.
 */
#ifndef TWHEEL_ENGINES_ENTRY_H
#define TWHEEL_ENGINES_ENTRY_H

#include "twheel.h"

/*
 * Keeps what it is given for an engine with fast paths (FAST in
 * engines/list.h), drops it for any other.
 */
#define TW_IF_FAST(path, ...)	TW_IF_FAST_##path(__VA_ARGS__)
#define TW_IF_FAST_FAST(...)	__VA_ARGS__
#define TW_IF_FAST_SLOW(...)

/**
 * typedef twheel_entry_advance_fn - an advance, as struct twheel_entry holds it
 * @e: the engine
 * @now: the last jiffy to process
 *
 * Return: as twheel_ops_advance().
 */
typedef bool twheel_entry_advance_fn(struct twheel_engine *e, unsigned long now);

/*
 * The advance and the run of each engine with fast paths,
 * tw_<name>_advance() and tw_<name>_run(): twheel_advance_as() and
 * twheel_run_as() with the engine's kind, out of line, made by
 * engines/run.c from the registry. The other engines share
 * twheel_ops_advance() and twheel_ops_run().
 */
#define TW_ENTRY_DECL_FAST(name, op)	tw_##name##_##op,
#define TW_ENTRY_DECL_SLOW(...)
#define TW_ENTRY_DECL(path, name, op, ...)	TW_ENTRY_DECL_##path(name, op)

twheel_entry_advance_fn
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_ENTRY_DECL(path, name, advance, NAME, exact)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	twheel_ops_advance;

twheel_entry_run_fn
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_ENTRY_DECL(path, name, run, NAME, exact)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	twheel_ops_run;

/*
 * TWHEEL_FAST_ENTRY(name): the entry of an engine with fast paths. Its
 * add, del, mod and pop are the inlined tw_<name>_add() and the others of
 * engines/<name>.h, out of line where their address is taken (the
 * engine's C file); its advance and run are engines/run.c's.
 */
#define TWHEEL_FAST_ENTRY(name) {					\
	.add		= tw_##name##_add,				\
	.del		= tw_##name##_del,				\
	.mod		= tw_##name##_mod,				\
	.pop		= tw_##name##_pop,				\
	.advance	= tw_##name##_advance,				\
	.run		= tw_##name##_run,				\
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
