#!/usr/bin/env bash
# Writes RESULTS_DIR/stream.csv: the op stream's callgrind instruction
# counts (exact, reproducible), native ns and memory per timer, on every
# engine of the registry, at small sizes: mix s (delays 25..250) at 1k
# and 10k timers, mix u (delays 1..2^20) at 10k on every engine but
# straight (its tick walks every pending timer: 640k ticks of 10k timers
# would take most of an hour under callgrind). About 3 minutes on 2 cores
# (2 min 44 s on 2026-11-27). docs/choosing.md quotes it
# (scripts/choosing.sh).
#
#   scripts/stream-csv.sh RESULTS_DIR
#
# -h, --help: this text.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-}" in
-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
"") printf '[twheel] error: stream-csv.sh needs a results directory (see --help)\n' >&2; exit 2 ;;
esac
dir=${1%/}
[ -d "$dir" ] || { printf '[twheel] error: %s: no such directory\n' "$dir" >&2; exit 2; }
all=$("$TWHEEL_ROOT/scripts/engines.sh")
u_engines=$(echo "$all" | tr ' ' '\n' | grep -v -x straight | tr '\n' ' ')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STREAM_FORMAT=csv STREAM_MIXES=s STREAM_SIZES="1000 10000" STREAM_ENGINES="$all" \
	"$TWHEEL_ROOT/userspace/bench/stream.sh" >"$tmp/s.csv"
STREAM_FORMAT=csv STREAM_MIXES=u STREAM_SIZES=10000 STREAM_ENGINES="$u_engines" \
	"$TWHEEL_ROOT/userspace/bench/stream.sh" >"$tmp/u.csv"
{ cat "$tmp/s.csv"; tail -n +2 "$tmp/u.csv"; } >"$dir/stream.csv"
log "wrote $dir/stream.csv"
