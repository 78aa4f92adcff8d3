#!/bin/sh
# In the guest, after README.md's "Use it on your own machine" lines ran
# as written (scripts/readme-check.sh put them in /cmd, their output in
# /tmp/readme.out): the load and the start were taken, the stats read,
# and the workload runs: timers fire on every engine, nothing early. Then
# every workload with its documented defaults, taken and run.
. /guest/lib.sh
grep -q 'write error\|tee:' /tmp/readme.out && bad "a control write refused: $(grep 'write error\|tee:' /tmp/readme.out | head -n 1)"
grep -q '^\[classic\]$' /tmp/readme.out || bad "the stats read showed no [classic] block"
[ "$(top state)" = running ] || bad "state is '$(top state)', not running"
sleep 2
for e in $engines; do
	[ "$(get $e runs)" -gt 0 ] 2>/dev/null || bad "$e: no timer ran ($(get $e runs) runs)"
	[ "$(get $e runs_early)" = 0 ] || bad "$e: $(get $e runs_early) runs early"
done
ctl stop || bad "stop"
[ $fails -eq 0 ] && ok "README's lines: loaded, started, $(get classic runs) classic runs, none early on any engine"
rmmod twheel || bad "rmmod"

# docs/usage.md's workloads, each loaded with its documented defaults on
# the module's default runners (insmod with no parameter): the keys the
# module took (stats' params line) are those usage.md gives, taken by
# admission (no force=1), run for 2 s (burst 5 s: its jiffy is 1000 out),
# every guarantee kept; timers ran (timeouts' are deleted first, long's
# are 256 jiffies or more out, so neither has to). Then docs/usage.md's
# block of the same lines, when readme-check.sh gave it.
insmod /lib/twheel/twheel.ko || bad "insmod with no parameter"
for w in timeouts expiring long burst mixed; do
	ctl load $w || { bad "load $w (its defaults)"; continue; }
	# the defaults docs/usage.md gives (readme-check.sh wrote them here)
	doc=$(sed -n "s/^$w //p" /tmp/defaults 2>/dev/null)
	[ -f /tmp/defaults ] && [ -z "$doc" ] && bad "$w: no documented defaults"
	params=" $(sed -n 's/^params: //p' $d/stats) "
	for kv in $doc; do
		case "$params" in *" $kv "*) ;; *) bad "$w: docs/usage.md gives $kv, the module took:$params" ;; esac
	done
	ctl start || { bad "start $w"; continue; }
	if [ $w = burst ]; then sleep 5; else sleep 2; fi
	ctl stop || bad "stop $w"
	snap
	for r in $(sed -n 's/^\[\(.*\)\]$/\1/p' $d/stats | grep -v -x softirq); do
		after_stop "$w/$r" $r
		case $w in timeouts | long) continue ;; esac
		[ "$(sget $r runs)" -gt 0 ] 2>/dev/null || bad "$w/$r: no timer ran"
	done
	ok "load $w with its defaults (docs/usage.md's: ${doc:-not given}): taken, $(sget classic runs) classic runs, none early"
done
rmmod twheel || bad "rmmod after the defaults"

# docs/usage.md's block, as readme-check.sh wrote it into /tmp/usage.sh:
# its load and start taken, its stats read running, its rmmod done.
if [ -f /tmp/usage.sh ]; then
	sh /tmp/usage.sh >/tmp/usage.out 2>&1
	u=0
	grep -q 'write error\|tee:\|FAILED\|insmod:\|rmmod:' /tmp/usage.out &&
		{ bad "docs/usage.md's block: $(grep 'write error\|tee:\|FAILED\|insmod:\|rmmod:' /tmp/usage.out | head -n 1)"; u=1; }
	grep -q '^state: running$' /tmp/usage.out ||
		{ bad "docs/usage.md's block: its stats read does not say state: running"; u=1; }
	[ -d /sys/module/twheel ] && { bad "docs/usage.md's block: twheel still loaded after its rmmod"; u=1; rmmod twheel; }
	[ $u = 0 ] && ok "docs/usage.md's lines: loaded, started, stats running, unloaded"
fi
echo "readme: $fails failures"
