#!/usr/bin/env bash
# The replay on the traces people really have (replay_check.sh runs it):
# one "PASS <name>" or "FAIL <name>" line per check, exit 1 if any failed.
#  - the 6.18 trace, its per-CPU split as two files, the split
#    concatenated (CPU 0's lines, then CPU 1's) and a directory of
#    cpuN/trace files give the same counts, every engine's and the
#    kernel's; a shuffled copy is refused naming its first line out of
#    order (exit 2), never replayed;
#  - one damaged timeout= and one damaged expires= are named (line,
#    field) on stderr and in every format, left out, the kernel's and
#    modern's expired and pending within one of the clean trace's (adds,
#    mods, dels within two);
#  - twheel-replay with a PATH without valgrind: --no-callgrind runs
#    (exit 0) and nothing is installed; the callgrind pass warns;
#  - --version, --list-engines, -o FILE; json valid on a non-UTF-8 name;
#  - no file of the replay over 700 lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build/replay
fail=0
result() { [ "$1" = 0 ] && echo "PASS $2" || { echo "FAIL $2"; fail=1; }; }
bad() { echo "replay-check: $*" >&2; return 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { "$bin" --no-callgrind -r 1 -f csv "$@" 2>"$tmp/err" | cut -d, -f1-9; }

zcat "$here/traces/host-6.18.tracefs.gz" >"$tmp/h.txt"
grep '\[000\]' "$tmp/h.txt" >"$tmp/c0.txt"
grep '\[001\]' "$tmp/h.txt" >"$tmp/c1.txt"
cat "$tmp/c0.txt" "$tmp/c1.txt" >"$tmp/cat.txt"
mkdir -p "$tmp/dir/cpu0" "$tmp/dir/cpu1"
cp "$tmp/c0.txt" "$tmp/dir/cpu0/trace"
cp "$tmp/c1.txt" "$tmp/dir/cpu1/trace"
run "$tmp/h.txt" >"$tmp/clean.csv"
fails=0
grep -qx 'timer_list,modern,no,yes,3683,1185,586,3063,34' "$tmp/clean.csv" &&
	grep -qx 'timer_list,kernel,,yes,3657,1211,593,3030,34' "$tmp/clean.csv" ||
	{ bad "the 6.18 trace's counts moved"; cat "$tmp/clean.csv" >&2; fails=1; }
for v in "$tmp/c0.txt $tmp/c1.txt" "$tmp/cat.txt" "$tmp/dir"; do
	# shellcheck disable=SC2086
	run $v >"$tmp/v.csv"
	cmp -s "$tmp/clean.csv" "$tmp/v.csv" || { bad "$v: counts differ"; diff "$tmp/clean.csv" "$tmp/v.csv" >&2; fails=1; }
done
"$bin" --no-callgrind -r 1 -e modern -f md "$tmp/cat.txt" 2>/dev/null |
	grep '^# order: 1 file merged by timestamp, each CPU.s lines in their order; [1-9]' >/dev/null ||
	{ bad "cat.txt: no order line"; fails=1; }
result $fails replay-order-split

shuf --random-source="$tmp/h.txt" "$tmp/h.txt" >"$tmp/shuf.txt"
"$bin" --no-callgrind -r 1 -e modern "$tmp/shuf.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
fails=0
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^twheel-replay: $tmp/shuf.txt:[0-9]*: timestamps go backwards" "$tmp/err" ||
	{ bad "shuffled: rc $rc"; cat "$tmp/err" >&2; fails=1; }
result $fails replay-order-shuffled

# one damaged timeout= (125 -> -5), one damaged expires= (a digit)
n=$(grep -n 'timer_start:.*\[timeout=125\]' "$tmp/h.txt" | sed -n 1p | cut -d: -f1)
sed "${n}s/\[timeout=125\]/[timeout=-5]/" "$tmp/h.txt" >"$tmp/bad1.txt"
m=$(grep -n 'timer_start:.*\[timeout=1\] bucket' "$tmp/h.txt" | sed -n 50p | cut -d: -f1)
sed -E "${m}s/expires=([0-9]{4})[0-9]/expires=\19/" "$tmp/h.txt" >"$tmp/bad2.txt"
fails=0
for b in "bad1.txt $n timeout" "bad2.txt $m expires"; do
	set -- $b
	run "$tmp/$1" >"$tmp/d.csv"
	grep -q "^twheel-replay: WARNING: line $2: $3= is [0-9-]* jiffies off the trace's own clock: damaged, the line is left out" "$tmp/err" ||
		{ bad "$1: no warning for line $2 $3"; cat "$tmp/err" >&2; fails=1; }
	# the kernel's rows and modern's: expired and pending within one;
	# adds, mods, dels within two (a re-arm left out makes its cancel a
	# delete and the timer's next re-arm an add)
	paste -d, "$tmp/clean.csv" "$tmp/d.csv" | awk -F, 'NR > 1 && ($2 == "kernel" || $2 == "modern") {
		for (i = 5; i <= 9; i++) { d = $i - $(i + 9); m = i >= 8 ? 1 : 2
			if (d > m || d < -m) bad = 1 } }
		END { exit bad }' || { bad "$1: counts off by more than one"; paste "$tmp/clean.csv" "$tmp/d.csv" >&2; fails=1; }
	for f in md json csv; do
		"$bin" --no-callgrind -r 1 -e modern -f $f "$tmp/$1" 2>/dev/null |
			grep "line $2: $3= is" >/dev/null || { bad "$1: not in $f"; fails=1; }
	done
