#!/bin/sh
# In the guest, on a kernel with kmemleak (the debug kernel):
#   kmemleak.sh baseline   scan, then forget every leak found so far (boot
#                          code's), so that later reports are new ones
#   kmemleak.sh check      scan twice; fail on any leak whose allocation
#                          backtrace has a twheel frame
# twheel is the only module the guests load: a frame kallsyms cannot name
# (a raw 0xffffffff... address) lies in a module that has been unloaded,
# that is in twheel, and counts as twheel's too.
k=/sys/kernel/debug/kmemleak
if [ ! -e $k ]; then
	echo "kmemleak: not in this kernel, nothing checked"
	exit 0
fi

case "$1" in
baseline)
	# An object is reported only once it is 5 s old: let boot's age.
	up=$(cut -d. -f1 /proc/uptime)
	[ "$up" -ge 6 ] || sleep $((6 - up))
	echo scan > $k && echo clear > $k || exit 1
	echo "kmemleak: baseline taken at $(cut -d' ' -f1 /proc/uptime) s"
	;;
check)
	# Leaked objects of the last 5 s are not reported yet; two scans
	# (as Documentation/dev-tools/kmemleak.rst advises) after waiting.
	sleep 6
	echo scan > $k && echo scan > $k || exit 1
	cat $k > /tmp/kmemleak.txt
	awk '
		function flush() {
			if (ours) { print obj; nours++ } else nother++
		}
		/^unreferenced object/ {
			if (obj != "") flush()
			obj = $0; ours = 0; bt = 0; next
		}
		{ obj = obj "\n" $0 }
		/^ *backtrace/ { bt = 1; next }
		bt && (/twheel/ || /^ +0x[0-9a-f]+$/) { ours = 1 }
		END {
			if (obj != "") flush()
			printf "kmemleak: %d leak(s) from twheel, %d other(s)\n", nours, nother
			exit nours > 0
		}' /tmp/kmemleak.txt
	;;
*)
	echo "usage: kmemleak.sh baseline|check" >&2
	exit 2
	;;
esac
