#!/usr/bin/env bash
# make compare: one QEMU boot runs every workload on every runner (our
# engines, timer_list and hrtimer; straight and ordered apart, at most 8192
# timers), plus a scale sweep (1k..1M pending timers, each runner up to
# what it takes), then real traffic (the shadow: the kernel's own timer_list
# traffic under TCP over lo, mirrored into every engine), and writes
# markdown tables, CSV files and the figures (scripts/plots.sh: one PNG per
# question, drawn from the CSV files; hist.csv holds the histograms). Two
# more boots, at 2 vCPUs and at 1, write smp.csv (scripts/compare-smp.sh;
# smp.png is drawn from it). On the host, in both modes, the shipped real
# traces replayed through every engine in user space
# (scripts/replay-csv.sh: replay.csv, a few seconds).
#
#   scripts/compare.sh [--quick] [--reps N] [--out DIR] [--kernel test|stock]
#                      [--clock wall|icount]
#   scripts/compare.sh --host [--quick] [--reps N] [--out DIR] [--install]
#
# --out DIR: where the files go. Without it: results/ in the checkout for
#   the guest run (what results/README.md describes); for --host a new
#   stamped directory outside the checkout, $XDG_DATA_HOME/twheel/results/
#   or else ~/twheel-results/, named <date>-<time>-<host> (printed).
# --quick: small counts and short runs (make check uses it to prove the
#   pipeline works); its numbers mean little. The run fails when a table
#   is missing or a row breaks what the engines guarantee (early runs,
#   classic not exact, the burst cascade not in one classic tick).
# --reps N: the workloads' rounds (scripts/guest/compare.sh): 5 by
#   default, 3 with --quick. compare.csv holds each figure's median over
#   the rounds that count, its min..max (<column>_lo, <column>_hi), reps
#   and clock; rounds.csv every round's row, and why one is left out
#   (scripts/results.py). timer_list runs twice a round, the second time
#   as timer_list_b: the A/A control, printed under the tables.
# --kernel: the guest's kernel, test (default) or stock (Debian's 6.12).
# --clock: the guests' clock (scripts/qemu.sh --clock): wall (default),
#   the host's time, or icount, QEMU's instruction counter (one guest ns a
#   guest instruction: costs that do not move with the host's load; its
#   SMP boots stay on the wall clock: two CPUs at once is their
#   subject). Named in every provenance line.
# --host: the same sequence on this machine, as root, against the twheel
#   already loaded here (its runners), loads sized by its admission; no
#   QEMU. The guest runs exactly this (scripts/guest/compare.sh) after its
#   insmod. It installs nothing: without gnuplot the tables and CSV are
#   written and the plot is skipped, unless --install (apt-get install
#   gnuplot-nox), and the trace replay is skipped where cc, make or
#   valgrind is missing, unless --install (userspace/setup.sh installs
#   them). The guest run installs what it needs (gnuplot-nox; the
#   replay's, on the host).
# -h, --help: this text.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=full out= kernel=test where=guest install=0 reps=
usage() { printf '[twheel] error: %s (see scripts/compare.sh --help)\n' "$*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) mode=quick; shift ;;
	--reps) [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || usage "--reps needs a count >= 1"; reps=$2; shift 2 ;;
	--reps=*) reps=${1#*=}; [[ "$reps" =~ ^[1-9][0-9]*$ ]] || usage "--reps needs a count >= 1"; shift ;;
	--out) [ $# -ge 2 ] && [ -n "$2" ] || usage "--out needs a directory"; out=$2; shift 2 ;;
	--out=*) out=${1#*=}; [ -n "$out" ] || usage "--out needs a directory"; shift ;;
	--kernel) [ $# -ge 2 ] || usage "--kernel needs test or stock"; kernel=$2; shift 2 ;;
	--clock) [ $# -ge 2 ] || usage "--clock needs wall or icount"; TWHEEL_CLOCK=$2; shift 2 ;;
	--clock=*) TWHEEL_CLOCK=${1#*=}; shift ;;
	--host) where=host; shift ;;
	--install) install=1; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
