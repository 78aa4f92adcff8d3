#!/usr/bin/env bash
# The replay's checks (userspace/check.sh runs them): the traces recorded in
# the guest in each of the three text forms (tracefs' from both trace and
# trace_pipe), and a hand-made file of bad lines, through userspace/replay/replay.sh. One "PASS <name>" or "FAIL <name>" line
# per check; exits non-zero if any failed.
#  - the events parsed per type equal a count made here with grep, every
#    line is of the form recorded, none is malformed;
#  - every engine's counters add up in the table (adds = dels + expired +
#    pending), each start is one add or mod, every exact engine ran every
#    timer at exactly its due tick (late max 0, none early);
#  - on the shipped default trace, every engine's Ir/op (callgrind) and
#    ns/op are there;
#  - the form and CPU of a line are told whatever columns the options
#    print (tracefs without irq-info, trace-cmd 3.3's flags, its -l);
#  - edges: 2^64 - 1 jiffies, wall-clock and KTIME_MAX hrtimers;
#  - an hrtimer whose now runs ahead (CLOCK_BOOTTIME) is set aside; 32-bit
#    jiffies wrapping are named;
#  - a .gz or .xz cut short is replayed as far as it goes, with a warning;
#    gzip and xz are told by their first bytes, whatever the name;
#  - the traced machine's HZ is told by the trace (250 for the shipped
#    ones, 1000 for a hand-made trace and a shipped one made HZ 1000), the
#    aged-out counts follow it; none is told of a trace too short or at an
#    HZ not usual; REPLAY_HZ sets it, and junk in it is refused;
#  - make replay takes any path (spaces, '&', '|', quotes, '$');
#  - the bad lines are reported with their line numbers and reasons;
#  - lost events are counted in each form the tools print them; stack
#    trace lines are counted apart, not taken as malformed;
#  - a file with no timer event (empty, gzip, trace.dat, headers only) and
#    an unknown engine are refused, saying why;
#  - each trace passes the fuzz target's checks, under ASan and UBSan;
#  - the placement oracle: exact agree/explained/disagree counts on every
#    shipped trace with the kernel's bucket_expiry (none disagrees), on
#    the 6.18 trace modern's lateness percentiles the kernel's, one
#    disagreement made on purpose reported with its fields in every
#    format, the idx alone checked on a trace without bucket_expiry (a
#    kernel before 6.8), "not checked" on one without idx= and cpu=, the
#    base's next_expiry and clock kept as the kernel does, the wheel's
#    depth following the traced machine's HZ.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/../scripts/lib.sh"

# the registry's engines, and of them the exact ones: every engine
# replays timer_list
exact=$("$top/../scripts/engines.sh" --exact) || exit 2
set -- $("$top/../scripts/engines.sh") || exit 2
engines=$#
fail=0
# result STATUS NAME
result() { [ "$1" = 0 ] && echo "PASS $2" || { echo "FAIL $2"; fail=1; }; }
bad() { echo "replay-check: $*" >&2; return 1; }
ksrc=$("$top/setup.sh") && make -s -C "$top" KSRC="$ksrc" build/fuzz-trace >&2 ||
	{ echo "FAIL replay-build"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$top/build/replay

# rows TABLE COL...: the rows of the table under "## TABLE:" as the named
# columns' cells joined by "|", the engine first.
rows() {
	local t=$1 w
	shift
	w=$(IFS='|'; echo "$*")
	awk -F'|' -v t="## $t:" -v want="$w" '
		function trim(s) { gsub(/^ +| +$/, "", s); return s }
		index($0, t) == 1 { on = 1; n = 0; next }
		/^## / { on = 0 }
		!on || !/^\|/ || /^\|---/ { next }
		!n { for (i = 2; i < NF; i++) c[trim($i)] = i; n = split(want, k, "|"); next }
		{ l = trim($2); for (j = 1; j <= n; j++) l = l "|" trim($c[k[j]]); print l }' "$out"
}
# late TABLE: its late-max column, in the stream's unit
late() { [ "$1" = timer_list ] && echo "late max (jiffies)" || echo "late max (us)"; }
# starts TABLE: the starts its heading counts
starts() { sed -n "s/^## $1: [0-9]* operations, \([0-9]*\) starts.*/\1/p" "$out"; }

check_tables() {
	local t e adds mods dels exp pend ref late early ok n s
	for t in timer_list hrtimer; do
		s=$(starts $t)
		n=0
		while IFS='|' read -r e adds mods dels exp pend ref late early ok; do
			n=$((n + 1))
			[ "$e" = "kernel (trace)" ] && {
				[ $((adds + mods)) = "$s" ] || bad "$t kernel: $adds adds + $mods re-arms != $s starts"
				continue
			}
			[ "$ok" = ok ] || bad "$t $e: counters $ok"
			[ $((adds - dels - exp - pend)) = 0 ] || bad "$t $e: adds $adds != dels $dels + expired $exp + pending $pend"
			[ "$ref" != 0 ] || [ $((adds + mods)) = "$s" ] || bad "$t $e: $adds adds + $mods mods != $s starts"
			case " $exact " in *" $e "*)
				[ "$late" = 0 ] || [ "$late" = 0.000 ] && [ "$early" = 0 ] || bad "$t $e (exact): late max $late, early $early"
			esac
		done < <(rows $t adds mods dels expired pending refused "$(late $t)" early counters)
		[ "$t" = timer_list ] && [ $n -ne $((engines + 1)) ] && bad "$t: $n rows, not $engines engines and the kernel"
		[ "$t" = hrtimer ] && [ $n -ne 3 ] && bad "$t: $n rows, not heap, reference and the kernel"
	done
	return 0
}

# check_form NAME FORM FILE [callgrind]: a recorded trace in FORM
check_form() {
	local what=$1 form=$2 file=$3 cg=${4:-0} name total=0 n got fails=0
	out=$tmp/$what.out
	gzip -dc "$file" >"$tmp/$what.txt"
	REPLAY_CALLGRIND=$cg REPLAY_REPEAT=1 "$here/replay.sh" "$file" >"$out" 2>"$tmp/$what.err" ||
		{ cat "$tmp/$what.err" >&2; bad "replay.sh $file failed"; result 1 "replay-$what"; return; }
	for name in timer_start timer_cancel timer_expire_entry hrtimer_start hrtimer_cancel \
		hrtimer_expire_entry; do
		n=$(grep -cE "[ :]$name: " "$tmp/$what.txt")
		got=$(sed -n "s/^# events:.* $name=\([0-9]*\).*/\1/p" "$out")
		[ "$got" = "$n" ] || { bad "$what: $got $name parsed, grep counts $n"; fails=1; }
		total=$((total + n))
	done
	[ "$total" -gt 1000 ] || { bad "$what: only $total events"; fails=1; }
	grep -q "^# forms:.* $form=$total\( \|$\)" "$out" || { bad "$what: not every event in the $form form: $(grep '^# forms' "$out")"; fails=1; }
	grep -q "^# lines [0-9]*: events $total, .* malformed 0, lost 0 events" "$out" ||
		{ bad "$what: $(grep '^# lines' "$out")"; fails=1; }
	grep -q "^# HZ 250, as the trace tells: 99\.[0-9] % of its [1-9][0-9]* timer_list times" "$out" ||
		{ bad "$what: $(grep '^# HZ' "$out")"; fails=1; }
	check_tables >&2 2>"$tmp/$what.bad" && [ ! -s "$tmp/$what.bad" ] || { cat "$tmp/$what.bad" >&2; fails=1; }
	# real traffic: timers expired, and the modern wheel ran some late
	[ "$(rows timer_list expired | awk -F'|' '$1 == "classic" { print $2 }')" -gt 100 ] ||
		{ bad "$what: next to no expiries"; fails=1; }
	[ "$(rows timer_list "$(late timer_list)" | awk -F'|' '$1 == "modern" { print $2 }')" -gt 0 ] ||
		{ bad "$what: the modern wheel never late"; fails=1; }
	if [ "$cg" = 1 ]; then
		rows timer_list "Ir/op" "ns/op" >"$tmp/ir"
		rows hrtimer "Ir/op" "ns/op" >>"$tmp/ir"
		[ "$(grep -cE '^[a-z_]+\|[0-9]+\.[0-9]\|[0-9]+\.[0-9]$' "$tmp/ir")" = $((engines + 2)) ] ||
			{ bad "$what: Ir/op or ns/op missing: $(tr '\n' ' ' <"$tmp/ir")"; fails=1; }
	fi
	# the whole trace through the fuzz target: ASan and UBSan, its checks
	"$top/build/fuzz-trace" "$tmp/$what.txt" >"$tmp/$what.asan" 2>&1 ||
		{ tail -n 20 "$tmp/$what.asan" >&2; bad "$what: fuzz-trace on the trace failed"; fails=1; }
	cat "$out" >&2
	result $fails "replay-$what"
}

