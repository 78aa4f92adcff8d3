#!/bin/sh
# In the guest: per-CPU engines (percpu=1). A mixed
# workload spread over every CPU runs on each engine's per-CPU instances,
# each from its own CPU's tick: every engine has a [<engine>/cpu<N>] block
# per CPU with runs on each, the invariant per CPU and in total (held =
# pending, the totals the sums of the blocks), the exact engines exact,
# nothing early, the instances' locks counted on the acquirers' side: one
# acquisition an activity op, none nested. On 2 CPUs or more, remote=30:
# timers re-armed from another CPU move there (migrations, remote_ops on
# each CPU, the totals their sums), every guarantee kept; pinned=30
# deferrable=20: they move too, each run counted in its timer's base; on=30:
# re-arms aimed at another CPU move there (on_ops, migrations); remote=, on=,
# pinned= and deferrable= out of range or without 2 CPUs refused; the
# timer_list's ops take no runner lock (runner_lock: none), its timers set
# up with the shares' flags. A burst at pinned=30 deferrable=20: each base's
# arms and runs exactly its share, per CPU and in total. tick=nohz: each
# CPU's tick sleeps, and with pull=1 CPUs awake run the timers of CPUs
# asleep (pulled), pull=0 each its own; every guarantee kept; deferrable=100:
# no timer wakes a sleeping tick; rmmod with the activity on (remote=50
# pinned=30 deferrable=20, and pulling). Then percpu=0 as
# it always was (no per-CPU block, no cpus line), and percpu=0 with
# cpus=all (one instance, its ops from every CPU's tick), remote=30 there
# too; rmmod each time.
#   percpu.sh [MIN-CPUS [SCALE]]
#       fail unless MIN-CPUS CPUs are online (default 1; the test and the
#       debug kernels find 2 with QEMU's -smp 2); timer counts and
#       activity ops divided by SCALE (the debug kernel is several times
#       slower). The loads are forced past admission: what is checked
#       is correctness, not admission, and this guest runs on the wall
#       clock (two vCPUs at once), whose capacity follows the host's load.
. "$(dirname "$0")/lib.sh"
ops=$((80 / ${2:-1})) count=$((2000 / ${2:-1})) force=force=1
cpus=$(grep -c '^processor' /proc/cpuinfo)
[ "$cpus" -ge "${1:-1}" ] || { bad "percpu.sh wants ${1:-1} CPUs, the guest has $cpus"; echo "percpu: $fails failures"; exit 1; }
[ "$cpus" -ge 2 ] || ok "only $cpus CPU online: one instance an engine, no lock shared across CPUs, no timer moves"
# g BLOCK KEY: a value of the stats read after the run
g() { sget "$1" "$2"; }

# locks TAG BLOCK EXACT: the lock counts of one block, kept by its CPU (or,
# in a total, by every CPU): no acquisition nested in another; every
# activity op took a lock once around its engine op, exactly once if
# EXACT is 1 (no remote op); a remote op locked the other instance once,
# and its own once more to move the timer in
locks() {
	sv lk_n "$2" lock_nested
	sv lk_o "$2" lock_op_acquired
	sv lk_a "$2" activity_ops
	[ "$lk_n" = 0 ] || bad "$1 [$2]: lock_nested ${lk_n:-missing}"
	if [ "$3" = 1 ]; then
		[ "$lk_o" = "$lk_a" ] || bad "$1 [$2]: lock_op_acquired ${lk_o:-missing}, activity_ops $lk_a: not one acquisition an op"
		sv lk_p "$2" lock_per_op_acquired
		[ "$lk_a" = 0 ] || [ "$lk_p" = 1.000 ] || bad "$1 [$2]: lock_per_op_acquired $lk_p"
		return
	fi
	[ "${lk_o:-0}" -ge "${lk_a:-1}" ] || bad "$1 [$2]: lock_op_acquired ${lk_o:-missing} below activity_ops $lk_a"
	sv lk_ra "$2" lock_remote_acquired
	sv lk_r "$2" remote_ops
	sv lk_m "$2" migrations
	sv lk_on "$2" on_ops
	[ "${lk_ra:-0}" -ge $((${lk_r:-1} + ${lk_on:-0} + ${lk_m:-0})) ] ||
		bad "$1 [$2]: lock_remote_acquired ${lk_ra:-missing} below remote_ops $lk_r + on_ops $lk_on + migrations $lk_m"
}

