#!/usr/bin/env bash
# Replays a kernel timer trace through every engine (userspace/build/replay) and
# prints its tables, Ir per call from callgrind filled in.
#   userspace/replay/replay.sh [TRACE]  (make replay TRACE=...)
# TRACE: text in any of the three forms (tracefs, trace-cmd report, perf
# script), plain, gzip or xz whatever its name (told by its first bytes;
# one cut short is replayed as far as it goes, with a warning), or - for
# standard input; by default the trace recorded in the guest under TCP
# traffic, userspace/replay/traces/guest-tcp.tracefs.gz.
#   REPLAY_REPEAT    native runs per engine; the table keeps the fastest (3)
#   REPLAY_ENGINES   engines, comma-separated (all)
#   REPLAY_CALLGRIND 0: no callgrind run, the Ir columns stay "-" (1)
#   REPLAY_HZ        the traced machine's HZ, 10 to 10000 (unset or empty:
#                    the trace tells it, else 250; the replay says which)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/../scripts/lib.sh"

trace=${1:-$here/traces/guest-tcp.tracefs.gz}
repeat=${REPLAY_REPEAT:-3}
engines=${REPLAY_ENGINES:+-e $REPLAY_ENGINES}
bin=$top/build/replay

ksrc=$("$top/setup.sh")
make -s -C "$top" KSRC="$ksrc" replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ "$trace" = - ] || [ -r "$trace" ] || die "replay: cannot read $trace"
src=$trace
if [ "$trace" = - ]; then
	src=$tmp/stdin
	cat >"$src"
fi
# gzip and xz data are told by their first bytes (1f 8b; fd 37 7a 58 5a
# 00), whatever the name says. One cut short (Ctrl-C on `cat trace_pipe |
# gzip`) is replayed as far as it decompresses, as a plain file cut short
# is, with a warning.
case $(od -An -tx1 -N6 -- "$src" | tr -d ' \n') in
1f8b*) unpack=gzip ;;
fd377a585a00) unpack=xz ;;
*) unpack= ;;
esac
early=
if [ -n "$unpack" ]; then
	"$unpack" -dc -- "$src" >"$tmp/trace" 2>"$tmp/unpack" || early=$unpack
elif [ "$src" = "$trace" ]; then
	cp -- "$trace" "$tmp/trace"
else
	mv -- "$src" "$tmp/trace"
fi
if [ -n "$early" ]; then
	[ -s "$tmp/trace" ] || die "replay: $early could not decompress anything of $trace: $(tail -n 1 "$tmp/unpack")"
	early="WARNING: $trace ended early or is damaged ($(tail -n 1 "$tmp/unpack")): replaying the $(wc -c <"$tmp/trace") bytes it decompressed to"
	log "replay: $early"
fi

: >"$tmp/ir"
if [ "${REPLAY_CALLGRIND:-1}" != 0 ]; then
	log "replay: callgrind, one run per engine and kind of call"
	# shellcheck disable=SC2086
	valgrind -q --tool=callgrind --instr-atstart=no --collect-atstart=no \
		--callgrind-out-file="$tmp/cg.out" "$bin" $engines "$tmp/trace" >"$tmp/calls"
	for f in "$tmp"/cg.out.*; do
		what=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
		ir=$(sed -n 's/^summary: //p' "$f")
		awk -v what="$what" -v ir="$ir" '
			$1 == "calls" && $2 " " $3 " " $4 == what && $5 > 0 {
				printf "ir %s %.1f\n", what, ir / $5 }' "$tmp/calls" >>"$tmp/ir"
	done
fi
[ -z "$early" ] || echo "# $early"
# shellcheck disable=SC2086
"$bin" -r "$repeat" $engines -i "$tmp/ir" -n "$trace" "$tmp/trace"
