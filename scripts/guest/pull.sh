#!/bin/sh
# In the guest, on 2 CPUs or more: per-CPU ticks under tick=nohz, pull=0
# against pull=1. percpu=1, our engines, the long workload (re-arms, no
# activity ops) spread over every CPU: with pull=0 each CPU's tick wakes
# for its own timers; with pull=1 a CPU asleep leaves them to a CPU awake
# (the kernel's timer migration), so it wakes at most once a second and
# its timers are pulled. Every guarantee holds either way (classic and
# reference exact, nothing early, the invariant; with pull=1 the CPUs
# asleep miss at most about as many jiffies as those awake: a pull later
# than the jiffy handed over counts as missed). With pull=1 one CPU at a
# time is the migrator: every other CPU asleep wakes for none of its
# timers (no wakeup in the span) and pulls none. Then pull=1 again with
# every timer deferrable (deferrable=100), which no CPU wakes for. Ends
# with the numbers as a markdown table between @@PULL and @@END.
#   sh pull.sh [SECONDS [GROUP]]  each run's measured span (default 10);
#                                 pull_group= (default the module's, 8)
secs=${1:-10}
group=${2:+pull_group=$2}
. "$(dirname "$0")/lib.sh"
ours="classic modern reference classic_bounded"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
[ "$ncpu" -ge 2 ] || { bad "pull.sh wants 2 CPUs, the guest has $ncpu"; echo "pull: $fails failures"; exit 1; }

# cpuw: each CPU's tick's wakeups since insmod, "N N ..."
cpuw() { awk '/^\[/ { exit } $1 ~ /^wakeups_cpu/ { printf "%s ", $2 }' $d/stats; }

# cpuk KEY: each CPU's KEY (pulls_cpu, top_migrator_cpu), "N N ..."
cpuk() { awk -v k="$1" '/^\[/ { exit } index($1, k) == 1 { printf "%s ", $2 }' $d/stats; }

