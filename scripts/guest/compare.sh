#!/bin/sh
# The comparison's measuring part: every workload on every runner of the
# twheel loaded on this system, side by side, then the scale sweep. Plain
# sh and busybox suffice; nothing here needs QEMU. scripts/compare.sh runs
# it in its guest (insmod'ed with every runner) and, with --host, on the
# machine it runs on, against the twheel already loaded there.
#   sh compare.sh [full|quick] [--reps=N] [--check] [--require-tsc] [--traffic]
# --reps=N: the workloads' rounds (below): 5 by default, 3 in quick mode.
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
mode=full check=0 tsc=0 traffic=0 reps=
for a in "$@"; do
	case "$a" in
	full|quick) mode=$a ;;
	--reps=*) reps=${a#--reps=}
		case "$reps" in ''|*[!0-9]*|0) echo "compare: --reps takes a count >= 1" >&2; exit 2 ;; esac ;;
	--check) check=1 ;;
	--require-tsc) tsc=1 ;;
	--traffic) traffic=1 ;;
	*) echo "compare: unknown argument $a" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.sh"

if [ "$mode" = quick ]; then
	sweep_secs=3 sweep_min=250 secs=3 burst_secs=6 n=2000 nmixed=1000 nburst=5000 longmax=20000 \
		sizes="1000 10000" reps=${reps:-3}
else
	sweep_secs=8 sweep_min=1000 secs=8 burst_secs=8 n=10000 nmixed=2000 nburst=100000 \
		longmax=1048576 sizes="1000 10000 100000 1000000" reps=${reps:-5}
fi

fail() { echo "compare: $*"; exit 1; }
refuse() { echo "compare: $*" >&2; exit 2; }
# must COMMAND: a control write that must be taken (lib.sh's ctl, which
# load_fit uses, reports a refusal instead)
must() { ctl "$@" || fail "control refused: $* [$why]"; }
# The loads below are sized for an emulated CPU; where admission finds one
# too much for this machine it is run at the largest count that fits.
load() { load_fit "$@" || fail "load refused: $* [$why]"; }

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
# the compiler of the kernel, which built the module with the same flags
cc=$(sed -n 's/.*gcc[^ ]* ([^)]*) \([0-9][0-9.]*\).*/gcc-\1/p' /proc/version)
echo "@@INFO kernel=$(uname -r) hz=$(hdr HZ) cpus=$(grep -c ^processor /proc/cpuinfo) clocksource=$cs mode=$mode cc=${cc:-unknown} cpu=${cpu:-$(uname -m)}"

# run NAME SECS LOAD-ARGS...: load, bench the ops, run, stop, dump stats.
# Nothing when engines= names none (this twheel runs none of that group).
run() {
	name=$1 t=$2
	shift 2
	case " $* " in *" engines= "*) return 0 ;; esac
	load "$@"
	must bench
	must start
	sleep "$t"
	must stop
	echo "@@STATS $name"
	cat $d/stats
	echo "@@END"
}

# The scale sweep: N timers 1000..20000 jiffies out (250.. in quick mode,
# so that its 3 s see expiries), re-armed when they run: from jiffy 1000
# on about N/19000 expire per jiffy, which an emulated CPU keeps up with
# at a million even on hrtimer; one runner at a time, so a million of them
# fit in the guest.
must clear
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

# The workloads, in rounds (reps=, 5 by default, 3 in quick mode): each
# round runs every workload in three passes, the runners that take more
# than 8192 timers split in two halves (a and b) and the runners that take
# at most 8192 apart (straight's and ordered's operations walk them all:
# pass c). timer_list runs in both halves, the second time reported as
# timer_list_b: the A/A control, the same runner in two passes of a round,
# whose difference is the run's noise floor. Each round rotates the
# runners' order (so which half a runner is in, beside whom) and the order
# of the passes. ops (activity per tick and runner) and the mixed count are
# kept low enough that an emulated CPU keeps up with the tick: an
# overloaded guest would measure its own backlog, not the wheels.
# Each run is cleared, then its compare rows printed under
#   @@RUN round=R pass=P workload=W count=ASKED secs=S admission=ok|lowered|forced overload_stops=D
# and, for each of its runners, "@@RUNNER NAME activity_ops=A runs=R
# missed_jiffies=M" (M "-" for the kernel's runners): what scripts/results.py
# marks and leaves out of the medians.
big="" on=""
for r in $runners; do
	[ "$r" = timer_list ] && continue
	if fits "$r" 8193; then big="$big $r"; else on="$on $r"; fi