done
# every guest of the run boots on this clock, but the SMP section's
export TWHEEL_CLOCK=${TWHEEL_CLOCK:-wall}
case "$TWHEEL_CLOCK" in
wall|icount) ;;
*) usage "--clock takes wall or icount, not '$TWHEEL_CLOCK'" ;;
esac
if [ -z "$out" ]; then
	if [ $where = host ]; then
		base=${XDG_DATA_HOME:+$XDG_DATA_HOME/twheel/results}
		out=${base:-$HOME/twheel-results}/$(date +%Y-%m-%d-%H%M%S)-$(hostname -s 2>/dev/null || uname -n)
	else
		out=$TWHEEL_ROOT/results
	fi
fi
measure=$TWHEEL_ROOT/scripts/guest/compare.sh
repsarg=${reps:+--reps=$reps}

# The host: refuse before anything else if the run cannot happen here.
if [ $where = host ]; then
	sh "$measure" "$mode" --check || die "compare --host cannot run here (above)"
	log "results go to $out"
	if ! command -v gnuplot >/dev/null && [ $install -eq 1 ]; then
		apt_need gnuplot-nox
	fi
else
	apt_need gnuplot-nox
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# failed WHAT: the run's whole output kept beside the results (its last
# lines shown), then the error
failed() {
	tail -n 30 "$work/guest.out" >&2
	cp "$work/guest.out" "$out/failed-run.out" && log "the whole output: $out/failed-run.out"
	die "$1"
}

if [ $where = host ]; then
	log "comparison run ($mode) on this machine, $(uname -r); this takes a few minutes"
	start=$(date +%s)
	{ sh "$measure" "$mode" $repsarg && sh "$(dirname "$measure")/capabilities.sh" "$mode"; } \
		>"$work/guest.out" ||
		failed "the run failed"
	grep -q '^compare: done' "$work/guest.out" ||
		failed "the run did not finish"
	log "the run took $(($(date +%s) - start)) s"
else
	log "comparison run ($mode) in one QEMU boot; this takes a few minutes"
	# issue 15's tables: capabilities.sh (burst, budget, slack) after the
	# comparison; a full run also tick=nohz against periodic (nohz.sh)
	nohz=
	if [ $mode = full ]; then
		nohz=" && sh /guest/nohz.sh 10 10"
	fi
	# On a busy host the guest's TSC calibration can fail, leaving it on a
	# jiffies clocksource: every ns would be a multiple of 4 ms. The guest
	# then stops at once and the run is retried in a new boot, up to 3.
	for boot in 1 2 3; do
		start=$(date +%s)
		TWHEEL_MEM=${TWHEEL_MEM:-768} "$TWHEEL_ROOT/scripts/qemu.sh" --kernel "$kernel" \
			--no-load --timeout 3000 -- \
			". /guest/lib.sh && insmod /lib/twheel/twheel.ko engines=\$all,shadow max_interval=1048576 && sh /guest/compare.sh $mode $repsarg --require-tsc --traffic && sh /guest/capabilities.sh $mode && rmmod twheel$nohz" \
			>"$work/guest.out" || {
			qrc=$?
			# 75: the guest did not boot, twice (qemu.sh said why)
			[ $qrc -eq 75 ] && exit 75
			failed "the guest run failed"
		}
		grep -q '^compare: done' "$work/guest.out" && break
		grep -q '^compare: no TSC' "$work/guest.out" ||
			failed "the guest run did not finish"
		log "boot $boot: $(grep '^compare: no TSC' "$work/guest.out")"
	done
	grep -q '^compare: done' "$work/guest.out" ||
		die "3 boots without a TSC clocksource: timings would have jiffy resolution; rerun on a quieter host"
	log "guest run took $(($(date +%s) - start)) s"
fi

# Each run's stats to stats-NAME, each table to table-NAME, issue 15's
# tables to caps-NAME.
awk -v dir="$work" '
	/^@@STATS / { f = dir "/stats-" $2; next }
	/^@@COMPARE / { f = dir "/table-" $2; next }
	/^@@CAPS / { f = dir "/caps-" $2; next }
	/^@@END/ { f = ""; next }
	f { print > f }' "$work/guest.out"
