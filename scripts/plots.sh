#!/usr/bin/env bash
# Draws the figures of a results directory from its CSV files, one figure
# per question (gnuplot, pngcairo); scripts/compare.sh calls it after a run,
# and it can be rerun on any results directory without a new run.
#
#   scripts/plots.sh RESULTS_DIR
#
# Reads RESULTS_DIR/compare.csv and sweep.csv (needed), hist.csv (the
# histograms of the run, optional: without it the lateness figure is drawn
# from compare.csv's p50 / p99 / max), replay.csv (the shipped traces'
# replay, scripts/replay-csv.sh, optional: without it no replay.png),
# smp.csv (scripts/compare-smp.sh, optional: without it no smp.png),
# summary.md's first line (the date and kernel, for the titles) and
# replay.md's (the replay's date and commit). Writes into RESULTS_DIR:
#   ops.png       add, mod and del ns per workload, every runner (log y)
#   tick.png      busy tick p99 and worst busy tick per workload (log y)
#   burst.png     the burst: each runner's worst cascade and worst tick
#   lateness.png  lateness CCDF per workload (log x, log y)
#   sweep.png     the scale sweep: add ns and tick ns per expired timer
#                 against pending timers (log-log)
#   replay.png    the shipped real traces: each engine's Ir/op on each
#                 trace's timer_list stream (log y), and modern's lateness
#                 p50 / p99 / max against the kernel's, per trace
#   smp.png       from smp.csv: ns per op against remote= for classic
#                 and modern at percpu=0 (solid) and percpu=1 (dashed),
#                 timer_list for reference, the 1-vCPU boot's remote=0
#                 beside them (log y if it spans a decade); below, the
#                 engines' lock contended %
# Every runner has one colour, marker and dash type in every figure, fixed
# by its place in scripts/engines.sh, then timer_list and hrtimer (in
# smp.png the dash type tells percpu=0 and percpu=1 apart instead).
# -h, --help: this text. Exit 2 on a missing directory or file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
"") printf '[twheel] error: plots.sh needs a results directory (see --help)\n' >&2; exit 2 ;;
esac
dir=${1%/}
for f in compare.csv sweep.csv; do
	[ -s "$dir/$f" ] || { printf '[twheel] error: %s: no such file\n' "$dir/$f" >&2; exit 2; }
done
command -v gnuplot >/dev/null || die "no gnuplot: apt-get install gnuplot-nox"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- the runners and their style ----
# The fixed order: the registry's engines, then the kernel's timers; a
# runner of the CSV not in it (an older run's) goes after them.
order=$("$TWHEEL_ROOT/scripts/engines.sh")
order="$order timer_list hrtimer"
# bands N: a light band behind every second of N groups on the x axis
bands() {
	local j
	for ((j = 2; j <= $1; j += 2)); do
		echo "set object $j rect from $((j - 1)).5,graph 0 to $j.5,graph 1 behind fc rgb '#f4f4f4' fs solid noborder"
	done
}
# col FILE NAME: the column number of NAME in a CSV's header
col() { head -n 1 "$1" | tr ',' '\n' | grep -n -x -F "$2" | cut -d: -f1; }
in_csv=$(awk -F, -v c="$(col "$dir/compare.csv" engine)" 'NR > 1 && !s[$c]++ { print $c }' "$dir/compare.csv")
# the replay's engines (its kernel rows are drawn as timer_list)
rcsv=$dir/replay.csv
[ -s "$rcsv" ] || rcsv=
in_replay=
if [ -n "$rcsv" ]; then
	in_replay=$(awk -F, -v c="$(col "$rcsv" engine)" 'NR > 1 && $c != "kernel" && !s[$c]++ { print $c }' "$rcsv")
fi
for r in $in_csv $in_replay; do
	case " $order " in *" $r "*) ;; *) order="$order $r" ;; esac
done
# 16 colours told apart on white, the kernel's two last (black, grey)
colours=(1f77b4 d62728 2ca02c ff7f0e 9467bd 8c564b e377c2 17becf
	bcbd22 000080 ff00ff 006400 b8860b 800000 000000 7f7f7f)
# 16 markers: pngcairo's 15 point types, then a letter
markers=(5 7 9 11 13 15 4 6 8 10 12 14 1 2 3 '"K"')
declare -A idx
i=0
for r in $order; do
	idx[$r]=$i
	i=$((i + 1))