check_form tracefs tracefs "$here/traces/guest-tcp.tracefs.gz" 1
check_form trace_pipe tracefs "$here/traces/guest-tcp.trace_pipe.gz"
check_form trace-cmd trace-cmd "$here/traces/guest-tcp.trace-cmd.gz"
check_form perf perf "$here/traces/guest-tcp.perf.gz"

# The bad lines: each reported, with its number and reason.
out=$tmp/malformed.out
fails=0
REPLAY_CALLGRIND=0 REPLAY_REPEAT=1 "$here/replay.sh" "$here/traces/malformed.tracefs" >"$out" 2>&2 || fails=1
cat "$out" >&2
want="# malformed lines (7): 6 (a field is missing) 7 (field 'timer' is not a number) 9 (not an event line) 13 (field 'now' is not a number) 15 (cpu out of range) 16 (line too long) 18 (truncated: no end of line)"
grep -qxF "$want" "$out" || { bad "malformed: not $want"; fails=1; }
grep -qxF "# other-event lines (2): 5 14" "$out" || { bad "malformed: other-event lines"; fails=1; }
grep -qxF "# lines 18: events 5, blank or header 3, other events 2, stack-trace 0, malformed 7, lost 42 events on 1 lines" "$out" ||
	{ bad "malformed: line counts"; fails=1; }
grep -qxF "# events: timer_start=1 timer_cancel=1 timer_expire_entry=1 hrtimer_start=1 hrtimer_cancel=0 hrtimer_expire_entry=1" "$out" ||
	{ bad "malformed: event counts"; fails=1; }
# the one timer expired in the kernel on time, the hrtimer 100 us late
[ "$(rows timer_list expired "$(late timer_list)" | grep '^kernel')" = "kernel (trace)|1|0" ] ||
	{ bad "malformed: the kernel's timer_list expiry"; fails=1; }
[ "$(rows hrtimer expired "$(late hrtimer)" | grep '^kernel')" = "kernel (trace)|1|100.000" ] ||
	{ bad "malformed: the kernel's hrtimer expiry"; fails=1; }
check_tables 2>"$tmp/malformed.bad" && [ ! -s "$tmp/malformed.bad" ] || { cat "$tmp/malformed.bad" >&2; fails=1; }
result $fails replay-malformed-lines

# expect NAME FILE LINE...: replay FILE on the classic wheel and the heap
# into $tmp/NAME.out ($out); each LINE must be a line of it, else fails=1.
expect() {
	local what=$1 file=$2 want
	shift 2
	out=$tmp/$what.out
	"$top/build/replay" -r 1 -e heap,classic "$file" >"$out" 2>&2 || { bad "$what: replay failed"; fails=1; }
	cat "$out" >&2
	for want in "$@"; do
		grep -qxF -- "$want" "$out" || { bad "$what: not $want"; fails=1; }
	done
}

# Lost events, each way the tools say it: counted, a count or not.
fails=0
expect lost "$here/traces/lost.tracefs" \
	"# lines 17: events 4, blank or header 7, other events 0, stack-trace 0, malformed 2, lost 42 events on 4 lines (2 of them an unknown number)" \
	"# overwritten: 1000 events (the header's entries-written less entries-in-buffer: the ring buffer was full)" \
	"# malformed lines (2): 16 (not an event line) 17 (not an event line)"
grep -q "^# WARNING: events were lost" "$out" || { bad "lost: no warning"; fails=1; }
result $fails replay-lost-events

# Stack traces (perf script -g, tracefs' stacktrace): counted, not malformed.
fails=0
expect stack "$here/traces/stack.txt" \
	"# lines 16: events 4, blank or header 1, other events 0, stack-trace 9, malformed 2, lost 0 events on 0 lines" \
	"# HZ 250, assumed: the trace cannot tell: its 3 timer_list times with a timestamp in seconds span 0.040 s, 1 s needed; REPLAY_HZ=N sets it; timer_list timers aged out 2 s (500 jiffies) + timeout/8 past their expiry" \
	"# malformed lines (2): 12 (not an event line) 13 (not an event line)"
[ "$(rows timer_list expired "$(late timer_list)" | grep '^kernel')" = "kernel (trace)|1|0" ] ||
	{ bad "stack: the kernel's timer_list expiry"; fails=1; }
result $fails replay-stack-lines

# variant NAME SRC FORM SED: the trace SRC with its prefix rewritten by SED
# as another tool or option prints it is read in FORM, each event on its
# CPU, and the kernel's rows are SRC's (its deferrable count too).
variant() {
	local what=$1 src=$2 form=$3 expr=$4 k0 k1 fails=0
	gzip -dc "$src" | sed -E "$expr" >"$tmp/$what.txt"
	"$top/build/replay" -r 1 -e heap "$tmp/$what.txt" >"$tmp/$what.out" 2>&2 || fails=1
	gzip -dc "$src" | "$top/build/replay" -r 1 -e heap - >"$tmp/$what.src" 2>&2 || fails=1
	cmp -s "$tmp/$what.txt" <(gzip -dc "$src") && { bad "$what: sed changed nothing"; fails=1; }
	n=$(grep -c ': [a-z_]*timer_[a-z_]*: ' "$tmp/$what.txt")
	grep -qx "# forms:.* $form=$n\( .*\)\?" "$tmp/$what.out" ||
		{ bad "$what: not all $n in $form: $(grep '^# forms' "$tmp/$what.out")"; fails=1; }
	k0=$(grep '^# kernel:' "$tmp/$what.src")
	k1=$(grep '^# kernel:' "$tmp/$what.out")
	[ -n "$k0" ] && [ "$k0" = "$k1" ] || { bad "$what: kernel rows $k1, not $k0"; fails=1; }
	result $fails "replay-form-$what"
}
traces=$here/traces
# tracefs with options/irq-info off: no flags column, still tracefs
variant noirq "$traces/guest-tcp.tracefs.gz" tracefs 's/^([^[]*\[[0-9]+\]) [^ ]+ /\1 /'
# trace-cmd report from 3.3 on: a flags column, still trace-cmd
variant tc33 "$traces/guest-tcp.trace-cmd.gz" trace-cmd 's/^([^[]*\[[0-9]+\]) /\1 d..1. /'
# trace-cmd report -l: the CPU in the latency column, "0d..1."
variant tclat "$traces/guest-tcp.trace-cmd.gz" trace-cmd 's/^([^[]*) \[0*([0-9]+)\] /\1 \2d..1. /'
# the tracefs form's deferrable timers are counted, trace-cmd's are not
grep -q "^# kernel: .* deferrable [1-9]" "$tmp/noirq.out" && grep -q "^# kernel: .* deferrable unknown (the trace.s form does not show the timers. flags)," "$tmp/tc33.out"
result $? replay-form-deferrable

