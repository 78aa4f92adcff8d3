#!/usr/bin/env bash
# Records kernel timer events as text in a form the replay reads
# (make replay TRACE=FILE; docs/replay.md), two ways:
#
#   scripts/record-trace.sh --host [--seconds=N] [--out FILE] [--method=M]
#   scripts/record-trace.sh [--guest] [--form=F] [--seconds=N] [--clients=N]
#                           [--kernel=stock|test] OUT.gz
#
# --host: THIS machine's timer_list and hrtimer events (timer:timer_start,
#   timer_cancel, timer_expire_entry/exit, hrtimer_start, hrtimer_cancel,
#   hrtimer_expire_entry/exit) for N seconds (default 10), with whatever
#   it has: tracefs directly (/sys/kernel/tracing, /sys/kernel/debug/tracing,
#   mounted at the first if neither is), else trace-cmd, else perf
#   (--method=tracefs|trace-cmd|perf picks one). Needs root; no module.
#   Every tracing setting it changes (the events' enable, buffer_size_kb,
#   tracing_on, current_tracer, options/hash-ptr, the tracefs mount) is
#   put back when it ends, on Ctrl-C too; the tracefs method clears the
#   trace buffer. FILE defaults to ./timers-<host>-<date>-<time>.txt (plain
#   text; the tracefs form, or trace-cmd report's or perf script's).
# --guest (the default): a guest running real TCP traffic
#   (scripts/guest/traffic.sh), written gzipped to OUT.gz:
#   tracefs:   the text of /sys/kernel/tracing/trace, as the guest prints it;
#   trace_pipe: what a reader of trace_pipe got while the traffic ran;
#   trace-cmd: trace-cmd record in the guest, `trace-cmd report` here;
#   perf:      perf record -a in the guest, `perf script` here.
#   The last two copy this host's trace-cmd or perf into the guest (Debian's
#   trace-cmd and linux-perf packages, installed if missing). The default
#   kernel is Debian's stock one, which has the networking traffic.sh
#   needs. Two CPUs, so that the events of both interleave.
# -h, --help: this text.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { printf 'record-trace: %s (see scripts/record-trace.sh --help)\n' "$*" >&2; exit 2; }
where=guest form=tracefs secs=10 clients=4 kernel=stock out= method=
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--host) where=host ;;
	--guest) where=guest ;;
	--form=*) form=${1#*=} ;;
	--seconds=*) secs=${1#*=} ;;
	--clients=*) clients=${1#*=} ;;
	--kernel=*) kernel=${1#*=} ;;
	--method=*) method=${1#*=} ;;
	--out=*) out=${1#*=} ;;
	--out) [ $# -ge 2 ] || usage "--out needs a file"; out=$2; shift ;;
	-*) usage "unknown option $1" ;;
	*) [ -z "$out" ] || usage "one output file only ($out, then $1)"; out=$1 ;;
	esac
	shift
done
case "$secs" in
''|*[!0-9]*|0) usage "--seconds= takes a whole number of seconds > 0, not '$secs'" ;;
esac

if [ $where = host ]; then
	exec "$TWHEEL_ROOT/scripts/record-host.sh" "$secs" "$out" "$method"
fi
[ -n "$out" ] || usage "the guest mode needs OUT.gz"
case "$form" in
tracefs|trace_pipe) bins="" ;;
trace-cmd) apt_need trace-cmd; bins=trace-cmd ;;
perf) apt_need linux-perf; bins=perf ;;
*) usage "--form= takes tracefs, trace_pipe, trace-cmd or perf, not '$form'" ;;
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
printf 'next: make replay TRACE=%q\n' "$out"
