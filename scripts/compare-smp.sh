#!/usr/bin/env bash
# make compare's SMP section: one QEMU boot at 2 vCPUs (multi-threaded
# TCG) runs scripts/guest/smp.sh: classic, modern and timer_list, percpu=0
# against percpu=1, at remote=0, 10, 50 and 90, a timeouts workload over
# both CPUs; writes DIR/smp.csv (its columns: scripts/guest/smp.sh) and
# prints it as a table. scripts/compare.sh runs it after its own boot; run
# alone it rewrites smp.csv only.
#
#   scripts/compare-smp.sh [--quick] [--out DIR] [--kernel test|stock]
#
# --out DIR: where smp.csv goes (default: results/ in the checkout).
# --quick: 2 s runs of 2000 timers (make check's pipeline test).
# -h, --help: this text.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=full out=$TWHEEL_ROOT/results kernel=test
usage() { printf '[twheel] error: %s (see scripts/compare-smp.sh --help)\n' "$*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) mode=quick; shift ;;
	--out) [ $# -ge 2 ] && [ -n "$2" ] || usage "--out needs a directory"; out=$2; shift 2 ;;
	--kernel) [ $# -ge 2 ] || usage "--kernel needs test or stock"; kernel=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

log "SMP section ($mode): one QEMU boot at 2 vCPUs"
start=$(date +%s)
"$TWHEEL_ROOT/scripts/qemu.sh" --kernel "$kernel" --smp 2 --no-load --timeout 900 -- \
	sh /guest/smp.sh "$mode" >"$work/guest.out" || {
	tail -n 30 "$work/guest.out" >&2
	die "the SMP run failed"
}
grep -q '^smp: 0 failures' "$work/guest.out" || {
	grep '^FAILED' "$work/guest.out" >&2
	die "the SMP run broke a guarantee (above)"
}
log "SMP run took $(($(date +%s) - start)) s"
awk '/^@@SMP/ { on = 1; next } /^@@END/ { on = 0 } on' "$work/guest.out" >"$out/smp.csv"
[ "$(wc -l <"$out/smp.csv")" -eq 25 ] || die "smp.csv: $(($(wc -l <"$out/smp.csv") - 1)) rows, 24 wanted"
column -s, -t <"$out/smp.csv"
log "wrote $out/smp.csv"
