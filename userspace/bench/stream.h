/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op stream of stream.c, in plain C (C++ can include it): which timer
 * is touched at which tick, how, and with which delay. Deterministic: one
 * xorshift seed, no clock. See stream.c for the stream itself.
 */
#ifndef TW_STREAM_H
#define TW_STREAM_H

#include <stdlib.h>
#include <stdint.h>

#define SS_NONE		UINT32_MAX
#define SS_U_MAX	(1UL << 20)	/* mix "u": delays 1..2^20 */
#define SS_S_MIN	25UL		/* mix "s": delays 25..250 */
#define SS_S_MAX	250UL

struct ss_stream {
	unsigned long n, mask;
	int mix;
	uint64_t rnd;
	unsigned long *delay;	/* each timer's current arming: its delay */
	unsigned long *expires;	/* and its absolute expiry tick */
	uint32_t *head;		/* touch calendar: per tick & mask, a list */
	uint32_t *next;
	unsigned char *is_mod;	/* its touch is a mod (else del + add) */
};

static inline uint64_t ss_rand(struct ss_stream *s)
{
	s->rnd ^= s->rnd << 13;
	s->rnd ^= s->rnd >> 7;
	s->rnd ^= s->rnd << 17;
	return s->rnd;
}

static inline unsigned long ss_delay(struct ss_stream *s)
{
	uint64_t r = ss_rand(s);

	if (s->mix == 'u')
		return 1 + r % SS_U_MAX;
	return SS_S_MIN + r % (SS_S_MAX - SS_S_MIN + 1);
}

/*
 * Timer id is armed during tick: draws its delay (expiry tick + delay) and,
 * 9 times in 10, a touch at one of the ticks tick + 1 .. its expiry (the
 * touches of a tick run before its advance, so before it can fire).
 */
static inline void ss_arm(struct ss_stream *s, unsigned long id,
			  unsigned long tick)
{
	unsigned long d = ss_delay(s), at;
	uint64_t r = ss_rand(s);

	s->delay[id] = d;
	s->expires[id] = tick + d;
	if (r % 10 == 0)
		return;			/* this one expires */
	at = tick + 1 + (r >> 8) % d;
	s->is_mod[id] = (r >> 40) & 1;
	s->next[id] = s->head[at & s->mask];
	s->head[at & s->mask] = id;
}

/* The next timer to touch at tick, or SS_NONE. */
static inline uint32_t ss_next_touch(struct ss_stream *s, unsigned long tick)
{
	uint32_t id = s->head[tick & s->mask];

	if (id != SS_NONE)
		s->head[tick & s->mask] = s->next[id];
	return id;
}

static inline int ss_touch_is_mod(const struct ss_stream *s, uint32_t id)
{
	return s->is_mod[id];
}

/* Every timer armed at tick clk - 1, so the first tick run is clk. */
static inline int ss_init(struct ss_stream *s, int mix, unsigned long n,
			  unsigned long clk)
{
	unsigned long max = mix == 'u' ? SS_U_MAX : SS_S_MAX, i;

	s->n = n;
	s->mix = mix;
	s->rnd = 0x9e3779b97f4a7c15ULL;
	for (s->mask = 1; s->mask <= max + 1; s->mask <<= 1)
		;
	s->head = (uint32_t *)malloc(s->mask * sizeof(*s->head));
	s->mask--;
	s->next = (uint32_t *)calloc(n, sizeof(*s->next));
	s->delay = (unsigned long *)calloc(n, sizeof(*s->delay));
	s->expires = (unsigned long *)calloc(n, sizeof(*s->expires));
	s->is_mod = (unsigned char *)calloc(n, 1);
	if (!s->head || !s->next || !s->delay || !s->expires || !s->is_mod)
		return -1;
	for (i = 0; i <= s->mask; i++)
		s->head[i] = SS_NONE;
	for (i = 0; i < n; i++)
		ss_arm(s, i, clk - 1);
	return 0;
}

static inline void ss_free(struct ss_stream *s)
{
	free(s->head);
	free(s->next);
	free(s->delay);
	free(s->expires);
	free(s->is_mod);
}

/* Ticks that make about ops touches once the stream runs steadily. */
static inline unsigned long ss_ticks_for(int mix, unsigned long n,
					 unsigned long ops)
{
	/* an arming lives 0.9 * (d + 1) / 2 + 0.1 * d ticks on average */
	double d = mix == 'u' ? (SS_U_MAX + 1) / 2.0 : (SS_S_MIN + SS_S_MAX) / 2.0;
	double life = 0.9 * (d + 1) / 2 + 0.1 * d;
	double ticks = ops * life / (0.9 * n);

	return ticks < 256 ? 256 : (unsigned long)ticks;
}

#endif /* TW_STREAM_H */
