#!/bin/sh
# In the guest: the live shadow. Real TCP traffic over lo (traffic.sh)
# while every timer_list start, cancel and expiry of the kernel is mirrored
# into every engine; then the run's account, exactly:
#   sh shadow.sh [SECONDS]      one run of SECONDS (default 4) of traffic
#   sh shadow.sh --rmmod        rmmod while shadowing under traffic (for
#                               the debug kernel: KASAN, lockdep, kmemleak)
# What the probes saw, less what the ring dropped, is what the shadow took
# (per event type); what it took is what each engine did (every start a
# mod, every lone cancel a delete, every firing set against the kernel's
# own expiry of the same arming); the modern engine files every start in
# the kernel's own bucket, bucket_expiry included, whenever the kernel's
# clock may have been its own, and fires each such arming at the very
# jiffy the kernel expired it. docs/shadow.md lists the identities.
. "$(dirname "$0")/lib.sh"
# Our engines (the runners but the kernel's), and all of them at once.
engs=$(echo $runners | tr ' ' '\n' | grep -vx 'timer_list\|hrtimer')
eng_list=$(echo $engs | tr ' ' ,)
# simple's slots reach 2^20 jiffies (70 min at HZ 250): it refuses little.
args="engines=$eng_list,shadow max_interval=1048576"

if [ "$1" = --rmmod ]; then
	# Shadowing, traffic running, rmmod at once: the probes are detached
	# before anything they write is freed. qemu.sh fails on any splat.
	for n in 1 2 3; do
		insmod /lib/twheel/twheel.ko $args || { bad "insmod"; break; }
		ctl load shadow count=2048 duration=0 && ctl start || bad "start $n"
		sh /guest/traffic.sh 3 2 > /tmp/traffic.$n.out 2>&1 &
		tp=$!
		sleep "$n"
		rmmod twheel || bad "rmmod $n while shadowing"
		wait $tp || bad "traffic.sh $n: $(tail -n 1 /tmp/traffic.$n.out)"
	done
	[ "$(dmesg | grep -c 'twheel: unloaded')" -ge 3 ] || bad "not unloaded 3 times"
	echo "shadow --rmmod: $fails failures"
	[ $fails -eq 0 ]
	exit
fi

secs=${1:-4}
rmmod twheel 2>/dev/null
insmod /lib/twheel/twheel.ko $args || { bad "insmod"; exit 1; }
grep -q '^probes: detached' $d/stats || bad "probes: $(grep '^probes:' $d/stats)"
ctl load shadow count=8192 duration=0 || { bad "load shadow"; exit 1; }
ctl start || { bad "start"; exit 1; }
sh /guest/traffic.sh "$secs" 4 > /tmp/traffic.out 2>&1 || bad "traffic.sh: $(tail -n 1 /tmp/traffic.out)"
ctl stop || bad "stop"
grep '^traffic:' /tmp/traffic.out
cp $d/stats /tmp/shadow.stats
# g BLOCK KEY: a value of the stats read at the end of the run
snap /tmp/shadow.stats
g() { sget "$1" "$2"; }
# same WHAT A B: an identity, checked
same() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: $2, not $3"; fi
}
s() { g shadow "$1"; }

# The kernel's side: seen - dropped = taken, every event in one key.
added=$(s added) modified=$(s modified) expired=$(s expired)
starts=$((added + modified))
same "shadow: seen_start - ring_dropped_start = added + modified + pool_full" \
	$(($(s seen_start) - $(s ring_dropped_start))) $((starts + $(s pool_full)))
same "shadow: seen_cancel - ring_dropped_cancel = rearmed + paired expiries + cancels + untracked + idle" \
	$(($(s seen_cancel) - $(s ring_dropped_cancel))) \
	$(($(s rearmed) + expired - $(s expire_unpaired) + $(s cancels) + $(s cancel_untracked) + $(s cancel_idle)))
same "shadow: seen_expire - ring_dropped_expire = expired + untracked + idle" \
	$(($(s seen_expire) - $(s ring_dropped_expire))) \
	$((expired + $(s expire_untracked) + $(s expire_idle)))
same "shadow: modified = rearmed + start_armed" "$modified" $(($(s rearmed) + $(s start_armed)))
same "shadow: deleted = cancels + aged + open_at_stop" "$(s deleted)" \
	$(($(s cancels) + $(s aged) + $(s open_at_stop)))
same "shadow: runs = expired" "$(s runs)" "$expired"
same "shadow: invariant" "$(s invariant)" ok
same "shadow: pending after stop" "$(s pending)" 0
same "shadow: runs_early" "$(s runs_early)" 0
for k in seen_start seen_cancel seen_expire added expired cancels rearmed; do
	[ "$(s $k)" -gt 0 ] || bad "shadow: no $k in the run"
done
# The modern engine's bucket against the kernel's, every start.
same "shadow: idx_engine" "$(s idx_engine)" modern
same "shadow: idx_agree + kernel_behind + kernel_ahead + unordered + wrong = starts" \
	$(($(s idx_agree) + $(s idx_kernel_behind) + $(s idx_kernel_ahead) + $(s idx_unordered) + $(s idx_wrong))) \
	"$starts"
same "shadow: idx_wrong (another bucket where the kernel's clock may have been ours)" "$(s idx_wrong)" 0
[ "$(s idx_agree)" -gt 0 ] || bad "shadow: no start in the kernel's bucket"

