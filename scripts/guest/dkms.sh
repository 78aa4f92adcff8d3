#!/bin/sh
# In a guest of Debian's stock kernel: the twheel.ko that dkms built
# against that kernel's headers (scripts/dkms-check.sh, from the package
# docs/usage.md's lines make), loaded and run, then unloaded.
#   dkms.sh KO VERSION SRCVERSION
# VERSION is dkms.conf's PACKAGE_VERSION, SRCVERSION what modinfo said of
# KO on the host. Checks: the module's vermagic is this kernel's release;
# insmod takes it (vermagic and symbol CRCs checked by the kernel);
# /sys/module/twheel's version and srcversion are KO's; a short load,
# start, stats read and stop on the default runners, every guarantee
# kept; rmmod; no splat in the kernel's log. A twheel loaded before
# (qemu.sh's preload) is unloaded first and loaded again after.
# Last line: "dkms: N failures".
ko=$1 ver=$2 srcver=$3
. /guest/lib.sh

pre=0
if [ -d /sys/module/twheel ]; then
	pre=1
	rmmod twheel || bad "rmmod of the preloaded twheel"
fi
rel=$(uname -r)
magic=$(tr '\0' '\n' <"$ko" | sed -n 's/^vermagic=//p' | head -n 1)
case "$magic" in
"$rel "*) ok "the dkms-built module's vermagic is this kernel's: $magic" ;;
*) bad "vermagic '$magic', the kernel is $rel" ;;
esac
if insmod "$ko"; then
	[ "$(cat /sys/module/twheel/version)" = "$ver" ] ||
		bad "/sys/module/twheel/version is '$(cat /sys/module/twheel/version)', not $ver"
	[ "$(cat /sys/module/twheel/srcversion)" = "$srcver" ] ||
		bad "/sys/module/twheel/srcversion is '$(cat /sys/module/twheel/srcversion)', not the built module's $srcver"
	if ctl load expiring count=300 duration=2 && ctl start; then
		sleep 2
		grep -q '^state: running$' $d/stats || bad "the stats do not say state: running"
		ctl stop || bad "stop"
		snap
		n=0
		for r in $(sed -n 's/^\[\(.*\)\]$/\1/p' $d/stats | grep -v -x softirq); do
			after_stop "dkms/$r" $r
			[ "$(sget $r runs)" -gt 0 ] 2>/dev/null || bad "dkms/$r: no timer ran"
			n=$((n + 1))
		done
		[ $n -gt 0 ] || bad "no runner block in the stats"
		[ $fails -eq 0 ] && ok "dkms-built twheel $ver on $rel: loaded, expiring run on $n runners ($(sget classic runs) classic runs), none early, stopped"
	else
		bad "load expiring count=300 duration=2, start"
	fi
	rmmod twheel || bad "rmmod of the dkms-built module"
	[ -d /sys/module/twheel ] && bad "twheel still loaded after rmmod"
else
	bad "insmod $ko: $(dmesg | tail -n 1)"
fi
splat='BUG:|WARNING:|Oops|general protection|Kernel panic|UBSAN:|Call Trace:'
dmesg | grep -E -q "$splat" && bad "a kernel splat: $(dmesg | grep -E -m 1 "$splat")"
if [ $pre = 1 ]; then
	insmod /lib/twheel/twheel.ko || bad "insmod of the preloaded twheel again"
fi
echo "dkms: $fails failures"
[ $fails -eq 0 ]
