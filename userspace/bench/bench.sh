#!/usr/bin/env bash
# Builds and runs the user-space benchmark (bench.c) on every engine and
# prints a markdown table: ns per op on this machine (clock_gettime) and
# instructions per op (callgrind), advance per jiffy; then, for the engines
# of CACHE_ENGINES, a table of simulated D1 and LL data-cache misses per op
# (valgrind's cache simulator, cachegrind's, run inside the same callgrind
# pass so that each op kind's phase is counted alone: valgrind 3.19's
# cachegrind has no client requests to mark phases with). The cache is
# simulated as given, not the host's: D1 32 KiB 8-way, LL 8 MiB 16-way,
# 64-byte lines (CACHE_GEOMETRY).
# By default a representative subset, in about a minute on 2 cores: the
# engines with fast paths and the reference (scripts/engines.sh --fast,
# reference), 1k to 100k timers natively, 1k and 10k under callgrind,
# classic's caches simulated. BENCH_FULL=1 (make bench-user FULL=1): every
# engine, 1k to 1M, callgrind at every size, classic, hash and hash_vec's
# caches simulated. Progress (n of N) goes to stderr.
#   BENCH_FULL      1: the full sweep                          (0)
#   BENCH_SIZES     pending timers          (1000 10000 100000; full: and
#                   1000000)
#   BENCH_JIFFIES   jiffies timed natively  (2048)
#   BENCH_REPEAT    native runs; the table keeps the fastest (3)
#   CG_SIZES        sizes run under callgrind (1000 10000; full:
#                   BENCH_SIZES)
#   CG_JIFFIES      jiffies per add/del/mod phase under callgrind (32)
#   BENCH_ENGINES   engines to run (the subset above; full: every engine
#                   of the registry, scripts/engines.sh)
#   CACHE_ENGINES   of those, the ones whose callgrind run simulates the
#                   caches too (classic; full: classic hash hash_vec; ""
#                   for none)
#   CACHE_GEOMETRY  valgrind's cache options (--I1=32768,8,64
#                   --D1=32768,8,64 --LL=8388608,16,64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/../scripts/lib.sh"

# subset: the fast-path engines and the reference, in the registry's order
subset() {
	local fast e
	fast=" $("$top/../scripts/engines.sh" --fast) "
	for e in $("$top/../scripts/engines.sh"); do
		case "$fast $e" in *" $e "*|*" reference") echo "$e" ;; esac
	done
}
if [ "${BENCH_FULL:-0}" = 1 ]; then
	sizes=${BENCH_SIZES:-1000 10000 100000 1000000}
	cg_sizes=${CG_SIZES:-$sizes}
	engines=${BENCH_ENGINES:-$("$top/../scripts/engines.sh")}
	cache_engines=${CACHE_ENGINES-classic hash hash_vec}
else
	sizes=${BENCH_SIZES:-1000 10000 100000}
	cg_sizes=${CG_SIZES:-1000 10000}
	engines=${BENCH_ENGINES:-$(subset | tr '\n' ' ')}
	cache_engines=${CACHE_ENGINES-classic}
fi
jiffies=${BENCH_JIFFIES:-2048}
repeat=${BENCH_REPEAT:-3}
cg_jiffies=${CG_JIFFIES:-32}
cache_geometry=${CACHE_GEOMETRY:---I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64}
bench=$top/build/bench

ksrc=$("$top/setup.sh")
# setup.sh installs valgrind where apt-get is; elsewhere it may be missing
need_valgrind userspace/bench/bench.sh
make -s -C "$top" KSRC="$ksrc" bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# progress: step of steps, on stderr
ne=$(echo $engines | wc -w)
steps=$((ne * ($(echo $sizes | wc -w) + $(echo $cg_sizes | wc -w))))
step=0 t0=$(date +%s)
progress() {
	step=$((step + 1))
	log "bench $step/$steps ($(($(date +%s) - t0)) s): $*"
}
for n in $sizes; do
	for e in $engines; do
		progress "$e $n: native x$repeat"
		for _ in $(seq "$repeat"); do
			"$bench" "$e" "$n" "$jiffies" >>"$tmp/ns"
		done
	done
done

