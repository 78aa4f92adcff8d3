/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one engine constructor of the user-space tools (bench, stream, fuzz,
 * replay): any engine of the registry by its name or kind, its state and
 * storage from malloc, through twheel_create(), as the module's runner
 * does with kvmalloc.
 */
#ifndef TWHEEL_USER_H
#define TWHEEL_USER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "twheel.h"
#include "engines/params.h"

/**
 * struct tw_user_engine - an engine a tool made, and its memory
 * @ops: its kind
 * @state: its struct (ops->size bytes)
 * @storage: what it needs beside it, or NULL
 * @e: the engine, inside @state
 */
struct tw_user_engine {
	const struct twheel_ops *ops;
	void *state;
	void *storage;
	struct twheel_engine *e;
};

/* What the module loads by default: its parameters' defaults. */
static inline struct twheel_config tw_user_config(void)
{
	struct twheel_config cfg = { 0 };

	twheel_config_default(&cfg);
	return cfg;
}

/* Lets go of what tw_user_engine_new() allocated; u may be half made. */
static inline void tw_user_engine_free(struct tw_user_engine *u)
{
	free(u->storage);
	free(u->state);
	memset(u, 0, sizeof(*u));
}

/*
 * Makes engine ops at clock clk with cfg (NULL: tw_user_config()).
 * Returns 0, -ENOMEM, or the engine's refusal of cfg (-EINVAL, -E2BIG);
 * on error u holds nothing.
 */
static inline int tw_user_engine_make(struct tw_user_engine *u,
				      const struct twheel_ops *ops,
				      unsigned long clk,
				      const struct twheel_config *cfg)
{
	struct twheel_config def = tw_user_config();
	size_t size;
	int ret;

	if (!cfg)
		cfg = &def;
	memset(u, 0, sizeof(*u));
	u->ops = ops;
	size = twheel_storage_size(ops, cfg);
	u->state = calloc(1, ops->size);
	u->storage = size ? calloc(1, size) : NULL;
	if (!u->state || (size && !u->storage)) {
		tw_user_engine_free(u);
		return -ENOMEM;
	}
	ret = twheel_create(ops, u->state, clk, cfg, u->storage, &u->e);
	if (ret)
		tw_user_engine_free(u);
	return ret;
}

/* The same by the engine's name; -ENOENT if no engine has it. */
static inline int tw_user_engine_new(struct tw_user_engine *u, const char *name,
				     unsigned long clk,
				     const struct twheel_config *cfg)
{
	const struct twheel_ops *ops = twheel_ops_by_name(name);

	if (!ops) {
		memset(u, 0, sizeof(*u));
		return -ENOENT;
	}
	return tw_user_engine_make(u, ops, clk, cfg);
}

/* Prints every engine's name, separated by sep, to f (a usage line). */
static inline void tw_user_engine_names(FILE *f, const char *sep)
{
	unsigned int k;

	for (k = 0; k < TWHEEL_NR_KINDS; k++)
		fprintf(f, "%s%s", k ? sep : "", twheel_engine_ops[k]->name);
}

#endif /* TWHEEL_USER_H */
