#!/bin/sh
# In the guest: records the kernel's timer events while traffic.sh runs,
# and prints the recording gzipped, in base64, between two lines
# "@@RECORD-BEGIN FORM@@" and "@@RECORD-END@@" (scripts/record-trace.sh
# takes it from the console).
#   sh record.sh FORM [SECONDS [CLIENTS]]
# FORM: tracefs (the text of /sys/kernel/tracing/trace), trace_pipe (what
# a reader of trace_pipe got while it was written), trace-cmd (a
# trace.dat of trace-cmd record) or perf (a perf.data of perf record -a);
# the last two need the program in the guest (TWHEEL_GUEST_BINS).
PATH=$PATH:/usr/bin:/usr/sbin
form=$1 secs=${2:-10} clients=${3:-4}
T=/sys/kernel/tracing
events="timer:timer_start timer:timer_cancel timer:timer_expire_entry
	timer:hrtimer_start timer:hrtimer_cancel timer:hrtimer_expire_entry"
fail() { echo "record: $*" >&2; exit 1; }

[ -d $T/events ] || mount -t tracefs nodev $T || fail "cannot mount tracefs"
for ev in $events; do
	[ -e "$T/events/${ev%%:*}/${ev#*:}/format" ] || fail "no event $ev"
done
# Real pointers: timers are told apart by them, and hashed ones all read
# "(____ptrval____)" until the guest's random pool is ready.
echo 0 > $T/options/hash-ptr
echo 16384 > $T/buffer_size_kb
out=/tmp/record.out
case "$form" in
tracefs)
	echo 0 > $T/tracing_on
	echo > $T/trace
	for ev in $events; do echo 1 > "$T/events/${ev%%:*}/${ev#*:}/enable"; done
	echo 1 > $T/tracing_on
	sh /guest/traffic.sh "$secs" "$clients" || fail "traffic.sh failed"
	echo 0 > $T/tracing_on
	for ev in $events; do echo 0 > "$T/events/${ev%%:*}/${ev#*:}/enable"; done
	cat $T/trace > $out
	;;
trace_pipe)
	# the same lines as trace, read while they are written
	echo 0 > $T/tracing_on
	echo > $T/trace
	for ev in $events; do echo 1 > "$T/events/${ev%%:*}/${ev#*:}/enable"; done
	cat $T/trace_pipe > $out &
	reader=$!
	echo 1 > $T/tracing_on
	sh /guest/traffic.sh "$secs" "$clients" || fail "traffic.sh failed"
	echo 0 > $T/tracing_on
	for ev in $events; do echo 0 > "$T/events/${ev%%:*}/${ev#*:}/enable"; done
	# what is left in the buffer is read before the reader is stopped
	unread() { cat $T/per_cpu/cpu*/stats | awk '$1 == "entries:" { n += $2 } END { print n + 0 }'; }
	for i in $(seq 30); do
		[ "$(unread)" = 0 ] && break
		sleep 1
	done
	[ "$(unread)" = 0 ] || fail "trace_pipe's reader left events unread"
	kill $reader
	wait $reader
	;;
trace-cmd)
	set --
	for ev in $events; do set -- "$@" -e "$ev"; done
	trace-cmd record -q -b 16384 "$@" -o $out sh /guest/traffic.sh "$secs" "$clients" ||
		fail "trace-cmd record failed"
	;;
perf)
	set --
	for ev in $events; do set -- "$@" -e "$ev"; done
	perf record -q -a -m 1024 "$@" -o $out -- sh /guest/traffic.sh "$secs" "$clients" ||
		fail "perf record failed"
	;;
*) fail "FORM is tracefs, trace_pipe, trace-cmd or perf" ;;
esac
lost=$(cat $T/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')
echo "record: $form, $(wc -c < $out) bytes, ring buffer lost $lost events"
echo "@@RECORD-BEGIN $form@@"
gzip -9 < $out | base64
echo "@@RECORD-END@@"