# One callgrind run per engine and size; one dump per op kind.
for n in $cg_sizes; do
	for e in $engines; do
		sim=""
		case " $(echo $cache_engines) " in
		*" $e "*) sim="--cache-sim=yes $cache_geometry" ;;
		esac
		progress "$e $n: callgrind${sim:+ with the cache simulated}"
		rm -f "$tmp"/cg.*
		# shellcheck disable=SC2086
		# (valgrind warns that it overrides the host's cache sizes)
		valgrind -q --tool=callgrind --instr-atstart=no --collect-atstart=no \
			$sim --callgrind-out-file="$tmp/cg.out" \
			"$bench" "$e" "$n" "$cg_jiffies" >"$tmp/ops" 2>"$tmp/vg.err" ||
			{ cat "$tmp/vg.err" >&2; exit 1; }
		grep -v -e 'warning: .*LL cache' -e 'warning: L3 cache found' "$tmp/vg.err" >&2 || true
		for f in "$tmp"/cg.out.*; do
			op=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
			ir=$(sed -n 's/^summary: //p' "$f" | awk '{ print $1 }')
			cnt=$(awk -v op="$op" '$1 == "ops" && $2 == op { print $3 }' "$tmp/ops")
			echo "ir $e $n $op $ir $cnt" >>"$tmp/ir"
			[ -n "$sim" ] || continue
			# data misses, reads and writes: D1mr + D1mw, DLmr + DLmw (the
			# summary leaves out trailing zero counts)
			awk -v k="cm $e $n $op $cnt" '
				/^events: / { ne = split(substr($0, 9), ev, " ") }
				/^summary: / { split(substr($0, 10), sv, " ") }
				END {
					for (i = 1; i <= ne; i++) v[ev[i]] = sv[i] + 0
					print k, v["D1mr"] + v["D1mw"], v["DLmr"] + v["DLmw"]
				}' "$f" >>"$tmp/cm"
		done
		[ -z "$sim" ] || awk -v k="fired $e $n" '$1 == "fired" { print k, $2 }' \
			"$tmp/ops" >>"$tmp/cm"
	done
done
touch "$tmp/ir"
log "bench: $steps steps in $(($(date +%s) - t0)) s"

echo "| engine | pending | add ns | del ns | mod ns | advance ns/jiffy | add Ir | del Ir | mod Ir | advance Ir/jiffy | expired % |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
awk '
	function get(e, n, op) { return ((e, n, op) in ir) ? ir[e, n, op] : "-" }
	FNR == NR { if ($5) ir[$2, $3, $4] = sprintf("%.0f", $5 / $6); next }
	{
		k = $2 " " $3
		if (!(k in row))
			order[++rows] = k
		row[k] = 1
		for (i = 4; i <= 7; i++)
			if (!((k, i) in best) || $i < best[k, i])
				best[k, i] = $i
		expired[k] = $8
	}
	END {
		for (r = 1; r <= rows; r++) {
			k = order[r]
			split(k, f, " ")
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				f[1], f[2], best[k, 4], best[k, 5], best[k, 6], best[k, 7],
				get(f[1], f[2], "add"), get(f[1], f[2], "del"),
				get(f[1], f[2], "mod"), get(f[1], f[2], "advance"), expired[k]
		}
	}' "$tmp/ir" "$tmp/ns"

[ -s "$tmp/cm" ] || exit 0
echo
echo "Simulated data-cache misses per op (D1 32 KiB, LL 8 MiB unless CACHE_GEOMETRY says otherwise): per add, del, mod; per tick (one jiffy's advance with its pops) and per timer it fired."
echo
echo "| engine | pending | D1 add | D1 del | D1 mod | D1 tick | D1 fired | LL add | LL del | LL mod | LL tick | LL fired | fired per tick |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
awk '
	$1 == "fired" { fired[$2, $3] = $4; next }
	{
		k = $2 " " $3
		if (!(k in seen)) { seen[k] = 1; order[++rows] = k }
		d1[$2, $3, $4] = $6 / $5; ll[$2, $3, $4] = $7 / $5
		if ($4 == "advance") { d1a[$2, $3] = $6; lla[$2, $3] = $7; ticks[$2, $3] = $5 }
	}
	function f(x) { return sprintf(x < 10 ? "%.2f" : "%.1f", x) }
	END {
		for (r = 1; r <= rows; r++) {
			split(order[r], a, " ")
			e = a[1]; n = a[2]; fi = fired[e, n]
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				e, n, f(d1[e, n, "add"]), f(d1[e, n, "del"]), f(d1[e, n, "mod"]),
				f(d1[e, n, "advance"]), fi ? f(d1a[e, n] / fi) : "-",
				f(ll[e, n, "add"]), f(ll[e, n, "del"]), f(ll[e, n, "mod"]),
				f(ll[e, n, "advance"]), fi ? f(lla[e, n] / fi) : "-",
				f(fi / ticks[e, n])
		}
	}' "$tmp/cm"