# make replay TRACE= a path with a space, '&', '|', a quote and '$' in it:
# replayed, and named in the header as it is.
odd="$tmp/a b&c|d's \$HOME.tracefs"
cp "$here/traces/stack.txt" "$odd"
REPLAY_CALLGRIND=0 REPLAY_ENGINES=heap REPLAY_REPEAT=1 make -s -C "$top/.." replay TRACE="$odd" \
	>"$tmp/odd.out" 2>"$tmp/odd.err" && grep -qxF "# replay of $odd" "$tmp/odd.out" &&
	grep -q "^# lines 16: events 4," "$tmp/odd.out"
rc=$?
[ $rc = 0 ] || { cat "$tmp/odd.err" >&2; head -n 3 "$tmp/odd.out" >&2; bad "make replay TRACE=\"$odd\" failed"; }
result $rc replay-odd-path

# A CLOCK_BOOTTIME hrtimer after a suspend (its now an hour ahead of the
# trace's clock) is set aside, and the stream's clock does not jump; a
# 32-bit kernel's jiffies wrapping at 2^32 are named as such.
fails=0
expect boottime "$here/traces/boottime.tracefs" "# WARNING: 1 hrtimers ran on a clock up to 3600.000 s ahead of the trace's own (CLOCK_BOOTTIME after a suspend, most likely): their events are set aside (\"another clock\" below)" \
	"## hrtimer: 10 operations, 6 starts, ticks in ns, over 4000105 ns" \
	"# kernel: adds 6, re-arms 0 (0 with no cancel), deletes 0, expiries 4 (4 with no cancel), pending at the end 2, aged out 0, cancels and expiries of timers started before the trace 0, deferrable 0, armed in the past 0, wall-clock base 0, never to expire 0, another clock 4"
printf '%s\n' \
	'          <idle>-0       [000] d..1.   290.000000: timer_start: timer=c1801000 function=a expires=4294967290 [timeout=10] cpu=0 idx=10 flags=' \
	'          <idle>-0       [000] d..1.   290.000100: timer_start: timer=c1802000 function=b expires=200 [timeout=206] cpu=0 idx=10 flags=' \
	'          <idle>-0       [000] d.s1.   290.040000: timer_expire_entry: timer=c1801000 function=a now=4294967290 baseclk=4294967290' \
	'          <idle>-0       [000] d.s1.   290.900000: timer_expire_entry: timer=c1802000 function=b now=200 baseclk=200' >"$tmp/wrap32.txt"
expect wrap32 "$tmp/wrap32.txt" "# WARNING: 2 timer_list lines have jiffies that wrapped at 2^32, as a 32-bit kernel's do: not supported, they are malformed" \
	"# malformed lines (2): 2 (jiffies wrapped at 2^32 (a 32-bit kernel: not supported)) 4 (jiffies wrapped at 2^32 (a 32-bit kernel: not supported))"
result $fails replay-other-clocks

# A .gz and an .xz cut short: replayed as far as they go, with a warning,
# their last line malformed as a plain file's cut short is.
fails=0
head -c 3000 "$here/traces/guest-tcp.trace_pipe.gz" >"$tmp/cut.gz"
gzip -dc "$here/traces/guest-tcp.trace_pipe.gz" | xz -c | head -c 3000 >"$tmp/cut.xz"
cp "$tmp/cut.gz" "$tmp/cut-gz.txt"
for f in "$tmp/cut.gz" "$tmp/cut.xz" "$tmp/cut-gz.txt"; do
	REPLAY_CALLGRIND=0 REPLAY_ENGINES=heap REPLAY_REPEAT=1 "$here/replay.sh" "$f" >"$tmp/cut.out" 2>"$tmp/cut.err" ||
		{ cat "$tmp/cut.err" >&2; bad "$f: replay.sh failed"; fails=1; continue; }
	grep -q "^# WARNING: $f ended early or is damaged (.*): replaying the [1-9][0-9]* bytes" "$tmp/cut.out" ||
		{ bad "$f: no warning"; fails=1; }
	grep -q "^# lines [0-9]*: events [1-9][0-9]*, .* malformed 1," "$tmp/cut.out" &&
		grep -q "^# malformed lines (1): [0-9]* (truncated: no end of line)" "$tmp/cut.out" ||
		{ bad "$f: $(grep '^# lines' "$tmp/cut.out")"; fails=1; }
done
result $fails replay-cut-short

# Edges: the largest 64-bit jiffies, hrtimers on a wall-clock base (a
# cancel of one too), restarted at KTIME_MAX (never to expire), events of
# timers started before the trace counted as events.
fails=0
expect edges "$here/traces/edges.tracefs" "# lines 17: events 14, blank or header 2, other events 0, stack-trace 0, malformed 1, lost 0 events on 0 lines" \
	"# malformed lines (1): 17 (field 'now' is not a number)" \
	"# kernel: adds 1, re-arms 0 (0 with no cancel), deletes 0, expiries 1 (0 with no cancel), pending at the end 0, aged out 0, cancels and expiries of timers started before the trace 2, deferrable 0, armed in the past 0, wall-clock base 0, never to expire 0, another clock 0" \
	"# kernel: adds 2, re-arms 0 (0 with no cancel), deletes 1, expiries 1 (1 with no cancel), pending at the end 0, aged out 0, cancels and expiries of timers started before the trace 1, deferrable 0, armed in the past 0, wall-clock base 3, never to expire 1, another clock 0"
[ "$( (rows timer_list counters; rows hrtimer counters) | tr '\n' ' ')" = "classic|ok heap|ok kernel (trace)|- heap|ok kernel (trace)|- " ] ||
	{ bad "edges: counters"; fails=1; }
# ns/op is a figure above 0 or "-", never a clamped "0.0"
rows timer_list "ns/op" | grep -v '^kernel' | grep -vqE '\|(-|[0-9]*[1-9][0-9]*\.[0-9]|0\.[1-9])$' &&
	{ bad "edges: ns/op: $(rows timer_list "ns/op" | tr '\n' ' ')"; fails=1; }
result $fails replay-edges

# replay.sh tells gzip and xz by their first bytes, whatever the name:
# gzip named .txt, plain text named .gz, xz named .gz and .log, gzip on
# standard input replay as the plain text does (the same header lines:
# HZ, lines, events, forms, the kernel's rows).
fails=0
# heads FILE OUT: FILE through replay.sh (heap), its header lines into OUT
heads() {
	REPLAY_CALLGRIND=0 REPLAY_ENGINES=heap REPLAY_REPEAT=1 "$here/replay.sh" "$1" 2>"$tmp/heads.err" |
		grep '^# ' | grep -v '^# replay of ' >"$2"
	[ -s "$2" ] || { cat "$tmp/heads.err" >&2; bad "$1: replay.sh failed"; return 1; }
}
cp "$here/traces/guest-tcp.trace_pipe.gz" "$tmp/gz-named.txt"
cp "$tmp/trace_pipe.txt" "$tmp/plain-named.gz"
xz -0 -c "$tmp/trace_pipe.txt" >"$tmp/xz-named.gz"
cp "$tmp/xz-named.gz" "$tmp/xz-named.log"
heads "$tmp/trace_pipe.txt" "$tmp/plain.heads" || fails=1
grep -q "^# kernel: adds [1-9]" "$tmp/plain.heads" || { bad "plain: no kernel row"; fails=1; }
for f in "$tmp/gz-named.txt" "$tmp/plain-named.gz" "$tmp/xz-named.gz" "$tmp/xz-named.log" -; do
	heads "$f" "$tmp/named.heads" <"$here/traces/guest-tcp.trace_pipe.gz" || { fails=1; continue; }
	cmp -s "$tmp/plain.heads" "$tmp/named.heads" ||
		{ diff "$tmp/plain.heads" "$tmp/named.heads" >&2; bad "$f: not the plain text's counts"; fails=1; }