info=$(sed -n 's/^@@INFO //p' "$work/guest.out")
sweepload=$(sed -n 's/^@@SWEEP //p' "$work/guest.out")
sweepload=${sweepload:-long min=1000 max=20000}
cpu=${info#*cpu=}
# Where the numbers come from, for the tables and the plot.
# (a failing $(...) in an assignment would end the script under set -e)
qf=
if [ $mode = quick ]; then
	qf=' --quick'
fi
if [ $where = host ]; then
	cmd="scripts/compare.sh --host$qf"
	caveat="Real-hardware times of this one machine; compare engines within the run."
	ontitle="on $cpu" plotnote="compare within one run"
elif [ "$TWHEEL_CLOCK" = icount ]; then
	cmd="scripts/compare.sh$qf --clock=icount"
	caveat="Instruction clock (QEMU -icount shift=0): one guest ns is one guest instruction, so a ns figure is instructions, whatever the host's load."
	ontitle="in QEMU TCG, instruction clock" plotnote="guest instructions (1 ns = 1 instruction)"
else
	cmd="scripts/compare.sh$qf"
	caveat="Emulated-CPU (QEMU TCG) times: read them as ratios within this one run."
	ontitle="in QEMU TCG" plotnote="emulated-CPU ns: compare within one run"
fi
# the provenance lines name the clock that made the figures
info="$info clock=$([ $where = host ] && echo host || echo "$TWHEEL_CLOCK")"
# The optimisation the module was built with: the kernel's (the test
# kernel comes from tinyconfig, whose CC_OPTIMIZE_FOR_SIZE is -Os; Debian's
# stock kernel is -O2). Instruction counts follow it.
if [ $where = guest ]; then
	if [ "$kernel" = test ]; then
		grep -q '^CONFIG_CC_OPTIMIZE_FOR_SIZE=y' "$(kbuild_dir test)/.config" 2>/dev/null &&
			info="$info opt=-Os" || info="$info opt=-O2"
	else
		info="$info opt=-O2"
	fi
fi
[ -s "$work/table-sweep" ] || die "no sweep table in the guest output"
# The rounds: compare.csv (medians, intervals, reps, clock), rounds.csv
# (every round's row), and the workloads' table for compare.md.
python3 "$TWHEEL_ROOT/scripts/results.py" rounds "$work/guest.out" "$out" \
	--clock "$([ $where = host ] && echo host || echo "$TWHEEL_CLOCK")" \
	--table "$work/table-workloads" >"$work/rounds.log" ||
	die "scripts/results.py could not read the rounds (above)"
sed 's/^/  /' "$work/rounds.log" >&2
noise=$(python3 "$TWHEEL_ROOT/scripts/results.py" noise "$out/compare.csv")

# CSV from a markdown table: the header and the data rows, cells trimmed.
md2csv() {
	grep '^|' "$1" | grep -v '^|---' |
		sed -e 's/^| *//' -e 's/ *|$//' -e 's/ *| */,/g'
}
# col FILE.csv NAME: the column number of NAME.
col() { head -n 1 "$1" | tr ',' '\n' | grep -n -x -F "$2" | cut -d: -f1; }
# need FILE.csv NAME...: every column used below is found by its name; a
# table without one is an error (their number and order do not matter).
need() {
	local f=$1 c
	shift
	for c in "$@"; do
		[ -n "$(col "$f" "$c")" ] || die "no column '$c' in $(basename "$f")"
	done
}

date=$(date -u +%Y-%m-%d)
{
	echo "Measured $date with \`$cmd\`; $where: $info."
	echo
	sed -n 's/^# //p' "$work/table-workloads" | sed 's/$/  /'
	echo
	grep '^|' "$work/table-workloads"
	echo
	echo "$noise"
	echo
	echo "Scale sweep (workload \`$sweepload\`: N pending timers, each re-armed when it runs; one runner per load):"
	echo
	grep '^|' "$work/table-sweep"
} >"$out/compare.md"
md2csv "$work/table-sweep" >"$out/sweep.csv"
need "$out/compare.csv" workload N engine "add ns" "mod ns" "del ns" \
	"add/mod/del x timer_list" "tick p50 ns" "tick p99 ns" "tick max ns" \
	"cascade max ns" "cascaded max" "late p50 j" "late p99 j" "late max j" \
	"late p99 us" runs early
need "$out/sweep.csv" N engine "add ns" "tick ns per run"

# ---- the short form: summary.md ----
# summary CSV: the main columns of every row, times in us.
summary() {
	awk -F, '
		function us(v) { return v == "n/a" ? "n/a" : sprintf("%.1f", v / 1000) }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			print "| workload | N | engine | add / mod / del ns | x timer_list | busy tick p50 / p99 / max us | cascade max us (timers) | late p50 / p99 / max jiffies | late p99 us |"
			print "|---|---:|---|---:|---:|---:|---:|---:|---:|"; next }
		{ casc = $c["cascaded max"] == "n/a" ? "n/a" : us($c["cascade max ns"]) " (" $c["cascaded max"] ")"
		  printf "| %s | %s | %s | %s / %s / %s | %s | %s / %s / %s | %s | %s / %s / %s | %s |\n",
			$c["workload"], $c["N"], $c["engine"], $c["add ns"], $c["mod ns"], $c["del ns"],
			$c["add/mod/del x timer_list"], us($c["tick p50 ns"]), us($c["tick p99 ns"]),
			us($c["tick max ns"]), casc, $c["late p50 j"], $c["late p99 j"], $c["late max j"],
			$c["late p99 us"] }' "$1"
}
# sweep_summary: one row per engine, add ns and tick ns per expired timer by N.
sweep_summary() {
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ e = $c["engine"]; n = $c["N"]
		  if (!(e in seen)) { seen[e] = 1; order[++ne] = e }
		  if (!(n in seenn)) { seenn[n] = 1; sizes[++nn] = n }
		  add[e, n] = $c["add ns"]; run[e, n] = $c["tick ns per run"] }
		END {
			# sizes in numeric order: a size only some runner reached
			# (admission lowered it) goes where it belongs
			for (j = 2; j <= nn; j++)
				for (k = j; k > 1 && sizes[k - 1] + 0 > sizes[k] + 0; k--) {
					t = sizes[k]; sizes[k] = sizes[k - 1]; sizes[k - 1] = t
				}
			h = "| engine |"; sep = "|---|"
			for (j = 1; j <= nn; j++) { h = h " add ns N=" sizes[j] " |"; sep = sep "---:|" }
			h = h " add at its largest N / N=" sizes[1] " |"; sep = sep "---:|"
			for (j = 1; j <= nn; j++) { h = h " tick ns/run N=" sizes[j] " |"; sep = sep "---:|" }
			print h; print sep
			for (i = 1; i <= ne; i++) {
				e = order[i]; l = "| " e " |"
				for (j = 1; j <= nn; j++) l = l " " add[e, sizes[j]] " |"
				# admission may have stopped a runner short of the
				# others: its growth is to the largest N it ran
				for (k = nn; k > 1 && add[e, sizes[k]] !~ /^[0-9]+$/; k--)
					;
				a1 = add[e, sizes[1]]; an = add[e, sizes[k]]
				ok = k > 1 && a1 ~ /^[0-9]+$/ && a1 > 0 && an ~ /^[0-9]+$/
				l = l (ok ? sprintf(" %.2f |", an / a1) : " n/a |")
				for (j = 1; j <= nn; j++) l = l " " run[e, sizes[j]] " |"
				print l
			}
		}' "$1"
}
{
	echo "Measured $date with \`$cmd\`; $where: $info."
	echo "$caveat"
	echo
	summary "$out/compare.csv"
	echo
	echo "$noise"
	echo
	echo "Scale sweep (\`$sweepload\`, one runner per load): add cost while filling"
	echo "0 to N, and busy tick time per expired timer:"
	echo
	sweep_summary "$out/sweep.csv"
} >"$out/summary.md"

