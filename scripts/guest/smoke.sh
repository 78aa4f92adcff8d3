#!/bin/sh
# In the guest: the loaded module shows its debugfs files and unloads cleanly.
set -e
d=/sys/kernel/debug/twheel
for f in stats levels classic/occupancy modern/occupancy; do
	[ -r "$d/$f" ] || { echo "missing $d/$f"; exit 1; }
done
grep -q '^engine: classic$' $d/stats
grep -q '^engine: modern$' $d/stats
grep -q '^pending: 0$' $d/stats
[ "$(grep -c '^ *[0-9]' $d/levels)" -ge 8 ]
rmmod twheel
[ ! -e $d ] || { echo "debugfs left behind"; exit 1; }
dmesg | grep -q 'twheel: unloaded'
echo "smoke: ok ($(uname -r))"
