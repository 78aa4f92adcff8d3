#!/bin/sh
# In the guest: the twheel trace events of one run against the stats
# counters of that run, exactly (twheel_trace.h states each identity).
#   sh trace.sh [SECONDS]
# One workload (mixed: expiries, deletions, modifications, cascades) on
# classic, modern and reference with twheel:* enabled from before start to
# after stop; nothing of a run happens outside that window (load arms
# nothing, stop cancels everything), so the counts must match. A lost
# event (ring buffer overrun) fails the test rather than the identities.
secs=${1:-3}
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
ours="classic modern reference"

[ -d $T/events ] || mount -t tracefs nodev $T || { bad "mount tracefs"; exit 1; }
rmmod twheel 2>/dev/null
insmod /lib/twheel/twheel.ko engines=classic,modern,reference || { bad "insmod"; exit 1; }
[ -d $T/events/twheel ] || { bad "no $T/events/twheel"; exit 1; }
for ev in twheel_start twheel_cancel twheel_expire_entry twheel_expire_exit \
	twheel_cascade twheel_tick; do
	[ -e $T/events/twheel/$ev/format ] || bad "no event $ev"
done

echo 0 > $T/tracing_on
kb=$(sed 's/ .*//' $T/buffer_size_kb)
echo 8192 > $T/buffer_size_kb		# per CPU; a run writes about 3 MiB
# Real pointers in the output: the hashed ones are all "(____ptrval____)"
# until the guest's random pool is ready, and timers are told apart by them.
hp=$(cat $T/options/hash-ptr)
echo 0 > $T/options/hash-ptr
echo > $T/trace
# Timeouts of 20..200 jiffies, expiring ones of 20..83, long ones of
# 256..1500: the long ones cascade from tv2 at every tv1 wrap (1 s).
load_fit mixed count=400 min=20 max=1500 ops=4 seed=5 || { bad "load"; exit 1; }
echo 1 > $T/events/twheel/enable
echo 1 > $T/tracing_on
ctl start
sleep "$secs"
ctl stop
echo 0 > $T/tracing_on
echo 0 > $T/events/twheel/enable

lost=$(cat $T/per_cpu/cpu*/stats | awk '/^(overrun|commit overrun|dropped events):/ { n += $NF } END { print n + 0 }')
[ "$lost" = 0 ] || bad "the ring buffer lost $lost events: raise buffer_size_kb"

# Per engine: each event's count, and sums and maxima of its fields. The
# fields are found from the end of the line (the print formats of
# twheel_trace.h), which keeps busybox awk fast enough for an emulated CPU.
awk '
	function val(f) { return substr(f, index(f, "=") + 1) + 0 }
	function key(k) { return match($0, " " k "=[^ ]+") ? substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2) : "" }
	match($0, / twheel_[a-z_]+: engine=[^ ]+/) {
		s = substr($0, RSTART + 1, RLENGTH - 1)
		ev = substr(s, 1, index(s, ":") - 1)
		e = substr(s, index(s, "=") + 1)
		n[e, ev]++
		if (ev == "twheel_start") {
			n[e, "start_mod" val($NF)]++
			runs_at[e, key("timer")] = val($(NF - 4))
		} else if (ev == "twheel_expire_entry") {
			bclk = val($(NF - 1))
			if (bclk == val($NF)) n[e, "entry_exact"]++
			# it runs at the jiffy its last start announced
			if (runs_at[e, key("timer")] != bclk) n[e, "entry_off"]++
		} else if (ev == "twheel_cascade") {
			n[e, "moved"] += val($(NF - 1))
		} else if (ev == "twheel_tick") {
			x = val($(NF - 2)); c = val($(NF - 1))
			n[e, "tick_expired"] += x
			n[e, "tick_cascaded"] += c
			if (x + c > 0) n[e, "tick_busy"]++
			if (c > 0) n[e, "tick_cascading"]++
			if (x > n[e, "tick_expired_max"]) n[e, "tick_expired_max"] = x
			if (c > n[e, "tick_cascaded_max"]) n[e, "tick_cascaded_max"] = c
		}
	}
	END { for (k in n) { split(k, p, SUBSEP); print p[1], p[2], n[k] } }
' $T/trace > /tmp/trace.counts
tc() { awk -v e="$1" -v k="$2" '$1 == e && $2 == k { v = $3 } END { print v + 0 }' /tmp/trace.counts; }

# same WHAT TRACE STATS: an identity, checked
same() {
	if [ "$2" = "$3" ]; then ok "$e: $1: $2"; else bad "$e: $1: trace $2, stats $3"; fi
}
for e in $ours; do
	added=$(get $e added) modified=$(get $e modified) noop=$(get $e mod_noop)
	expired=$(get $e expired)
	same "twheel_start = added + modified - mod_noop" \
		"$(tc $e twheel_start)" $((added + modified - noop))
	same "twheel_start mod=0 = added" "$(tc $e start_mod0)" "$added"
	same "twheel_start mod=1 = modified - mod_noop" "$(tc $e start_mod1)" $((modified - noop))
	same "twheel_cancel = deleted" "$(tc $e twheel_cancel)" "$(get $e deleted)"
	same "twheel_expire_entry = expired" "$(tc $e twheel_expire_entry)" "$expired"
	same "twheel_expire_exit = runs" "$(tc $e twheel_expire_exit)" "$(get $e runs)"
	same "entries with baseclk = expires = runs_exact" \
		"$(tc $e entry_exact)" "$(get $e runs_exact)"
	same "entries off the bucket_expiry of their last start" "$(tc $e entry_off)" 0
	same "twheel_cascade = cascades" "$(tc $e twheel_cascade)" "$(get $e cascades)"
	same "sum of twheel_cascade moved = cascaded" "$(tc $e moved)" "$(get $e cascaded)"
	same "sum of twheel_tick cascaded = cascaded" "$(tc $e tick_cascaded)" "$(get $e cascaded)"
	same "sum of twheel_tick expired = expired" "$(tc $e tick_expired)" "$expired"
	same "busy twheel_ticks = busy_tick_ns_n" "$(tc $e tick_busy)" "$(get $e busy_tick_ns_n)"
	same "cascading twheel_ticks = cascade_ns_n" "$(tc $e tick_cascading)" "$(get $e cascade_ns_n)"
	same "most expired in a twheel_tick = expired_max_tick" \
		"$(tc $e tick_expired_max)" "$(get $e expired_max_tick)"
	same "most cascaded in a twheel_tick = cascaded_max_tick" \
		"$(tc $e tick_cascaded_max)" "$(get $e cascaded_max_tick)"
	[ "$expired" -gt 0 ] && [ "$(get $e deleted)" -gt 0 ] && [ $((modified - noop)) -gt 0 ] ||
		bad "$e: the run did not expire, delete and modify timers"
done
[ "$(get classic cascades)" -gt 0 ] || bad "classic: no cascade in the run"
[ "$(tc modern twheel_cascade)" = 0 ] || bad "modern: twheel_cascade events"
echo "trace: $(awk '$2 ~ /^twheel_/ { n += $3 } END { print n + 0 }' /tmp/trace.counts) events, classic $(get classic cascades) cascades moving $(get classic cascaded) timers"
echo "$kb" > $T/buffer_size_kb
echo "$hp" > $T/options/hash-ptr
rmmod twheel || bad "rmmod"
echo "trace: $fails failures"
[ $fails -eq 0 ]
