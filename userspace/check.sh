#!/usr/bin/env bash
# The user-space checks, short: build, each fuzz target for FUZZ_SECONDS
# (20 s each), a tiny benchmark run that only has to produce its table.
# One "PASS <name>" or "FAIL <name>" line per check; exits non-zero if any
# failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

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
make -s -C "$here" KSRC="$ksrc" all >&2
result $? userspace-build
[ $fail -eq 0 ] || exit 1

FUZZ_SECONDS=${FUZZ_SECONDS:-20} "$here/fuzz.sh" || fail=1

table=$(BENCH_SIZES=1000 BENCH_JIFFIES=256 BENCH_REPEAT=1 CG_JIFFIES=4 \
	"$here/bench.sh")
rc=$?
printf '%s\n' "$table" >&2
# Ten engine rows, every cell filled in.
rows=$(printf '%s\n' "$table" | grep -cE '^\| (classic|modern|reference|heap|hash|simple|hash_sorted|straight|ordered|classic_bounded) \| 1000 ')
[ $rc -eq 0 ] && [ "$rows" -eq 10 ] && ! printf '%s\n' "$table" | grep -q '| - |'
result $? bench-user-tiny

table=$(STREAM_SIZES=1000 STREAM_MIXES="u s" STREAM_OPS=2000 STREAM_REPEAT=1 \
	"$here/stream.sh")
rc=$?
printf '%s\n' "$table" >&2
# Eight rows (four engines, two mixes), every cell filled in.
rows=$(printf '%s\n' "$table" | grep -cE '^\| (classic|modern|reference|classic_bounded) \| [us] \| 1000 ')
[ $rc -eq 0 ] && [ "$rows" -eq 8 ] && ! printf '%s\n' "$table" | grep -q '| - |'
result $? stream-user-tiny

exit $fail
