#!/bin/sh
# In the guest, on the twheel loaded here (every runner): what issue 15's
# capabilities do, as markdown tables between @@CAPS NAME and @@END.
#   sh capabilities.sh [full|quick] [burst] [slack]   (both by default)
# burst: one tv2 slot of timers (count=100000, quick 5000), once without
# and once with budget=1000 (quick 250): each engine's worst tick, timers
# cascaded (moved down) and callbacks run in it, and their ns; classic
# moves the whole slot in one tick, classic_bounded at most
# max(64, ceil(count / 256)) a jiffy (a tick that catches up missed
# jiffies does several: the bound is scaled by 1 + missed_jiffies), every
# run exact, and with the budget no tick runs more callbacks than it
# allows.
# slack: timeouts with slack=0 and slack=10, same seed: per runner the mods
# of a pending timer, those left alone (mod_noop: already in the new
# range), in their bucket (mod_inplace), the rest relinked; cascades; the
# tick's busy time. hrtimer arms with hrtimer_start_range_ns() (its cost:
# HRTIMER_SOFTIRQ runs); timer_list has no range API and keeps slack 0.
mode=${1:-full}
parts=${2:-burst slack}${3:+ $3}
. "$(dirname "$0")/lib.sh"

# timeouts: light enough for an emulated CPU running ten runners (more
# and the overload guard ends the activity)
if [ "$mode" = quick ]; then
	nburst=5000 budget=250 burst_secs=6 n=500 ops=10 secs=3
else
	nburst=100000 budget=1000 burst_secs=8 n=1000 ops=20 secs=8
fi
# Our engines here, but straight and ordered (8192 timers at most).
runners=$(sed -n 's/^\[\(.*\)\]$/\1/p' $d/stats | grep -v -x 'softirq\|shadow.*')
ours=""
for r in $runners; do
	[ -n "$(get "$r" cascaded_max_tick)" ] || continue
	case $r in straight|ordered) continue ;; esac
	ours="$ours $r"
done
on=$(echo $ours | tr ' ' ,)

# run SECS ARGS...: load (sized by admission), start, wait, stop
run() {
	t=$1
	shift
	stops=$(top overload_stops)
	load_fit "$@" || { bad "load $*"; return 1; }
	ctl start || { bad "start $*"; return 1; }
	sleep "$t"
	ctl stop || bad "stop $*"
	cp $d/stats /tmp/caps.stats
	[ "$(top overload_stops)" = "$stops" ] ||
		bad "$*: the overload guard ended the activity: $(grep '^overload_reason' /tmp/caps.stats)"
}
sget() { awk -v e="[$1]" -v k="$2:" '$0 == e { on = 1; next } /^\[/ { on = 0 } on && $1 == k { print $2; exit }' /tmp/caps.stats; }
us() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1000 }'; }

case " $parts " in *" burst "*)
echo "@@CAPS burst"
echo "| engine | budget | N | most cascaded in a tick | its cascade us | most callbacks in a tick | worst busy tick us | deferred | backlog ticks | exact |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for b in 0 $budget; do
	run $burst_secs burst count=$nburst seed=1 budget=$b engines=$on || continue
	nb=$(sed -n 's/^params: count=\([0-9]*\).*/\1/p' /tmp/caps.stats)
	for e in $ours; do
		runs=$(sget $e runs)
		ex=yes
		[ "$(sget $e runs_exact)" = "$runs" ] || ex="no ($(sget $e runs_exact) of $runs)"
		echo "| $e | $b | $nb | $(sget $e cascaded_max_tick) | $(us "$(sget $e cascade_ns_max)") | $(sget $e expired_max_tick) | $(us "$(sget $e busy_tick_ns_max)") | $(sget $e deferred) | $(sget $e backlog_max) | $ex |"
		[ "$(sget $e runs_early)" = 0 ] || bad "burst budget=$b: $e ran early"
		[ "$runs" = "$nb" ] || bad "burst budget=$b: $e ran $runs of $nb"
		[ "$b" = 0 ] || [ "$(sget $e expired_max_tick)" -le "$b" ] ||
			bad "burst budget=$b: $e ran $(sget $e expired_max_tick) callbacks in a tick"
	done
	case " $ours " in
	*" classic "*" classic_bounded "*)
		c=$(sget classic cascaded_max_tick) cb=$(sget classic_bounded cascaded_max_tick)
		bound=$(( (nb + 255) / 256 > 64 ? (nb + 255) / 256 : 64 ))
		bound=$((bound * (1 + $(sget classic_bounded missed_jiffies))))
		[ "$c" = "$nb" ] || bad "burst budget=$b: classic cascaded $c in a tick, not $nb"
		[ "$cb" -le "$bound" ] ||
			bad "burst budget=$b: classic_bounded cascaded $cb in a tick (bound $bound)"
		[ "$nb" -lt 6400 ] || [ $((30 * cb)) -le "$c" ] ||
			bad "burst budget=$b: classic_bounded's worst cascade $cb is not 30x below classic's $c"
		;;
	esac
