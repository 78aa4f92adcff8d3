#!/bin/sh
# In the guest: the tour a newcomer sees with `make demo`.
. /guest/lib.sh
say() { printf '\n== %s\n' "$*"; }
show() { printf '\n# %s\n' "$*"; sh -c "$*"; }

# The demo's four runners.
four="classic modern timer_list hrtimer"

# check RUN COUNT: what the table showed holds; COUNT, if given, is what
# every runner must have run. The verdict is the demo's last line.
check() {
	for r in $four; do
		[ "$(get $r invariant)" = ok ] || bad "$1: $r: invariant $(get $r invariant)"
		[ "$(get $r pending)" = 0 ] || bad "$1: $r: $(get $r pending) pending after stop"
		[ "$(get $r runs)" = "$(get $r expired)" ] ||
			bad "$1: $r: $(get $r runs) runs, $(get $r expired) expired"
		[ "$(get $r runs)" -gt 0 ] 2>/dev/null || bad "$1: $r: nothing ran"
		[ "$(get $r runs_early)" = 0 ] || bad "$1: $r: $(get $r runs_early) runs before their expiry"
		[ -z "$2" ] || [ "$(get $r runs)" = "$2" ] || bad "$1: $r: $(get $r runs) runs, not $2"
	done
	[ "$(get classic runs_exact)" = "$(get classic runs)" ] ||
		bad "$1: classic: $(get classic runs_exact) of $(get classic runs) runs at their jiffy"
}

# cmd WHAT COMMAND: show COMMAND; its failure is one of the demo's, with the
# module's last word on it
cmd() {
	what=$1
	shift
	show "$@" || bad "$what failed: $(dmesg | grep 'twheel:' | tail -n 1)"
}

# all_ran COUNT SECONDS: waits until every runner has run COUNT timers
all_ran() {
	t=0
	while [ "$t" -lt "$(($2 * 2))" ]; do
		n=0
		for r in $four; do [ "$(get $r runs)" = "$1" ] && n=$((n + 1)); done
		[ "$n" = 4 ] && return 0
		sleep 0.5
		t=$((t + 1))
	done
}

# side by side: one row per measure, one column per engine
table() {
	printf '%-20s %12s %12s %12s %12s\n' "measure" classic modern timer_list hrtimer
	for k in op_add_ns op_mod_ns op_del_ns added deleted expired pending invariant cascades cascaded \
		 cascaded_max_tick ticks catchups runs runs_exact runs_early \
		 late_jiffies_p99 late_jiffies_max late_ns_p50 late_ns_p99 late_ns_max \
		 busy_tick_ns_p50 busy_tick_ns_p99 tick_ns_max \
		 cascade_ns_max expired_max_tick; do
		printf '%-20s %12s %12s %12s %12s\n' "$k" "$(get classic $k)" "$(get modern $k)" \
			"$(get timer_list $k)" "$(get hrtimer $k)"
	done
}

echo "twheel demo: $(dmesg | sed -n 's/.*twheel: loaded: //p') on Linux $(uname -r)"
if [ "$(cat /etc/twheel-clock 2>/dev/null)" = icount ]; then
	echo "(QEMU TCG on the instruction clock: one ns is one guest instruction, the same however busy the host is; compare the engines with each other)"
else
	echo "(QEMU TCG: nanoseconds are emulated-CPU time; compare the engines with each other)"
fi
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case "$cs" in
tsc*) ;;
*) echo "WARNING: the guest runs on clocksource '$cs' (TSC calibration failed on a busy host):"
   echo "         ns figures below have jiffy resolution; run 'make demo' again on a quieter host." ;;
esac
show ls $d $d/classic

say "1. a Ratas-style mix (timeouts cancelled early, short timers expiring, long ones) for 5 s"
cmd "load" "echo 'load mixed count=2000 ops=100 seed=1 duration=5' > $d/control"
echo "# op cost first: add, mod, del on the loaded timers, every runner (ns per op)"
cmd "bench" "echo bench > $d/control"
cmd "start" "echo start > $d/control"
sleep 5
echo stop > $d/control
table
check mixed
echo "classic: every run at exactly its expiry jiffy; modern: never early, late by at most the"
echo "granularity of the level the timer was filed in (see the level table below) -- as the"
echo "kernel's own timer_list, which ran the same workload beside it. late_ns: ns past the"
echo "expiry jiffy's instant (estimated as arming time + delta jiffies; hrtimer: its own expiry)."
echo "busy_tick_ns: our engines' ticks that ran or cascaded timers; the kernel's own softirq"
echo "cost is in the [softirq] block of stats and in the comparison table below."

