#!/bin/sh
# In the guest, after README.md's "Use it on your own machine" lines ran
# as written (scripts/readme-check.sh put them in /cmd, their output in
# /tmp/readme.out): the load and the start were taken, the stats read,
# and the workload runs: timers fire on every engine, nothing early.
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
echo "readme: $fails failures"
