#!/usr/bin/env bash
# The old name of userspace/replay/twheel-replay, kept for its callers:
#   userspace/replay/replay.sh [TRACE]
# runs twheel-replay on TRACE, by default the shipped guest trace
# (traces/guest-tcp.tracefs.gz); the REPLAY_* variables work as they did.
# twheel-replay --help lists the options.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/twheel-replay" -- "${1:-$here/traces/guest-tcp.tracefs.gz}"
