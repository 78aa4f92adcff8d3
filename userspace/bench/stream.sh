#!/usr/bin/env bash
# Runs the op stream (stream.c) on every engine, both delay mixes, and
# prints a markdown table: callgrind instructions per add, del and mod, per
# empty 1-tick advance and per fired timer (a busy tick's instructions less
# an empty tick's, over the timers it fired), then ns of the same natively.
# By default 10k and 100k timers, in about 3 minutes on 2 cores (mix u's
# cells are the long ones: 6.4M ticks at 1k, 20 s under callgrind at 10k,
# about 200 s at 1k); STREAM_FULL=1 (make bench-user FULL=1) 1k to 1M.
# Progress (n of N) goes to stderr.
#   STREAM_FULL     1: 1k to 1M timers                         (0)
#   STREAM_SIZES    pending timers          (10000 100000; full: 1000
#                   10000 100000 1000000)
#   STREAM_MIXES    delay mixes             (u s)
#   STREAM_ENGINES  engines                 (a chosen subset: those with fast
#                   paths, scripts/engines.sh --fast, the ones to set beside
#                   Ratas' inlined C++, and the reference as the baseline;
#                   any other engine of the registry may be named: hash,
#                   hash_vec with mix s only, in practice, as each tick
#                   walks a slot of every timer within 256 jiffies' turn)
#   STREAM_OPS      touches per run         (20000, as in results/README.md's
#                   table; stream.c's own default, 10 per pending timer,
#                   is 10M at 1M)
#   STREAM_REPEAT   native runs; the fastest is kept (3)
#   STREAM_JOBS     cells run at once (1: the ns are a lone process's;
#                   more only where the ns do not matter, as in make check)
#   STREAM_FORMAT   md (a markdown table) or csv (the same columns; what
#                   results/stream.csv holds)                          (md)
#   STREAM_GENERIC  1: every engine through twheel_add() and the others,
#                   one indirect call each, not its kind's own code     (0)
#   STREAM_RUN      1: the tick is a run (twheel_run_until(), or
#                   twheel_run_as() with the kind), not an advance and
#                   pops: its callbacks a fn                           (0)
#   RATAS           a Ratas timer-wheel.h: adds its rows, ratas_cc (the C++
#                   library, ratas_stream.cc; our engine ratas is seed 002's
#                   design in C)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/../scripts/lib.sh"

if [ "${STREAM_FULL:-0}" = 1 ]; then
	sizes=${STREAM_SIZES:-1000 10000 100000 1000000}
else
	sizes=${STREAM_SIZES:-10000 100000}
fi
mixes=${STREAM_MIXES:-u s}
# stream_default: the fast-path engines and the reference, in the registry's order
stream_default() {
	local fast e
	fast=" $("$top/../scripts/engines.sh" --fast) "
	for e in $("$top/../scripts/engines.sh"); do
		case "$fast $e" in *" $e "*|*" reference") echo "$e" ;; esac
	done
}
engines=${STREAM_ENGINES:-$(stream_default | tr '\n' ' ')}
ops=${STREAM_OPS:-20000}
repeat=${STREAM_REPEAT:-3}
jobs=${STREAM_JOBS:-1}
format=${STREAM_FORMAT:-md}
case $format in
md|csv) ;;
*) die "STREAM_FORMAT=$format: md or csv" ;;
esac

ksrc=$("$top/setup.sh")
# setup.sh installs valgrind where apt-get is; elsewhere it may be missing
need_valgrind userspace/bench/stream.sh
make -s -C "$top" KSRC="$ksrc" ${RATAS:+RATAS="$RATAS"} stream
if [ -n "${RATAS:-}" ]; then
	engines="$engines ratas_cc"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

prog() { if [ "$1" = ratas_cc ]; then echo "$top/build/ratas-stream"; else echo "$top/build/stream"; fi; }