done
result $fails replay-damaged-field

# no installs: a PATH with make and a compiler but no valgrind, no apt-get
mkdir -p "$tmp/path"
for c in bash make cc gcc as ld readlink dirname env cat rm mkdir sed awk sh ls tr sort; do
	p=$(command -v $c) && ln -sf "$p" "$tmp/path/$c"
done
fails=0
PATH=$tmp/path "$here/twheel-replay" --no-callgrind -r 1 -e modern "$here/traces/oracle.tracefs" \
	>"$tmp/out" 2>"$tmp/err" || { bad "no valgrind: twheel-replay failed"; cat "$tmp/err" >&2; fails=1; }
grep -qi 'apt\|install' "$tmp/err" && { bad "no valgrind: it tried to install"; fails=1; }
grep -q '^| kernel' "$tmp/out" || { bad "no valgrind: no table"; fails=1; }
PATH=$tmp/path "$here/twheel-replay" -r 1 -e modern "$here/traces/oracle.tracefs" >/dev/null 2>"$tmp/err"
grep -q 'WARNING: the callgrind pass failed (valgrind is not installed)' "$tmp/err" ||
	{ bad "no valgrind: the callgrind pass did not say so"; cat "$tmp/err" >&2; fails=1; }
result $fails replay-no-install

fails=0
"$bin" --version | grep -qx 'twheel-replay [0-9.]*' || { bad "--version"; fails=1; }
[ "$("$bin" --list-engines | wc -l)" = "$("$here/../../scripts/engines.sh" | wc -w)" ] ||
	{ bad "--list-engines"; fails=1; }
"$bin" --no-callgrind -r 1 -e modern -o "$tmp/o.md" "$here/traces/oracle.tracefs" >"$tmp/out" &&
	[ ! -s "$tmp/out" ] && grep -q '^| kernel' "$tmp/o.md" || { bad "-o FILE"; fails=1; }
"$bin" --no-callgrind -r 1 -e modern -f json -n "$(printf 'n\xff\xfe\x01')" \
	"$here/traces/oracle.tracefs" | python3 -c 'import json, sys; json.load(sys.stdin)' ||
	{ bad "json on a non-UTF-8 name"; fails=1; }
result $fails replay-conventions

fails=0
for f in "$here"/*.c "$here"/*.h "$here"/*.sh; do
	[ "$(wc -l <"$f")" -le 700 ] || { bad "$f: over 700 lines"; fails=1; }
done
result $fails replay-file-sizes
exit $fail