done
style() { # style RUNNER [points|lines]: gnuplot's style words for it
	local k=${idx[$1]}
	local c=${colours[k % 16]} p=${markers[k % 16]} d=$((1 + k / 16 % 5))
	# runners past 16 repeat a colour and marker with another dash type;
	# the first 16 are told apart by colour and marker, the lines by dash
	# type too (solid for the first 8, dashed for the rest)
	[ "$k" -lt 16 ] && d=$((k < 8 ? 1 : 2))
	# timer_list_b (the A/A control: timer_list measured again) in
	# timer_list's colour, an open circle, dashed
	if [ "$1" = timer_list_b ] && [ -n "${idx[timer_list]:-}" ]; then
		c=${colours[${idx[timer_list]} % 16]} p=6 d=2
	fi
	echo "lc rgb '#$c' pt $p ps 1.3 lw 2 dt $d"
}
# present in the CSV, in the fixed order
runners=
for r in $order; do
	case " $(echo $in_csv) " in *" $r "*) runners="$runners $r" ;; esac
done
nrun=$(echo $runners | wc -w)

# ---- the titles ----
stamp= hz= guest=0 sweepload=
if [ -s "$dir/summary.md" ]; then
	first=$(head -n 1 "$dir/summary.md")
	stamp=$(echo "$first" |
		sed -n 's/^Measured \([0-9-]*\) with `\([^`]*\)`; \([a-z]*\): kernel=\([^ ]*\) hz=\([0-9]*\).*/\1, \2 (\3, Linux \4, HZ=\5)/p')
	hz=$(echo "$first" | sed -n 's/.* hz=\([0-9]*\).*/\1/p')
	case "$first" in *"; guest:"*) guest=1 ;; esac
	sweepload=$(sed -n 's/^Scale sweep (`\([^`]*\)`.*/\1/p' "$dir/summary.md" | head -n 1)
fi
hz=${hz:-250}
unit_note="ns"
[ "$guest" = 1 ] && unit_note="emulated-CPU ns under QEMU TCG: compare runners within the run"
# the instruction clock: a guest ns is a guest instruction
case "${first:-}" in *" clock=icount"*) unit_note="guest instructions (QEMU -icount: 1 ns = 1 instruction)" ;; esac

head_gp() { # head_gp FILE WIDTH HEIGHT TITLE
	cat <<-EOF
	set terminal pngcairo size $2,$3 font 'sans,11' background rgb 'white'
	set output '$dir/$1'
	set termoption noenhanced
	set encoding utf8
	EOF
	[ -z "$stamp" ] || echo "set label 99 \"$stamp\" at screen 0.99,0.008 right font 'sans,9' tc rgb '#555555'"
	echo "set grid ytics mytics lc rgb '#dddddd', lc rgb '#eeeeee'"
	echo "set grid xtics lc rgb '#dddddd'"
}
# The legend once, right of the panels, which all end at the same place.
key_once() { echo "set key at screen 0.835,0.93 left top Left reverse samplen 2 spacing 1.1 box lc rgb '#bbbbbb' title 'runner'"; }
panels() { echo "set lmargin at screen 0.08; set rmargin at screen 0.82"; }

# ---- workloads, as the CSV has them ----
csv=$dir/compare.csv
c_wl=$(col "$csv" workload) c_e=$(col "$csv" engine)
workloads=$(awk -F, -v c="$c_wl" 'NR > 1 && !s[$c]++ { print $c }' "$csv")
nwl=$(echo $workloads | wc -w)

# dots COLUMN SCALE: per runner a file of (x, y): the workload's place,
# spread by runner, and the column's value / SCALE; n/a and 0 left out
# (log y). The xtics are the workloads'.
dots() {
	local r
	for r in $runners; do
		awk -F, -v wl="$(echo $workloads)" -v rr="$r" -v ce="$c_e" -v cw="$c_wl" \
			-v cv="$(col "$csv" "$1")" -v s="$2" -v k="$(echo $runners | tr ' ' '\n' | grep -n -x "$r" | cut -d: -f1)" \
			-v n="$nrun" '
			BEGIN { nw = split(wl, w, " "); for (j = 1; j <= nw; j++) at[w[j]] = j }
			NR > 1 && $ce == rr && $cv ~ /^[0-9.]+$/ && $cv > 0 {
				printf "%g %g\n", at[$cw] + (k - (n + 1) / 2) * 0.8 / n, $cv / s }
			END { print "NaN NaN" }' "$csv" >"$work/$3-$r.dat"
	done
}
xtics_wl() {
	local j=1 w t=
	for w in $workloads; do
		t="$t${t:+, }'$w' $j"
		j=$((j + 1))
	done
	echo "set xtics ($t) scale 0; set xrange [0.5:$nwl.5]"
	# a light band between workloads
	bands "$nwl"
}
plot_dots() { # plot_dots PREFIX: a plot line of every runner's points
	local p= r
	for r in $runners; do
		p+="${p:+, }'$work/$1-$r.dat' using 1:2 with points $(style "$r") title '$r'"
	done
	echo "plot $p"
}

