#!/usr/bin/env bash
# Writes fuzz-input's seeds (fuzz_input.c) into fuzz/corpus-input/, from
# the shipped traces (replay/traces/): the head of each, and damaged
# variants of the 6.18 trace's, as people have them. A NUL byte
# separates the files of one input.
#   userspace/fuzz/corpus-input.sh      (the seeds are in git: run it
#                                        only when the traces change)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
traces=$here/../replay/traces
out=$here/corpus-input
lines=300
rm -rf "$out"
mkdir -p "$out"
for f in "$traces"/*; do
	name=$(basename "$f")
	name=${name%.gz}
	gzip -cdf "$f" | awk -v n=$lines 'NR <= n' >"$out/${name%.*}-${name##*.}"
done
h=$out/host-6.18-tracefs
grep '\[000\]' "$h" >"$out/6.18-cpu0" || true
grep '\[001\]' "$h" >"$out/6.18-cpu1" || true
# two files, one per CPU
{ cat "$out/6.18-cpu0"; printf '\0'; cat "$out/6.18-cpu1"; } >"$out/6.18-split"
# one CPU's lines, then the other's: merged
cat "$out/6.18-cpu0" "$out/6.18-cpu1" >"$out/6.18-cat"
rm "$out/6.18-cpu0" "$out/6.18-cpu1"
# every line backwards: refused
head -n 60 "$h" | tac >"$out/6.18-reversed"
# cut short in the middle of a line
head -c 20000 "$h" >"$out/6.18-cut"
# a timeout, an expires and a now damaged, a field not a number: on the
# timer_list lines of the trace's first 2 s (a second at least tells the
# clock the damage is told against), from line 400 on
gzip -cd "$traces/host-6.18.tracefs.gz" | grep -E ' timer_(start|cancel|expire_entry): ' |
	awk 'NR <= 1000' >"$out/6.18-timers"
sed '400,$ { 0,/\[timeout=[0-9]*\]/s//[timeout=-500]/ }' "$out/6.18-timers" >"$out/6.18-timeout"
sed '400,$ { 0,/ timer_start: \(.*\) expires=\([0-9]*\)[0-8]\([0-9][0-9][0-9]\) /s// timer_start: \1 expires=\29\3 / }' \
	"$out/6.18-timers" >"$out/6.18-expires"
sed '400,$ { 0,/ now=\([0-9]*\)[0-9][0-9] /s// now=\199 / }' "$out/6.18-timers" >"$out/6.18-now"
sed '400,$ { 0,/\[timeout=[0-9]*\]/s//[timeout=1x]/ }' "$out/6.18-timers" >"$out/6.18-nan"
# the same lines twice, as two files
{ cat "$h"; printf '\0'; cat "$h"; } >"$out/6.18-twice"
ls "$out" | wc -l
