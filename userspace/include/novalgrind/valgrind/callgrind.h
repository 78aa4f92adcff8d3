/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands in for valgrind's <valgrind/callgrind.h> where valgrind is not
 * installed (the Makefile searches this folder after the system's): the
 * client requests the tools use, doing nothing, and never under valgrind.
 * Built so, the tools run natively only; their Ir columns need valgrind.
 */
#ifndef TW_US_NOVALGRIND_CALLGRIND_H
#define TW_US_NOVALGRIND_CALLGRIND_H

#define RUNNING_ON_VALGRIND			0
#define CALLGRIND_DUMP_STATS			do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(what)		do { (void)(what); } while (0)
#define CALLGRIND_ZERO_STATS			do { } while (0)
#define CALLGRIND_TOGGLE_COLLECT		do { } while (0)
#define CALLGRIND_START_INSTRUMENTATION		do { } while (0)
#define CALLGRIND_STOP_INSTRUMENTATION		do { } while (0)

#endif /* TW_US_NOVALGRIND_CALLGRIND_H */