# ---- sanity of what was measured ----
bad=0
check() { # check DESCRIPTION CONDITION...
	local what=$1
	shift
	if "$@"; then log "ok: $what"; else log "FAILED: $what"; bad=1; fi
}
csv=$out/compare.csv
c_engine=$(col "$csv" engine) c_wl=$(col "$csv" workload)
c_early=$(col "$csv" early) c_runs=$(col "$csv" runs)
c_lmax=$(col "$csv" "late max j") c_casn=$(col "$csv" "cascaded max")
c_n=$(col "$csv" N) c_add=$(col "$csv" "add ns") c_t99=$(col "$csv" "tick p99 ns")
cell() { # cell WORKLOAD ENGINE COLUMN
	awk -F, -v w="$1" -v e="$2" -v c="$3" \
		'$'"$c_wl"' == w && $'"$c_engine"' == e { print $c }' "$csv" | tail -n 1
}
# One row per workload and runner, whatever their number: every workload
# ran on the same runners, and every workload the guest ran (its runs but
# the sweep's, named after their workload) is in the table.
distinct() { awk -F, -v c="$1" 'NR > 1 { print $c }' "$csv" | sort -u; }
rows=$(($(wc -l <"$csv") - 1))
nwl=$(distinct "$c_wl" | wc -l) nrun=$(distinct "$c_engine" | wc -l)
pairs=$(awk -F, -v w="$c_wl" -v e="$c_engine" 'NR > 1 { print $w "," $e }' "$csv" |
	sort -u | wc -l)
