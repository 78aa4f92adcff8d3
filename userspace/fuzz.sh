#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each, one after the other (one core),
# for FUZZ_SECONDS (default 60). Prints "PASS fuzz-<target>" or "FAIL ...".
#   userspace/fuzz.sh [classic|modern8|modern9|heap|hash|simple|hash_sorted|
#                      straight|ordered|ratas|volt|hash_vec|classic_bounded|trace]...
# New inputs go to $FUZZ_OUT/corpus-<target> (default userspace/build), crashes
# to $FUZZ_OUT/crash-<target>-*; userspace/corpus holds the seeds, or
# userspace/corpus-<target> where there is one (with corpus-<target>.dict).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

secs=${FUZZ_SECONDS:-60}
out=${FUZZ_OUT:-$here/build}
ksrc=$("$here/setup.sh") || exit 1
make -s -C "$here" KSRC="$ksrc" fuzz || { echo "FAIL fuzz-build"; exit 1; }

[ $# -gt 0 ] || set -- classic modern8 modern9 heap hash simple hash_sorted straight ordered \
	ratas volt hash_vec classic_bounded trace
mkdir -p "$out"
fail=0
for t in "$@"; do
	work=$out/corpus-$t
	flog=$out/fuzz-$t.log
	seeds=$here/corpus dict=()
	[ -d "$here/corpus-$t" ] && seeds=$here/corpus-$t
	[ -f "$here/corpus-$t.dict" ] && dict=(-dict="$here/corpus-$t.dict")
	mkdir -p "$work"
	log "fuzzing $t for $secs s (log: $flog)"
	if "$here/build/fuzz-$t" -max_total_time="$secs" -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix="$out/crash-$t-" "$work" "$seeds" \
		>"$flog" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$flog")
		log "fuzz-$t: $runs runs in $secs s"
		echo "PASS fuzz-$t"
	else
		grep -A1 '^twheel-fuzz' "$flog" >&2
		log "fuzz-$t failed: input in $out/crash-$t-*, log $flog"
		echo "FAIL fuzz-$t"
		fail=1
	fi
done
exit $fail
