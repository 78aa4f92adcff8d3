#!/usr/bin/env bash
# make compare's SMP section: a QEMU boot at 2 vCPUs (multi-threaded TCG)
# runs scripts/guest/smp.sh: classic, modern and timer_list, percpu=0
# against percpu=1, at remote=0, 10, 50 and 90, a timeouts workload over
# both CPUs; then a boot at 1 vCPU runs the same at remote=0 (remote=
# needs 2 CPUs), the baseline of the 1 to 2 CPU scaling. Each boot runs
# its configurations in rounds (5; 2 with --quick), with percpu=1
# remote=0 twice a round as the A/A control (scripts/guest/smp.sh).
# Writes DIR/smp-rounds.csv (every round's row, the columns of
# scripts/guest/smp.sh) and DIR/smp.csv (per configuration the median
# of the rounds that count and its min..max: scripts/results.py smp),
# the rows of both boots told apart by their cpus column, and prints
# smp.csv as a table. The 2-vCPU
# boot also runs scripts/guest/pull.sh: per-CPU ticks under tick=nohz,
# pull=0 against pull=1, into DIR/pull.md; without --quick a boot at 4
# vCPUs runs it again with pull_group=2 (two levels of groups) on the
# stock kernel (the test kernel has NR_CPUS=2), its tables added there.
# scripts/compare.sh runs it after its own boot; run alone it rewrites
# smp.csv only.
#
#   scripts/compare-smp.sh [--quick] [--out DIR] [--kernel test|stock]
#                          [--clock wall|icount]
#
# --out DIR: where smp.csv goes (default: results/ in the checkout).
# --quick: 2 rounds of 1 s runs of 2000 timers, the 2-vCPU boot only
#          (make check's pipeline test), pull.sh 3 s a run.
# --clock: the guests' clock (scripts/qemu.sh --clock; default
#          TWHEEL_CLOCK, else wall). Under icount both vCPUs run in turn
#          on one host thread: no two ops run at once.
# -h, --help: this text.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=full out=$TWHEEL_ROOT/results kernel=test pull_secs=10 qf= rounds=5
usage() { printf '[twheel] error: %s (see scripts/compare-smp.sh --help)\n' "$*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) mode=quick pull_secs=3 qf=" --quick" rounds=2; shift ;;
	--out) [ $# -ge 2 ] && [ -n "$2" ] || usage "--out needs a directory"; out=$2; shift 2 ;;
	--kernel) [ $# -ge 2 ] || usage "--kernel needs test or stock"; kernel=$2; shift 2 ;;
	--clock) [ $# -ge 2 ] || usage "--clock needs wall or icount"; TWHEEL_CLOCK=$2; shift 2 ;;
	--clock=*) TWHEEL_CLOCK=${1#*=}; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
done
export TWHEEL_CLOCK=${TWHEEL_CLOCK:-wall}
case "$TWHEEL_CLOCK" in
wall|icount) ;;
*) usage "--clock takes wall or icount, not '$TWHEEL_CLOCK'" ;;
esac
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# boot N: the SMP runs on a guest of N vCPUs; their CSV rows, the header
# first, in $work/smp-N.csv
boot() {
	local n=$1 start
	log "SMP section ($mode): a QEMU boot at $n vCPU(s)"
	start=$(date +%s)
	local also=
	# per-CPU ticks under tick=nohz: pull=0 against pull=1 (2 CPUs)
	[ "$n" -lt 2 ] || also=" && sh /guest/pull.sh $pull_secs"
	"$TWHEEL_ROOT/scripts/qemu.sh" --kernel "$kernel" --smp "$n" --no-load --timeout 900 -- \
		"sh /guest/smp.sh $mode$also" >"$work/guest-$n.out" || {
		local qrc=$?
		# 75: the guest did not boot, twice (qemu.sh said why)
		[ $qrc -eq 75 ] && exit 75
		tail -n 30 "$work/guest-$n.out" >&2
		die "the SMP run at $n vCPU(s) failed"
	}
	grep -q '^smp: 0 failures' "$work/guest-$n.out" &&
		{ [ "$n" -lt 2 ] || grep -q '^pull: 0 failures' "$work/guest-$n.out"; } || {
		grep '^FAILED' "$work/guest-$n.out" >&2
		die "the SMP run at $n vCPU(s) broke a guarantee (above)"
	}
	log "SMP run at $n vCPU(s) took $(($(date +%s) - start)) s"
	awk '/^@@SMP/ { on = 1; next } /^@@END/ { on = 0 } on' "$work/guest-$n.out" >"$work/smp-$n.csv"
}
# a round: 3 runners x percpu 0, 1 x remote 0, 10, 50, 90 at 2 vCPUs, at
# 1 remote=0; and the A/A pass, percpu=1 remote=0, 3 rows more
boot 2
want=$((rounds * 27))
[ "$(wc -l <"$work/smp-2.csv")" -eq $((want + 1)) ] || die "the 2-vCPU boot: $(($(wc -l <"$work/smp-2.csv") - 1)) rows, $want wanted"
if [ $mode = quick ]; then
	# the 1-vCPU boot runs the same script, with remote=0 alone
	: >"$work/smp-1.csv"