ran=$(sed -n 's/^@@STATS //p' "$work/guest.out" | grep -v '^sweep-\|^shadow$\|:b$' | sort -u)
one_row_each() {
	[ -n "$ran" ] && [ "$(distinct "$c_wl")" = "$ran" ] &&
		[ "$rows" -eq $((nwl * nrun)) ] && [ "$pairs" -eq "$rows" ]
}
check "$rows rows: $nwl workloads x $nrun runners, one row each" one_row_each
check "no runner ran a timer early" \
	[ -z "$(awk -F, -v c="$c_early" 'NR > 1 && $c != 0' "$csv")" ]
check "every runner ran timers in every workload" \
	[ -z "$(awk -F, -v c="$c_runs" 'NR > 1 && ($c !~ /^[0-9]+(\.[0-9]+)?$/ || $c + 0 == 0)' "$csv")" ]
exact_re="^($("$TWHEEL_ROOT"/scripts/engines.sh --exact | tr ' ' '|'))$"
check "the exact engines ($("$TWHEEL_ROOT"/scripts/engines.sh --exact)) run every timer at its exact jiffy" \
	[ -z "$(awk -F, -v e="$c_engine" -v c="$c_lmax" -v re="$exact_re" \
		'NR > 1 && $e ~ re && $c != 0' "$csv")" ]
# A twheel loaded on a host may run only some runners: what needs a
# runner is checked where it ran.
has() { [ -n "$(cell burst "$1" "$c_engine")" ]; }
nb=$(cell burst classic "$c_n")
if has classic; then
	check "burst: classic cascaded all $nb timers in one tick" \
		[ "$(cell burst classic "$c_casn")" = "$nb" ]
fi
if has classic_bounded; then
	# a tick catching up missed jiffies spreads for each: 8 of them at most
	cb_max=$(( (nb + 255) / 256 > 64 ? (nb + 255) / 256 : 64 ))
	check "burst: classic_bounded moved at most $cb_max timers a jiffy (8 a tick)" \
		[ "$(cell burst classic_bounded "$c_casn")" -le $((8 * cb_max)) ]
fi
if has modern; then
	check "burst: modern never cascades" [ "$(cell burst modern "$c_casn")" = 0 ]
fi
check "op costs measured on every runner" \
	[ -z "$(awk -F, -v c="$c_add" 'NR > 1 && ($c !~ /^[0-9]+(\.[0-9]+)?$/ || $c + 0 == 0)' "$csv")" ]
if ! has timer_list; then
	log "note: no timer_list runner loaded: the softirq cost is not compared"
elif grep -q 'softirq cost unavailable' "$work/table-workloads"; then
	log "note: the kernel's softirq cost is unavailable in this kernel (see the table header)"
else
	check "timer_list/hrtimer tick cost from the softirq tracepoints" \
		[ -n "$(cell burst timer_list "$c_t99" | grep -v n/a)" ]
fi