# ---- ops.png: op cost ----
dots "add ns" 1 add
dots "mod ns" 1 mod
dots "del ns" 1 del
{
	head_gp ops.png 1400 1500
	echo "set multiplot title \"Op cost per workload, every runner: ns per add, mod and del; lower is cheaper\\n($unit_note; timer_list and hrtimer are the kernel's own)\" font 'sans,13'"
	panels
	xtics_wl
	echo "set logscale y; set format y '%g'; set ylabel 'ns per op (log)'"
	n=0
	for op in add mod del; do
		top=$(awk -v n=$n 'BEGIN { printf "%.3f", 0.91 - n * 0.30 }')
		bot=$(awk -v n=$n 'BEGIN { printf "%.3f", 0.91 - n * 0.30 - 0.24 }')
		echo "set tmargin at screen $top; set bmargin at screen $bot"
		echo "set title '$op'"
		if [ $n -eq 0 ]; then key_once; else echo "unset key"; fi
		plot_dots "$op"
		n=$((n + 1))
	done
	echo "unset multiplot"
} >"$work/ops.gp"

# ---- tick.png: busy tick p99 and max ----
dots "tick p99 ns" 1000 p99
dots "tick max ns" 1000 max
{
	head_gp tick.png 1400 1100
	echo "set multiplot title \"Tick cost per workload: one busy tick of each runner, us; timer_list, hrtimer: their softirq runs\\n($unit_note)\" font 'sans,13'"
	panels
	xtics_wl
	echo "set logscale y; set format y '%g'; set ylabel 'us (log)'"
	echo "set tmargin at screen 0.92; set bmargin at screen 0.53; set title 'busy tick p99'"
	key_once
	plot_dots p99
	echo "set tmargin at screen 0.46; set bmargin at screen 0.07; set title 'worst busy tick (max)'"
	echo "unset key"
	plot_dots max
	echo "unset multiplot"
} >"$work/tick.gp"

# ---- burst.png: the burst's worst cascade and worst tick ----
# per runner: its place, the value in ms (or NaN), a label for no value
bars() { # bars COLUMN PREFIX
	local j=1 r v
	: >"$work/$2.dat"
	for r in $runners; do
		v=$(awk -F, -v w="$c_wl" -v ce="$c_e" -v c="$(col "$csv" "$1")" -v rr="$r" \
			'NR > 1 && $w == "burst" && $ce == rr { print $c }' "$csv")
		case "$v" in
		""|n/a) echo "$j NaN n/a $r" ;;
		0) echo "$j NaN none $r" ;;
		*) echo "$j $(awk -v v="$v" 'BEGIN { printf "%g", v / 1e6 }') - $r" ;;
		esac >>"$work/$2.dat"
		j=$((j + 1))
	done
}
if grep -q '^burst,' "$csv"; then
	bars "cascade max ns" casc
	bars "tick max ns" worst
	# N: the count most runners ran; a runner that ran another (its cap,
	# max_timers: straight and ordered take 8192) says its own under its name
	bn=$(awk -F, -v w="$c_wl" -v ce="$c_e" -v c="$(col "$csv" N)" \
		'NR > 1 && $w == "burst" { print $ce, $c }' "$csv")
	nb=$(echo "$bn" | awk '{ n[$2]++ } END { for (k in n) if (n[k] > best) { best = n[k]; b = k }; print b }')
	xt=$(for r in $runners; do echo "$bn" | awk -v r="$r" '$1 == r { print r, $2; f = 1 } END { if (!f) print r, "" }'; done |
		awk -v nb="$nb" '{ l = $1; if ($2 != "" && $2 != nb) l = l "\\n(N=" $2 ")"
			printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), l, NR }')
	bar_plot() { # bar_plot PREFIX: boxes in each runner's colour, labels where none
		local p= r j=1
		for r in $runners; do
			p+="${p:+, }'$work/$1.dat' every ::$((j - 1))::$((j - 1)) using 1:2 with boxes fs solid 0.85 border lc rgb '#333333' $(style "$r" | sed 's/ pt.*//') notitle"
			j=$((j + 1))
		done
		p+=", '$work/$1.dat' using 1:(ylow):(strcol(3) eq '-' ? '' : strcol(3)) with labels offset 0,0.6 font 'sans,10' tc rgb '#555555' notitle"
		p+=", '$work/$1.dat' using 1:(\$2 == \$2 ? \$2 : NaN):(sprintf('%.3g', \$2)) with labels offset 0,0.7 font 'sans,9' notitle"
		echo "plot $p"
	}
	{
		head_gp burst.png 1400 1100
		echo "set multiplot title \"The burst: $nb timers due in one jiffy, one tv2 slot; ms ($unit_note)\\n(N=... under a name: that runner ran that many, its cap; not ranked against the others)\" font 'sans,13'"
		echo "set lmargin at screen 0.08; set rmargin at screen 0.97"
		echo "set xtics ($xt) rotate by 35 right scale 0; set xrange [0.4:$nrun.6]"
		echo "set boxwidth 0.7; set logscale y; set format y '%g'; set ylabel 'ms (log)'; unset key"
		echo "set tmargin at screen 0.905; set bmargin at screen 0.57"
		echo "set title 'worst cascade: ms spent moving timers down a level in one tick (none: the runner does not cascade)'"
		echo "stats '$work/casc.dat' using 2 nooutput; ylow = STATS_min / 3; set yrange [ylow / 2:STATS_max * 3]"
		bar_plot casc
		echo "set tmargin at screen 0.47; set bmargin at screen 0.12"
		echo "set title 'worst busy tick: the cascade and running the callbacks due'"
		echo "set autoscale y; stats '$work/worst.dat' using 2 nooutput; ylow = STATS_min / 3; set yrange [ylow / 2:STATS_max * 3]"
		bar_plot worst
		echo "unset multiplot"
	} >"$work/burst.gp"
