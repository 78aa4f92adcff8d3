#!/bin/sh
# The comparison's measuring part: every workload on every runner of the
# twheel loaded on this system, side by side, then the scale sweep. Plain
# sh and busybox suffice; nothing here needs QEMU. scripts/compare.sh runs
# it in its guest (insmod'ed with every runner) and, with --host, on the
# machine it runs on, against the twheel already loaded there.
#   sh compare.sh [full|quick] [--check] [--require-tsc] [--traffic]
# --check: the preflight alone (root, debugfs, twheel loaded and idle).
# --require-tsc: for the guest: stop at once ("compare: no TSC") unless
#   the clocksource is the TSC, and fail if it changes during the run.
# --traffic: for the guest, which has no traffic of its own: run
#   traffic.sh (real TCP over lo) during the real traffic part.
# Real traffic: with the shadow loaded (engines=...,shadow), last of all
# the kernel's own timer_list traffic is mirrored into every engine for a
# few seconds (this machine's own, or traffic.sh's in the guest).
# The engines whose operations walk their timers take fewer (their
# max_timers key): the workloads run on those that take at most 8192
# apart, and the sweep leaves out the sizes a runner does not take.
# Prints, between markers, each run's stats (for the distributions) and the
# compare tables; scripts/compare.sh turns them into markdown, CSV and a
# plot. Loads are sized by the module's admission (load_fit). At the end
# the workload is unloaded; the module and its compare rows stay.
mode=full check=0 tsc=0 traffic=0
for a in "$@"; do
	case "$a" in
	full|quick) mode=$a ;;
	--check) check=1 ;;
	--require-tsc) tsc=1 ;;
	--traffic) traffic=1 ;;
	*) echo "compare: unknown argument $a" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.sh"

if [ "$mode" = quick ]; then
	sweep_secs=3 sweep_min=250 secs=3 burst_secs=6 n=2000 nmixed=1000 nburst=5000 longmax=20000 \
		sizes="1000 10000"
else
	sweep_secs=8 sweep_min=1000 secs=8 burst_secs=8 n=10000 nmixed=2000 nburst=100000 \
		longmax=1048576 sizes="1000 10000 100000 1000000"
fi

fail() { echo "compare: $*"; exit 1; }
refuse() { echo "compare: $*" >&2; exit 2; }
ctl() { echo "$*" >$d/control || fail "control refused: $*"; }
# The loads below are sized for an emulated CPU; where admission finds one
# too much for this machine it is run at the largest count that fits.
load() { load_fit "$@" || fail "load refused: $*"; }

# The preflight: what this script needs of the system it runs on. Kernel
# lockdown (Secure Boot) first: twheel's control file is refused under it.
. "$(dirname "$0")/lockdown.sh"
tw_lockdown_explain compare >&2 || exit 2
[ "$(id -u)" = 0 ] || refuse "needs root: twheel's debugfs files are root's only (run it with sudo)"
awk '$2 == "/sys/kernel/debug" && $3 == "debugfs" { m = 1 } END { exit !m }' /proc/mounts ||
	refuse "debugfs is not mounted at /sys/kernel/debug (mount -t debugfs none /sys/kernel/debug)"
[ -d /sys/module/twheel ] ||
	refuse "twheel is not loaded (insmod twheel.ko; after a DKMS install: modprobe twheel)"
[ -w $d/control ] || refuse "twheel is loaded but $d/control is missing"
[ "$(top state)" != running ] ||
	refuse "a workload is running on twheel: stop it first (echo stop > $d/control)"
[ $check -eq 0 ] || exit 0

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
if [ $tsc -eq 1 ]; then
	case "$cs" in
	tsc*) ;;
	*) echo "compare: no TSC clocksource (running on $cs)"; exit 0 ;;
	esac
fi
# The runners this twheel runs: its stats blocks but the softirq one, and
# but the shadow's (it runs the real traffic only, at the end).
runners=$(sed -n 's/^\[\(.*\)\]$/\1/p' $d/stats | grep -v -x 'softirq\|shadow.*')
shadow=$(grep -c -x '\[shadow\]' $d/stats)
[ -n "$runners" ] || fail "no runner in $d/stats"
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
echo "@@INFO kernel=$(uname -r) hz=$(hdr HZ) cpus=$(grep -c ^processor /proc/cpuinfo) clocksource=$cs mode=$mode cpu=${cpu:-$(uname -m)}"

# run NAME SECS LOAD-ARGS...: load, bench the ops, run, stop, dump stats.
# Nothing when engines= names none (this twheel runs none of that group).
run() {
	name=$1 t=$2
	shift 2
	case " $* " in *" engines= "*) return 0 ;; esac
	load "$@"
	ctl bench
	ctl start
	sleep "$t"
	ctl stop
	echo "@@STATS $name"
	cat $d/stats
	echo "@@END"
}

# The scale sweep: N timers 1000..20000 jiffies out (250.. in quick mode,
# so that its 3 s see expiries), re-armed when they run: from jiffy 1000
# on about N/19000 expire per jiffy, which an emulated CPU keeps up with
# at a million even on hrtimer; one runner at a time, so a million of them
# fit in the guest.
ctl clear
for size in $sizes; do
	for r in $runners; do
		fits "$r" "$size" || continue
		run "sweep-$size-$r" $sweep_secs long count="$size" min=$sweep_min max=20000 seed=3 engines="$r"
	done
done
echo "@@SWEEP long min=$sweep_min max=20000"
echo "@@COMPARE sweep"
cat $d/compare
echo "@@END"

# The workloads, all runners side by side. ops (activity per tick and
# runner) and the mixed count are kept low enough that an emulated CPU
# keeps up with the tick on five runners: an overloaded guest would measure
# its own backlog, not the wheels.
ctl clear
# the runners that take at most 8192 timers (straight's and ordered's
# operations walk them all) apart
big="" on=""
for r in $runners; do
	if fits "$r" 8193; then big="$big,$r"; else on="$on,$r"; fi
done
big=${big#,} on=${on#,}
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

# Real traffic: the kernel's own timers, mirrored into every engine.
if [ "$shadow" -gt 0 ]; then
	ctl clear
	load shadow count=8192 duration=0
	ctl start
	if [ $traffic -eq 1 ]; then
		sh "$(dirname "$0")/traffic.sh" "$secs" 4 || fail "traffic.sh failed"
	else
		sleep "$secs"
	fi
	ctl stop
	echo "@@STATS shadow"
	cat $d/stats
	echo "@@END"
	echo "@@COMPARE shadow"
	cat $d/compare
	echo "@@END"
fi
ctl unload
if [ $tsc -eq 1 ]; then
	# tsc-early becoming tsc (refined calibration) is fine; leaving the
	# TSC is not.
	cs2=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	case "$cs2" in
	tsc*) ;;
	*) fail "the clocksource changed from $cs to $cs2 during the run" ;;
	esac
fi
echo "compare: done"