else
	boot 1
	want=$((rounds * 9))
	[ "$(wc -l <"$work/smp-1.csv")" -eq $((want + 1)) ] || die "the 1-vCPU boot: $(($(wc -l <"$work/smp-1.csv") - 1)) rows, $want wanted"
fi
{ cat "$work/smp-2.csv"; tail -n +2 "$work/smp-1.csv"; } >"$out/smp-rounds.csv"
python3 "$TWHEEL_ROOT/scripts/results.py" smp "$out/smp-rounds.csv" --clock "$TWHEEL_CLOCK" >"$work/smp.csv" ||
	die "scripts/results.py smp could not read $out/smp-rounds.csv"
mv "$work/smp.csv" "$out/smp.csv"
# the table on the terminal: the columns that fit it (smp.csv has them all)
awk -F, -v want="cpus pass percpu remote runner reps op_ns op_ns_lo op_ns_hi contended_pct" '
	NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) c[$i] = i }
	{ l = ""; for (j = 1; j <= n; j++) l = l (j > 1 ? "," : "") $c[w[j]]; print l }' "$out/smp.csv" |
	column -s, -t
log "wrote $out/smp.csv and $out/smp-rounds.csv"
# pull.sh's tables: KIND (PULL, PULLMIGR) of a boot's output
pulltab() { awk -v k="@@$1" '$0 == k { on = 1; next } /^@@END/ { on = 0 } on' "$2"; }
pulltab PULL "$work/guest-2.out" >"$work/pull.md"
[ "$(wc -l <"$work/pull.md")" -eq 5 ] || die "the 2-vCPU boot: no pull.sh table"
if [ $mode = full ]; then
	log "the pull model at 4 vCPUs, pull_group=2 (stock kernel)"
	"$TWHEEL_ROOT/scripts/qemu.sh" --kernel stock --smp 4 --no-load --timeout 900 -- \
		"sh /guest/pull.sh $pull_secs 2" >"$work/guest-4.out" || {
		qrc=$?
		[ $qrc -eq 75 ] && exit 75
		tail -n 30 "$work/guest-4.out" >&2
		die "the pull model's run at 4 vCPUs failed"
	}
	grep -q '^pull: 0 failures' "$work/guest-4.out" || {
		grep '^FAILED' "$work/guest-4.out" >&2
		die "the pull model's run at 4 vCPUs broke a guarantee (above)"
	}
fi
{
	echo "Measured $(date -u +%Y-%m-%d) at commit $(results_commit) with \`scripts/compare-smp.sh$qf\` (scripts/guest/pull.sh $pull_secs), in its QEMU boot at 2 vCPUs ($TWHEEL_CLOCK clock$([ "$TWHEEL_CLOCK" = icount ] && echo ', single-threaded TCG' || echo ', multi-threaded TCG'), $kernel kernel): wakeups a second of each CPU's own tick; classic timers pulled: callbacks a second of one CPU's classic instance that the other CPU's tick ran."
	echo
	cat "$work/pull.md"
	echo
	echo "Under pull=1, in the span: each CPU's wakeups, the idle CPUs its tick pulled, its ticks as the top group's migrator (stats: wakeups_cpuN, pulls_cpuN, top_migrator_cpuN); then with every timer deferrable."
	echo
	pulltab PULLMIGR "$work/guest-2.out"
	if [ -f "$work/guest-4.out" ]; then
		echo
		echo "The same at 4 vCPUs with pull_group=2, two levels of groups (a boot of its own, the stock kernel: Debian's linux-image-6.12-amd64, the test kernel having NR_CPUS=2):"
		echo
		pulltab PULL "$work/guest-4.out"
		echo
		pulltab PULLMIGR "$work/guest-4.out"
	fi
} >"$out/pull.md"
cat "$out/pull.md"
log "wrote $out/pull.md"
