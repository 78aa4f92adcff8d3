/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract suite's shared part: the engines under it with their
 * expiry and range rules (contract_engines.c), and a case's fixture.
 */
#ifndef TW_CONTRACT_H
#define TW_CONTRACT_H

#include <kunit/test.h>
#include "tw_test.h"

#define TW_NR_RECS	8
#define TW_CLK		1000UL

/**
 * struct tw_engine_param - an engine under the contract
 * @name: the parameter's name in the KTAP output
 * @ops: the engine's kind
 * @size: bytes to allocate for the engine's own structure
 * @init: initialises that structure with its clock at @clk; NULL on error.
 *	NULL: the one constructor does (tw_ct_new())
 * @fires_at: the jiffy a timer armed now for @expires runs at
 * @range_pick: the jiffy its range rule picks in [lo, hi] (an independent
 *	statement of the rule); NULL: hi
 */
struct tw_engine_param {
	const char *name;
	const struct twheel_ops *ops;
	size_t size;
	struct twheel_engine *(*init)(void *mem, unsigned long clk);
	unsigned long (*fires_at)(const struct twheel_engine *e,
				  unsigned long expires);
	unsigned long (*range_pick)(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi);
};

/* A case's state, in test->priv; everything is freed when the case ends. */
struct tw_contract {
	const struct tw_engine_param *p;
	void *mem;			/* the engine's structure */
	struct twheel_engine *e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int victims;		/* ids a callback deletes, as bits */
	unsigned long runs_at[4];	/* of a timer that re-arms itself */
};

struct tw_counts {
	u64 added, deleted, expired, modified, mod_noop;
	unsigned long pending;
};

const void *tw_contract_params(const void *prev, char *desc);
struct twheel_engine *tw_ct_new(const struct tw_engine_param *p, void *mem,
				unsigned long clk);
unsigned long tw_fires_exact(const struct twheel_engine *e, unsigned long expires);
unsigned long tw_fires_bucket(const struct twheel_engine *e, unsigned long expires);
unsigned long tw_pick_cascade(const struct twheel_engine *e, unsigned long lo,
			      unsigned long hi);
unsigned long tw_pick_edge(const struct twheel_engine *e, unsigned long lo,
			   unsigned long hi);
unsigned long tw_pick_digits(const struct twheel_engine *e, unsigned long lo,
			     unsigned long hi);
void tw_contract_check(struct tw_rec *r);
int tw_contract_init(struct kunit *test);
void tw_contract_restart(struct kunit *test, unsigned long clk);
void tw_ct_arm(struct kunit *test, unsigned int i, unsigned long expires);
bool tw_ct_remod(struct kunit *test, unsigned int i, unsigned long expires);
void tw_ct_run(struct kunit *test, unsigned long until);
void tw_ct_expect_counts(struct kunit *test, const struct tw_counts *want,
			 const char *when);
unsigned long tw_ct_in_buckets(const struct twheel_engine *e);

#endif /* TW_CONTRACT_H */
