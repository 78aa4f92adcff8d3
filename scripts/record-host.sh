#!/usr/bin/env bash
# scripts/record-trace.sh --host: records this machine's timer events.
# Run through record-trace.sh (it checks the arguments):
#   scripts/record-host.sh SECONDS [OUT] [tracefs|trace-cmd|perf]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TWHEEL_ROOT/scripts/guest/lockdown.sh"

secs=$1 out=${2:-} method=${3:-}
say() { printf 'record-trace: %s\n' "$*" >&2; }
events="timer_start timer_cancel timer_expire_entry timer_expire_exit
	hrtimer_start hrtimer_cancel hrtimer_expire_entry hrtimer_expire_exit"

[ "$(id -u)" -eq 0 ] || { say "--host needs root (the kernel's tracing is root's): sudo scripts/record-trace.sh --host --seconds=$secs${out:+ --out $out}"; exit 2; }
case "$method" in
''|tracefs|trace-cmd|perf) ;;
*) say "--method= takes tracefs, trace-cmd or perf, not '$method'"; exit 2 ;;
esac
[ -n "$out" ] || out=$PWD/timers-$(hostname -s 2>/dev/null || uname -n)-$(date +%Y%m%d-%H%M%S).txt
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
[ -d "$(dirname "$out")" ] || { say "no directory $(dirname "$out") for $out"; exit 2; }
# Lockdown in confidentiality mode refuses tracefs and perf's tracepoints.
if [ "$(tw_lockdown_mode)" = confidentiality ]; then
	tw_lockdown_explain record-trace >&2 || true
	say "tracefs is refused under confidentiality lockdown: no recording here"
	exit 1
fi

# Where tracefs is: mounted at one of its two places, or mounted here by us.
T= mounted=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$t/events/timer" ] && { T=$t; break; }
done
if [ -z "$T" ] && [ -d /sys/kernel/tracing ] &&
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	T=/sys/kernel/tracing mounted=$T
	say "mounted tracefs at $T (unmounted at the end)"
fi
have() { command -v "$1" >/dev/null 2>&1; }
if [ -z "$method" ]; then
	if [ -n "$T" ]; then method=tracefs
	elif have trace-cmd; then method=trace-cmd
	elif have perf; then method=perf
	else
		say "no tracefs (neither /sys/kernel/tracing nor /sys/kernel/debug/tracing; mount -t tracefs nodev /sys/kernel/tracing failed), no trace-cmd, no perf: nothing to record with"
		exit 1
	fi
fi
case "$method" in
tracefs) [ -n "$T" ] || { say "--method=tracefs: no tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing"; exit 1; }
	for e in $events; do
		[ -e "$T/events/timer/$e/enable" ] || { say "this kernel has no timer:$e event ($T/events/timer/$e)"; exit 1; }
	done ;;
*) have "$method" || { say "--method=$method: no $method on this machine (Debian: apt-get install ${method/perf/linux-perf})"; exit 1; } ;;
esac

work=$(mktemp -d)
# What is put back at the end: "FILE VALUE" lines, in reverse order.
saved=()
# save FILE: remember its value. A buffer never allocated reads
# "7 (expanded: 1408)": allocating it cannot be undone, so the size it
# would have had (1408) is put back.
save() {
	[ -e "$1" ] || return 0
	saved=("$1 $(sed -n '1{s/.*(expanded: \([0-9]*\)).*/\1/;s/ .*//;p}' "$1")" "${saved[@]}")
}
restore() {
	local rc=$? e f v
	trap - EXIT INT TERM
	for e in "${saved[@]}"; do
		f=${e%% *} v=${e#* }
		echo "$v" >"$f" 2>/dev/null || say "could not put back $f ($v)"
	done
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || say "could not unmount $mounted"
	[ -z "${bgpid:-}" ] || kill "$bgpid" 2>/dev/null || true
	rm -rf "$work"
	exit "$rc"
}
trap restore EXIT
trap 'printf "\n" >&2; say "interrupted: tracing settings put back"; exit 130' INT TERM

# wait_secs: SECONDS, showing what is left on a terminal.
wait_secs() {
	local left
	for ((left = secs; left > 0; left--)); do
		[ -t 2 ] && printf '\rrecord-trace: %d s left ' "$left" >&2
		sleep 1
	done
	[ -t 2 ] && printf '\r%*s\r' 30 '' >&2
	return 0
}

evargs=()
for e in $events; do evargs+=(-e "timer:$e"); done
say "recording this machine's timer events for $secs s with $method"
case "$method" in
tracefs)
	save "$T/current_tracer"
	save "$T/tracing_on"
	save "$T/buffer_size_kb"
	save "$T/options/hash-ptr"
	for e in $events; do save "$T/events/timer/$e/enable"; done
	echo 0 >"$T/tracing_on"
	echo nop >"$T/current_tracer"
	[ -e "$T/options/hash-ptr" ] && echo 0 >"$T/options/hash-ptr"	# real pointers: timers are told apart by them
	echo 16384 >"$T/buffer_size_kb" || say "could not set $T/buffer_size_kb to 16384 (kept as it was)"
	: >"$T/trace"
	for e in $events; do echo 1 >"$T/events/timer/$e/enable"; done
	echo 1 >"$T/tracing_on"
	wait_secs
	echo 0 >"$T/tracing_on"
	cat "$T/trace" >"$out"
	lost=$(cat "$T"/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')
	;;
trace-cmd)
	trace-cmd record -q -b 16384 "${evargs[@]}" -o "$work/t.dat" sleep "$secs" >"$work/log" 2>&1 &
	bgpid=$!
	wait_secs
	wait "$bgpid" || { cat "$work/log" >&2; bgpid=; say "trace-cmd record failed"; exit 1; }
	bgpid=
	trace-cmd report -i "$work/t.dat" >"$out" 2>"$work/log" || { cat "$work/log" >&2; say "trace-cmd report failed"; exit 1; }
	lost=$(grep -c 'EVENTS DROPPED' "$out" || true)
	;;
perf)
	perf record -q -a -m 1024 "${evargs[@]}" -o "$work/p.data" -- sleep "$secs" >"$work/log" 2>&1 &
	bgpid=$!
	wait_secs
	wait "$bgpid" || { cat "$work/log" >&2; bgpid=; say "perf record failed"; exit 1; }
	bgpid=
	perf script -i "$work/p.data" >"$out" 2>"$work/log" || { cat "$work/log" >&2; say "perf script failed"; exit 1; }
	lost=$({ grep -o 'lost [0-9]* ' "$work/log" || true; } | awk '{ n += $2 } END { print n + 0 }')
	;;
esac
n=$(grep -c -E 'timer_start|hrtimer_start' "$out" || true)
say "wrote $out: $(wc -l <"$out") lines, $n timer starts, $lost events lost$([ "$lost" = 0 ] || echo ' (a busy machine: fewer --seconds)')"
[ "$n" -gt 0 ] || say "warning: no timer start in $out"
printf 'next: make replay TRACE=%q\n' "$out"