# ---- the histograms, and the figures from the CSV files ----
# hist.csv: each workload's busy-tick and lateness histograms per runner
# (the log2 buckets of debugfs stats: a bucket's floor in ns, its count),
# what scripts/plots.sh draws the lateness CCDF from.
# hist WORKLOAD RUNNER METRIC SECTION KEY: the rows of one histogram, from
# the first round's stats of the workload: pass b's (stats-W:b) for the
# runners of that half (its @@RUNNER lines), the others' otherwise
# (timer_list's: pass a's; timer_list_b is not drawn apart)
hist() {
	local f=$work/stats-$1
	if [ "$2" != timer_list ] && awk -v w="$1" -v r="$2" '
		/^@@RUN / { on = ($2 == "round=1" && $3 == "pass=b" && $4 == "workload=" w) }
		on && /^@@RUNNER / && $2 == r { f = 1 } END { exit !f }' "$work/guest.out"; then
		f=$work/stats-$1:b
	fi
	awk -v sec="[$4]" -v key="$5_hist:" -v pre="$1,$2,$3" '
		$0 == sec { on = 1; next }
		/^\[/ { on = 0 }
		on && $1 == key {
			for (i = 2; i <= NF; i++) { split($i, a, ":"); print pre "," a[1] "," a[2] }
		}' "$f"
}
tick_src() { # the busy-tick histogram of a runner: SECTION KEY
	case "$1" in
	timer_list) echo "softirq timer_softirq_busy_ns" ;;
	hrtimer) echo "softirq hrtimer_softirq_busy_ns" ;;
	*) echo "$1 busy_tick_ns" ;;
	esac
}
runners=$(awk -F, -v c="$c_engine" 'NR > 1 && !seen[$c]++ { print $c }' "$csv")
{
	echo "workload,runner,metric,floor ns,count"
	for w in $(distinct "$c_wl"); do
		for r in $runners; do
			# shellcheck disable=SC2046
			hist "$w" "$r" tick $(tick_src "$r")
			hist "$w" "$r" late "$r" late_ns
		done
	done
} >"$out/hist.csv"
check "histograms of every workload in hist.csv" [ "$(wc -l <"$out/hist.csv")" -gt 1 ]
# ---- the shipped real traces through every engine: replay.csv ----
# Host-side work (user space, no guest) in both modes, a few seconds:
# scripts/replay-csv.sh writes replay.csv and replay.md (appended to
# summary.md below). The tool builds itself (userspace/setup.sh installs
# a C compiler, make and valgrind where missing), so the host run, which
# installs nothing without --install, skips it where one is missing.
rm -f "$out/replay.csv" "$out/replay.md" "$out/replay.png"
replay_ok=1
if [ $where = host ] && [ $install -eq 0 ]; then
	for c in cc make valgrind; do
		command -v $c >/dev/null || replay_ok=0
	done
	[ $replay_ok = 1 ] ||
		log "note: no cc, make or valgrind here: the trace replay skipped (rerun with --install, or scripts/replay-csv.sh $out later)"
fi
if [ $replay_ok = 1 ]; then
	log "trace replay: the shipped traces through every engine in user space (scripts/replay-csv.sh)"
	"$TWHEEL_ROOT/scripts/replay-csv.sh" "$out" || log "FAILED: the trace replay (above)"
	check "trace replay: replay.csv written, both traces, both streams" \
		[ "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$out/replay.csv" 2>/dev/null | sort -u | wc -l)" -eq 4 ]
fi
# rv CONDITION: the rows of replay.csv (named columns: c["ir_op"]) where
# CONDITION holds; none is what the checks below want
rv() {
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $1" "$out/replay.csv"
}
# shellcheck disable=SC2016 # awk conditions, in single quotes on purpose
if [ -s "$out/replay.csv" ]; then
	check "trace replay: every engine's counters add up, none ran a timer early" \
		[ -z "$(rv '$c["engine"] != "kernel" && ($c["counters"] != "ok" || $c["early"] != 0)')" ]
	# exact: every timer at its tick and none refused; a refusal is the
	# engine's range (simple's), counted in refused, not a late timer
	check "trace replay: the exact engines ran every timer they took at its tick" \
		[ -z "$(rv '$c["exact_claimed"] == "yes" && $c["exact"] != "yes" && $c["refused"] == 0')" ]
	check "trace replay: modern filed every start in the kernel's bucket (the placement oracle)" \
		[ -z "$(rv '$c["oracle"] ~ /^checked/ && $c["oracle_disagree"] != 0')" ]
	check "trace replay: Ir/op of every engine (callgrind)" \
		[ -z "$(rv '$c["engine"] != "kernel" && $c["ir_op"] !~ /^[0-9.]+$/')" ]
fi

rm -f "$out/compare.png"
if command -v gnuplot >/dev/null; then
	# a failure here is reported at the end, the other files written first
	"$TWHEEL_ROOT/scripts/plots.sh" "$out" 2>"$work/plots.err" || cat "$work/plots.err" >&2
	check "figures written (scripts/plots.sh: ops, tick, burst, lateness, sweep)" \
		[ -s "$out/ops.png" ] && [ -s "$out/sweep.png" ] && [ -s "$out/lateness.png" ]
	if [ -s "$out/replay.csv" ]; then
		check "the trace replay's figure written (replay.png)" [ -s "$out/replay.png" ]
	fi
