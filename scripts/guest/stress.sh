#!/bin/sh
# In the guest (best on the debug kernel, -smp 2): twheel under stress.
#   stress.sh [ROUNDS [WRITES [COUNT [SECS]]]]
# hostile   WRITES writes of random bytes and a list of malformed commands
#           to control, each refused with the right error, nothing applied
# smp       SECS seconds of control writes from three shells at once while
#           the tick runs and stats is read in a loop: counters consistent
# wrap      the engines' clock wraps (wrap_secs=15) under a running workload
# unload    ROUNDS times: insmod, COUNT timers on each of 4 engines, start,
#           rmmod at a random moment
# kmemleak  no leak from twheel after all of it (kmemleak.sh)
# Prints "STRESS PASS|FAIL <section>" per section; exits 1 on any failure.
rounds=${1:-20} writes=${2:-10000} count=${3:-262144} secs=${4:-30}
. /guest/lib.sh
ko=/lib/twheel/twheel.ko
fails=0 total=0
# section NAME: report the previous section's verdict, start counting anew
section() {
	now=$(cut -d. -f1 /proc/uptime)
	if [ -n "$sect" ]; then
		if [ $fails -eq 0 ]; then
			echo "STRESS PASS $sect ($((now - t0)) s)"
		else
			echo "STRESS FAIL $sect ($((now - t0)) s)"
		fi
	fi
	total=$((total + fails))
	sect=$1 fails=0 t0=$now
	[ -n "$1" ] && echo "== $1"
}
# state_lines: the lines a refused write must leave alone
state_lines() { grep -E '^(workload|state|params):' $d/stats; }
# refuse ERRNO-TEXT WHAT [FILE]: control (or FILE) refuses the contents of
# the file WHAT with that error
refuse() {
	if cat "$2" > "${3:-$d/control}" 2>/tmp/err; then
		bad "accepted: $(head -c 60 "$2" | tr -c '[:print:]' '?')"
		return
	fi
	read -r e < /tmp/err
	case "$e" in
	*"$1") ;;
	*) bad "'$(head -c 60 "$2" | tr -c '[:print:]' '?')': '$e', wanted '$1'" ;;
	esac
}
EINVAL="Invalid argument" E2BIG="Argument list too long" ENOMEM="Cannot allocate memory"
# ran SECS: wait (at most SECS s) until a timer has run on every engine
ran() {
	t=0
	for e in $runners; do
		until [ "$(get $e runs)" -gt 0 ]; do
			[ $t -lt $(($1 * 2)) ] || return 1
			t=$((t + 1))
			sleep 0.5
		done
	done
}
# Every engine's counters after a stop: consistent, nothing pending, none early.
stopped_ok() {
	snap
	for e in $runners; do
		after_stop "$1/$e" $e
	done
}

rmmod twheel 2>/dev/null
sh /guest/kmemleak.sh baseline || leak_base=failed

section hostile
insmod $ko engines=$all || { echo "FAILED: insmod"; exit 1; }
# force=1: on the debug kernel with every engine this load is near what
# the admission guard measures as the capacity, and the padded copy of it
# below must not depend on that measurement.
base="load mixed count=1234 seed=77 min=50 max=3000 cancel=40 ops=5 duration=0 force=1"
ctl $base || bad "load: $base"
want=$(state_lines)
n=0
# Malformed commands, one per line: each must fail with EINVAL.
cat > /tmp/einval <<'EOF'
bogus
Load mixed
loadmixed
load
load nosuch
load mixed count
load mixed count=
load mixed =5
load mixed count=0
load mixed count=-1
load mixed count=-0
load mixed count=1048577
load mixed count=4294967296
load mixed count=99999999999999999999999
load mixed count=0x100001
load mixed count=12abc
load mixed count=1.5
load mixed count= 5
load mixed seed=-1
load mixed seed=18446744073709551616
load mixed min=0
load mixed min=1073741825
load mixed max=-3
load mixed min=9 max=3
load mixed cancel=101
load mixed ops=20001
load mixed duration=86401
load mixed duration=-1
load mixed frob=1
load mixed COUNT=5
load mixed engines=
load mixed engines=nosuch
load mixed engines=,
load mixed engines=all,classic
load mixed engines=classic engines=bogus
load mixed count=5 count=5x
start now
stop please
reset 1
unload all
 