# run PULL [KEY=VALUE...]: $secs s of long on every CPU with pull=PULL
# (and the load's keys), checked; rate: each CPU's wakeups a second and
# their sum, "N N ... SUM"; lo: the least of a CPU; busy: ms a second
# classic's ticks took; pulled: classic's; pulls, tops: each CPU's pulls
# of idle CPUs, its ticks as the top group's migrator, in the span
run() {
	pl=$1
	shift
	rmmod twheel 2>/dev/null
	insmod /lib/twheel/twheel.ko engines=$(echo $ours | tr ' ' ,) percpu=1 tick=nohz pull=$pl $group ||
		{ bad "insmod pull=$pl $group"; return 1; }
	ctl load long count=2000 min=256 max=20000 duration=0 force=1 "$@" || { bad "load long $*"; return 1; }
	ctl start || { bad "start long"; return 1; }
	# each CPU's wakeups, then the uptime, before and after
	sleep 1
	p0=$(get classic pulled) a="$(cpuw)$(now)" q0=$(cpuk pulls_cpu) m0=$(cpuk top_migrator_cpu)
	sleep "$secs"
	p1=$(get classic pulled) b="$(cpuw)$(now)" q1=$(cpuk pulls_cpu) m1=$(cpuk top_migrator_cpu)
	levels=$(awk '$1 == "pull_levels:" { print $2 }' $d/stats) cruns=$(get classic runs)
	pulls=$(awk -v a="$q0" -v b="$q1" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) printf "%d ", y[i] - x[i] }')
	tops=$(awk -v a="$m0" -v b="$m1" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) printf "%d ", y[i] - x[i] }')
	ctl stop || bad "stop long"
	def=
	case " $* " in *" deferrable="*) def=1 ;; esac
	for e in $ours; do
		[ "$(get $e invariant)" = ok ] || bad "pull=$pl $*: $e: invariant"
		[ "$(get $e runs_early)" = 0 ] || bad "pull=$pl $*: $e: ran early"
		runs=$(get $e runs)
		[ -n "$def" ] && continue
		[ "${runs:-0}" -gt 0 ] || bad "pull=$pl $e: nothing ran"
		case $e in classic | reference)
			[ "$(get $e runs_exact)" = "$runs" ] ||
				bad "pull=$pl $e: $(get $e runs_exact) of $runs exact" ;;
		esac
	done
	# each CPU's wakeups in the span, and how many CPUs woke, pulled, and
	# were the top group's migrator in it
	wakes=$(awk -v a="$a" -v b="$b" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i < n; i++) printf "%d ", y[i] - x[i] }')
	nwoke=$(echo $wakes | tr ' ' '\n' | grep -c -v '^0$')
	npull=$(echo $pulls | tr ' ' '\n' | grep -c -v '^0$')
	ntop=$(echo $tops | tr ' ' '\n' | grep -c -v '^0$')
	rate=$(awk -v a="$a" -v b="$b" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i < n; i++) { r = (y[i] - x[i]) / (y[n] - x[n]); s += r; printf "%.0f ", r }
		printf "%.0f\n", s }')
	t0=${a##* } t1=${b##* }
	lo=$(echo "$rate" | awk '{ m = $1; for (i = 2; i < NF; i++) if ($i < m) m = $i; print m }')
	busy=$(awk -v n="$(get classic tick_ns_n)" -v a="$(get classic tick_ns_avg)" \
		-v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.2f\n", n * a / 1e6 / (t1 - t0 + 1) }')
	pulled=$(awk -v n=$((p1 - p0)) -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f\n", n / (t1 - t0) }')
	# A tick (the CPU's own or a puller's) later than its instances' first
	# jiffy with work counts the jiffies in between as missed. On a busy
	# host an emulated guest misses some for real, on every CPU alike; a
	# pull late by design would make the sleeper's instance miss far more
	# than the puller's own: at most twice as many, and 10 a second.
	ms=0 mw=0 c=0
	for w in $(echo "$rate" | awk '{ for (i = 1; i < NF; i++) print $i }'); do
		m=$(get classic/cpu$c missed_jiffies)
		if [ "$w" -le 1 ]; then ms=$((ms + ${m:-0})); else mw=$((mw + ${m:-0})); fi
		c=$((c + 1))
	done
	[ $pl = 0 ] || [ -n "$def" ] || [ $ms -le $((2 * mw + 10 * secs)) ] ||
		bad "pull=1: classic's instances asleep missed $ms jiffies, the CPUs awake $mw"
	rmmod twheel || bad "rmmod pull=$pl"
}

run 0 && np_rate=$rate np_busy=$busy np_pulled=$pulled
[ "$lo" -ge 1 ] || bad "pull=0: a CPU slept through its timers ($rate wakeups/s by CPU, then in all)"
[ $((p1 - p0)) = 0 ] || bad "pull=0: classic pulled $((p1 - p0)) timers"
run 1 && pl_levels=$levels pl_rate=$rate pl_busy=$busy pl_pulled=$pulled pl_wakes=$wakes pl_pulls=$pulls pl_tops=$tops
[ "$lo" -le 1 ] || bad "pull=1: every CPU woke ($rate wakeups/s by CPU, then in all)"
[ $((p1 - p0)) -gt 0 ] || bad "pull=1: classic pulled no timer"
# one migrator at a time: one CPU woke, pulled, and was the top's migrator
[ "$nwoke" -le 1 ] || bad "pull=1: $nwoke CPUs woke in $secs s (wakeups by CPU $wakes): one migrator wakes, the others for none of their timers"
[ "$npull" -le 1 ] || bad "pull=1: $npull CPUs pulled (by CPU $pulls)"
[ "$ntop" -le 1 ] || bad "pull=1: $ntop CPUs were the top group's migrator (ticks by CPU $tops)"
ok "percpu=1 tick=nohz, long count=2000 on $ncpu CPUs, wakeups/s by CPU then in all: pull=0 $np_rate, pull=1 $pl_rate (classic: $pl_pulled timers pulled a second; $pl_levels level(s); in $secs s wakeups by CPU $wakes, idle CPUs pulled by CPU $pulls)"
# every timer deferrable: no CPU's tick wakes for one, pulled or not
run 1 cpus=all deferrable=100 && df_rate=$rate df_busy=$busy df_pulled=$pulled df_wakes=$wakes
[ "$nwoke" = 0 ] || bad "pull=1 deferrable=100: CPUs woke in $secs s (by CPU $wakes)"
[ "$cruns" = 0 ] || bad "pull=1 deferrable=100: classic ran $cruns timers"
ok "percpu=1 tick=nohz pull=1 long deferrable=100 on $ncpu CPUs: in $secs s wakeups by CPU $wakes"

echo "@@PULL"
printf "| percpu=1 tick=nohz, long count=2000 min=256 max=20000 on %s CPUs, %s s |" "$ncpu" "$secs"
c=0
while [ $c -lt "$ncpu" ]; do
	printf " CPU %s wakeups/s |" $c
	c=$((c + 1))
done
echo " all CPUs | classic's ticks, ms/s | classic timers pulled/s |"
printf "|---|"
c=0
while [ $c -le "$ncpu" ]; do
	printf -- "---:|"
	c=$((c + 1))
done
echo "---:|---:|"
echo "| pull=0: each CPU wakes for its own timers | $(echo $np_rate | sed 's/ / | /g') | $np_busy | $np_pulled |"
echo "| pull=1: a CPU awake runs the timers of a CPU asleep | $(echo $pl_rate | sed 's/ / | /g') | $pl_busy | $pl_pulled |"
echo "| pull=1, every timer deferrable (deferrable=100) | $(echo $df_rate | sed 's/ / | /g') | $df_busy | $df_pulled |"
echo "@@END"
echo "@@PULLMIGR"
echo "| pull=1 on $ncpu CPUs, ${2:-8} a group, $pl_levels level(s), $secs s | by CPU |"
echo "|---|---|"
echo "| wakeups in the span | $(echo $pl_wakes) |"
echo "| idle CPUs pulled | $(echo $pl_pulls) |"
echo "| ticks as the top group's migrator | $(echo $pl_tops) |"
echo "| wakeups in the span, deferrable=100 | $(echo $df_wakes) |"
echo "@@END"
echo "pull: $fails failures"
[ $fails -eq 0 ]