else
	log "no gnuplot: the figures skipped (apt-get install gnuplot-nox, or rerun with --install); scripts/plots.sh $out draws them later"
fi

# ---- real traffic: the shadow's run, when the twheel here has it ----
# sv BLOCK KEY: a value of the shadow run's stats
sv() {
	awk -v e="[$1]" -v k="$2:" '$0 == e { on = 1; next } /^\[/ { on = 0 }
		on && $1 == k { print $2; exit }' "$work/stats-shadow"
}
real_traffic() {
	local csv=$out/shadow.csv e ops vs
	md2csv "$work/table-shadow" >"$csv"
	need "$csv" engine "busy ticks" "tick p50 ns" "tick p99 ns" "tick max ns" \
		"tick ns per run" "cascaded max" "late p50 j" "late p99 j" "late max j" \
		runs expired deleted early
	echo "Real traffic: the kernel's own timer_list starts, cancels and expiries, mirrored"
	echo "live into every engine (workload shadow) while $( [ $where = guest ] &&
		echo "traffic.sh ran TCP over lo" || echo "this machine ran its own traffic"):"
	echo "seen $(sv shadow seen_start) starts, $(sv shadow seen_cancel) cancels, $(sv shadow seen_expire) expiries;"
	echo "ring drops $(sv shadow ring_dropped_start)/$(sv shadow ring_dropped_cancel)/$(sv shadow ring_dropped_expire), pool full $(sv shadow pool_full)."
	echo "The modern engine's bucket against the kernel's, every start: $(sv shadow idx_agree) the same,"
	echo "$(sv shadow idx_kernel_behind) with the kernel's clock behind ours, $(sv shadow idx_kernel_ahead) ahead, $(sv shadow idx_wrong) wrong;"
	echo "of its real expiries in the kernel's bucket $(sv shadow:modern same_bucket_at) of $(sv shadow:modern same_bucket) at the kernel's jiffy."
	echo "The shadow row is the kernel (busy ticks: its TIMER_SOFTIRQ runs). vs the kernel: real expiries"
	echo "the engine fired at the kernel's jiffy / before it / after it."
	echo
	echo "| engine | starts / deletes / expired | busy ticks | busy tick p50 / p99 / max us | tick ns per run | cascaded max | late p50 / p99 / max j | vs the kernel: at / ahead / behind |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["engine"], $c["busy ticks"], $c["tick p50 ns"], $c["tick p99 ns"],
			$c["tick max ns"], $c["tick ns per run"], $c["cascaded max"],
			$c["late p50 j"], $c["late p99 j"], $c["late max j"], $c["expired"] }' "$csv" |
	while read -r e bt t50 t99 tmax per casc l50 l99 lmax exp; do
		ops="$(($(sv "$e" added) + $(sv "$e" modified))) / $(sv "$e" deleted) / $exp"
		vs="-"
		[ "$e" = shadow ] || vs="$(sv "shadow:$e" exp_at) / $(sv "shadow:$e" exp_ahead) / $(sv "shadow:$e" exp_behind)"
		awk -v l="| $e | $ops | $bt |" -v a="$t50" -v b="$t99" -v m="$tmax" \
			-v r="| $per | $casc | $l50 / $l99 / $lmax | $vs |" '
			function us(v) { return v == "n/a" ? "n/a" : sprintf("%.1f", v / 1000) }
			BEGIN { print l, us(a), "/", us(b), "/", us(m), r }'
	done
}
if [ -s "$work/table-shadow" ] && [ -s "$work/stats-shadow" ]; then
	real_traffic >"$out/shadow.md"
	{ echo; cat "$out/shadow.md"; } >>"$out/summary.md"
	{ echo; cat "$out/shadow.md"; } >>"$out/compare.md"
	check "real traffic: the probes saw the kernel's timers" [ "$(sv shadow seen_start)" -gt 0 ]
	check "real traffic: no runner ran a timer early" \
		[ -z "$(awk -F, -v c="$(col "$out/shadow.csv" early)" 'NR > 1 && $c != 0' "$out/shadow.csv")" ]
	check "real traffic: modern filed every start in the kernel's bucket where their clocks may agree" \
		[ "$(sv shadow idx_wrong)" = 0 ]
	check "real traffic: modern fired each arming of the kernel's bucket at the kernel's jiffy, or before a late kernel" \
		[ "$(($(sv shadow:modern same_bucket_at) + $(sv shadow:modern exp_ahead)))" -ge "$(sv shadow:modern same_bucket)" ]
