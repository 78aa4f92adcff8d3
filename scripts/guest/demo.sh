#!/bin/sh
# In the guest: a tour of /sys/kernel/debug/twheel.
d=/sys/kernel/debug/twheel
show() { echo; echo "\$ $*"; "$@"; }
echo "twheel demo on $(uname -r), HZ from the module: $(dmesg | sed -n 's/.*twheel: loaded: //p')"
show ls -l $d
show cat $d/stats
show cat $d/levels
show cat $d/classic/occupancy
show cat $d/modern/occupancy
show rmmod twheel
show sh -c 'dmesg | grep twheel:'
echo
echo "Next: 'make shell' opens a guest shell with the module loaded;"
echo "'make check' runs the KUnit suites and every other check."
