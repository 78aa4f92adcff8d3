#!/usr/bin/env bash
# The user-space checks, short: build, each fuzz target for FUZZ_SECONDS
# (10 s each, two at a time), a tiny benchmark run that only has to produce
# its table, the trace replay on a trace of each form and on bad lines (replay/replay_check.sh).
# One "PASS <name>" or "FAIL <name>" line per check; exits non-zero if any
# failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

# The registry's engines (scripts/engines.sh), as a regex alternation.
engines=$("$here/../scripts/engines.sh") || exit 2
alt() { echo "$*" | tr ' ' '|'; }
set -- $engines
nr_engines=$#

fail=0
result() {
	if [ "$1" -eq 0 ]; then
		echo "PASS $2"
	else
		echo "FAIL $2"
		fail=1
	fi
}

ksrc=$("$here/setup.sh")
result $? userspace-setup
[ $fail -eq 0 ] || exit 1
make -s -j"$TWHEEL_JOBS" -C "$here" KSRC="$ksrc" all >&2
result $? userspace-build
[ $fail -eq 0 ] || exit 1
"$here/build/rbtree_test" >&2; result $? rbtree-selftest

FUZZ_SECONDS=${FUZZ_SECONDS:-10} "$here/fuzz/fuzz.sh" || fail=1

cache="classic hash hash_vec"
table=$(BENCH_SIZES=1000 BENCH_JIFFIES=256 BENCH_REPEAT=1 CG_JIFFIES=4 \
	BENCH_ENGINES="$engines" CACHE_ENGINES="$cache" "$here/bench/bench.sh")
rc=$?
printf '%s\n' "$table" >&2
# A row per engine of the registry, every cell filled in; then the cache
# table's rows ($cache) once more.
set -- $cache
rows=$(printf '%s\n' "$table" | grep -cE "^\| ($(alt $engines)) \| 1000 ")
[ $rc -eq 0 ] && [ "$rows" -eq $((nr_engines + $#)) ] && ! printf '%s\n' "$table" | grep -q '| - |'
result $? bench-user-tiny

table=$(STREAM_SIZES=1000 STREAM_MIXES="u s" STREAM_OPS=2000 STREAM_REPEAT=1 \
	STREAM_JOBS=$TWHEEL_JOBS "$here/bench/stream.sh")
rc=$?
printf '%s\n' "$table" >&2
# Its default engines (those with fast paths and the reference) on two
# mixes: two rows each, every cell filled in.
set -- $("$here/../scripts/engines.sh" --fast) reference
rows=$(printf '%s\n' "$table" | grep -cE "^\| ($(alt "$@")) \| [us] \| 1000 ")
[ $rc -eq 0 ] && [ "$rows" -eq $((2 * $#)) ] && ! printf '%s\n' "$table" | grep -q '| - |'
result $? stream-user-tiny

# The hash engines on the short delays' stream (the long ones make a
# hashed wheel of 256 slots visit each timer thousands of times).
table=$(STREAM_SIZES=1000 STREAM_MIXES=s STREAM_ENGINES="hash hash_vec" STREAM_OPS=2000 \
	STREAM_REPEAT=1 "$here/bench/stream.sh")
rc=$?
printf '%s\n' "$table" >&2
rows=$(printf '%s\n' "$table" | grep -cE '^\| (hash|hash_vec) \| s \| 1000 ')
[ $rc -eq 0 ] && [ "$rows" -eq 2 ] && ! printf '%s\n' "$table" | grep -q '| - |'
result $? stream-user-hash-tiny
"$here/replay/replay_check.sh" || fail=1

exit $fail