EOF
while IFS= read -r c; do
	printf '%s\n' "$c" > /tmp/c
	refuse "$EINVAL" /tmp/c
	n=$((n + 1))
done < /tmp/einval
# Embedded NULs, a lone newline; control bytes and a second line (which a
# reason quoting the line would put in the log as a line of its own).
for c in 'start\000' 'load mixed\000count=5\n' '\000' '\000start\n' '\n' \
	'load mixed count=5\001\n' 'x\nBUG: forged\n' 'stop\nstart\n' 'load mixed\033[2J\n'; do
	printf "$c" > /tmp/c
	refuse "$EINVAL" /tmp/c
	n=$((n + 1))
done
# 255 bytes is the longest command: padded, the base command is accepted;
# one byte more is too long, whatever it says.
pad=$(printf '%*s' $((254 - ${#base})) '')
printf '%s%s\n' "$base" "$pad" > /tmp/c
[ "$(wc -c < /tmp/c)" -eq 255 ] || bad "the 255-byte command is $(wc -c < /tmp/c) bytes"
cat /tmp/c 2>/tmp/err > $d/control || bad "a 255-byte command refused: $(cat /tmp/err)"
printf '%s%s \n' "$base" "$pad" > /tmp/c
refuse "$E2BIG" /tmp/c
head -c 4096 /dev/zero | tr '\0' 'x' > /tmp/c
refuse "$E2BIG" /tmp/c
printf 'load mixed count=%0300d\n' 5 > /tmp/c
refuse "$E2BIG" /tmp/c
n=$((n + 4))
[ "$(state_lines)" = "$want" ] || bad "malformed commands changed the state: $(state_lines)"
# levels takes "HZ [DEPTH]": every table it accepts is printed in full
# (UBSAN and KASAN watch the arithmetic), bad input is refused.
for hz in 1 24 100 101 250 1000 100000; do
	for depth in "" 2 5 8 9; do
		echo "$hz $depth" > $d/levels || bad "levels: '$hz $depth' refused"
		lines=$(grep -c '^ *[0-9]' $d/levels)
		want_lines=${depth:-$([ $hz -gt 100 ] && echo 9 || echo 8)}
		[ "$lines" = "$want_lines" ] || bad "levels '$hz $depth': $lines levels shown"
	done
done
for c in x -1 100001 "250 1" "250 10" "250 x" "250 -9" 99999999999; do
	echo "$c" > /tmp/c
	refuse "$EINVAL" /tmp/c $d/levels
done
printf '%040d\n' 250 > /tmp/c
refuse "$E2BIG" /tmp/c $d/levels
dmesg | grep -q "levels: a write is at most 31 bytes" || bad "levels: no reason logged for an overlong write"
echo 0 > $d/levels || bad "levels: '0' refused"
ok=$fails
# Random bytes, first with the workload loaded, then with it running. In
# the pool every 'o' and 't' is changed: no verb (load start stop reset
# unload) can appear, so no draw is a valid command by chance, and every
# write must be refused: -E2BIG from 256 bytes on, else -EINVAL.
pool=1048576
head -c $pool /dev/urandom | tr ot OT > /tmp/pool
[ "$(wc -c < /tmp/pool)" -eq $pool ] || bad "random pool of $(wc -c < /tmp/pool) bytes"
i=0 t1=$(cut -d. -f1 /proc/uptime)
while [ $i -lt "$writes" ]; do
	if [ $i -eq $((writes / 2)) ]; then
		[ "$(state_lines)" = "$want" ] || bad "random writes changed the state: $(state_lines)"
		ctl start || bad "start amid random writes"
		want=$(state_lines)
	fi
	len=$((RANDOM % 300 + 1))
	at=$(((RANDOM << 15 | RANDOM) % (pool / len)))
	if dd if=/tmp/pool of=$d/control bs=$len skip=$at count=1 2>/tmp/err; then
		bad "accepted: $len random bytes at $((at * len))"
	else
		read -r e < /tmp/err
		w=$EINVAL
		[ $len -ge 256 ] && w=$E2BIG
		case "$e" in
		*"$w") ;;
		*) bad "$len random bytes at $((at * len)): '$e', wanted '$w'" ;;
		esac
	fi
	i=$((i + 1))
	if [ $((i % 500)) -eq 0 ]; then
		[ "$(state_lines)" = "$want" ] || bad "random write $i changed the state: $(state_lines)"
	fi
	# Report the first failures only.
	[ $fails -gt $((ok + 10)) ] && break
done
t2=$(cut -d. -f1 /proc/uptime)
[ "$(state_lines)" = "$want" ] || bad "random writes changed the state: $(state_lines)"
ctl stop || bad "stop after random writes"
stopped_ok hostile
[ "$(get classic runs)" -gt 0 ] || bad "no timer ran during the random writes"
# The biggest load there is (1048576 timers on each runner that takes that
# many: not those whose max_timers is lower, see smoke), with all but
# 128 MiB of memory held in tmpfs (no swap: it stays put): refused with
# -ENOMEM, the workload left as it was, no OOM kill, no warning.
huge=""
for r in $runners; do fits "$r" 1048576 && huge="$huge,$r"; done
huge=${huge#,}
nhuge=$(echo "$huge" | tr , ' ' | wc -w)
want=$(state_lines)
mkdir -p /fill && mount -t tmpfs -o size=100% tmpfs /fill
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
dd if=/dev/zero of=/fill/x bs=1M count=$((avail - 128)) 2>/dev/null
# load_huge: 0 if the biggest load fitted, 1 if refused with -ENOMEM (any
# other answer is a failure).
load_huge() {
	ctl load burst count=1048576 force=1 engines=$huge 2>/tmp/err && return 0
	read -r e < /tmp/err
	case "$e" in
	*"$ENOMEM") ;;
	*) bad "load of 1048576 timers x $nhuge runners: '$e', wanted '$ENOMEM'" ;;
	esac
	return 1
}
load_huge && bad "load of 1048576 timers x $nhuge runners accepted with 128 of $avail MiB left"
[ "$(state_lines)" = "$want" ] || bad "a load refused for memory changed the state: $(state_lines)"
rm /fill/x
umount /fill
# Without the pressure it fits, or is refused the same way.
if load_huge; then
	echo "load of 1048576 timers x $nhuge runners fitted"
else
	[ "$(state_lines)" = "$want" ] || bad "a refused (ENOMEM) load changed the state: $(state_lines)"
fi
# Still working.
load_fit expiring count=500 duration=0 && ctl start || bad "load/start after the hostile writes"
ran 30 || bad "no timer ran within 30 s after the hostile writes"
ctl stop || bad "stop after the hostile writes"
stopped_ok "after hostile"
echo "hostile: $n malformed commands and $i random writes ($((t2 - t1)) s) refused"
rmmod twheel || bad "rmmod"

section smp
insmod $ko engines=$all || bad "insmod"
rm -f /tmp/stop /tmp/w*.err /tmp/w*.ok
# writer N: random control commands until /tmp/stop; successes by verb
# go to /tmp/wN.ok, errors to /tmp/wN.err
writer() {
	n=$1 wl="timeouts expiring long burst mixed"
	RANDOM=$(($(od -An -N2 -tu2 /dev/urandom)))
	while [ ! -e /tmp/stop ]; do
		case $((RANDOM % 10)) in
		0|1|2)
			set -- $wl
			shift $((RANDOM % 5))
			c="load $1 count=$((RANDOM % 1000 + 1)) seed=$RANDOM min=32 max=$((RANDOM % 5000 + 64)) ops=$((RANDOM % 10)) duration=$((RANDOM % 3))"
			;;
		3|4|5) c=start ;;
		6|7) c=stop ;;
		8) c=reset ;;
		*) c=unload ;;
		esac
		if echo "$c" > $d/control 2>>/tmp/w$n.err; then
			echo "${c%% *}" >> /tmp/w$n.ok
		fi
	done
}
for w in 1 2 3; do
	writer $w &