# judge TAG BLOCK RUNNER: the guarantees of one block after a stop
judge() {
	after_stop "$1 [$2]" "$2"
	sv runs "$2" runs
	[ "${runs:-0}" -gt 0 ] || bad "$1 [$2]: no timer ran"
	case " $exact " in
	*" $3 "*)
		sv j_ex "$2" runs_exact
		[ "$j_ex" = "$runs" ] || bad "$1 [$2]: $j_ex of $runs runs exact" ;;
	esac
	case " $engines " in
	*" $3 "*)
		sv j_held "$2" held 3
		[ "$j_held" = "(=" ] || bad "$1 [$2]: held is not pending" ;;
	esac
}

# run TAG LOAD-ARGS...: load, secs (4) s of activity, stop, keep the stats
secs=4
run() {
	tag=$1
	shift
	load_fit "$@" || { bad "$tag: load $*"; return 1; }
	ctl start || { bad "$tag: start"; return 1; }
	sleep $secs
	ctl stop || bad "$tag: stop"
	cat $d/stats > /tmp/pc.stats
	snap /tmp/pc.stats
}

rmmod twheel 2>/dev/null
# percpu=1: engines=all is every runner but the shadow, which it refuses
insmod /lib/twheel/twheel.ko percpu=1 engines=all,shadow 2>/dev/null &&
	{ bad "percpu=1 took the shadow"; rmmod twheel; }
insmod /lib/twheel/twheel.ko percpu=1 tick=nohz pull=2 2>/dev/null &&
	{ bad "pull=2 taken"; rmmod twheel; }
insmod /lib/twheel/twheel.ko percpu=1 engines=all || { bad "insmod percpu=1"; echo "percpu: $fails failures"; exit 1; }
ctl load mixed cpus=$cpus-$cpus 2>/dev/null && bad "cpus= took CPU $cpus, which is not online"
if run percpu=1 mixed count=$count ops=$ops $force cpus=all; then
	want=$(seq 0 $((cpus - 1)) | tr '\n' ' ')
	[ "$(sed -n 's/^cpus: //p' /tmp/pc.stats) " = "$want" ] ||
		bad "percpu=1: cpus: $(sed -n 's/^cpus: //p' /tmp/pc.stats), not $want"
	for e in $engines; do
		judge percpu=1 "$e" "$e"
		sum=0 acq=0
		c=0
		while [ $c -lt "$cpus" ]; do
			judge percpu=1 "$e/cpu$c" "$e"
			sum=$((sum + ${runs:-0}))
			sv a "$e/cpu$c" lock_acquired
			[ "${a:-0}" -gt 0 ] || bad "percpu=1 [$e/cpu$c]: lock_acquired ${a:-missing}"
			sv v "$e/cpu$c" lock_wait_ns_p99
			[ -n "$v" ] || bad "percpu=1 [$e/cpu$c]: no lock_wait_ns_p99"
			locks percpu=1 "$e/cpu$c" 1
			acq=$((acq + ${lk_o:-0}))
			c=$((c + 1))
		done
		sv v "$e" runs
		[ "$v" = "$sum" ] || bad "percpu=1 [$e]: runs $v, the CPUs' $sum"
		# the ops' (the ticks go on taking the locks after stop)
		sv v "$e" lock_op_acquired
		[ "$v" = "$acq" ] || bad "percpu=1 [$e]: lock_op_acquired $v, the CPUs' $acq"
		locks percpu=1 "$e" 1
	done
	for k in timer_list hrtimer; do
		judge percpu=1 $k $k
	done
	# timer_list: mod_timer and timer_delete from each CPU, no runner lock
	[ "$(g timer_list runner_lock)" = none ] || bad "percpu=1 [timer_list]: runner_lock $(g timer_list runner_lock), not none"
	[ "$(g timer_list timer_flags)" = 0 ] || bad "percpu=1 [timer_list]: timer_flags $(g timer_list timer_flags)"
	grep -q '^\[timer_list/cpu' /tmp/pc.stats && bad "percpu=1: a [timer_list/cpuN] block"
	c=0 l=""
	while [ $c -lt "$cpus" ]; do
		l="$l cpu$c: $(g classic/cpu$c runs) runs, lock contended $(g classic/cpu$c lock_contended) of $(g classic/cpu$c lock_acquired), wait p99 $(g classic/cpu$c lock_wait_ns_p99) ns;"
		c=$((c + 1))
	done
	ok "percpu=1 on $cpus CPUs: every engine ran on each, exact engines exact, none early, one lock acquisition an op, none nested; classic$l"
