#!/usr/bin/env bash
# make demo: boots the test kernel in QEMU with twheel loaded and shows what
# /sys/kernel/debug/twheel holds.
#   scripts/demo.sh [--kernel test|stock] [--clock icount|wall]
# The guest runs on the instruction clock unless --clock wall (or
# TWHEEL_CLOCK=wall) says otherwise: its figures, and what admission
# accepts, are then the same on a busy machine as on an idle one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export TWHEEL_CLOCK=${TWHEEL_CLOCK:-icount}
exec "$TWHEEL_ROOT/scripts/qemu.sh" "$@" --timeout 600 -- sh /guest/demo.sh