# cell N MIX ENGINE: callgrind's counts, then the native runs, into the
# cell's own files (cells run STREAM_JOBS at a time).
cell() {
	local n=$1 mix=$2 e=$3 c=$tmp/$1-$2-$3 f k
	log "stream $4/$steps ($(($(date +%s) - t0)) s): $e $mix $n: callgrind, then native x$repeat"
	mkdir -p "$c"
	valgrind -q --tool=callgrind --instr-atstart=no --collect-atstart=no \
		--callgrind-out-file="$c/cg.out" \
		"$(prog "$e")" "$e" "$mix" "$n" $ops >"$c/ops"
	for f in "$c"/cg.out.*; do
		k=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
		echo "ir $e $mix $n $k $(sed -n 's/^summary: //p' "$f")"
	done >"$c/ir"
	sed "s/^/meta $e $mix $n /" "$c/ops" >>"$c/ir"
	for _ in $(seq "$repeat"); do
		"$(prog "$e")" "$e" "$mix" "$n" $ops >>"$c/ns"
	done
}

cells=()
steps=$(($(echo $sizes | wc -w) * $(echo $mixes | wc -w) * $(echo $engines | wc -w)))
step=0 t0=$(date +%s)
for n in $sizes; do
	for mix in $mixes; do
		for e in $engines; do
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
				wait -n || true
			done
			step=$((step + 1))
			cell "$n" "$mix" "$e" "$step" &
			cells+=("$tmp/$n-$mix-$e")
		done
	done
done
wait
log "stream: $steps cells in $(($(date +%s) - t0)) s"
for c in "${cells[@]}"; do
	[ -s "$c/ir" ] && [ -s "$c/ns" ] || die "stream: no result for $(basename "$c")"
	cat "$c/ir" >>"$tmp/ir"
	cat "$c/ns" >>"$tmp/ns"
done

cols="engine,mix,pending,add Ir,del Ir,mod Ir,empty tick Ir,Ir per fired,add ns,del ns,mod ns,empty tick ns,busy tick ns,fired per busy tick,engine bytes,bytes per timer"
if [ "$format" = csv ]; then
	echo "$cols"
else
	echo "| ${cols//,/ | } |"
	echo "|---|---|$(printf -- '---:|%.0s' $(seq 14))"
fi
awk -v csv=$([ "$format" = csv ] && echo 1 || echo 0) '
	$1 == "ir" { ir[$2, $3, $4, $5] = $6; next }
	$1 == "meta" && $5 == "ops" { ops[$2, $3, $4, $6] = $7; calls[$2, $3, $4, $6] = $8; next }
	$1 == "meta" && $5 == "fired" { fired[$2, $3, $4] = $6; next }
	$1 == "meta" && $5 == "toggle" { tog[$2, $3, $4] = $6; next }
	$1 == "meta" && $5 == "mem" { mem[$2, $3, $4] = $6; tb[$2, $3, $4] = $7; next }
	$1 == "ns" {
		k = $2 SUBSEP $3 SUBSEP $4
		if (!(k in seen)) { seen[k] = 1; order[++rows] = k }
		for (i = 5; i <= 9; i++)
			if (!((k, i) in best) || $i < best[k, i])
				best[k, i] = $i
		per[k] = $10
	}
	function cost(k, kind,   c) {
		c = ir[k, kind] - calls[k, kind] * ir[k, "toggle"] / tog[k]
		return c
	}
	function per_op(k, kind) {
		return ops[k, kind] ? sprintf("%.1f", cost(k, kind) / ops[k, kind]) : "-"
	}
	END {
		for (r = 1; r <= rows; r++) {
			k = order[r]
			split(k, f, SUBSEP)
			empty = ops[k, "empty"] ? cost(k, "empty") / ops[k, "empty"] : 0
			pf = fired[k] ? sprintf("%.1f", (cost(k, "busy") - ops[k, "busy"] * empty) / fired[k]) : "-"
			# memory: the engine beside its timers, and per timer with them
			eb = (k in mem) ? mem[k] : "-"
			pt = (k in mem) ? sprintf("%.1f", tb[k] + mem[k] / f[3]) : "-"
			row = sprintf("%s|%s|%s|%s|%s|%s|%.1f|%s|%s|%s|%s|%s|%s|%s|%s|%s",
				f[1], f[2], f[3], per_op(k, "add"), per_op(k, "del"),
				per_op(k, "mod"), empty, pf, best[k, 5], best[k, 6],
				best[k, 7], best[k, 8], best[k, 9], per[k], eb, pt)
			if (csv) { gsub(/\|/, ",", row); print row }
			else { gsub(/\|/, " | ", row); print "| " row " |" }
		}
	}' "$tmp/ir" "$tmp/ns"
