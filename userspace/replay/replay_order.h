/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of one or more trace texts in timestamp order (replay_order.c):
 * every timer event line by its timestamp, each CPU's lines of a file in
 * their order, any other line after the line it follows in its file.
 */
#ifndef TWHEEL_REPLAY_ORDER_H
#define TWHEEL_REPLAY_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include "replay_lib.h"

/* A line's place, as the user knows it: its file (an index) and line. */
#define RP_AT_LINE_BITS	40
#define RP_AT(file, line)	(((uint64_t)(file) << RP_AT_LINE_BITS) | (line))
#define RP_AT_FILE(at)		((unsigned int)((at) >> RP_AT_LINE_BITS))
#define RP_AT_NR(at)		((at) & ((1ULL << RP_AT_LINE_BITS) - 1))

/* A trace file's text, whole in memory. */
struct rp_text {
	const char *buf;
	size_t len;
};

/**
 * struct rp_order - what putting the lines in order found
 * @back: event lines whose timestamp is before an earlier line's of their
 *	file (a file of several CPUs' sections, trace_pipe's late events)
 * @back_at: the first of them (RP_AT()), @back_ts its timestamp and
 *	@back_prev the one it is before
 * @stuck: the lines cannot be put in order: a CPU's own timestamps go
 *	back in a file (or a file's, where its lines have no CPU): @stuck_at,
 *	@stuck_ts, @stuck_prev (@stuck_prev_at's), @stuck_cpu (TP_NO_CPU:
 *	the lines have none)
 * @moved: the lines taken out of their file's order
 */
struct rp_order {
	uint64_t back, back_at, back_ts, back_prev;
	int stuck;
	uint64_t stuck_at, stuck_ts, stuck_prev, stuck_prev_at;
	unsigned int stuck_cpu;
	uint64_t moved;
};

int rp_order_feed(struct rp_trace *tr, const struct rp_text *t, unsigned int n,
		  struct rp_order *ord);

#endif /* TWHEEL_REPLAY_ORDER_H */