done
# rotate K WORD...: the words, the first K moved to the end
rotate() {
	k=$1
	shift
	[ $# -gt 0 ] || return 0
	k=$((k % $#))
	while [ "$k" -gt 0 ]; do
		w=$1
		shift
		set -- "$@" "$w"
		k=$((k - 1))
	done
	echo "$@"
}
commas() { echo $* | tr ' ' ,; }
capped() { [ "$1" -le 8192 ] && echo "$1" || echo 8192; }
# measure ROUND PASS NAME SECS COUNT LOAD-ARGS...: one run of the rounds
measure() {
	mround=$1 mpass=$2 mname=$3 mt=$4 mcount=$5
	shift 5
	case " $* " in *" engines= "*) return 0 ;; esac
	must clear
	stops0=$(top overload_stops)
	adm=ok
	load_fit "$@" 2>/tmp/compare.adm || fail "load refused: $*"
	cat /tmp/compare.adm >&2
	if grep -q 'force=1' /tmp/compare.adm; then adm=forced
	elif grep -q '^admission:' /tmp/compare.adm; then adm=lowered; fi
	must bench
	must start
	sleep "$mt"
	must stop
	echo "@@RUN round=$mround pass=$mpass workload=$mname count=$mcount secs=$mt admission=$adm overload_stops=$(($(top overload_stops) - ${stops0:-0}))"
	snap
	for r in $(echo "$*" | sed -n 's/.*engines=\([^ ]*\).*/\1/p' | tr , ' '); do
		m=$(sget "$r" missed_jiffies)
		echo "@@RUNNER $r activity_ops=$(sget "$r" activity_ops) runs=$(sget "$r" runs) missed_jiffies=${m:--}"
	done
	echo "@@COMPARE run"
	cat $d/compare
	echo "@@END"
	if [ "$mround" = 1 ]; then
		if [ "$mpass" = b ]; then echo "@@STATS $mname:b"; else echo "@@STATS $mname"; fi
		cat $d/stats
		echo "@@END"
	fi
}
# fitted COUNT LOAD-ARGS...: the count admission takes of this load (COUNT
# if it takes it as asked); loaded on every runner of the rounds' halves at
# once, so that each half, fewer runners, takes it in every round: every
# round of a workload runs at one N
fitted() {
	fn=$1
	shift
	must clear
	load_fit "$@" 2>/tmp/compare.fit || fail "load refused: $* [$why]"
	fc=$(sed -n 's/^admission: .*; count=\([0-9]*\)$/\1/p' /tmp/compare.fit | tail -n 1)
	must unload
	echo "${fc:-$fn}"
}
wide=$(commas $big $(echo "$runners" | grep -x timer_list))
n_to=$(fitted $n timeouts count=$n seed=1 ops=100 engines=$wide)
n_ex=$(fitted $n expiring count=$n seed=1 engines=$wide)
n_lo=$(fitted $n long count=$n seed=1 max=$longmax engines=$wide)
n_bu=$(fitted $nburst burst count=$nburst seed=1 engines=$wide)
n_mi=$(fitted $nmixed mixed count=$nmixed seed=1 ops=100 engines=$wide)
# workloads ROUND PASS ENGINES COUNT-FILTER: every workload of one pass
workloads() {
	wr=$1 wp=$2 we=$3 wc=$4
	measure "$wr" "$wp" timeouts $secs "$($wc $n_to)" timeouts count="$($wc $n_to)" seed=1 ops=100 engines=$we
	measure "$wr" "$wp" expiring $secs "$($wc $n_ex)" expiring count="$($wc $n_ex)" seed=1 engines=$we
	measure "$wr" "$wp" long $secs "$($wc $n_lo)" long count="$($wc $n_lo)" seed=1 max=$longmax engines=$we
	measure "$wr" "$wp" burst $burst_secs "$($wc $n_bu)" burst count="$($wc $n_bu)" seed=1 engines=$we
	measure "$wr" "$wp" mixed $secs "$($wc $n_mi)" mixed count="$($wc $n_mi)" seed=1 ops=100 engines=$we
}
same() { echo "$1"; }
echo "@@REPS $reps"
round=1
while [ $round -le $reps ]; do
	set -- $(rotate $((round - 1)) $big)
	half=$((($# + 1) / 2)) a="" b="" i=0
	for r in "$@"; do
		i=$((i + 1))
		if [ $i -le $half ]; then a="$a $r"; else b="$b $r"; fi
	done
	[ -z "$(echo "$runners" | grep -x timer_list)" ] || { a="$a timer_list" b="$b timer_list"; }
	for p in $(rotate $((round - 1)) a b c); do
		case $p in
		a) workloads $round a "$(commas $a)" same ;;
		b) workloads $round b "$(commas $b)" same ;;
		c) workloads $round c "$(commas $(rotate $((round - 1)) $on))" capped ;;
		esac
	done
	round=$((round + 1))
done

# Real traffic: the kernel's own timers, mirrored into every engine.
if [ "$shadow" -gt 0 ]; then
	must clear
	load shadow count=8192 duration=0
	must start
	if [ $traffic -eq 1 ]; then
		sh "$(dirname "$0")/traffic.sh" "$secs" 4 || fail "traffic.sh failed"
	else
		sleep "$secs"
	fi
	must stop
	echo "@@STATS shadow"
	cat $d/stats
	echo "@@END"
	echo "@@COMPARE shadow"
	cat $d/compare
	echo "@@END"
fi
must unload
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