fi
# the bench and a second run on the same load: each timer in its instance
ctl bench || bad "percpu=1: bench"
[ "$(get classic/cpu0 pending)" = 0 ] || bad "percpu=1: pending after bench"

# bases TAG BLOCK N: a block of a burst of N timers at pinned=30
# deferrable=20, each armed once and run once: of each hundred timers 30
# pinned (BASE_LOCAL), 20 deferrable (BASE_DEF), 50 neither, exactly
bases() {
	for b in local:30 global:50 def:20; do
		for k in arms runs; do
			sv v "$2" "${k}_${b%:*}"
			[ "$v" = $(($3 * ${b#*:} / 100)) ] ||
				bad "$1 [$2]: ${k}_${b%:*} ${v:-missing}, not $(($3 * ${b#*:} / 100))"
		done
	done
}
secs=2
if run "percpu=1 pinned=30 deferrable=20" burst count=$count min=20 max=80 $force cpus=all pinned=30 deferrable=20; then
	for e in $engines timer_list; do
		judge "percpu=1 burst pinned=30 deferrable=20" "$e" "$e"
		bases "percpu=1 burst pinned=30 deferrable=20" "$e" "$count"
		c=0
		while [ $c -lt "$cpus" ] && [ "$e" != timer_list ] && [ $((count % (cpus * 100))) = 0 ]; do
			bases "percpu=1 burst pinned=30 deferrable=20" "$e/cpu$c" $((count / cpus))
			c=$((c + 1))
		done
	done
	[ "$(g timer_list timer_flags)" = TIMER_PINNED=30 ] && [ "$(sget timer_list timer_flags 3)" = TIMER_DEFERRABLE=20 ] ||
		bad "pinned=30 deferrable=20 [timer_list]: timer_flags $(g timer_list timer_flags) $(sget timer_list timer_flags 3)"
	ok "percpu=1 burst of $count pinned=30 deferrable=20: every engine and timer_list armed and ran exactly 30 % of each hundred timers in BASE_LOCAL, 20 % in BASE_DEF, per CPU and in total; classic runs local/global/def $(g classic runs_local)/$(g classic runs_global)/$(g classic runs_def)"
fi
secs=4
# (a refused write takes seconds on the debug kernel: KUnit's
# percpu_parse_remote has the other bad values)
ctl load mixed cpus=all deferrable=101 2>/dev/null && bad "deferrable=101 taken"

# remote=: bad values refused; on one CPU refused too (nowhere to go)
for v in 101 -1 x ""; do
	ctl load mixed cpus=all remote=$v 2>/dev/null && bad "remote=$v taken"
done
ctl load mixed cpus=all pinned=101 2>/dev/null && bad "pinned=101 taken"
for v in 101 -1 x ""; do
	ctl load mixed cpus=all on=$v 2>/dev/null && bad "on=$v taken"
done
# remote TAG: the remote= run's checks, per CPU and in total: timers
# re-armed from another CPU move there, pinned or not (Linux 6.12's
# mod_timer() enqueues on the calling CPU's base; TIMER_PINNED picks only
# which of that CPU's bases)
remote() {
	for e in $engines; do
		judge "$1" "$e" "$e"
		sr=0 sm=0 c=0
		while [ $c -lt "$cpus" ]; do
			judge "$1" "$e/cpu$c" "$e"
			sv r "$e/cpu$c" remote_ops
			sv m "$e/cpu$c" migrations
			[ "${r:-0}" -gt 0 ] || bad "$1 [$e/cpu$c]: remote_ops ${r:-missing}"
			[ "${m:-0}" -gt 0 ] || bad "$1 [$e/cpu$c]: migrations ${m:-missing}"
			locks "$1" "$e/cpu$c" 0
			sr=$((sr + ${r:-0})) sm=$((sm + ${m:-0}))
			c=$((c + 1))
		done
		sv r "$e" remote_ops
		sv m "$e" migrations
		[ "$r" = "$sr" ] || bad "$1 [$e]: remote_ops $r, the CPUs' $sr"
		[ "$m" = "$sm" ] || bad "$1 [$e]: migrations $m, the CPUs' $sm"
		locks "$1" "$e" 0
	done
	for k in timer_list hrtimer; do
		judge "$1" $k $k
	done
}
if [ "$cpus" -lt 2 ]; then
	ctl load mixed cpus=all remote=30 2>/dev/null && bad "remote=30 taken on one CPU"
	ctl load mixed cpus=all on=30 2>/dev/null && bad "on=30 taken on one CPU"
	ok "remote=, on=: on one CPU refused"
else
	if run "percpu=1 remote=30" mixed count=$count ops=$ops $force cpus=all remote=30; then
		remote "percpu=1 remote=30"
		ok "percpu=1 remote=30 on $cpus CPUs: every engine's timers moved on each, exact engines exact, none early; classic: $(g classic remote_ops) remote ops, $(g classic migrations) migrations, lock contended $(g classic lock_contended) of $(g classic lock_acquired), wait p99 $(g classic lock_wait_ns_p99) ns; per op: $(g classic lock_per_op_acquired) acquisitions, $(g classic lock_per_op_contended) contended, $(g classic lock_per_op_wait_ns) ns waited; per remote op: $(g classic lock_per_remote_op_acquired), $(g classic lock_per_remote_op_contended), $(g classic lock_per_remote_op_wait_ns) ns; overload stops $(sed -n 's/^overload_stops: //p' /tmp/pc.stats)"
	fi
	if run "percpu=1 remote=30 pinned=30 deferrable=20" mixed count=$count ops=$ops $force cpus=all remote=30 pinned=30 deferrable=20; then
		remote "percpu=1 remote=30 pinned=30 deferrable=20"
		for e in $engines timer_list; do
			sv v "$e" runs
			[ "$v" = $(($(g "$e" runs_local) + $(g "$e" runs_global) + $(g "$e" runs_def))) ] ||
				bad "remote=30 pinned=30 deferrable=20 [$e]: runs $v, not runs_local + runs_global + runs_def"
			[ "$(g "$e" runs_local)" -gt 0 ] && [ "$(g "$e" runs_def)" -gt 0 ] ||
				bad "remote=30 pinned=30 deferrable=20 [$e]: runs_local $(g "$e" runs_local), runs_def $(g "$e" runs_def)"
		done
		ok "percpu=1 remote=30 pinned=30 deferrable=20: pinned and deferrable timers re-armed from another CPU moved to it as the kernel's do, every run counted in its base; classic: $(g classic remote_ops) remote ops, $(g classic migrations) migrations, runs local/global/def $(g classic runs_local)/$(g classic runs_global)/$(g classic runs_def)"
	fi
	# on=30: re-arms aimed at another CPU (add_timer_on()) move there
	if run "percpu=1 on=30" mixed count=$count ops=$ops $force cpus=all on=30; then
		for e in $engines; do
			judge "percpu=1 on=30" "$e" "$e"
			c=0
			while [ $c -lt "$cpus" ]; do
				judge "percpu=1 on=30" "$e/cpu$c" "$e"
				sv o "$e/cpu$c" on_ops
				sv m "$e/cpu$c" migrations
				[ "${o:-0}" -gt 0 ] || bad "on=30 [$e/cpu$c]: on_ops ${o:-missing}"
				[ "${m:-0}" -gt 0 ] || bad "on=30 [$e/cpu$c]: migrations ${m:-missing}"
				locks "percpu=1 on=30" "$e/cpu$c" 0
				c=$((c + 1))
			done
		done
		for k in timer_list hrtimer; do
			judge "percpu=1 on=30" $k $k
		done
		ok "percpu=1 on=30 on $cpus CPUs: arms aimed at another CPU moved there, every guarantee kept; classic: $(g classic on_ops) on= arms, $(g classic migrations) migrations, per aimed op $(g classic lock_per_remote_op_acquired) acquisitions, none nested"
	fi
fi
rmmod twheel || bad "rmmod percpu=1"

# tick=nohz with percpu=1: each CPU's tick sleeps to its instances' next
# jiffy with work. pull=1 (the default): a CPU asleep leaves its timers to
# a CPU awake, which runs them (pulled, counted in the sleeper's blocks),
# so one CPU does the waking; pull=0: each CPU wakes for its own. Either
# way every guarantee holds per CPU. A workload without activity ops: a
# CPU with ops ticks every jiffy, asleep never.
# wk: each CPU's wakeups since insmod, "N N ..."
wk() {
	c=0
	while [ $c -lt "$cpus" ]; do
		awk -v k="wakeups_cpu$c:" '/^\[/ { exit } $1 == k { printf "%s ", $2; exit }' /tmp/pc.stats
		c=$((c + 1))
	done
}
if [ "$cpus" -ge 2 ]; then
	for pl in 1 0; do
		insmod /lib/twheel/twheel.ko percpu=1 tick=nohz pull=$pl engines=all ||
			{ bad "insmod percpu=1 tick=nohz pull=$pl"; continue; }
		want=on
		[ $pl = 1 ] || want=off
		[ "$(top pull)" = $want ] || bad "pull=$pl: stats says pull: $(top pull)"
		if run "percpu=1 tick=nohz pull=$pl" long count=$count min=8 max=200 $force cpus=all; then
			pulled=0
			for e in $engines; do
				judge "nohz pull=$pl" "$e" "$e"
				c=0
				while [ $c -lt "$cpus" ]; do
					judge "nohz pull=$pl" "$e/cpu$c" "$e"
					sv v "$e/cpu$c" pulled
					pulled=$((pulled + ${v:-0}))
					c=$((c + 1))
				done
			done
			w=$(wk)
			lo=$(echo $w | tr ' ' '\n' | sort -n | head -n 1)
			hi=$(echo $w | tr ' ' '\n' | sort -n | tail -n 1)
			if [ $pl = 1 ]; then
				[ "$pulled" -gt 0 ] || bad "nohz pull=1: no timer pulled"
				[ $((lo * 10)) -le "$hi" ] || bad "nohz pull=1: wakeups by CPU $w: every CPU woke"
			else
				[ "$pulled" = 0 ] || bad "nohz pull=0: $pulled timers pulled"
				[ $((lo * 10)) -gt "$hi" ] || bad "nohz pull=0: wakeups by CPU $w: a CPU slept through its timers"
			fi
			ok "percpu=1 tick=nohz pull=$pl: every engine exact where it claims, none early, per CPU; wakeups by CPU $w; $pulled timers pulled (classic $(g classic pulled))"
		fi
		# pinned=100: every timer its CPU's own, none pulled, every CPU wakes
		if [ $pl = 1 ] && run "percpu=1 tick=nohz pull=1 pinned=100" long count=$count min=8 max=200 $force cpus=all pinned=100; then
			[ "$(sed -n 's/^pull: //p' /tmp/pc.stats)" = off ] || bad "nohz pinned=100: stats says pull: $(sed -n 's/^pull: //p' /tmp/pc.stats)"
			pulled=0
			for e in $engines; do
				judge "nohz pinned=100" "$e" "$e"
				sv v "$e" pulled
				pulled=$((pulled + ${v:-0}))
			done
			[ "$pulled" = 0 ] || bad "nohz pinned=100: $pulled timers pulled"
			ok "percpu=1 tick=nohz pull=1 pinned=100: no timer pulled, every guarantee kept; wakeups by CPU since insmod $(wk)"
		fi
		# deferrable=100: a burst due 250..300 jiffies after start (at
		# HZ 250, 1 to 1.2 s). Start arms every timer from one base jiffy
		# with the ticks stopped and its first ticks may run some already
		# due (a slow start: a tick the CPU has anyway), so count from
		# 0.5 s on: 1.5 s later, every timer due meanwhile, none has
		# run. No deferrable timer woke a CPU whose tick slept.
		if [ $pl = 1 ] && load_fit burst count=$count min=250 max=300 $force cpus=all deferrable=100 && ctl start; then
			f0=$fails
			sleep 0.5
			cat $d/stats > /tmp/pc.stats0
			sleep 1.5
			cat $d/stats > /tmp/pc.stats
			ctl stop || bad "nohz deferrable=100: stop"
			snap /tmp/pc.stats0
			r0=""
			for e in $engines; do
				sv v "$e" runs
				sv p "$e" pending
				r0="$r0$v:$p "
			done
			snap /tmp/pc.stats
			for e in $engines; do
				a0=${r0%% *}
				r0=${r0#* }
				sv v "$e" runs
				sv p "$e" pending
				[ "$v:$p" = "$a0" ] || bad "nohz deferrable=100 [$e]: runs:pending $a0 at 0.5 s, $v:$p at 2 s, with every CPU's tick asleep"
				[ "${a0#*:}" -gt 0 ] || bad "nohz deferrable=100 [$e]: nothing pending at 0.5 s (start took the whole burst's 1 s)"
			done
			[ $fails = $f0 ] && ok "percpu=1 tick=nohz deferrable=100: none of the $count deferrable timers due 1 to 1.2 s after start ran between 0.5 s and 2 s on any engine ($(g classic pending) pending on classic); wakeups by CPU since insmod $(wk)"
		fi
		rmmod twheel || bad "rmmod percpu=1 tick=nohz"
	done
	# rmmod under load, every engine: remote=50 (timers moving between
	# the CPUs' instances), then tick=nohz with timers being pulled
	for m in "mixed ops=$ops remote=50 pinned=30 deferrable=20" "long min=8 max=200 tick=nohz"; do
		case "$m" in *tick=nohz) t=tick=nohz ;; *) t= ;; esac
		insmod /lib/twheel/twheel.ko percpu=1 engines=all $t ||
			{ bad "insmod percpu=1 $t"; continue; }
		load_fit ${m% tick=nohz} count=$count $force cpus=all &&
			ctl start || bad "rmmod under load ($m): load or start"
		sleep 2
		rmmod twheel || bad "rmmod under load ($m)"
		[ -d $d ] && bad "rmmod under load ($m): $d still there"
	done
	ok "rmmod under load on every engine: remote=50 pinned=30 deferrable=20 periodic, and long under tick=nohz pull=1"
fi

# percpu=0: as it always was, and the one instance shared by every CPU
insmod /lib/twheel/twheel.ko engines=$all || { bad "insmod percpu=0"; echo "percpu: $fails failures"; exit 1; }
if run percpu=0 mixed count=$count ops=$ops $force; then
	grep -q '/cpu[0-9]*\]$' /tmp/pc.stats && bad "percpu=0: a per-CPU block"
	grep -q '^cpus:\|^lock_' /tmp/pc.stats && bad "percpu=0: a cpus or lock line"
	[ "$(g timer_list runner_lock)" = shared ] || bad "percpu=0 [timer_list]: runner_lock $(g timer_list runner_lock), not shared"
	for e in $runners; do
		judge percpu=0 "$e" "$e"
	done
	ok "percpu=0: $(g classic runs) classic runs, no per-CPU block, every guarantee kept"
fi
if run "percpu=0 cpus=all" mixed count=$count ops=$ops $force cpus=all; then
	grep -q '/cpu[0-9]*\]$' /tmp/pc.stats && bad "percpu=0 cpus=all: a per-CPU block"
	for e in $runners; do
		judge "percpu=0 cpus=all" "$e" "$e"
	done
	for e in $engines; do
		locks "percpu=0 cpus=all" "$e" 1
	done
	ok "percpu=0 cpus=all: one instance, ops from $cpus CPUs: $(g classic runs) classic runs, every guarantee kept"
fi
# remote= needs a workload spread over 2 CPUs or more: not without cpus=
ctl load mixed remote=30 2>/dev/null && bad "percpu=0: remote=30 without cpus= taken"
if [ "$cpus" -ge 2 ] && run "percpu=0 cpus=all remote=30" mixed count=$count ops=$ops $force cpus=all remote=30; then
	grep -q '^remote_ops\|^migrations' /tmp/pc.stats && bad "percpu=0 remote=30: remote_ops or migrations counted"
	for e in $runners; do
		judge "percpu=0 cpus=all remote=30" "$e" "$e"
	done
	ok "percpu=0 cpus=all remote=30: one instance, $(g classic runs) classic runs, every guarantee kept"
fi
rmmod twheel || bad "rmmod percpu=0"
echo "percpu: $fails failures"
[ $fails -eq 0 ]
