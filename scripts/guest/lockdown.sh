#!/bin/sh
# Sourced (plain sh; busybox does): what stops twheel on the machine it
# runs on, said with what was found and the way out. Used by make load
# (scripts/load.sh), compare --host's preflight (compare.sh --check) and
# record-trace.sh --host; tested by scripts/host-checks.sh.
#   TWHEEL_LOCKDOWN_FILE  the lockdown file (/sys/kernel/security/lockdown)
#   TWHEEL_DEBUGFS        where debugfs should be (/sys/kernel/debug)

tw_lockdown_file=${TWHEEL_LOCKDOWN_FILE:-/sys/kernel/security/lockdown}
tw_debugfs=${TWHEEL_DEBUGFS:-/sys/kernel/debug}

# tw_lockdown_mode: the bracketed word of the lockdown file ("none",
# "integrity", "confidentiality"), or "absent" when there is no such file
# (a kernel without the lockdown LSM, or securityfs not mounted).
tw_lockdown_mode() {
	[ -r "$tw_lockdown_file" ] || { echo absent; return 0; }
	sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$tw_lockdown_file" | head -n 1 | grep . || echo unknown
}

# tw_lockdown_explain WHO: the lines saying what lockdown refuses and the
# two ways out, each starting with "WHO: "; nothing when not locked down.
# Returns 1 when the kernel is locked down (integrity or confidentiality).
tw_lockdown_explain() {
	tw_who=$1
	tw_mode=$(tw_lockdown_mode)
	case "$tw_mode" in
	absent|none) return 0 ;;
	integrity|confidentiality) ;;
	*)
		echo "$tw_who: $tw_lockdown_file reads '$(head -n 1 "$tw_lockdown_file")': no [mode] in it; going on"
		return 0 ;;
	esac
	echo "$tw_who: kernel lockdown is '$tw_mode' ($tw_lockdown_file reads '$(head -n 1 "$tw_lockdown_file")'; Secure Boot usually turns it on)."
	echo "$tw_who:   refused: loading a module not signed by a key the kernel trusts (insmod: Operation not permitted),"
	echo "$tw_who:   and opening any writable debugfs file: twheel's $tw_debugfs/twheel/control would give EPERM."
	[ "$tw_mode" = confidentiality ] &&
		echo "$tw_who:   confidentiality also refuses tracefs (timer traces) and perf's reads of kernel memory."
	echo "$tw_who:   way out 1: sign twheel.ko with a Machine Owner Key, as DKMS does: mokutil --import key.der, reboot to enroll it,"
	echo "$tw_who:     then <kernel build dir>/scripts/sign-file sha256 key.priv key.der twheel.ko (module loads work; the control file stays refused)."
	echo "$tw_who:   way out 2: run without lockdown: disable Secure Boot in the firmware setup (or the shim's checks: mokutil --disable-validation),"
	echo "$tw_who:     and drop any lockdown= from the kernel command line (upstream's lockdown= only raises the level; there is no lockdown=none)."
	return 1
}

# tw_debugfs_mounted: debugfs is mounted at $tw_debugfs.
tw_debugfs_mounted() {
	awk -v p="$tw_debugfs" '$2 == p && $3 == "debugfs" { m = 1 } END { exit !m }' /proc/mounts
}
