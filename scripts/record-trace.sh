#!/usr/bin/env bash
# Records the kernel's timer events in a guest running real TCP traffic
# (scripts/guest/traffic.sh) and writes them as text, gzipped, in the form
# the replay reads (userspace/replay):
#
#   scripts/record-trace.sh [--form=tracefs|trace_pipe|trace-cmd|perf] [--seconds=N]
#                           [--clients=N] [--kernel=stock|test] OUT.gz
#
# tracefs:   the text of /sys/kernel/tracing/trace, as the guest prints it;
# trace_pipe: what a reader of trace_pipe got while the traffic ran;
# trace-cmd: trace-cmd record in the guest, `trace-cmd report` here;
# perf:      perf record -a in the guest, `perf script` here.
# The last two copy this host's trace-cmd or perf into the guest (Debian's
# trace-cmd and linux-perf packages, installed if missing). The default
# kernel is Debian's stock one, which has the networking traffic.sh needs.
# Two CPUs, so that the events of both interleave.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: $0 [--form=F] [--seconds=N] [--clients=N] [--kernel=K] OUT.gz"
[ $# -ge 1 ] || die "$usage"
out=${!#}
case "$out" in -*) die "$usage" ;; esac
form=tracefs secs=10 clients=4 kernel=stock
for a in "${@:1:$#-1}"; do
	case "$a" in
	--form=*) form=${a#*=} ;;
	--seconds=*) secs=${a#*=} ;;
	--clients=*) clients=${a#*=} ;;
	--kernel=*) kernel=${a#*=} ;;
	*) die "unknown option $a (see the top of $0)" ;;
	esac
done
case "$form" in
tracefs|trace_pipe) bins="" ;;
trace-cmd) apt_need trace-cmd; bins=trace-cmd ;;
perf) apt_need linux-perf; bins=perf ;;
*) die "--form= takes tracefs, trace_pipe, trace-cmd or perf" ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TWHEEL_GUEST_BINS=$bins TWHEEL_MEM=${TWHEEL_MEM:-1024} \
	"$TWHEEL_ROOT/scripts/qemu.sh" --kernel "$kernel" --smp 2 --no-load \
	--timeout $((secs + 300)) -- sh /guest/record.sh "$form" "$secs" "$clients" \
	>"$work/console" || { tail -n 20 "$work/console" >&2; die "recording failed"; }
grep -E '^(traffic|record):' "$work/console" >&2
sed -n '/^@@RECORD-BEGIN '"$form"'@@$/,/^@@RECORD-END@@$/p' "$work/console" |
	sed '1d;$d' | base64 -d | gunzip >"$work/raw" || die "no recording in the guest's output"
case "$form" in
tracefs|trace_pipe) cp "$work/raw" "$work/text" ;;
trace-cmd) trace-cmd report -i "$work/raw" >"$work/text" 2>"$work/err" ||
	{ cat "$work/err" >&2; die "trace-cmd report failed"; } ;;
perf) perf script -i "$work/raw" >"$work/text" 2>"$work/err" ||
	{ cat "$work/err" >&2; die "perf script failed"; } ;;
esac
gzip -9n <"$work/text" >"$out"
log "$out: $(wc -l <"$work/text") lines, $(stat -c %s "$out") bytes gzipped"