fi

# ---- lateness.png: CCDF of late ns ----
# From hist.csv (workload,runner,metric,floor ns,count) when there: share of
# runs at or above each bucket's floor; else three points from compare.csv:
# p50 (0.5), p99 (0.01), max (1 / runs).
late_wls=$(echo $workloads | tr ' ' '\n' | grep -v -x burst || true)
hist=$dir/hist.csv
src=
for w in $late_wls; do
	for r in $runners; do
		f=$work/late-$w-$r.dat
		if [ -s "$hist" ]; then
			src="histograms (hist.csv)"
			awk -F, -v w="$w" -v rr="$r" '
				NR > 1 && $1 == w && $2 == rr && $3 == "late" { x[++n] = $4; c[n] = $5; tot += $5 }
				END {
					left = tot
					for (i = 1; i <= n; i++) {
						if (x[i] > 0 && left > 0) printf "%g %g\n", x[i] / 1000, left / tot
						left -= c[i]
					}
					print "NaN NaN"
				}' "$hist" >"$f"
		else
			src="p50, p99 and max of compare.csv"
			awk -F, -v w="$w" -v rr="$r" -v cw="$c_wl" -v ce="$c_e" \
				-v a="$(col "$csv" "late p50 us")" -v b="$(col "$csv" "late p99 us")" \
				-v m="$(col "$csv" "late max us")" -v n="$(col "$csv" runs)" '
				NR > 1 && $cw == w && $ce == rr && $n > 0 {
					# p99 only where it is not the max (100 runs or more)
					if ($a > 0) printf "%g 0.5\n", $a
					if ($b > 0 && $n >= 100) printf "%g 0.01\n", $b
					if ($m > 0) printf "%g %g\n", $m, 1 / $n }
				END { print "NaN NaN" }' "$csv" >"$f"
		fi
	done
done
jus=$((1000000 / hz))
{
	head_gp lateness.png 1400 1200
	echo "set multiplot title \"Lateness: the share of timer runs at least x us after their due jiffy's instant (CCDF, from the $src)\\nan estimate up to one jiffy off (arming time + jiffies to go); $unit_note\" font 'sans,13'"
	panels
	echo "set logscale xy; set format x '%g'; set format y '%g'; set xrange [1:*]; set yrange [*:1.2]"
	echo "set xlabel 'us late (log; from 1 us)'; set ylabel 'share of runs >= x (log)'"
	echo "set arrow 1 from $jus, graph 0 to $jus, graph 1 nohead dt 3 lc rgb '#444444'"
	echo "set label 1 '1 jiffy' at $jus, graph 0.97 left offset 0.3,0 font 'sans,9'"
	nl=$(echo $late_wls | wc -w)
	rows=$(((nl + 1) / 2))
	n=0
	for w in $late_wls; do
		c=$((n % 2)) rw=$((n / 2))
		l=$(awk -v c=$c 'BEGIN { printf "%.3f", 0.07 + c * 0.385 }')
		rm=$(awk -v c=$c 'BEGIN { printf "%.3f", 0.07 + c * 0.385 + 0.315 }')
		top=$(awk -v r=$rw -v n=$rows 'BEGIN { printf "%.3f", 0.92 - r * 0.86 / n }')
		bot=$(awk -v r=$rw -v n=$rows 'BEGIN { printf "%.3f", 0.92 - (r + 1) * 0.86 / n + 0.08 }')
		echo "set lmargin at screen $l; set rmargin at screen $rm; set tmargin at screen $top; set bmargin at screen $bot"
		echo "set title '$w'"
		if [ $n -eq 0 ]; then key_once; else echo "unset key"; fi
		p=
		for r in $runners; do
			p+="${p:+, }'$work/late-$w-$r.dat' using 1:2 with linespoints pi 6 $(style "$r") title '$r'"
		done
		echo "plot $p"
		n=$((n + 1))
	done
	echo "unset multiplot"
} >"$work/lateness.gp"
[ -n "$late_wls" ] || rm "$work/lateness.gp"