else
	log "note: no shadow run (twheel loaded without engines=...,shadow): no real traffic table"
fi

# the trace replay's table after the run's (its own provenance line)
if [ -s "$out/replay.md" ]; then
	{ echo; cat "$out/replay.md"; } >>"$out/summary.md"
fi

# ---- issue 15: capabilities.md ----
caps() { # caps NAME TITLE: a table of the guest's, under its title
	[ -s "$work/caps-$1" ] || return 0
	echo "$2"
	echo
	cat "$work/caps-$1"
	echo
}
{
	echo "Measured $date with \`$cmd\`; $where: $info."
	echo
	caps burst "The burst (one tv2 slot), each engine's worst tick without and with budget= (scripts/guest/capabilities.sh):"
	caps slack "Range scheduling on timeouts, slack=0 against slack=10, the same seed (shares are of the mods of a pending timer):"
	caps nohz "tick=nohz against tick=periodic (scripts/guest/nohz.sh):"
} >"$out/capabilities.md"
check "capabilities: the burst's worst ticks, budget=, slack= (no failure)" \
	[ -s "$work/caps-burst" ] && [ -s "$work/caps-slack" ] && grep -q '^capabilities: 0 failures' "$work/guest.out"
if [ $mode = full ] && [ $where = guest ]; then
	check "tick=nohz: no wakeup with nothing loaded, every guarantee kept" \
		grep -q '^nohz: 0 failures' "$work/guest.out"
fi

# The SMP section: boots of its own at 2 vCPUs and at 1, percpu=0 against
# percpu=1 at several remote= (scripts/compare-smp.sh: smp.csv). A real
# machine's twheel is loaded with its own percpu=: --host leaves it out.
# Always on the wall clock (multi-threaded TCG), whatever --clock says:
# its subject is two CPUs at once. On the instruction clock the vCPUs run
# in turn on one host thread, and a vCPU spinning on a lock whose holder
# QEMU has switched out spins through its whole turn: the icount run of
# 2026-11-29 read classic at percpu=1 remote=50 as 1416 ns/op against
# modern's 753, from 2223 contended acquisitions (0.2 %, wait p99 0).
if [ $where = guest ]; then
	check "SMP: percpu=0 and 1 at remote=0..90 on 2 vCPUs$([ $mode = quick ] || echo ', remote=0 on 1'), every guarantee kept (smp.csv)" \
		"$TWHEEL_ROOT/scripts/compare-smp.sh" $qf --clock wall --out "$out" --kernel "$kernel"
	# the figures again, smp.png from the smp.csv just written
	if command -v gnuplot >/dev/null && [ -s "$out/smp.csv" ]; then
		"$TWHEEL_ROOT/scripts/plots.sh" "$out" 2>"$work/plots.err" || cat "$work/plots.err" >&2
		check "the SMP figure written (smp.png)" [ -s "$out/smp.png" ]
	fi
fi

# The checkout's results/: docs/choosing.md and results/README.md follow
# them (make check compares each with what its script writes).
if [ "$out" = "$TWHEEL_ROOT/results" ]; then
	"$TWHEEL_ROOT/scripts/choosing.sh" "$out" >"$TWHEEL_ROOT/docs/choosing.md" &&
		log "docs/choosing.md rewritten from results/ (scripts/choosing.sh)"
	python3 "$TWHEEL_ROOT/scripts/results.py" readme "$out" >"$out/README.md" &&
		log "results/README.md rewritten from results/ (scripts/results.py readme)"
fi

cat "$out/summary.md"
echo
echo "wrote $out/: summary.md (above), compare.md (every column), the rest: $(cd "$out" && ls | grep -v -x 'summary.md\|compare.md' | tr '\n' ' ')"
cat "$out/capabilities.md"
[ $bad -eq 0 ] || die "the comparison broke an engine guarantee (see FAILED above)"
