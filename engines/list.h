/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine registry: the one list of twheel's engines.
 *
 * TWHEEL_ENGINES(X) calls X(name, NAME, path, exact) once per engine, in
 * the order of their kinds (enum twheel_kind, and so the first runner ids):
 *
 * - name: the engine's name, as engines= and every read-out spell it; its
 *   files are engines/<name>.c and .h, its ops twheel_<name>_ops;
 * - NAME: the kind is TWHEEL_<NAME>;
 * - path: FAST if engines/<name>.h has inlined fast paths
 *   (tw_<name>_fast_add() and the others, see TWHEEL_FAST_PATHS() in
 *   twheel.h) that twheel_add_as() inlines for a caller that knows the
 *   kind, else SLOW;
 * - exact: EXACT if the engine runs every timer it takes at exactly its
 *   jiffy, LATE if it may run one later (never earlier); the scripts'
 *   checks read it. The guarantee in words is twheel_ops.guarantee.
 *
 * Everything that needs every engine is generated from this list or walks
 * twheel_engine_ops[]: the kinds, the runners' names and table, the KUnit
 * contract rows, the user-space constructor, and the shell scripts' list
 * (scripts/engines.sh reads it). An engine's name, guarantee, capabilities,
 * state size and constructor are in its struct twheel_ops. Adding an engine
 * is its own files, one line here, and its docs row.
 */
#ifndef TWHEEL_ENGINES_LIST_H
#define TWHEEL_ENGINES_LIST_H

#define TWHEEL_ENGINES(X)							\
	X(classic, CLASSIC, FAST, EXACT) \
	X(modern, MODERN, FAST, LATE) \
	X(reference, REFERENCE, SLOW, EXACT) \
	X(heap, HEAP, SLOW, EXACT) \
	X(hash, HASH, SLOW, EXACT) \
	X(simple, SIMPLE, SLOW, EXACT) \
	X(hash_sorted, HASH_SORTED, SLOW, EXACT) \
	X(straight, STRAIGHT, SLOW, EXACT) \
	X(ordered, ORDERED, SLOW, EXACT) \
	X(ratas, RATAS, FAST, EXACT) \
	X(volt, VOLT, FAST, EXACT) \
	X(hash_vec, HASH_VEC, SLOW, EXACT) \
	X(classic_bounded, CLASSIC_BOUNDED, FAST, EXACT) \
	X(erlang, ERLANG, SLOW, EXACT)

#endif /* TWHEEL_ENGINES_LIST_H */