done
result $fails replay-compressed-by-content

# The traced machine's HZ, told by the trace. The hand-made HZ 1000 trace
# (traces/hz1000.tracefs) ages out after 2 s (2000 jiffies) the one timer
# 3.85 s past its expiry; with REPLAY_HZ=250 (0.5 s) also the one 1.55 s
# past at the end and the one restarted 1.15 s past (else a re-arm with no
# cancel).
fails=0
told="as the trace tells: 100.0 % of its 86 timer_list times (jiffies against timestamps) fit 1000 a second within 20 ms, over 4.0 s"
expect hz1000 "$here/traces/hz1000.tracefs" \
	"# HZ 1000, $told; timer_list timers aged out 2 s (2000 jiffies) + timeout/8 past their expiry" \
	"# kernel: adds 44, re-arms 1 (1 with no cancel), deletes 0, expiries 41 (0 with no cancel), pending at the end 2, aged out 1, cancels and expiries of timers started before the trace 0, deferrable 0, armed in the past 0, wall-clock base 0, never to expire 0, another clock 0"
REPLAY_HZ=250 expect hz250 "$here/traces/hz1000.tracefs" \
	"# HZ 250, as REPLAY_HZ sets (${told#as }); timer_list timers aged out 2 s (500 jiffies) + timeout/8 past their expiry" \
	"# kernel: adds 45, re-arms 0 (0 with no cancel), deletes 0, expiries 41 (0 with no cancel), pending at the end 1, aged out 3, cancels and expiries of timers started before the trace 0, deferrable 0, armed in the past 0, wall-clock base 0, never to expire 0, another clock 0"
# jiffies F: the HZ 250 trace on stdin as an HZ 250 * F kernel's: F times
# the jiffies since boot (INITIAL_JIFFIES is 2^32 - 300 * HZ), timestamps
# as they are
jiffies() {
	awk -v f="$1" '
		function scale(key,   v) {
			if (!match(line, "[ []" key "=-?[0-9]+"))
				return
			v = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
			v = key == "timeout" ? f * v : 4294967296 - 75000 * f + f * (v - 4294892296)
			line = substr(line, 1, RSTART + length(key) + 1) sprintf("%.0f", v) \
				substr(line, RSTART + RLENGTH)
		}
		/ timer_(start|expire_entry): / {
			line = $0
			scale("expires"); scale("timeout"); scale("bucket_expiry")
			scale("now"); scale("baseclk")
			$0 = line
		}
		{ print }'
}
# The shipped trace_pipe trace made HZ 1000: told 1000, and its kernel rows
# are the HZ 250 ones (its aging scales with its jiffies). Made HZ 500: no
# usual HZ fits it, 250 is taken and the header says so.
jiffies 4 <"$tmp/trace_pipe.txt" >"$tmp/x4.txt"
jiffies 2 <"$tmp/trace_pipe.txt" >"$tmp/x2.txt"
cmp -s "$tmp/x4.txt" "$tmp/trace_pipe.txt" && { bad "jiffies 4 changed nothing"; fails=1; }
"$bin" -r 1 -e heap "$tmp/x4.txt" >"$tmp/x4.out" 2>&2 || fails=1
"$bin" -r 1 -e heap "$tmp/x2.txt" >"$tmp/x2.out" 2>&2 || fails=1
grep -q "^# HZ 1000, as the trace tells: 99\.[0-9] % of its [1-9][0-9]* timer_list times .* aged out 2 s (2000 jiffies)" "$tmp/x4.out" ||
	{ bad "x4: $(grep '^# HZ' "$tmp/x4.out")"; fails=1; }
[ "$(grep '^# kernel:' "$tmp/x4.out")" = "$(grep '^# kernel:' "$tmp/trace_pipe.out")" ] ||
	{ bad "x4: kernel rows $(grep '^# kernel:' "$tmp/x4.out")"; fails=1; }
grep -q "^# HZ 250, assumed: the trace cannot tell: its [1-9][0-9]* timer_list times fit none of 100, 250, 300, 1000 (the closest, [0-9]*: [0-9.]* % of them within 20 ms, over [0-9.]* s); REPLAY_HZ=N sets it;" "$tmp/x2.out" ||
	{ bad "x2: $(grep '^# HZ' "$tmp/x2.out")"; fails=1; }
result $fails replay-hz

# REPLAY_HZ: 10 to 10000 taken, through make replay too; anything else
# (junk, 0, a sign, a leading zero, blanks, beyond) refused with exit 2.
fails=0
for v in 10 10000; do
	REPLAY_HZ=$v "$bin" -r 1 -e heap "$here/traces/stack.txt" >"$tmp/hz.out" 2>&2 &&
		grep -q "^# HZ $v, as REPLAY_HZ sets (the trace cannot tell: .*); timer_list timers aged out 2 s ($((2 * v)) jiffies)" "$tmp/hz.out" ||
		{ bad "REPLAY_HZ=$v: $(grep '^# HZ' "$tmp/hz.out")"; fails=1; }
done
REPLAY_CALLGRIND=0 REPLAY_ENGINES=heap REPLAY_REPEAT=1 make -s -C "$top/.." replay \
	TRACE="$here/traces/hz1000.tracefs" REPLAY_HZ=300 >"$tmp/hz.out" 2>"$tmp/hz.err" &&
	grep -qxF "# HZ 300, as REPLAY_HZ sets (${told#as }); timer_list timers aged out 2 s (600 jiffies) + timeout/8 past their expiry" "$tmp/hz.out" ||
	{ cat "$tmp/hz.err" >&2; bad "make replay REPLAY_HZ=300: $(grep '^# HZ' "$tmp/hz.out")"; fails=1; }
for v in abc 0 9 10001 250x -250 +250 0250 " 250" "250 " 1e3 2.5e2 99999999999999999999; do
	rc=0
	REPLAY_HZ=$v "$bin" -r 1 -e heap "$here/traces/stack.txt" >"$tmp/hz.out" 2>"$tmp/hz.err" || rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/hz.out" ] &&
		grep -qxF "twheel-replay: REPLAY_HZ='$v' is not an HZ: give the traced machine's as a whole number from 10 to 10000 (250, 1000, ...), or leave REPLAY_HZ unset for the trace to tell it" "$tmp/hz.err" ||
		{ bad "REPLAY_HZ='$v': exit $rc, $(cat "$tmp/hz.err")"; fails=1; }
done
REPLAY_CALLGRIND=0 REPLAY_ENGINES=heap make -s -C "$top/.." replay TRACE="$here/traces/stack.txt" \
	REPLAY_HZ=1000x >"$tmp/hz.out" 2>"$tmp/hz.err" && { bad "make replay REPLAY_HZ=1000x exited 0"; fails=1; }
grep -qF "replay: REPLAY_HZ='1000x' is not an HZ" "$tmp/hz.err" || { bad "make replay REPLAY_HZ=1000x: $(cat "$tmp/hz.err")"; fails=1; }
result $fails replay-hz-override

