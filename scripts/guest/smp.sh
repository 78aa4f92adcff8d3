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
#   smp.sh [full|quick]
# The columns: percpu, remote, runner, cpus; ops (activity ops run, every
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
	secs=2 count=2000 ops=100
else
	secs=8 count=10000 ops=400
fi
cpus=$(grep -c '^processor' /proc/cpuinfo)
remotes="0 10 50 90"
[ "$cpus" -lt 2 ] && remotes=0
set -- classic modern timer_list
# g RUNNER KEY: a value of the stats read after the run ("-" if none)
g() { _v=$(sget "$1" "$2"); echo "${_v:--}"; }

echo "@@SMP"
echo "percpu,remote,runner,cpus,ops,ops_per_s,op_ns,lock_acquired,lock_contended,contended_pct,wait_p99_ns,remote_ops,migrations,runs,runs_early,per_op_acq,per_op_cont,per_op_wait_ns,per_remote_op_acq,per_remote_op_cont,per_remote_op_wait_ns,nested"
for pc in 0 1; do
	rmmod twheel 2>/dev/null
	insmod /lib/twheel/twheel.ko percpu=$pc engines=classic,modern,timer_list ||
		{ bad "smp: insmod percpu=$pc"; continue; }
	for rem in $remotes; do
		load_fit timeouts count=$count ops=$ops cpus=all remote=$rem duration=0 ||
			{ bad "smp: percpu=$pc remote=$rem: load refused"; continue; }
		ctl start || { bad "smp: percpu=$pc remote=$rem: start"; continue; }
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
			echo "$pc $rem $r $cpus $(g $r activity_ops) $(g $r activity_ns) $t0 $t1 $(g $r lock_acquired) $(g $r lock_contended) $(g $r lock_wait_ns_p99) $(g $r remote_ops) $(g $r migrations) $(g $r runs) $(g $r runs_early) $(g $r lock_per_op_acquired) $(g $r lock_per_op_contended) $(g $r lock_per_op_wait_ns) $(g $r lock_per_remote_op_acquired) $(g $r lock_per_remote_op_contended) $(g $r lock_per_remote_op_wait_ns) $(g $r lock_nested)" |
				awk '{
					ops = $5; secs = $8 - $7
					ops_s = secs > 0 ? sprintf("%.0f", ops / secs) : "-"
					op_ns = ops > 0 ? sprintf("%.0f", $6 / ops) : "-"
					pct = $9 != "-" && $9 > 0 ? sprintf("%.2f", 100 * $10 / $9) : "-"
					print $1 "," $2 "," $3 "," $4 "," ops "," ops_s "," op_ns "," $9 "," $10 "," pct "," $11 "," $12 "," $13 "," $14 "," $15 "," $16 "," $17 "," $18 "," $19 "," $20 "," $21 "," $22
				}'
		done
	done
	rmmod twheel || bad "smp: rmmod percpu=$pc"
done
echo "@@END"
echo "smp: $fails failures"
[ $fails -eq 0 ]
