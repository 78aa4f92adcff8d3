#!/bin/sh
# In the guest: make compare's SMP section. classic, modern and timer_list
# on every CPU of the guest, percpu=0 (one instance, one lock every CPU's
# ops take) against percpu=1 (an instance and a lock per CPU), at
# remote=0, 10, 50 and 90 (per cent of each CPU's ops on another CPU's
# timers: scripts/../docs/usage.md, remote=): a timeouts workload spread
# over every CPU (cpus=all) for SECS seconds a run. On a guest of 1 CPU
# (the scaling's baseline) remote=0 only: remote= needs 2 CPUs and the
# load refuses it on one. ops= is per tick, dealt out to the CPUs, so
# ops_per_s is the load's whatever the CPUs: op_ns is the figure. Prints
# one CSV row a runner and run between "@@SMP" and "@@END", then
# "smp: N failures".
#   smp.sh [full|quick [ROUNDS]]
# full: ROUNDS (5) rounds of 4 s runs of 10000 timers, 400 ops a tick;
# quick: 2 rounds of 1 s runs of 2000 timers, 100 ops a tick. A round runs
# every configuration once, percpu=0 first in odd rounds and percpu=1
# first in even ones, then percpu=1 remote=0 again as pass b: the A/A
# control (the same configuration twice in a round; every other run is
# pass a). scripts/results.py smp makes the medians and intervals.
# The columns: round, pass, percpu, remote, runner, cpus; admission ("-",
# or lowered/forced: load_fit changed the load, and the round does not
# count); ops (activity ops run, every
# CPU's), ops_per_s (of the run's wall time), op_ns (ns an op took in the
# ticks' activity loops, lock waits and remote ops included: activity_ns
# / activity_ops); lock_acquired, lock_contended, contended_pct, and
# wait_p99_ns (the engine's lock or locks, summed over its instances; "-"
# for timer_list, whose locks are the kernel's: with percpu=1 it takes no
# twheel lock at all, with percpu=0 twheel's one runner lock around every
# op and callback, uncounted: its stats' runner_lock says which); remote_ops, migrations
# ("-" with percpu=0: one instance, nothing is remote); runs, runs_early;
# then, counted per CPU on the acquirer's side (docs/driver.md, Per-CPU
# ticks): per_op_acq, per_op_cont, per_op_wait_ns (the activity ops' own
# lock acquisitions, contended ones and ns waited, per op),
# per_remote_op_acq, per_remote_op_cont, per_remote_op_wait_ns (the same
# per remote op), nested (acquisitions made holding another runner lock).
# A run with an early timer, broken counters or a nested acquisition is a
# failure.
. "$(dirname "$0")/lib.sh"
mode=${1:-full}
if [ "$mode" = quick ]; then
	secs=1 count=2000 ops=100 rounds=2
else
	secs=4 count=10000 ops=400 rounds=5
fi
rounds=${2:-$rounds}
cpus=$(grep -c '^processor' /proc/cpuinfo)
remotes="0 10 50 90"
[ "$cpus" -lt 2 ] && remotes=0
set -- classic modern timer_list
# g RUNNER KEY: a value of the stats read after the run ("-" if none)
g() { _v=$(sget "$1" "$2"); echo "${_v:--}"; }

echo "@@SMP"
echo "round,pass,percpu,remote,runner,cpus,admission,ops,ops_per_s,op_ns,lock_acquired,lock_contended,contended_pct,wait_p99_ns,remote_ops,migrations,runs,runs_early,per_op_acq,per_op_cont,per_op_wait_ns,per_remote_op_acq,per_remote_op_cont,per_remote_op_wait_ns,nested"
# measure ROUND PASS PERCPU REMOTE RUNNER...: one run of the module
# (loaded with PERCPU), a row for each RUNNER
measure() {
	m_rd=$1 m_ps=$2 pc=$3 rem=$4
	shift 4
	load_fit timeouts count=$count ops=$ops cpus=all remote=$rem duration=0 2>/tmp/fit.err ||
		{ bad "smp: percpu=$pc remote=$rem: load refused"; return; }
	adm=-
	grep -q 'count=' /tmp/fit.err && adm=lowered
	grep -q 'force=1' /tmp/fit.err && adm=forced
	cat /tmp/fit.err >&2
	ctl start || { bad "smp: percpu=$pc remote=$rem: start"; return; }
	t0=$(now)
	sleep $secs
	ctl stop
	t1=$(now)
	cat $d/stats > /tmp/smp.stats
	snap /tmp/smp.stats
	for r in "$@"; do
		[ "$(g $r invariant)" = ok ] || bad "smp: percpu=$pc remote=$rem $r: counters broken"
		[ "$(g $r runs_early)" = 0 ] || bad "smp: percpu=$pc remote=$rem $r: $(g $r runs_early) runs early"
		case "$(g $r lock_nested)" in
		0 | -) ;;
		*) bad "smp: percpu=$pc remote=$rem $r: $(g $r lock_nested) lock acquisitions nested" ;;
		esac
		echo "$m_rd $m_ps $pc $rem $r $cpus $adm $(g $r activity_ops) $(g $r activity_ns) $t0 $t1 $(g $r lock_acquired) $(g $r lock_contended) $(g $r lock_wait_ns_p99) $(g $r remote_ops) $(g $r migrations) $(g $r runs) $(g $r runs_early) $(g $r lock_per_op_acquired) $(g $r lock_per_op_contended) $(g $r lock_per_op_wait_ns) $(g $r lock_per_remote_op_acquired) $(g $r lock_per_remote_op_contended) $(g $r lock_per_remote_op_wait_ns) $(g $r lock_nested)" |
			awk '{
				ops = $8; secs = $11 - $10
				ops_s = secs > 0 ? sprintf("%.0f", ops / secs) : "-"
				op_ns = ops > 0 ? sprintf("%.0f", $9 / ops) : "-"
				pct = $12 != "-" && $12 > 0 ? sprintf("%.2f", 100 * $13 / $12) : "-"
				print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," ops "," ops_s "," op_ns "," $12 "," $13 "," pct "," $14 "," $15 "," $16 "," $17 "," $18 "," $19 "," $20 "," $21 "," $22 "," $23 "," $24 "," $25
			}'
	done
}
rd=1
while [ $rd -le "$rounds" ]; do
	order="0 1"
	[ $((rd % 2)) = 1 ] || order="1 0"
	for pc in $order; do
		rmmod twheel 2>/dev/null
		insmod /lib/twheel/twheel.ko percpu=$pc engines=classic,modern,timer_list ||
			{ bad "smp: insmod percpu=$pc"; continue; }
		for rem in $remotes; do
			measure $rd a $pc $rem "$@"
		done
		[ $pc = 0 ] || measure $rd b 1 0 "$@"
		rmmod twheel || bad "smp: rmmod percpu=$pc"
	done
	rd=$((rd + 1))
done
echo "@@END"
echo "smp: $fails failures"
[ $fails -eq 0 ]