# refuse WANT CMD...: CMD exits 2, prints nothing on stdout and one line on
# stderr, WANT exactly
refuse() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/refuse.out" 2>"$tmp/refuse.err" || rc=$?
	[ "$rc" = 2 ] || { bad "$* exited $rc, not 2: $(head -n 3 "$tmp/refuse.out")"; return 1; }
	[ ! -s "$tmp/refuse.out" ] || { bad "$*: printed on stdout: $(head -n 3 "$tmp/refuse.out")"; return 1; }
	[ "$(cat "$tmp/refuse.err")" = "$want" ] || { bad "$*: not '$want': $(cat "$tmp/refuse.err")"; return 1; }
}
# What is not a trace: refused in one line naming the file and what it is;
# and an engine that does not exist.
fails=0
: >"$tmp/empty.txt"
printf '\027\010Dtracing6\0\0\0\0\001\010' >"$tmp/trace.dat"
printf 'PERFILE2\0\0\0\0\0\0\0\0h\0\0\0' >"$tmp/perf.data"
printf 'cpus=2\n# just a header\n' >"$tmp/header.txt"
mkdir -p "$tmp/adir"
p="twheel-replay:"
refuse "$p $tmp/empty.txt: empty: no timer events in it" "$bin" -r 1 "$tmp/empty.txt" || fails=1
refuse "$p $tmp/adir: is a directory with no per_cpu/cpuN/trace or cpuN/trace files in it, not a trace file" "$bin" -r 1 "$tmp/adir" || fails=1
refuse "$p $tmp/nosuch: no such file" "$bin" -r 1 "$tmp/nosuch" || fails=1
refuse "$p $bin: binary data, not the text of a trace" "$bin" -r 1 "$bin" || fails=1
refuse "$p $tmp/trace.dat: trace-cmd's binary trace.dat, not text: run \`trace-cmd report -i '$tmp/trace.dat' > timers.txt\` first and replay that" \
	"$bin" -r 1 "$tmp/trace.dat" || fails=1
refuse "$p $tmp/perf.data: perf's binary perf.data, not text: run \`perf script -i '$tmp/perf.data' > timers.txt\` first and replay that" \
	"$bin" -r 1 "$tmp/perf.data" || fails=1
gzip -c "$tmp/perf.data" >"$tmp/perf.data.gz"
refuse "$p $tmp/perf.data.gz: perf's binary perf.data, not text: run \`perf script -i '$tmp/perf.data.gz' > timers.txt\` first and replay that" \
	"$bin" -r 1 "$tmp/perf.data.gz" || fails=1
refuse "$p $tmp/header.txt: none of its 2 lines is a timer event: is it the text of tracefs trace/trace_pipe, \`trace-cmd report\` or \`perf script\`, with timer:timer_* and timer:hrtimer_* enabled?" \
	"$bin" -r 1 "$tmp/header.txt" || fails=1
refuse "$p my.txt: empty: no timer events in it" "$bin" -r 1 -n my.txt - <"$tmp/empty.txt" || fails=1
refuse "$p $tmp/empty.txt: empty: no timer events in it" "$here/twheel-replay" "$tmp/empty.txt" || fails=1
head -c 20 "$tmp/gz-named.txt" >"$tmp/bad.gz"
refuse "$p $tmp/bad.gz: gzip data that does not decompress (gzip: stdin: unexpected end of file)" "$bin" "$tmp/bad.gz" || fails=1
refuse "$p unknown engine 'nosuch' (engines: $(echo "$@" | sed 's/ /, /g'))" \
	env REPLAY_ENGINES=heap,nosuch REPLAY_CALLGRIND=0 "$here/replay.sh" "$here/traces/malformed.tracefs" || fails=1
refuse "$p unknown engine 'hea' (engines: $(echo "$@" | sed 's/ /, /g'))" "$bin" -r 1 -e hea "$here/traces/malformed.tracefs" || fails=1
refuse "$p unknown option '--nosuch' (try --help)" "$bin" --nosuch x || fails=1
refuse "$p --format=yaml: not text, md, csv or json" "$bin" --format=yaml x || fails=1
result $fails replay-refusals

# --help: on stdout, exit 0, every long option of the binary's table and its
# short form listed, every REPLAY_* variable named with its flag.
fails=0
rc=0
"$here/twheel-replay" --help >"$tmp/help.out" 2>"$tmp/help.err" || rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/help.err" ] && [ -s "$tmp/help.out" ] || { bad "--help: exit $rc, $(cat "$tmp/help.err")"; fails=1; }
opts=$(sed -n 's/^\t\t{ "\([a-z-]*\)", [a-z_]*, NULL, \(.*\) },$/\1 \2/p' "$here/replay.c")
[ "$(echo "$opts" | wc -l)" -ge 12 ] || { bad "--help: the option table not found in replay.c"; fails=1; }
while read -r name val; do
	case $val in
	"'"?"'") s=${val:1:1}; grep -qE "^  -$s, --$name([= ]|$)" "$tmp/help.out" || { bad "--help: no '-$s, --$name'"; fails=1; } ;;
	*) grep -qE "^      --$name([= ]|$)" "$tmp/help.out" || { bad "--help: no '--$name'"; fails=1; } ;;
	esac
done <<<"$opts"
for v in REPLAY_REPEAT REPLAY_ENGINES REPLAY_CALLGRIND REPLAY_HZ; do
	grep -q "$v" "$tmp/help.out" || { bad "--help: $v not named"; fails=1; }
done
"$bin" -h | cmp -s - "$tmp/help.out" || { bad "-h is not --help"; fails=1; }
grep -q "placement oracle" "$tmp/help.out" && grep -q "always modern's, whatever -e names" "$tmp/help.out" &&
	grep -q "the oracle's disagreements do not change it" "$tmp/help.out" || { bad "--help: the oracle not told"; fails=1; }
result $fails replay-help

# The formats, on the hand-made HZ 1000 trace (no hrtimer event in it) with
# the callgrind pass: json parses and has one object per engine of the
# registry and the kernel; csv one row each; text fits 120 columns, also
# with --hist, and has no hrtimer section, nor has md; Ir/op is on every
# engine's row though the trace has no delete; --hist has rtla's rows.
fails=0
hz=$here/traces/hz1000.tracefs
"$here/twheel-replay" -r 1 -f json "$hz" >"$tmp/f.json" 2>"$tmp/f.err" || { cat "$tmp/f.err" >&2; fails=1; }
python3 -m json.tool "$tmp/f.json" >/dev/null || { bad "json does not parse"; fails=1; }
python3 - "$tmp/f.json" "$*" <<'PY' || fails=1
import json, sys
d = json.load(open(sys.argv[1]))
engines = sys.argv[2].split()
got = [r["engine"] for r in d["results"] if r["stream"] == "timer_list"]
ok = got == engines + ["kernel"]
ok &= not any(r["stream"] == "hrtimer" for r in d["results"])
ok &= all(r["ir_op"] is not None and r["ops"] > 0 and isinstance(r["exact"], bool)
          for r in d["results"] if r["engine"] != "kernel")
