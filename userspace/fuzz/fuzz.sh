#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for FUZZ_SECONDS (default 60),
# FUZZ_JOBS at a time (default: the CPUs, at most 2; each target on one core).
# Prints "PASS fuzz-<target>" or "FAIL ..." for each, in the order given.
#   userspace/fuzz/fuzz.sh [TARGET]...
# TARGET: one per engine of the registry, as fuzz/targets.sh prints them
# (classic, modern8, modern9, reference, heap, ...), trace or input; default: all.
# New inputs go to $FUZZ_OUT/corpus-<target> (default userspace/build), crashes
# to $FUZZ_OUT/crash-<target>-*; userspace/fuzz/corpus holds the seeds, or
# userspace/fuzz/corpus-<target> where there is one (with corpus-<target>.dict).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/../scripts/lib.sh"

secs=${FUZZ_SECONDS:-60}
out=${FUZZ_OUT:-$top/build}
ksrc=$("$top/setup.sh") || exit 1
make -s -C "$top" KSRC="$ksrc" fuzz || { echo "FAIL fuzz-build"; exit 1; }

[ $# -gt 0 ] || set -- $("$here/targets.sh") trace input
mkdir -p "$out"
jobs=${FUZZ_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -le 2 ] || jobs=2

# fuzz_one TARGET: one run; its verdict line into $out/verdict-TARGET
fuzz_one() {
	local t=$1 work=$out/corpus-$1 flog=$out/fuzz-$1.log seeds=$here/corpus dict=() runs
	[ -d "$here/corpus-$t" ] && seeds=$here/corpus-$t
	[ -f "$here/corpus-$t.dict" ] && dict=(-dict="$here/corpus-$t.dict")
	mkdir -p "$work"
	log "fuzzing $t for $secs s (log: $flog)"
	if "$top/build/fuzz-$t" -max_total_time="$secs" -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix="$out/crash-$t-" "$work" "$seeds" \
		>"$flog" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$flog")
		log "fuzz-$t: $runs runs in $secs s"
		echo "PASS fuzz-$t" >"$out/verdict-$t"
	else
		grep -A1 '^twheel-fuzz' "$flog" >&2
		log "fuzz-$t failed: input in $out/crash-$t-*, log $flog"
		echo "FAIL fuzz-$t" >"$out/verdict-$t"
	fi
}

for t in "$@"; do
	rm -f "$out/verdict-$t"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	fuzz_one "$t" &
done
wait
fail=0
for t in "$@"; do
	if [ -s "$out/verdict-$t" ]; then
		cat "$out/verdict-$t"
	else
		echo "FAIL fuzz-$t"
	fi
	grep -q '^PASS' "$out/verdict-$t" 2>/dev/null || fail=1
done
exit $fail