# ---- sweep.png: the scale sweep ----
s=$dir/sweep.csv
for r in $runners; do
	awk -F, -v e="$r" -v ce="$(col "$s" engine)" -v cn="$(col "$s" N)" \
		-v ca="$(col "$s" "add ns")" -v ct="$(col "$s" "tick ns per run")" '
		NR > 1 && $ce == e { print $cn, ($ca ~ /^[0-9.]+$/ ? $ca : "NaN"), ($ct ~ /^[0-9.]+$/ && $ct > 0 ? $ct : "NaN") }
		END { print "NaN NaN NaN" }' "$s" >"$work/sweep-$r.dat"
done
{
	head_gp sweep.png 1400 1150
	echo "set multiplot title \"Scale sweep${sweepload:+ ($sweepload)}: N pending timers, one runner per load; $unit_note\" font 'sans,13'"
	panels
	echo "set logscale xy; set format y '%g'"
	echo "set xtics ('1k' 1000, '10k' 10000, '100k' 100000, '1M' 1000000)"
	echo "set xlabel 'pending timers N (log)'; set xrange [700:1500000]"
	echo "set tmargin at screen 0.92; set bmargin at screen 0.56"
	echo "set title 'add: ns per add while filling 0 to N'; set ylabel 'ns per add (log)'"
	key_once
	p=
	for r in $runners; do
		p+="${p:+, }'$work/sweep-$r.dat' using 1:2 with linespoints $(style "$r") title '$r'"
	done
	echo "plot $p"
	echo "set tmargin at screen 0.46; set bmargin at screen 0.08; unset key"
	echo "set title 'tick: busy tick ns per expired timer'; set ylabel 'ns per expired timer (log)'"
	echo "plot ${p//using 1:2/using 1:3}"
	echo "unset multiplot"
} >"$work/sweep.gp"