done
# Readers on every file while the writers run; stats checked each time.
(while [ ! -e /tmp/stop ]; do
	cat $d/classic/occupancy $d/modern/occupancy $d/levels > /dev/null ||
		echo "FAILED: reading occupancy/levels"
done) &
(sleep "$secs"; touch /tmp/stop) &
reads=0
while [ ! -e /tmp/stop ]; do
	awk -v nb=$nrunners '
		/^state: / { st = $2 }
		/^\[/ { e = $1; if (e != "[softirq]") blocks++ }
		/^timers: / { timers[e] = $2 }
		/^pending: / { pending[e] = $2 }
		/^invariant: / && $2 != "ok" { print "FAILED: " e " invariant " $2 }
		/^level_pending:/ { s = 0; for (i = 2; i <= NF; i++) s += $i; lp[e] = s }
		/^held: / { held[e] = $2; if ($3 != "(=") print "FAILED: " e " " $0 }
		END {
			if (st !~ /^(empty|loaded|running)$/) print "FAILED: state " st
			if (blocks != nb) print "FAILED: " blocks " engine blocks"
			for (e in timers) {
				if (pending[e] + 0 > timers[e] + 0)
					print "FAILED: " e " pending " pending[e] " > timers " timers[e]
				# held and level_pending are one read-out under
				# the lock; pending is an earlier one, and timers
				# armed in between may be in the buckets
				if ((e in lp) && lp[e] > held[e] + 0)
					print "FAILED: " e " in buckets " lp[e] " > held " held[e]
			}
		}' $d/stats > /tmp/check
	if [ -s /tmp/check ]; then
		cat /tmp/check
		bad "stats read $reads inconsistent"
		break
	fi
	reads=$((reads + 1))
done
touch /tmp/stop
wait
cat /tmp/w*.ok 2>/dev/null | sort | uniq -c | tr '\n' ' ' > /tmp/oks
echo "smp: $reads stats reads, successful writes: $(cat /tmp/oks)"
[ $reads -ge 10 ] || bad "only $reads stats reads"
for v in load start stop; do
	grep -q " $v " /tmp/oks || bad "no '$v' ever succeeded"
done
# Refusals are the state's (busy, or not loaded/running), nothing else.
cat /tmp/w*.err 2>/dev/null | grep -v -E "($EINVAL|Device or resource busy)\$" > /tmp/odd
[ -s /tmp/odd ] && bad "unexpected errors: $(sort /tmp/odd | uniq -c | head -n 5)"
ctl stop 2>/dev/null
load_fit mixed count=1000 min=32 ops=5 duration=0 && ctl start ||
	bad "load/start after the concurrent writes"
ran 30 || bad "no timer ran within 30 s after the concurrent writes"
ctl stop || bad "stop after the concurrent writes"
stopped_ok smp
rmmod twheel || bad "rmmod"

section wrap
# The engines' clock is jiffies + an offset that makes it wrap 15 s after
# insmod; a workload runs across the wrap. Timers armed before it expire
# after it, and cascades and level changes happen on both sides. The
# steps wait for what they need, not for a fixed time: beside a busy
# host the debug kernel took over 5 s from insmod to its first runs.
insmod $ko engines=$all wrap_secs=15 || bad "insmod wrap_secs=15"
clock() { hdr engine_clock; }
c0=$(clock)
load_fit mixed count=1000 min=32 max=4000 seed=9 ops=5 duration=0 && ctl start ||
	bad "load/start"
# the first classic runs, before the wrap
t=0
until [ "$(get classic runs)" -gt 0 ] 2>/dev/null || [ $t -ge 40 ]; do
	sleep 0.25
	t=$((t + 1))
done
r0=$(get classic runs) cm=$(clock)
# past the wrap (at most 30 s), then 2 s more of runs after it
t=0 c1=$cm
until [ ${#c1} -le 6 ] || [ $t -ge 60 ]; do
	sleep 0.5
	t=$((t + 1))
	c1=$(clock)
done
sleep 2
c1=$(clock)
ctl stop || bad "stop"
echo "wrap: engine clock $c0 at load, $cm with $r0 classic runs, $c1 at stop"
# Before the wrap: 2^64 - (15 s of jiffies) and a bit; after it: small.
case "$c0.$cm" in
184467440737095*.184467440737095*) ;;
*) bad "engine clock $c0, then $cm: not just below 2^64" ;;
esac
[ ${#c1} -le 6 ] || bad "engine clock $c1 at stop has not wrapped"
stopped_ok wrap
for e in $exact; do
	sv runs $e runs
	sv v $e runs_exact
	[ "$v" = "$runs" ] || bad "wrap/$e: $v of $runs runs exact"
done
[ "$r0" -gt 0 ] || bad "no classic run before the wrap"
[ "$(sget classic runs)" -gt "$r0" ] || bad "no classic run after the wrap"
[ "$(sget classic cascades)" -gt 0 ] || bad "the classic wheel never cascaded"
echo "wrap: classic $(sget classic runs) runs all exact, modern late <= $(sget modern late_jiffies_max) jiffies"
rmmod twheel || bad "rmmod"

section unload
# The moment of rmmod: 0 loaded, not started; 1 right after start; 2 a
# random fraction of a second into the run; 3 while start is arming the
# timers; 4 while another shell reads stats and writes stop. In 3 and 4
# rmmod is refused while the debugfs file is open, and retried.
unloads=$(dmesg | grep -c 'twheel: unloaded')
# rmmod_retry: rmmod until it succeeds, at most 120 s
rmmod_retry() {
	t=0
	until rmmod twheel 2>/dev/null; do
		t=$((t + 1))
		[ $t -lt 600 ] || { bad "round $r: rmmod refused for 120 s"; return; }
		sleep 0.2
	done
}
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	m=$((RANDOM % 5))
	insmod $ko || { bad "round $r: insmod"; break; }
	# Far timers (expiring a few a jiffy), activity ops on them too.
	load_fit long count="$count" seed=$r min=256 max=1048576 ops=5 cancel=30 duration=0 ||
		bad "round $r: load"
	case $m in
	0) rmmod twheel || bad "round $r: rmmod" ;;
	1|2)
		ctl start || bad "round $r: start"
		[ $m -eq 2 ] && sleep "0.$((RANDOM % 10))"
		rmmod twheel || bad "round $r: rmmod"
		;;
	3)
		ctl start &
		sleep 0.5
		rmmod_retry
		wait
		;;
	4)
		ctl start || bad "round $r: start"
		(cat $d/stats > /dev/null; echo stop > $d/control) 2>/dev/null &
		rmmod_retry
		wait
		;;
	esac
	[ ! -e $d ] || bad "round $r: debugfs left behind"
	unloads=$((unloads + 1))
	[ "$(dmesg | grep -c 'twheel: unloaded')" -eq $unloads ] ||
		bad "round $r: no unload message"
	echo "unload: round $r, rmmod at moment $m"
	[ $fails -eq 0 ] || break
done
# A callback left behind would run in freed module memory now.
sleep 2
echo "unload: $r rounds of $count timers x 4 engines"

section kmemleak
[ -z "$leak_base" ] || bad "kmemleak baseline failed"
sh /guest/kmemleak.sh check || bad "leaks from twheel"

section ""
echo "stress: $total failures"
[ $total -eq 0 ]
