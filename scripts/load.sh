#!/usr/bin/env bash
# make load: insmod the twheel.ko that `make` built in the checkout, with
# PARAMS, after checking what would stop it, each said with what was
# found and the way out: not root, a module built for another kernel,
# twheel already loaded, kernel lockdown (Secure Boot), debugfs not mounted.
#   scripts/load.sh [PARAM=VALUE...]     (make load PARAMS='engines=all')
# TWHEEL_LOCKDOWN_FILE and TWHEEL_DEBUGFS stand in for the kernel's files
# (scripts/host-checks.sh tests this way), TWHEEL_KO the module;
# TWHEEL_LOAD_DRY=1 stops just before insmod.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TWHEEL_ROOT/scripts/guest/lockdown.sh"

case "${1:-}" in
-h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
ko=${TWHEEL_KO:-$TWHEEL_ROOT/twheel.ko}
say() { printf 'load: %s\n' "$*" >&2; }
[ -f "$ko" ] || { say "no $ko: run make first"; exit 1; }

# What the machine allows first (readable by anyone), then the module.
# Lockdown: an unsigned module is refused outright; a signed one may load,
# but its control file stays refused (the explanation says so).
if ! tw_lockdown_explain load >&2; then
	if tail -c 28 "$ko" | grep -aqx '~Module signature appended~'; then
		say "$ko is signed: trying insmod (it loads only if its key is enrolled)"
	else
		say "$ko is not signed (no '~Module signature appended~' at its end): not loading it"
		exit 1
	fi
fi
tw_debugfs_mounted ||
	say "debugfs is not mounted at $tw_debugfs: mount -t debugfs none $tw_debugfs (twheel's files appear in $tw_debugfs/twheel)"
[ "$(id -u)" -eq 0 ] || { say "needs root to insmod $ko: sudo make load PARAMS='$*'"; exit 1; }
krel=$(uname -r)
# the .modinfo section's vermagic= string (modinfo's answer, without kmod)
vm=$(tr '\0' '\n' <"$ko" | sed -n 's/^vermagic=\([^ ]*\).*/\1/p' | head -n 1)
[ "$vm" = "$krel" ] ||
	{ say "$ko was built for kernel '${vm:-unknown}', this one runs $krel: make clean; make (or make KDIR=/path/to/$krel/build)"; exit 1; }
[ ! -d /sys/module/twheel ] ||
	{ say "twheel is already loaded (/sys/module/twheel): sudo rmmod twheel first"; exit 1; }

[ -z "${TWHEEL_LOAD_DRY:-}" ] || { say "dry run: would run insmod $ko $*"; exit 0; }
PATH=$PATH:/sbin:/usr/sbin insmod "$ko" "$@" || { say "insmod $ko $* failed; the kernel's reason: dmesg | tail"; exit 1; }
say "loaded: $ko $*; control: $tw_debugfs/twheel/control (docs/usage.md)"
