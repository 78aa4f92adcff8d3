#!/usr/bin/env bash
# make demo: boots the test kernel in QEMU with twheel loaded and shows what
# /sys/kernel/debug/twheel holds.  scripts/demo.sh [--kernel test|stock]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
exec "$TWHEEL_ROOT/scripts/qemu.sh" "$@" --timeout 300 -- sh /guest/demo.sh
