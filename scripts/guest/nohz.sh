#!/bin/sh
# In the guest: tick=nohz against tick=periodic (one CPU; per-CPU ticks
# under tick=nohz: pull.sh).
#   sh nohz.sh [SECONDS [IDLE_SECONDS]]
# Nothing loaded, IDLE_SECONDS (10): the periodic tick wakes HZ times a
# second, the nohz one not at all. The long workload (activity without ops: timers re-armed as
# they run): nohz wakes only for the jiffies with work, at least once a
# second, and keeps every guarantee (classic and reference exact, nothing
# early, no catch-up, the counters and what the engines hold agree). The
# timeouts workload (activity ops every tick) keeps a periodic tick. Ends
# with the numbers as a markdown table between @@CAPS nohz and @@END.
secs=${1:-10}
idle_secs=${2:-10}
. "$(dirname "$0")/lib.sh"
ours="classic modern reference classic_bounded"
hz=$(hdr HZ 2>/dev/null)

wakeups() { top wakeups; }

# load MODE: the module with tick=MODE and our three engines, nothing loaded
load() {
	rmmod twheel 2>/dev/null
	insmod /lib/twheel/twheel.ko engines=classic,modern,reference,classic_bounded tick=$1 ||
		{ bad "insmod tick=$1"; exit 1; }
	[ "$(top tick)" = "$1" ] || bad "stats says tick: $(top tick), not $1"
	hz=$(hdr HZ)
}

# idle MODE: wakeups over $idle_secs s with nothing loaded
idle() {
	load $1
	sleep 1
	w0=$(wakeups)
	sleep "$idle_secs"
	echo $(($(wakeups) - w0))
}

# run MODE WORKLOAD ARGS...: a run of $secs s, checked; rate: wakeups a
# second, busy: ms a second the tick took on classic, bbusy on
# classic_bounded
run() {
	mode=$1 wl=$2
	shift 2
	load $mode
	ctl load $wl "$@" duration=0 || { bad "load $wl $*"; return; }
	ctl start || { bad "start $wl"; return; }
	sleep 1
	w0=$(wakeups) t0=$(now)
	sleep "$secs"
	w1=$(wakeups) t1=$(now)
	cat $d/stats > /tmp/nohz.stats
	ctl stop || bad "stop $wl"
	for e in $ours; do
		awk -v e="[$e]" '$0 == e { on = 1; next } /^\[/ { on = 0 }
			on && $1 == "held:" { h = $3; n++ }
			END { exit !(n == 1 && h == "(=") }' /tmp/nohz.stats ||
			bad "$mode/$wl/$e: held is not pending while running"
		[ "$(get $e invariant)" = ok ] || bad "$mode/$wl/$e: invariant"
		[ "$(get $e runs_early)" = 0 ] || bad "$mode/$wl/$e: ran early"
		runs=$(get $e runs)
		[ "$runs" -gt 0 ] || [ $wl = timeouts ] || bad "$mode/$wl/$e: nothing ran"
		if [ $e != modern ]; then
			[ "$(get $e runs_exact)" = "$runs" ] ||
				bad "$mode/$wl/$e: $(get $e runs_exact) of $runs exact"
		fi
	done
	# A jiffy the tick slept through on purpose is no catch-up: counted as
	# missed, long's sleeps would be most of its jiffies; a busy host makes
	# an emulated guest miss a few for real, never a quarter.
	[ "$mode" = periodic ] || [ $wl != long ] ||
		[ "$(get classic missed_jiffies)" -le $((secs * hz / 4)) ] ||
		bad "$mode/$wl: classic missed $(get classic missed_jiffies) jiffies"
	rate=$(awk -v w=$((w1 - w0)) -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f\n", w / (t1 - t0) }')
	busy=$(awk -v n="$(get classic tick_ns_n)" -v a="$(get classic tick_ns_avg)" \
		-v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.2f\n", n * a / 1e6 / (t1 - t0 + 1) }')
	bbusy=$(awk -v n="$(get classic_bounded tick_ns_n)" -v a="$(get classic_bounded tick_ns_avg)" \
		-v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.2f\n", n * a / 1e6 / (t1 - t0 + 1) }')
}

p_idle=$(idle periodic)
n_idle=$(idle nohz)
[ "$p_idle" -ge $((idle_secs * hz * 8 / 10)) ] ||
	bad "periodic: $p_idle wakeups in $idle_secs s, want about $((idle_secs * hz))"
[ "$n_idle" = 0 ] || bad "nohz: $n_idle wakeups in $idle_secs s with nothing loaded"
ok "nothing loaded, $idle_secs s: $p_idle wakeups periodic, $n_idle nohz"

run periodic long count=2000 min=256 max=20000
p_long=$rate p_busy=$busy p_bbusy=$bbusy
run nohz long count=2000 min=256 max=20000
n_long=$rate n_busy=$busy n_bbusy=$bbusy
[ "$n_long" -lt "$p_long" ] ||
	bad "long: nohz woke $n_long times a second, periodic $p_long"
[ "$n_long" -ge 1 ] || bad "long: nohz woke $n_long times a second (at least once a second)"
ok "long count=2000: wakeups/s periodic $p_long, nohz $n_long; classic's ticks took $p_busy ms/s periodic, $n_busy ms/s nohz"

run periodic timeouts count=2000 ops=200
p_to=$rate p_tbusy=$busy
run nohz timeouts count=2000 ops=200
n_to=$rate n_tbusy=$busy
[ "$n_to" -ge $((hz * 8 / 10)) ] ||
	bad "timeouts: nohz woke $n_to times a second; its ops need every tick"
ok "timeouts (ops every tick): wakeups/s periodic $p_to, nohz $n_to"
echo "@@CAPS nohz"
echo "| load | periodic | nohz | classic tick ms/s periodic | nohz | classic_bounded tick ms/s periodic | nohz |"
echo "|---|---:|---:|---:|---:|---:|---:|"
echo "| nothing loaded, wakeups in $idle_secs s | $p_idle | $n_idle | - | - | - | - |"
echo "| long count=2000, wakeups/s | $p_long | $n_long | $p_busy | $n_busy | $p_bbusy | $n_bbusy |"
echo "| timeouts count=2000 ops=200, wakeups/s | $p_to | $n_to | $p_tbusy | $n_tbusy | - | - |"
echo "@@END"

rmmod twheel || bad "rmmod"
echo "nohz: $fails failures"
[ $fails -eq 0 ]
