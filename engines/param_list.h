/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engines' parameters: the one list of what configures an engine.
 *
 * One TWHEEL_PARAM(field, def, min, max, pow2, desc, name) entry per
 * parameter, each a member of struct twheel_config that the module takes
 * as a module parameter:
 *
 * - field: the member of struct twheel_config it sets, which the engine's
 *   .init and .storage_size read;
 * - def: its default, the module's and the user-space tools';
 * - min, max: its range, both ends taken;
 * - pow2: true if it must be a power of two as well;
 * - desc: its help (modinfo);
 * - name: the module parameter (name=, /sys/module/twheel/parameters/name).
 *
 * Whoever needs every parameter includes engines/params.h (the engines'
 * constants the list names), defines TWHEEL_PARAM(), includes this file
 * (it has no include guard, on purpose) and undefines it, as with
 * engines/list.h: so are made the module parameters (twheel_main.c) and
 * the table twheel_engine_params[] (engines/params.c), from which come
 * the range check and the defaults (twheel_config_check(),
 * twheel_config_default()) in the module and in user space. Adding a
 * parameter to an engine is a member of struct twheel_config, one entry
 * here and the engine's use of it in its .init.
 */
#ifndef TWHEEL_PARAM
#error "define TWHEEL_PARAM(field, def, min, max, pow2, desc, name) before including the list"
#endif

TWHEEL_PARAM(depth, TW_MODERN_DEFAULT_DEPTH, 2, TW_MODERN_MAX_LEVELS, false,
	     "levels of the modern wheel (2..9; default 9 if HZ > 100, else 8)",
	     modern_depth)
TWHEEL_PARAM(slots, TW_HASH_DEFAULT_SLOTS, 2, 1U << TW_HASH_MAX_BITS, true,
	     "slots of the hashed wheels (docs/engines.md says which; a power of two, 2..1048576; default 256)",
	     hash_slots)
TWHEEL_PARAM(max_interval, TW_SIMPLE_DEFAULT_INTERVAL, 2, 1U << TW_HASH_MAX_BITS, true,
	     "the simple engine's MaxInterval: its slots, the first delta it refuses (a power of two, 2..1048576; default 4096)",
	     max_interval)
TWHEEL_PARAM(keep, TW_VEC_KEEP_FIRST, 0, 65536, false,
	     "spare arrays the hash_vec engine keeps of its smallest size (0..65536; default 64) and, at most 4, of each size up to 4 KiB; 0 keeps none: arms into empty slots are then refused with -ENOMEM whenever no spare is about, a test of that path",
	     hash_vec_keep)