say "2. burst: 20000 timers in one bucket 1000 jiffies out -- the classic wheel's worst cascade"
cmd "burst" "echo 'load burst count=20000' > $d/control && echo bench > $d/control && echo start > $d/control"
# due 1000 jiffies out: 4 s at HZ 250, 10 s at HZ 100
all_ran 20000 $((1000 / $(hdr HZ) + 20))
echo stop > $d/control
table
check burst 20000
echo "classic moved all $(get classic cascaded_max_tick) timers in one tick ($(get classic cascade_ns_max) ns of cascading);"
echo "the modern wheel never cascades: its heavy tick is only the one that runs the callbacks."
show "grep -E '^(tick_ns_hist|cascade_ns_hist)' $d/stats"

say "3. every stopped run, side by side: $d/compare (here a few of its columns)"
rows=$(cols workload N engine "add ns" "mod ns" "del ns" "add/mod/del x timer_list" \
	"tick p99 ns" "tick max ns" "cascade max ns" "late p99 j") || bad "compare: a column is missing"
[ "$(echo "$rows" | grep -c '^mixed|2000|\|^burst|20000|')" = 8 ] ||
	bad "compare: not a row for each of the 4 runners in each of the 2 runs"
echo "$rows" | while IFS='|' read -r wl n e ad md dl x t99 tmax cmax l99; do
	printf '%-8s %6s %-10s add/mod/del %4s/%4s/%4s ns (%s x timer_list)  busy tick p99 %9s ns max %9s ns  cascade max %8s ns  late p99 %s j\n' \
		"$wl" "$n" "$e" "$ad" "$md" "$dl" "$x" "$t99" "$tmax" "$cmax" "$l99"
done
echo "(busy tick: our engines' ticks that ran or cascaded timers, the kernel's timer softirq"
echo " runs that ran the workload's callbacks; make compare on the host runs every workload"
echo " on every engine and both kernel timers, a scale sweep to a million timers, real TCP"
echo " traffic shadowed into every engine, CSV and a plot: see results/README.md)"

say "4. the modern wheel's levels at HZ $(hdr HZ)"
cmd "levels" cat $d/levels
cmd "levels at HZ 1000" "echo 1000 > $d/levels && cat $d/levels | head -4 && echo 0 > $d/levels"

say "5. admission: a load this machine cannot carry is refused, with the count that fits"
show "echo 'load mixed count=200000' > $d/control; dmesg | grep 'twheel: load:' | tail -n 1"
dmesg | grep -q 'twheel: load: mixed count=200000 asks ' || bad "admission: no reason logged for the refusal"
fit=$(dmesg | sed -n 's/.*twheel: load: mixed count=200000 .* count=\([0-9]*\) fits.*/\1/p' | tail -n 1)
if [ "${fit:-0}" -gt 0 ]; then
	echo "# the count it names loads: what it asks of this machine, and what the machine does"
	cmd "the count admission named" "echo 'load mixed count=$fit' > $d/control"
	show "grep -E '^(workload|params|demand_per_s|demand_cpu_ms_per_s|capacity_per_s):' $d/stats"
else
	echo "# no count fits: this mix's ops= alone is more than the (busy) host gives the guest now"
fi

say "6. what to type next (in 'make shell', as root)"
cat <<'EOT'
  echo 'load timeouts count=20000 cancel=90 duration=30' > /sys/kernel/debug/twheel/control
  echo bench > /sys/kernel/debug/twheel/control       # ns per add/mod/del, every runner
  echo start > /sys/kernel/debug/twheel/control       # arm and run
  cat /sys/kernel/debug/twheel/stats                  # per engine: key: value
  cat /sys/kernel/debug/twheel/classic/occupancy      # timers per level and bucket
  echo stop > /sys/kernel/debug/twheel/control        # cancel all, keep counters
  echo reset > /sys/kernel/debug/twheel/control       # zero the counters
  cat /sys/kernel/debug/twheel/compare                # one row per runner and stopped run
  workloads: timeouts expiring long burst mixed
  keys: count= seed= min= max= (jiffies) cancel= (%) ops= (per tick) duration= (s) engines=
       force=1 (beyond admission; the overload guard still ends what the machine cannot carry)
  module parameters: engines=classic,modern,reference modern_depth=8|9 tick_jiffies=N
EOT
cmd "rmmod" rmmod twheel
show "dmesg | grep 'twheel:'"
echo
echo "demo: $fails failures (each run: invariant ok, nothing pending, runs = expired; classic exact, nothing early)"
[ "$fails" -eq 0 ]
