#!/bin/sh
# In the guest (scripts/compare.sh): every workload on every runner in this
# one boot, then the scale sweep. straight and ordered (O(n) a tick or an
# arm) take at most 8192 timers, hash_sorted 131072: the workloads run on
# straight and ordered apart, at most 8192 timers, and the sweep leaves out
# the sizes a runner does not take.
#   sh /guest/compare.sh [full|quick]
# Prints, between markers, each run's stats (for the distributions) and the
# compare tables; the host turns them into markdown, CSV and a plot.
mode=${1:-full}
. /guest/lib.sh

if [ "$mode" = quick ]; then
	sweep_secs=5 secs=3 burst_secs=6 n=2000 nmixed=1000 nburst=5000 longmax=20000 sizes="1000 10000"
else
	sweep_secs=8 secs=8 burst_secs=8 n=10000 nmixed=2000 nburst=100000 longmax=1048576 sizes="1000 10000 100000 1000000"
fi

fail() { echo "compare: $*"; exit 1; }
ctl() { echo "$*" >$d/control || fail "control refused: $*"; }
# The loads below are sized for an emulated CPU; where admission finds one
# too much for this machine it is run at the largest count that fits.
load() { load_fit "$@" || fail "load refused: $*"; }

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case "$cs" in
tsc*) ;;
*) echo "compare: no TSC clocksource (running on $cs)"; exit 0 ;;
esac
# simple's MaxInterval at 2^20: long's deltas (up to 2^20) are all taken
insmod /lib/twheel/twheel.ko engines=$all max_interval=1048576 || fail "insmod failed"
echo "@@INFO kernel=$(uname -r) hz=$(hdr HZ) cpus=$(grep -c ^processor /proc/cpuinfo) clocksource=$cs mode=$mode"

# run NAME SECS LOAD-ARGS...: load, bench the ops, run, stop, dump stats.
run() {
	name=$1 t=$2
	shift 2
	load "$@"
	ctl bench
	ctl start
	sleep "$t"
	ctl stop
	echo "@@STATS $name"
	cat $d/stats
	echo "@@END"
}

# The scale sweep: N timers 1000..20000 jiffies out, re-armed when they
# run: from jiffy 1000 on about N/19000 expire per jiffy, which an emulated
# CPU keeps up with at a million even on hrtimer; one runner at a time, so
# a million of them fit in the guest.
ctl clear
for size in $sizes; do
	for r in $runners; do
		case $r in
		straight|ordered) [ "$size" -le 8192 ] || continue ;;
		hash_sorted) [ "$size" -le 131072 ] || continue ;;
		esac
		run "sweep-$size-$r" $sweep_secs long count="$size" min=1000 max=20000 seed=3 engines="$r"
	done
done
echo "@@COMPARE sweep"
cat $d/compare
echo "@@END"

# The workloads, all runners side by side. ops (activity per tick and
# runner) and the mixed count are kept low enough that an emulated CPU
# keeps up with the tick on five runners: an overloaded guest would measure
# its own backlog, not the wheels.
ctl clear
big=$(but straight ordered) on=straight,ordered
capped() { [ "$1" -le 8192 ] && echo "$1" || echo 8192; }
run timeouts $secs timeouts count=$n seed=1 ops=100 engines=$big
run timeouts $secs timeouts count="$(capped $n)" seed=1 ops=100 engines=$on
run expiring $secs expiring count=$n seed=1 engines=$big
run expiring $secs expiring count="$(capped $n)" seed=1 engines=$on
run long $secs long count=$n seed=1 max=$longmax engines=$big
run long $secs long count="$(capped $n)" seed=1 max=$longmax engines=$on
run burst $burst_secs burst count=$nburst seed=1 engines=$big
run burst $burst_secs burst count="$(capped $nburst)" seed=1 engines=$on
run mixed $secs mixed count=$nmixed seed=1 ops=100 engines=$big
run mixed $secs mixed count="$(capped $nmixed)" seed=1 ops=100 engines=$on
echo "@@COMPARE workloads"
cat $d/compare
echo "@@END"
rmmod twheel || fail "rmmod failed"
# tsc-early becoming tsc (refined calibration) is fine; leaving the TSC is not.
cs2=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case "$cs2" in
tsc*) ;;
*) fail "the clocksource changed from $cs to $cs2 during the run" ;;
esac
echo "compare: done"