# Each engine: every start one mod, every lone cancel one delete, every
# real expiry and every firing in exactly one key.
exp_keys="exp_at exp_ahead exp_behind exp_lost exp_closed exp_unheld"
fire_keys="exp_at exp_ahead exp_behind del_fired rearm_fired fired_open"
# sumv VAR BLOCK KEY...: the sum of those keys of BLOCK, into VAR (sv:
# no subshell, which the debug kernel makes slow)
sumv() {
	_sv=$1 _sb=$2 _t=0
	shift 2
	for _k in "$@"; do
		sv _x "$_sb" "$_k"
		_t=$((_t + ${_x:-0}))
	done
	eval "$_sv=\$_t"
}
plus() { echo "$*" | sed 's/ / + /g'; }
# shellcheck disable=SC2086
fire_plus=$(plus $fire_keys) exp_plus=$(plus $exp_keys)
cancels=$(s cancels)
for e in $engs; do
	x=shadow:$e
	for k in added modified refused deleted expired runs pending invariant runs_early; do
		sv "e_$k" $e $k
	done
	sv x_ra $x refused_add
	sv x_rm $x refused_mod
	same "$e: added + modified + refused_add = the shadow's starts" \
		$((e_added + e_modified + x_ra)) "$starts"
	same "$e: refused_add + refused_mod = refused" $((x_ra + x_rm)) "$e_refused"
	sumv t $x dels refused_mod closed
	same "$e: deleted = dels + refused_mod + closed" "$e_deleted" "$t"
	sumv t $x dels del_fired del_unheld
	same "$e: dels + del_fired + del_unheld = the shadow's cancels" "$t" "$cancels"
	# shellcheck disable=SC2086
	sumv t $x $fire_keys
	same "$e: expired = $fire_plus" "$e_expired" "$t"
	# shellcheck disable=SC2086
	sumv t $x $exp_keys
	same "$e: $exp_plus = the shadow's expired" "$t" "$expired"
	same "$e: runs = expired" "$e_runs" "$e_expired"
	same "$e: pending after stop" "$e_pending" 0
	same "$e: invariant" "$e_invariant" ok
	[ "$e" = modern ] || same "$e: runs_early" "$e_runs_early" 0
done
# The modern engine fires every arming filed in the kernel's bucket at the
# jiffy the kernel expired it, or before it when the kernel ran its
# softirq late (a debug kernel on 2 emulated CPUs did, once in 784).
mb=$(g shadow:modern same_bucket) ma=$(g shadow:modern same_bucket_at)
mk=$(g shadow:modern exp_ahead)
[ "$((ma + mk))" -ge "$mb" ] && ok "modern: of $mb same-bucket expiries $ma at the kernel's jiffy, $mk with the kernel late" ||
	bad "modern: of $mb same-bucket expiries $ma at the kernel's jiffy and $mk with the kernel late"
[ "$(g shadow:modern same_bucket)" -gt 0 ] || bad "modern: no real expiry of an arming in the kernel's bucket"
# The exact engines fire at the expiry itself: before the kernel's coarser
# bucket, later only for a start already in the past (the kernel's clock
# behind ours then), and all of them alike. Crossing a stall of the tick
# in one go (jumps) blurs the jiffy of a firing.
if [ "$(s jumps)" = 0 ]; then
	ref=""
	for e in $exact; do
		[ "$e" = simple ] && continue
		x=shadow:$e
		sv a $x exp_behind
		sv b $x exp_behind_past
		same "$e: exp_behind = exp_behind_past" "$a" "$b"
		v=
		for k in $fire_keys $exp_keys dels del_fired; do
			sv a $x $k
			v="$v$a "
		done
		[ -z "$ref" ] && ref=$v r0=$e
		same "$e: its account = $r0's" "$v" "$ref"
	done
else
	echo "shadow: the tick stalled ($(s jumps) jumps): exactness vs the kernel not judged"
fi

# The comparison table has the run: the kernel's row and every engine's.
rows=$(cols workload engine runs expired | grep -c '^shadow|')
same "compare: rows of the shadow run" "$rows" $(($(echo $engs | wc -w) + 1))

# The run, for the record: the kernel's side and the table's rows.
sed -n '/^\[shadow\]$/,/^$/p' /tmp/shadow.stats | grep -v '_hist:'
cols engine runs expired deleted "busy ticks" "tick p50 ns" "tick p99 ns" "cascaded max" \
	"late p50 j" "late max j" | sed 's/^/row: /'
for e in $engs; do
	for k in exp_at exp_ahead ahead_jiffies_p50 ahead_jiffies_max exp_behind del_fired rearm_fired; do
		sv "v_$k" shadow:$e $k
	done
	echo "vs kernel $e: $v_exp_at at, $v_exp_ahead ahead (p50 $v_ahead_jiffies_p50 max $v_ahead_jiffies_max), $v_exp_behind behind, del_fired $v_del_fired, rearm_fired $v_rearm_fired"
done
echo "shadow: seen $(s seen_start) starts, $(s seen_cancel) cancels, $(s seen_expire) expiries; dropped $(s ring_dropped_start)/$(s ring_dropped_cancel)/$(s ring_dropped_expire), pool_full $(s pool_full); untracked $(s cancel_untracked) cancels, $(s expire_untracked) expiries"
echo "shadow: modern idx: $(s idx_agree) agree, kernel behind $(s idx_kernel_behind) (deferrable $(s idx_behind_deferrable), other CPU's base $(s idx_behind_remote)), kernel ahead $(s idx_kernel_ahead), unordered $(s idx_unordered), wrong $(s idx_wrong); same-bucket expiries $(g shadow:modern same_bucket), at the kernel's jiffy $(g shadow:modern same_bucket_at)"
rmmod twheel || bad "rmmod"
echo "shadow: $fails failures"
[ $fails -eq 0 ]
