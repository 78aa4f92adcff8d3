#!/bin/sh
# In the guest: no load the module accepts may take the machine hostage.
#   overload.sh [BOUND_SECS [MAX_COUNT]]
# For every workload: the largest count admission accepts, up to MAX_COUNT
# (default 1048576, the most the parser takes; the module's
# refusal names it) is started, then a shell command, a stats read and
# stop must each finish within BOUND_SECS (default 10); a load above
# capacity is refused with -EBUSY and a reason; the same with force=1 is
# ended by the overload guard, and the guest stays usable.
bound=${1:-10}
maxcount=${2:-1048576}
. /guest/lib.sh
# took CMD...: runs CMD, prints the seconds it took (centiseconds kept)
took() {
	t0=$(now)
	"$@" >/dev/null 2>&1
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
within() { awk -v t="$1" -v b="$bound" 'BEGIN { exit !(t <= b) }'; }

echo "capacity check: HZ=$(hdr HZ), bound ${bound} s"
for wl in timeouts expiring long burst mixed; do
	# The largest count the module takes: it names the one that fits its
	# CPU budget; below that only memory (-ENOMEM) can refuse it.
	# When the activity ops alone are too much (no count fits), a tenth of
	# them is tried, and so on (the default is 1000 a tick).
	fit=$maxcount extra="" ops=1000
	while [ "$fit" -gt 0 ]; do
		dmesg -c >/dev/null
		ctl load $wl count=$fit duration=30 $extra 2>/dev/null && break
		n=$(dmesg | sed -n 's/.* count=\([0-9]*\) fits.*/\1/p' | tail -n 1)
		if [ "$n" = 0 ] && [ "$ops" -gt 1 ]; then
			ops=$((ops / 10))
			extra="ops=$ops" fit=$maxcount
		elif [ -n "$n" ] && [ "$n" -lt "$fit" ]; then
			fit=$n
		elif dmesg | grep -q 'no memory for'; then
			fit=$((fit / 2))
		else
			bad "$wl: count=$fit refused without a reason"; dmesg | tail -n 3
			fit=0
		fi
	done
	[ "$fit" -gt 0 ] || { bad "$wl: no count loads"; continue; }
	demand=$(top demand_per_s) cap=$(top capacity_per_s)
	ctl start || { bad "$wl: start"; continue; }
	sleep 2
	tsh=$(took sh -c true)
	tst=$(took cat $d/stats)
	tsp=$(took ctl stop)
	[ "$(top state)" = loaded ] || { bad "$wl: stop did not stop"; ctl stop 2>/dev/null; }
	within "$tsh" || bad "$wl count=$fit: a shell command took $tsh s"
	within "$tst" || bad "$wl count=$fit: reading stats took $tst s"
	within "$tsp" || bad "$wl count=$fit: stop took $tsp s"
	# every runner the module runs (its stats blocks but softirq's)
	cat $d/stats > /tmp/ov.stats
	snap /tmp/ov.stats
	for e in $(sed -n 's/^\[\(.*\)\]$/\1/p' /tmp/ov.stats | grep -v -x softirq); do
		sv v $e invariant
		[ "$v" = ok ] || bad "$wl/$e: invariant"
		sv v $e runs_early
		[ "$v" = 0 ] || bad "$wl/$e: ran early"
		case " $exact " in
		*" $e "*)
			sv v $e runs_exact
			sv r $e runs
			[ "$v" = "$r" ] || bad "$wl/$e: $v of $r runs exact" ;;
		esac
	done
	ok "$wl: largest admitted count=$fit $extra, demand $demand events/s, capacity $cap/s of this mix; shell $tsh s, stats $tst s, stop $tsp s"
done

# Above capacity: refused with a reason; force=1 runs it and the guard ends it.
big=$((maxcount < 200000 ? maxcount : 200000))
dmesg -c >/dev/null
if ctl load mixed count=$big 2>/dev/null; then
	ok "mixed count=$big fits this machine: started below instead"
	forced="mixed count=$big"
else
	why=$(dmesg | grep "load: mixed count=$big " | tail -n 1)
	echo "$why" | grep -q 'events/s' && echo "$why" | grep -q 'fits' ||
		bad "mixed count=$big refused without a reason: $why"
	ok "mixed count=$big refused: ${why#*load: }"
	forced="mixed count=$big force=1"
fi
ctl load $forced duration=0 || bad "load $forced"
ctl start || bad "start $forced"
t0=$(now) stops=0
while [ "$stops" = 0 ] && awk -v a="$t0" -v b="$(now)" 'BEGIN { exit !(b - a < 60) }'; do
	sleep 1
	stops=$(top overload_stops)
done
tst=$(took cat $d/stats)
tsh=$(took sh -c true)
if [ "${stops:-0}" -gt 0 ]; then
	ok "$forced: the guard ended the activity: $(awk -F': ' '/^overload_reason/ { print $2 }' $d/stats)"
else
	[ "$forced" = "mixed count=$big" ] || bad "$forced: the guard never ended the activity in 60 s"
fi
tsp=$(took ctl stop)
within "$tst" || bad "$forced: reading stats took $tst s"
within "$tsh" || bad "$forced: a shell command took $tsh s"
within "$tsp" || bad "$forced: stop took $tsp s"
ok "$forced: shell $tsh s, stats $tst s, stop $tsp s"
ctl unload || bad "unload"
echo "overload: $fails failures"
[ $fails -eq 0 ]
