/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine registry: the one list of twheel's engines.
 *
 * One TWHEEL_ENGINE(name, NAME, path, exact) line per engine, in the order
 * of their kinds (enum twheel_kind, and so the first runner ids):
 *
 * - name: the engine's name, as engines= and every read-out spell it; its
 *   files are engines/<name>.c and .h, its ops twheel_<name>_ops;
 * - NAME: the kind is TWHEEL_<NAME>;
 * - path: FAST if engines/<name>.h has inlined fast paths,
 *   tw_<name>_add(), _del(), _mod(), _pop(), _pending() and _step(), which
 *   twheel_add_as() and the others (engines/registry.h) call for a caller
 *   that knows the kind, and its ops' entry is TWHEEL_FAST_ENTRY(name)
 *   (engines/entry.h); else SLOW;
 * - exact: EXACT if the engine runs every timer it takes at exactly its
 *   jiffy, LATE if it may run one later (never earlier); the scripts'
 *   checks read it. The guarantee in words is twheel_ops.guarantee.
 *
 * Whoever needs every engine defines TWHEEL_ENGINE() to what it wants of
 * each, includes this file (it has no include guard, on purpose) and
 * undefines it, as arch/x86's kvm-x86-ops.h is used:
 *
 *	#define TWHEEL_ENGINE(name, NAME, path, exact)	TWHEEL_##NAME,
 *	#include (this file)
 *	#undef TWHEEL_ENGINE
 *
 * So are made the kinds, the ops table (twheel_engine_ops[]), the runners'
 * names and table, the KUnit contract rows, twheel_add_as() and the
 * others, the runs of the engines with fast paths (engines/run.c), the
 * user-space tools' tables; Kbuild reads the names for the
 * engines= parameter's help, and the scripts through scripts/engines.sh.
 * An engine's name, guarantee, capabilities, state size and constructor
 * are in its struct twheel_ops. Adding an engine is its own files, one
 * line here, and its docs row.
 */
#ifndef TWHEEL_ENGINE
#error "define TWHEEL_ENGINE(name, NAME, path, exact) before including the list"
#endif

TWHEEL_ENGINE(classic, CLASSIC, FAST, EXACT)
TWHEEL_ENGINE(modern, MODERN, FAST, LATE)
TWHEEL_ENGINE(reference, REFERENCE, SLOW, EXACT)
TWHEEL_ENGINE(heap, HEAP, SLOW, EXACT)
TWHEEL_ENGINE(hash, HASH, SLOW, EXACT)
TWHEEL_ENGINE(simple, SIMPLE, SLOW, EXACT)
TWHEEL_ENGINE(hash_sorted, HASH_SORTED, SLOW, EXACT)
TWHEEL_ENGINE(straight, STRAIGHT, SLOW, EXACT)
TWHEEL_ENGINE(ordered, ORDERED, SLOW, EXACT)
TWHEEL_ENGINE(ratas, RATAS, FAST, EXACT)
TWHEEL_ENGINE(volt, VOLT, FAST, EXACT)
TWHEEL_ENGINE(hash_vec, HASH_VEC, SLOW, EXACT)
TWHEEL_ENGINE(classic_bounded, CLASSIC_BOUNDED, FAST, EXACT)
TWHEEL_ENGINE(erlang, ERLANG, SLOW, EXACT)
