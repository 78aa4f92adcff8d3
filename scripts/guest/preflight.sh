#!/bin/sh
# In the guest: compare --host's preflight (scripts/guest/compare.sh
# --check, the first thing scripts/compare.sh --host runs) refuses a system
# it cannot measure, each time with its reason and exit status 2, and
# passes one that is ready. Booted without twheel loaded (qemu.sh
# --no-load).
. "$(dirname "$0")/lib.sh"
check="sh $(dirname "$0")/compare.sh quick --check"

# refused WHAT REASON [RUNNER...]: the preflight, run by RUNNER (which
# takes it as one command line) if given, says REASON.
refused() {
	what=$1 reason=$2
	shift 2
	if [ $# -gt 0 ]; then
		out=$("$@" "$check" 2>&1)
	else
		out=$($check 2>&1)
	fi
	rc=$?
	if [ $rc -eq 2 ] && echo "$out" | grep -q "^compare: $reason"; then
		ok "refused, $what: $out"
	else
		bad "$what: exit $rc, said: $out"
	fi
}

rmmod twheel 2>/dev/null
refused "twheel not loaded" "twheel is not loaded"
insmod /lib/twheel/twheel.ko || { bad "insmod"; exit 1; }
umount /sys/kernel/debug || bad "umount debugfs"
refused "debugfs not mounted" "debugfs is not mounted"
mount -t debugfs debugfs /sys/kernel/debug
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
refused "not root" "needs root" su nobody -s /bin/sh -c
load_fit timeouts count=100 ops=10 && ctl start || bad "load and start"
refused "a workload running" "a workload is running"
ctl stop
ctl unload
out=$($check 2>&1) && [ -z "$out" ] && ok "a ready system passes" ||
	bad "a ready system: exit $?, said: $out"
rmmod twheel || bad "rmmod"
echo "preflight: $fails failures"
[ $fails -eq 0 ]
