#!/bin/sh
# In the guest: load the KUnit module (the suites run at load), print every
# suite's KTAP from debugfs between markers, unload.
insmod /lib/twheel/twheel_kunit.ko || exit 1
for d in /sys/kernel/debug/kunit/twheel_*; do
	echo "@@SUITE $(basename "$d")"
	cat "$d/results"
done
echo "@@SUITES-END"
rmmod twheel_kunit