ok &= len(d["verdicts"]["timer_list"]) == 2 and "hrtimer" not in d["verdicts"]
if not ok:
    print("replay-check: json:", got, d["verdicts"], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
"$here/twheel-replay" -r 1 --no-callgrind -f csv "$hz" >"$tmp/f.csv" 2>&2 || fails=1
[ "$(grep -c '^timer_list,' "$tmp/f.csv")" = $((engines + 1)) ] && ! grep -q '^hrtimer,' "$tmp/f.csv" ||
	{ bad "csv: $(cut -d, -f1,2 "$tmp/f.csv" | tr '\n' ' ')"; fails=1; }
REPLAY_CALLGRIND=1 "$here/twheel-replay" -r 1 -f md "$hz" >"$tmp/f.md" 2>&2 || fails=1
out=$tmp/f.md
[ "$(rows timer_list "Ir/op" | grep -v '^kernel' | grep -cE '\|[0-9]+\.[0-9]$')" = "$engines" ] ||
	{ bad "Ir/op on hz1000: $(rows timer_list "Ir/op" | tr '\n' ' ')"; fails=1; }
grep -q '^## hrtimer' "$tmp/f.md" && { bad "md: an hrtimer section with no hrtimer event"; fails=1; }
grep -q '^- verdict: cheapest exact engine: [a-z_]*, [0-9.]* Ir/op, [0-9.]* % below the next, [a-z_]* ([0-9.]*); modern ran timers ' "$tmp/f.md" ||
	{ bad "md: no verdict: $(grep verdict "$tmp/f.md")"; fails=1; }
"$here/twheel-replay" -r 1 --no-callgrind --hist -f text "$hz" >"$tmp/f.txt" 2>&2 || fails=1
"$here/twheel-replay" -r 1 --no-callgrind --hist -f text "$here/traces/guest-tcp.trace_pipe.gz" >>"$tmp/f.txt" 2>&2 || fails=1
awk 'length($0) > 120 { print "replay-check: text: " length($0) " columns: " $0 > "/dev/stderr"; bad = 1 } END { exit bad }' "$tmp/f.txt" || fails=1
[ "$(grep -c '^timer_list:\|^## timer_list:' "$tmp/f.txt")" = 2 ] && [ "$(grep -c '^## hrtimer:' "$tmp/f.txt")" = 1 ] ||
	{ bad "text: sections $(grep '^## ' "$tmp/f.txt" | tr '\n' ' ')"; fails=1; }
for r in over count min avg max; do
	# a lateness and a cost histogram per stream: 2 on hz1000, 4 on the other
	[ "$(grep -c "^$r: " "$tmp/f.txt")" -ge 6 ] || { bad "--hist: $(grep -c "^$r: " "$tmp/f.txt") '$r:' rows"; fails=1; }
done
grep -q '^Index  *classic  *modern ' "$tmp/f.txt" || { bad "--hist: no Index row"; fails=1; }
# make replay ARGS=...: nothing but the tool's output on stdout
make -s -C "$top/.." replay TRACE="$hz" ARGS="-f json -r 1 --no-callgrind -e heap" 2>"$tmp/make.err" |
	python3 -m json.tool >/dev/null || { cat "$tmp/make.err" >&2; bad "make replay ARGS=-f json: not json"; fails=1; }
# (as from a shell: not a make inside make check, which prints its directory)
(cd "$top/.." && env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS \
	make replay TRACE="$hz" ARGS="-f csv -r 1 --no-callgrind -e heap" 2>/dev/null) >"$tmp/make.csv"
[ "$(head -n 1 "$tmp/make.csv" | cut -d, -f1)" = stream ] && [ "$(wc -l <"$tmp/make.csv")" = 3 ] ||
	{ bad "make replay: stdout $(head -n 2 "$tmp/make.csv")"; fails=1; }
result $fails replay-formats

# A trace over the head the HZ is told from (16 MiB): the rest streams, each
# line once (six copies of the shipped trace, each later than the one
# before), the header says so.
fails=0
# each copy 30 s on: timestamps, jiffies (HZ 250), hrtimer ns
python3 -c 'import re, sys; t = open(sys.argv[1]).read().splitlines(True)
for c in range(6): sys.stdout.writelines(re.sub(r" ([0-9]+)\.([0-9]{6}): ", lambda m: " %d.%s: " % (int(m.group(1)) + 30 * c, m.group(2)), re.sub(r"((?:expires|now|softexpires|bucket_expiry|baseclk)=)([0-9]+)", lambda m, h=("hrtimer" in l): m.group(1) + str(int(m.group(2)) + c * (30000000000 if h else 7500)), l), 1) for l in t)' "$tmp/tracefs.txt" >"$tmp/six.txt"
n=$(grep -cE ': (hr)?timer_[a-z_]*: ' "$tmp/six.txt")
"$bin" -r 1 -e heap --no-callgrind "$tmp/six.txt" >"$tmp/six.out" 2>&2 || fails=1
grep -q "^# lines $(wc -l <"$tmp/six.txt"): events $n, .* malformed 0," "$tmp/six.out" &&
	grep -q "^# the HZ and the hrtimers on another clock were told from the trace's first 16 MiB" "$tmp/six.out" ||
	{ bad "six copies: $(grep '^# lines' "$tmp/six.out")"; fails=1; }
gzip -c "$tmp/six.txt" | "$bin" -r 1 -e heap --no-callgrind - >"$tmp/six-gz.out" 2>&2 || fails=1
[ "$(grep -v '^# replay of' "$tmp/six.out" | grep '^#')" = "$(grep -v '^# replay of' "$tmp/six-gz.out" | grep '^#')" ] ||
	{ bad "six copies through gzip on stdin: not the plain text's header"; fails=1; }
result $fails replay-streamed

# The placement oracle (replay_oracle.c): each start that carries the
# kernel's idx and cpu (and bucket_expiry from 6.8 on) set against
# modern's. oracle NAME FILE
# LINE: the md verdict's oracle line of FILE is LINE.
oracle() {
	local what=$1 file=$2 want=$3
	out=$tmp/or-$what.out
	"$bin" -r 1 -e heap,modern --no-callgrind -f md "$file" >"$out" 2>&2 || { bad "oracle $what: replay failed"; fails=1; }
	grep -qxF -- "- oracle: $want" "$out" || { bad "oracle $what: $(grep '^- oracle' "$out")"; fails=1; }
}
every="modern filed every start where the kernel did: agree"
# Every shipped trace that has the fields: none disagrees, every start of
# the recorded ones agrees at its jiffies (none needs the base clock).
fails=0
oracle tracefs "$here/traces/guest-tcp.tracefs.gz" "$every 4864 at jiffies, 0 at the base clock the trace shows, disagree 0, of 4864 starts"
oracle trace_pipe "$here/traces/guest-tcp.trace_pipe.gz" "$every 2258 at jiffies, 0 at the base clock the trace shows, disagree 0, of 2258 starts"
oracle trace-cmd "$here/traces/guest-tcp.trace-cmd.gz" "$every 2185 at jiffies, 0 at the base clock the trace shows, disagree 0, of 2185 starts"
oracle perf "$here/traces/guest-tcp.perf.gz" "$every 1936 at jiffies, 0 at the base clock the trace shows, disagree 0, of 1936 starts"
oracle host-6.18 "$here/traces/host-6.18.tracefs.gz" "$every 4868 at jiffies, 0 at the base clock the trace shows, disagree 0, of 4868 starts"
oracle hz1000 "$here/traces/hz1000.tracefs" "$every 45 at jiffies, 0 at the base clock the trace shows, disagree 0, of 45 starts"
oracle lost "$here/traces/lost.tracefs" "$every 2 at jiffies, 0 at the base clock the trace shows, disagree 0, of 2 starts"
oracle malformed "$here/traces/malformed.tracefs" "$every 1 at jiffies, 0 at the base clock the trace shows, disagree 0, of 1 starts"
oracle stack "$here/traces/stack.txt" "$every 2 at jiffies, 0 at the base clock the trace shows, disagree 0, of 2 starts"
oracle edges "$here/traces/edges.tracefs" "$every 1 at jiffies, 0 at the base clock the trace shows, disagree 0, of 1 starts"
result $fails replay-oracle-shipped

# The trace of a 6.18 kernel (this build host's, HZ 250): every event
# parsed, the tables add up, and modern's lateness percentiles are the
# kernel's (p50, p99 and max: 1, 8 and 62 jiffies).
fails=0
gzip -dc "$here/traces/host-6.18.tracefs.gz" >"$tmp/host.txt"
out=$tmp/host.out
"$bin" -r 1 --no-callgrind -f md "$tmp/host.txt" >"$out" 2>&2 || fails=1
for name in timer_start timer_cancel timer_expire_entry hrtimer_start hrtimer_cancel hrtimer_expire_entry; do
	n=$(grep -cE "[ :]$name: " "$tmp/host.txt")
	grep -q "^# events:.* $name=$n\( \|$\)" "$out" || { bad "host-6.18: not $n $name"; fails=1; }
done
grep -q "^# lines [0-9]*: events [0-9]*, .* malformed 0, lost 0 events" "$out" &&
	grep -q "^# HZ 250, as the trace tells:" "$out" || { bad "host-6.18: $(grep '^# lines\|^# HZ' "$out")"; fails=1; }
check_tables 2>"$tmp/host.bad" && [ ! -s "$tmp/host.bad" ] || { cat "$tmp/host.bad" >&2; fails=1; }
rows timer_list "late p50 (jiffies)" "late p99 (jiffies)" "late max (jiffies)" >"$tmp/host.late"
[ "$(grep -E '^(modern|kernel \(trace\))\|' "$tmp/host.late" | cut -d'|' -f2- | sort -u)" = "1|8|62" ] ||
	{ bad "host-6.18: lateness $(tr '\n' ' ' <"$tmp/host.late")"; fails=1; }
result $fails replay-host-6.18

# A trace with a start that disagrees on purpose (traces/oracle.tracefs):
# exactly one disagreement, with its fields, in every format; one start
# explained ahead (a timer re-armed by its callback, its base's clock one
# past jiffies), one behind (an idle CPU's deferrable base at its
# next_expiry, 15 jiffies behind); the pinned timer on the running CPU's
# local base agrees.
fails=0
f=$here/traces/oracle.tracefs
oracle disagree "$f" "modern filed starts elsewhere than the kernel: agree 4 at jiffies, 2 at the base clock the trace shows, disagree 1, of 7 starts"
grep -qxF "# oracle: each timer_start's bucket and bucket_expiry, the kernel's, against modern's, 9 levels: 7 starts: agree 4 (at the event's jiffies); explained by the base clock 2 (ahead of jiffies, the base running its timers: 1, up to 1 jiffies; behind, forwarded to a bucket due and not run yet: 1, up to 15 jiffies, 1 of them deferrable); disagree 1" "$out" ||
	{ bad "oracle disagree: $(grep '^# oracle:' "$out")"; fails=1; }
want="# oracle disagrees: line 22, 40.120000 s, timer ffff888000066000, expires 4294968336 at jiffies 4294968326: kernel idx 18 bucket_expiry 4294968337, modern idx 17 bucket_expiry 4294968337"
[ "$(grep '^# oracle disagrees:' "$out")" = "$want" ] || { bad "oracle disagree: $(grep '^# oracle disagrees' "$out")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f text "$f" >"$tmp/or.txt" 2>&2 || fails=1
grep -qxF "         oracle: modern filed starts elsewhere than the kernel: agree 4 at jiffies, 2 at the base clock the trace shows," "$tmp/or.txt" &&
	grep -qxF "             disagree 1, of 7 starts" "$tmp/or.txt" ||
	{ bad "oracle disagree, text: $(grep 'oracle: modern' "$tmp/or.txt")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f csv "$f" >"$tmp/or.csv" 2>&2 || fails=1
[ "$(grep '^timer_list,kernel,' "$tmp/or.csv" | cut -d, -f34-38)" = "checked,7,4,2,1" ] &&
	[ "$(grep -c '^timer_list,heap,.*,ok,,,,,,,$' "$tmp/or.csv")" = 1 ] || { bad "oracle disagree, csv: $(cat "$tmp/or.csv")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f json "$f" >"$tmp/or.json" 2>&2 || fails=1
python3 - "$tmp/or.json" <<'PY' || { bad "oracle disagree, json"; fails=1; }
import json, sys
o = json.load(open(sys.argv[1]))["oracle"]
want = {"checked": True, "starts": 7, "idx_only": 0, "agree": 4, "explained": 2, "explained_ahead": 1,
        "explained_behind": 1, "behind_deferrable": 1, "ahead_max": 1, "behind_max": 15,
        "disagree": 1, "levels": 9}
miss = [{"line": 22, "ts_ns": 40120000000, "timer": "ffff888000066000", "expires": 4294968336,
         "jiffies": 4294968326, "kernel_idx": 18, "kernel_bucket_expiry": 4294968337,
         "modern_idx": 17, "modern_bucket_expiry": 4294968337}]
ok = all(o.get(k) == v for k, v in want.items()) and o["disagreements"] == miss
if not ok:
    print("replay-check: oracle json:", o, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
result $fails replay-oracle-disagree

# A trace without bucket_expiry (a kernel before 6.8, whose timer_start
# prints cpu= and idx=: the trace_pipe trace with bucket_expiry cut out)
# has its idx checked alone, in every format, and is replayed as it was;
# so has the hand-made one, its disagreement found by the idx. A
# timer_start without idx= and cpu= (as before them: a 4.x line) is not
# checked; a cpu= past the CPUs taken makes its start unchecked, the line
# well-formed.
fails=0
gzip -dc "$here/traces/guest-tcp.trace_pipe.gz" | sed -E 's/ bucket_expiry=[0-9]+//' >"$tmp/pre68.txt"
grep -q 'bucket_expiry' "$tmp/pre68.txt" && { bad "pre-6.8: bucket_expiry left"; fails=1; }
oracle pre-6.8 "$tmp/pre68.txt" "$every 2258 at jiffies, 0 at the base clock the trace shows, disagree 0, of 2258 starts (idx only: the trace has no bucket_expiry)"
grep -qxF "# oracle: each timer_start's bucket (idx only: the trace has no bucket_expiry), the kernel's, against modern's, 9 levels: 2258 starts: agree 2258 (at the event's jiffies); explained by the base clock 0; disagree 0" "$out" ||
	{ bad "pre-6.8: $(grep '^# oracle' "$out")"; fails=1; }
# (the kernel's rows, their padding and bucket late columns aside: a column
# is as wide as the widest figure in it, the engines' ns figures move)
kernel_rows() { grep '^# kernel:\|^| kernel' "$1" | tr -s ' ' | cut -d'|' -f1-23,29-; }
diff <(kernel_rows "$out") <(kernel_rows "$tmp/or-trace_pipe.out") >&2 ||
	{ bad "pre-6.8: not replayed as with the fields"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f csv "$tmp/pre68.txt" >"$tmp/pre68.csv" 2>&2 || fails=1
[ "$(grep '^timer_list,kernel,' "$tmp/pre68.csv" | cut -d, -f34-38)" = "checked: idx only,2258,2258,0,0" ] ||
	{ bad "pre-6.8, csv: $(grep '^timer_list,kernel,' "$tmp/pre68.csv")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f json "$tmp/pre68.txt" | python3 -c '
import json, sys
o = json.load(sys.stdin)["oracle"]
sys.exit(0 if (o["starts"], o["idx_only"], o["agree"], o["disagree"]) == (2258, 2258, 2258, 0) else 1)' ||
	{ bad "pre-6.8, json"; fails=1; }
sed -E 's/ bucket_expiry=[0-9]+//' "$here/traces/oracle.tracefs" >"$tmp/pre68-or.txt"
oracle pre-6.8-disagree "$tmp/pre68-or.txt" "modern filed starts elsewhere than the kernel: agree 4 at jiffies, 2 at the base clock the trace shows, disagree 1, of 7 starts (idx only: the trace has no bucket_expiry)"
grep -q "^# oracle disagrees: line 22, .*: kernel idx 18, modern idx 17 bucket_expiry 4294968337$" "$out" ||
	{ bad "pre-6.8-disagree: $(grep '^# oracle disagrees' "$out")"; fails=1; }
gzip -dc "$here/traces/guest-tcp.trace_pipe.gz" | sed -E 's/ bucket_expiry=[0-9]+ cpu=[0-9]+ idx=[0-9]+//' >"$tmp/pre48.txt"
grep -q ' idx=' "$tmp/pre48.txt" && { bad "no idx: idx= left"; fails=1; }
oracle no-idx "$tmp/pre48.txt" "not checked: the trace's timer_start has no idx= and cpu="
grep -qxF "# oracle: not checked: the trace's timer_start has no idx= and cpu= (6.1 prints them, 6.8 and later bucket_expiry too)" "$out" ||
	{ bad "no idx: $(grep '^# oracle' "$out")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f csv "$tmp/pre48.txt" >"$tmp/pre48.csv" 2>&2 || fails=1
[ "$(grep '^timer_list,kernel,' "$tmp/pre48.csv" | cut -d, -f34-38)" = "not checked: the trace's timer_start has no idx= and cpu=,,,," ] ||
	{ bad "no idx, csv: $(grep '^timer_list,kernel,' "$tmp/pre48.csv")"; fails=1; }
"$bin" -r 1 -e heap --no-callgrind -f json "$tmp/pre48.txt" | python3 -c '
import json, sys
o = json.load(sys.stdin)["oracle"]
sys.exit(0 if o.pop("unchecked") == 2258 and o.pop("verdict") == "not checked: the trace\x27s timer_start has no idx= and cpu=" and o.pop("checked") is False and len(o) == 13 and set(o.values()) == {None} else 1)' ||
	{ bad "no idx, json"; fails=1; }
grep -v '^#' "$here/traces/oracle.tracefs" | head -n 1 | sed 's/ cpu=0 / cpu=8192 /' >"$tmp/bigcpu.txt"
grep -v '^#' "$here/traces/oracle.tracefs" | sed -n 3p >>"$tmp/bigcpu.txt"
oracle big-cpu "$tmp/bigcpu.txt" "$every 1 at jiffies, 0 at the base clock the trace shows, disagree 0, of 1 starts"
grep -q "malformed 0," "$out" && grep -q "^# oracle: .*; 1 starts without the fields not checked$" "$out" ||
	{ bad "big cpu: $(grep '^# lines\|^# oracle' "$out")"; fails=1; }
result $fails replay-oracle-idx-only

# What the trace shows of a base, kept as the kernel keeps it (CPUs 2 and
# 3, HZ 250). CPU 2: a callback queues a timer (bucket_expiry 4294969007)
# and it is deleted before the next expiry of the same clock step: the
# base's next_expiry stays 4294969007 (worked out once a step, before the
# callbacks), and a start 13 jiffies later is filed at it. CPU 3, idle: a
# start whose placement is the same at jiffies and at the base's
# next_expiry 6 behind does not pin the clock to jiffies, so a later one
# is filed at that next_expiry, 8 behind.
fails=0
cat >"$tmp/bases.txt" <<'EOF'
        app-600 [002] d..1.    50.000000: timer_start: timer=ffff888000081000 function=fn expires=4294969004 [timeout=4] bucket_expiry=4294969005 cpu=2 idx=45 flags=
        app-600 [002] d..1.    50.000100: timer_start: timer=ffff888000082000 function=fn expires=4294969004 [timeout=4] bucket_expiry=4294969005 cpu=2 idx=45 flags=
        <idle>-0 [002] d..1.    50.016000: timer_cancel: timer=ffff888000081000
        <idle>-0 [002] ..s1.    50.016010: timer_expire_entry: timer=ffff888000081000 function=fn now=4294969004 baseclk=4294969004
        <idle>-0 [002] d..1.    50.016020: timer_start: timer=ffff888000083000 function=fn expires=4294969006 [timeout=2] bucket_expiry=4294969007 cpu=2 idx=47 flags=
        <idle>-0 [002] d..1.    50.016030: timer_cancel: timer=ffff888000083000
        <idle>-0 [002] d..1.    50.016040: timer_cancel: timer=ffff888000082000
        <idle>-0 [002] ..s1.    50.016050: timer_expire_entry: timer=ffff888000082000 function=fn now=4294969004 baseclk=4294969004
        app-600 [002] d..1.    50.080000: timer_start: timer=ffff888000084000 function=fn expires=4294969072 [timeout=52] bucket_expiry=4294969080 cpu=2 idx=95 flags=
        app-700 [003] d..1.    50.100000: timer_start: timer=ffff888000091000 function=fn expires=4294969003 [timeout=3] bucket_expiry=4294969004 cpu=3 idx=44 flags=
        app-700 [003] d..1.    50.140000: timer_start: timer=ffff888000092000 function=fn expires=4294969110 [timeout=100] bucket_expiry=4294969112 cpu=3 idx=99 flags=
        app-700 [003] d..1.    50.148000: timer_start: timer=ffff888000093000 function=fn expires=4294969068 [timeout=56] bucket_expiry=4294969072 cpu=3 idx=94 flags=
EOF
oracle bases "$tmp/bases.txt" "modern filed every start where the kernel did, some only at the base clock the trace shows: agree 5 at jiffies, 2 at the base clock the trace shows, disagree 0, of 7 starts"
grep -q "^# oracle: .*explained by the base clock 2 (behind, forwarded to a bucket due and not run yet: 2, up to 13 jiffies, 0 of them deferrable); disagree 0$" "$out" ||
	{ bad "bases: $(grep '^# oracle' "$out")"; fails=1; }
"$top/build/fuzz-trace" "$tmp/bases.txt" >"$tmp/bases.asan" 2>&1 ||
	{ tail -n 20 "$tmp/bases.asan" >&2; bad "bases: fuzz-trace on the trace failed"; fails=1; }
result $fails replay-oracle-bases

# The placement follows the traced machine's HZ: a start 2e8 jiffies out
# is clamped into level 7's last bucket by a kernel of 8 levels (HZ 100 and
# below: beyond 63 << 21 jiffies, to 62 << 21), filed in level 8 by one of 9.
fails=0
printf '%s\n' "           app-500 [000] d..1.    60.000000: timer_start: timer=ffff888000071000 function=far expires=4494972296 [timeout=200000000] bucket_expiry=4427087872 cpu=0 idx=511 flags=" >"$tmp/far.txt"
REPLAY_HZ=100 oracle hz100 "$tmp/far.txt" "$every 1 at jiffies, 0 at the base clock the trace shows, disagree 0, of 1 starts"
grep -q "^# oracle: .* against modern's, 8 levels:" "$out" || { bad "hz100: not 8 levels"; fails=1; }
REPLAY_HZ=250 oracle hz250-far "$tmp/far.txt" "modern filed starts elsewhere than the kernel: agree 0 at jiffies, 0 at the base clock the trace shows, disagree 1, of 1 starts"
grep -q "^# oracle disagrees: .*: kernel idx 511 bucket_expiry 4427087872, modern idx 524 bucket_expiry 4496293888$" "$out" ||
	{ bad "hz250-far: $(grep '^# oracle disagrees' "$out")"; fails=1; }
# the fuzz target's own calc_wheel_index() (HZ 250 here: 9 levels) finds the same
"$top/build/fuzz-trace" "$tmp/far.txt" >"$tmp/far.asan" 2>&1 ||
	{ tail -n 20 "$tmp/far.asan" >&2; bad "hz250-far: fuzz-trace on the trace failed"; fails=1; }
result $fails replay-oracle-hz
# the traces people have: order, damage, no installs, conventions; lateness; json schema
for c in order late json; do "$here/replay_check_$c.sh" || fail=1; done
exit $fail