# ---- replay.png: the shipped real traces, from replay.csv ----
# Top: each engine's Ir/op on each trace's timer_list stream, the traces
# on x, the engines spread as in ops.png, each point labelled with its
# value. Below, a panel per trace: the lateness of modern and of the
# kernel (its row from the trace, drawn in timer_list's style), p50, p99
# and max in jiffies (the exact engines': 0).
if [ -n "$rcsv" ]; then
	rc() { col "$rcsv" "$1"; }
	traces=$(awk -F, -v c="$(rc trace)" 'NR > 1 && !s[$c]++ { print $c }' "$rcsv")
	nt=$(echo $traces | wc -w)
	reng=
	for r in $order; do
		case " $(echo $in_replay) " in *" $r "*) reng="$reng $r" ;; esac
	done
	nre=$(echo $reng | wc -w)
	k=0
	for r in $reng; do
		k=$((k + 1))
		awk -F, -v tl="$(echo $traces)" -v rr="$r" -v k=$k -v n="$nre" \
			-v ct="$(rc trace)" -v cs="$(rc stream)" -v ce="$(rc engine)" -v cv="$(rc ir_op)" '
			BEGIN { nt = split(tl, t, " "); for (j = 1; j <= nt; j++) at[t[j]] = j }
			NR > 1 && $cs == "timer_list" && $ce == rr && $cv ~ /^[0-9.]+$/ && $cv > 0 {
				printf "%g %g\n", at[$ct] + (k - (n + 1) / 2) * 0.84 / n, $cv }
			END { print "NaN NaN" }' "$rcsv" >"$work/rir-$r.dat"
	done
	# per trace: p50, p99 and max of the kernel (x - 0.18) and modern (x + 0.18)
	for t in $traces; do
		for who in kernel:-0.18 modern:0.18; do
			awk -F, -v tt="$t" -v rr="${who%%:*}" -v dx="${who#*:}" \
				-v ct="$(rc trace)" -v cs="$(rc stream)" -v ce="$(rc engine)" \
				-v a="$(rc late_p50)" -v b="$(rc late_p99)" -v m="$(rc late_max)" '
				NR > 1 && $ct == tt && $cs == "timer_list" && $ce == rr {
					printf "%g %s\n%g %s\n%g %s\n", 1 + dx, $a, 2 + dx, $b, 3 + dx, $m }
				END { print "NaN NaN" }' "$rcsv" >"$work/rlate-$t-${who%%:*}.dat"
		done
	done
	# each trace's label: its name and the kernel's timer_list starts
	xt=$(awk -F, -v tl="$(echo $traces)" -v ct="$(rc trace)" -v cs="$(rc stream)" \
		-v ce="$(rc engine)" -v ca="$(rc adds)" -v cm="$(rc mods)" '
		BEGIN { nt = split(tl, t, " ") }
		NR > 1 && $cs == "timer_list" && $ce == "kernel" { st[$ct] = $ca + $cm }
		END { for (j = 1; j <= nt; j++)
			printf "%s\"%s\\n(%d timer_list starts)\" %d", (j > 1 ? ", " : ""), t[j], st[t[j]], j }' "$rcsv")
	lmax=$(cat "$work"/rlate-*.dat | awk '$2 ~ /^[0-9.]+$/ && $2 > m { m = $2 } END { print m + 0 }')
	rstamp=$(head -n 1 "$dir/replay.md" 2>/dev/null |
		sed -n 's/^Trace replay measured \([0-9-]*\) at commit \(.*\) with `.*/\1, commit \2, scripts\/replay-csv.sh (user space, on the host)/p')
	{
		stamp=$rstamp head_gp replay.png 1400 1150
		echo "set multiplot title \"The shipped real traces, replayed through every engine in user space (scripts/replay-csv.sh)\" font 'sans,13'"
		panels
		echo "set tmargin at screen 0.90; set bmargin at screen 0.50"
		echo "set title \"Ir/op: callgrind's instructions per add, mod, del and expiry on each trace's timer_list stream (exact, reproducible); lower is cheaper\""
		echo "set xtics ($xt) scale 0; set xrange [0.5:$nt.5]"
		bands "$nt"
		echo "set logscale y; set format y '%g'; set ylabel 'Ir per op (log)'"
		echo "stats '< cat $work/rir-*.dat' using 2 nooutput; set yrange [STATS_min / 1.4:STATS_max * 2]; set ytics 25, 2; set mytics 2"
		echo "set key at screen 0.835,0.90 left top Left reverse samplen 2 spacing 1.1 box lc rgb '#bbbbbb' title 'engine'"
		p=
		for r in $reng; do
			t=$r
			# replay.csv's exact column: every timer at its jiffy, none refused
			ne=$(awk -F, -v rr="$r" -v cs="$(rc stream)" -v ce="$(rc engine)" -v cx="$(rc exact)" \
				-v ct="$(rc trace)" 'NR > 1 && $cs == "timer_list" && $ce == rr && $cx != "yes" { printf "%s%s", (n++ ? ", " : ""), $ct }' "$rcsv")
			if [ -n "$ne" ]; then
				[ "$(echo "$ne" | tr ',' '\n' | wc -l)" -eq "$nt" ] && t="$r (not exact)" || t="$r (not exact on $ne)"
			fi
			p+="${p:+, }'$work/rir-$r.dat' using 1:2 with points $(style "$r") title '$t'"
		done
		for r in $reng; do
			p+=", '$work/rir-$r.dat' using 1:2:(sprintf('%.1f', \$2)) with labels rotate by 90 left offset 0,0.9 font 'sans,8' notitle"
		done
		echo "plot $p"
		# the lateness panels, side by side
		echo "unset object; unset logscale y; set format y '%g'; set ytics autofreq; set mytics default"
		echo "set xtics ('p50' 1, 'p99' 2, 'max' 3) scale 0; set xrange [0.4:3.6]"
		echo "set boxwidth 0.34; set yrange [0:$lmax * 1.2 + 1]"
		echo "set key at screen 0.835,0.40 left top Left reverse samplen 2 spacing 1.1 box lc rgb '#bbbbbb' title 'lateness'"
		j=0
		for t in $traces; do
			l=$(awk -v j=$j -v n="$nt" 'BEGIN { printf "%.3f", 0.08 + j * 0.74 / n + (j > 0 ? 0.03 : 0) }')
			rm=$(awk -v j=$j -v n="$nt" 'BEGIN { printf "%.3f", 0.08 + (j + 1) * 0.74 / n - (j < n - 1 ? 0.03 : 0) }')
			echo "set lmargin at screen $l; set rmargin at screen $rm; set tmargin at screen 0.37; set bmargin at screen 0.06"
			echo "set title \"$t: jiffies late, timer_list (exact engines: 0)\""
			if [ $j -eq 0 ]; then echo "set ylabel 'jiffies late'"; else echo "unset ylabel; unset key"; fi
			p=
			for who in kernel modern; do
				r=$who tl="modern"
				[ $who = kernel ] && r=timer_list tl="kernel (trace)"
				p+="${p:+, }'$work/rlate-$t-$who.dat' using 1:2 with boxes fs solid 0.85 border lc rgb '#333333' $(style "$r" | sed 's/ pt.*//') title '$tl'"
				p+=", '$work/rlate-$t-$who.dat' using 1:2:(sprintf('%g', \$2)) with labels offset 0,0.7 font 'sans,9' notitle"
			done
			echo "plot $p"
			j=$((j + 1))
		done
		echo "unset multiplot"
	} >"$work/replay.gp"
fi

# ---- smp.png: percpu=0 against percpu=1, from smp.csv ----
# Top: op_ns against the remote share at 2 vCPUs, classic and modern at
# percpu=0 (one instance, solid) and percpu=1 (an instance per CPU,
# dashed), timer_list as the kernel's reference; the 1-vCPU boot's
# remote=0 (the scaling's baseline) left of a dotted line, hollow. Below:
# the share of lock acquisitions contended (the engines' locks only).
scsv=$dir/smp.csv
[ -s "$scsv" ] || scsv=
if [ -n "$scsv" ]; then
	sc() { col "$scsv" "$1"; }
	srun=
	for r in $order; do
		awk -F, -v c="$(sc runner)" -v rr="$r" 'NR > 1 && $c == rr { f = 1 } END { exit !f }' "$scsv" &&
			srun="$srun $r"
	done
	# smp-RUNNER-PERCPU.dat: remote, op_ns, contended_pct, op_ns_lo,
	# op_ns_hi (the rounds' min..max, drawn as error bars) at 2 vCPUs or
	# more; smp1-RUNNER-PERCPU.dat: the 1-vCPU row at x = -9 (percpu=0)
	# and -6 (percpu=1). Pass a only (pass b is the A/A control).
	for r in $srun; do
		for pc in 0 1; do
			awk -F, -v rr="$r" -v pc="$pc" -v cr="$(sc runner)" -v cp="$(sc percpu)" \
				-v cm="$(sc remote)" -v cc="$(sc cpus)" -v cn="$(sc op_ns)" -v ck="$(sc contended_pct)" \
				-v cs="$(sc pass)" -v cl="$(sc op_ns_lo)" -v ch="$(sc op_ns_hi)" '
				function v(x) { return x ~ /^[0-9.]+$/ ? x : "NaN" }
				NR == 1 || (cs && $cs != "a") || $cr != rr || $cp != pc { next }
				{ row = v($cn) " " v($ck) " " (cl ? v($cl) : "NaN") " " (ch ? v($ch) : "NaN") }
				$cc >= 2 { print $cm, row > f2 }
				$cc == 1 { print (pc ? -6 : -9), row > f1 }
				END { print "NaN NaN NaN NaN NaN" > f2; print "NaN NaN NaN NaN NaN" > f1 }' \
				f2="$work/smp-$r-$pc.dat" f1="$work/smp1-$r-$pc.dat" "$scsv"
		done
	done
	# log y only if op_ns spans a decade or more
	slog=$(cat "$work"/smp-*.dat "$work"/smp1-*.dat |
		awk '$2 ~ /^[0-9.]+$/ && $2 > 0 { if (!n++ || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
			END { print (n && hi / lo >= 10) ? 1 : 0 }')
	# a line's style: the runner's colour and marker, solid for percpu=0,
	# dashed for percpu=1; hollow markers (pngcairo's filled point types
	# are odd, their hollow ones one below) for the 1-vCPU rows
	sstyle() { style "$1" | sed "s/ dt [0-9]*/ dt $(($2 + 1))/"; }
	hollow() { style "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == "pt" && $(i + 1) ~ /^(5|7|9|11|13|15)$/) $(i + 1)--; else if ($i == "ps") $(i + 1) = 1.7; print }'; }
	smp_plot() { # smp_plot COLUMN RUNNERS: one panel's plot line
		local p= r pc t u=1:$1 w=linespoints wp=points
		# ns per op: the median with the rounds' min..max as error bars
		[ "$1" = 2 ] && u=1:2:4:5 w=yerrorlines wp=yerrorbars
		for r in $2; do
			for pc in 0 1; do
				t="$r, percpu=$pc"
				[ "$r" = timer_list ] && t="timer_list, percpu=$pc load"
				p+="${p:+, }'$work/smp-$r-$pc.dat' using $u with $w $(sstyle "$r" $pc) title '$t'"
			done
		done
		for r in $2; do
			for pc in 0 1; do
				p+=", '$work/smp1-$r-$pc.dat' using $u with $wp $(hollow "$r") notitle"
			done
		done
		echo "plot $p"
	}
	seng=$(echo $srun | tr ' ' '\n' | grep -v -x timer_list | tr '\n' ' ')
	{
		stamp="smp.csv (scripts/compare-smp.sh): a boot at 2 vCPUs and one at 1, QEMU multi-threaded TCG" head_gp smp.png 1400 1150
		echo "set multiplot title \"Per-CPU instances (percpu=1) against one shared instance (percpu=0): a timeouts load over every CPU\\n(emulated-CPU ns under QEMU TCG: compare within the figure)\" font 'sans,13'"
		echo "set lmargin at screen 0.07; set rmargin at screen 0.76"
		echo "set xrange [-12:95]; set xtics ('1 vCPU' -7.5, '0' 0, '10' 10, '50' 50, '90' 90) scale 0"
		echo "set arrow 1 from -3, graph 0 to -3, graph 1 nohead dt 3 lc rgb '#444444'"
		echo "set tmargin at screen 0.90; set bmargin at screen 0.52"
		echo "set title 'ns per activity op (lock waits and remote ops included; median of the rounds, bars their min..max); lower is cheaper'"
		if [ "$slog" = 1 ]; then
			echo "set logscale y; set format y '%g'; set ylabel 'ns per op (log)'"
		else
			echo "set yrange [0:*]; set ylabel 'ns per op'"
		fi
		echo "set key at screen 0.775,0.90 left top Left reverse samplen 3 spacing 1.1 box lc rgb '#bbbbbb' title \"solid: percpu=0, one instance\\ndashed: percpu=1, per CPU\""
		smp_plot 2 "$srun"
		echo "unset logscale y; set yrange [0:*]; set format y '%g'"
		echo "set tmargin at screen 0.45; set bmargin at screen 0.11; unset key"
		echo "set title 'lock contended: per cent of the engine''s lock acquisitions whose trylock failed (timer_list: the kernel''s locks, not counted)'"
		echo "set ylabel 'contended (%)'"
		echo "set xlabel \"remote=: per cent of each CPU's ops on another CPU's timers, 2 vCPUs\\nleft of the dotted line, hollow: the 1-vCPU boot at remote=0, percpu=0 then percpu=1\""
		smp_plot 3 "$seng"
		echo "unset multiplot"
	} >"$work/smp.gp"
fi

# has_data PREFIX COLUMN: some runner's file has a number there (gnuplot
# fails on a panel with none: a figure without data is left out)
has_data() { cat "$work/$1"-*.dat 2>/dev/null | awk -v c="$2" '$c ~ /^[0-9.e+-]+$/ { f = 1 } END { exit !f }'; }
for f in add:2:ops mod:2:ops del:2:ops p99:2:tick max:2:tick sweep:2:sweep sweep:3:sweep rir:2:replay smp:2:smp; do
	IFS=: read -r pre c fig <<<"$f"
	[ -e "$work/$fig.gp" ] || continue
	has_data "$pre" "$c" || { log "no data for $fig.png ($pre): left out"; rm -f "$work/$fig.gp"; }
done
for w in $late_wls; do
	[ -e "$work/lateness.gp" ] || break
	has_data "late-$w" 1 || { log "no lateness data for $w: lateness.png left out"; rm -f "$work/lateness.gp"; }
done
for gp in "$work"/*.gp; do
	png=$(basename "$gp" .gp).png
	gnuplot "$gp" 2>"$work/gnuplot.err" || { cat "$work/gnuplot.err" >&2; die "gnuplot failed on $png"; }
	grep -v -i 'skipping data file with no valid points\|no valid points' "$work/gnuplot.err" >&2 || true
	[ -s "$dir/$png" ] || die "$png not written"
	log "wrote $dir/$png"
done