done
echo "@@END"
;; esac

case " $parts " in *" slack "*)
echo "@@CAPS slack"
echo "| engine | slack | mods | left alone | in place | relinked | relinks saved | cascaded | busy ticks | busy tick ms | busy us a mod | saved |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for s in 0 10; do
	run $secs timeouts count=$n ops=$ops seed=1 slack=$s duration=$secs || continue
	for e in $runners; do
		case $e in straight|ordered) continue ;; esac
		mods=$(sget $e modified)
		case $e in
		timer_list|hrtimer)
			[ $e = timer_list ] && k=timer_softirq_busy_ns || k=hrtimer_softirq_busy_ns
			bn=$(sget softirq ${k}_n) ba=$(sget softirq ${k}_avg)
			noop=- inplace=- relinks=$mods casc=- ;;
		*)
			bn=$(sget $e busy_tick_ns_n) ba=$(sget $e busy_tick_ns_avg)
			noop=$(sget $e mod_noop) inplace=$(sget $e mod_inplace)
			relinks=$(sget $e relinks) casc=$(sget $e cascaded) ;;
		esac
		ms=$(awk -v n="${bn:-0}" -v a="${ba:-0}" 'BEGIN { printf "%.1f", n * a / 1e6 }')
		# shares of the mods (the runs' tick counts differ a little)
		rel=$(awk -v a="$relinks" -v m="$mods" 'BEGIN { printf "%.4f", m ? a / m : 0 }')
		per=$(awk -v ms="$ms" -v m="$mods" 'BEGIN { printf "%.2f", m ? ms * 1000 / m : 0 }')
		if [ $s = 0 ]; then
			eval "r0_$e=$rel p0_$e=$per"
			saved=- psaved=-
		else
			eval "r0=\$r0_$e p0=\$p0_$e"
			saved=$(awk -v a="$r0" -v b="$rel" 'BEGIN { if (a > 0) printf "%.1f%%", 100 * (a - b) / a; else print "-" }')
			psaved=$(awk -v a="$p0" -v b="$per" 'BEGIN { if (a > 0) printf "%.1f%%", 100 * (a - b) / a; else print "-" }')
		fi
		pct() { case $1 in -) echo - ;; *) awk -v a="$1" -v m="$mods" 'BEGIN { printf "%.1f%%", m ? 100 * a / m : 0 }' ;; esac; }
		[ $e = timer_list ] && [ $s != 0 ] && sl="$s (no range API: 0)" || sl=$s
		echo "| $e | $sl | $mods | $(pct $noop) | $(pct $inplace) | $(pct $relinks) | $saved | $casc | ${bn:-n/a} | $ms | $per | $psaved |"
		[ "$(sget $e runs_early)" = 0 ] || bad "timeouts slack=$s: $e ran early"
		case " $exact " in
		*" $e "*)
			[ "$(sget $e runs_exact)" = "$(sget $e runs)" ] ||
				bad "timeouts slack=$s: $e ran $(sget $e runs_exact) of $(sget $e runs) at its pick"
			;;
		esac
	done
done
echo "@@END"
;; esac
ctl unload
echo "capabilities: $fails failures"
[ $fails -eq 0 ]
