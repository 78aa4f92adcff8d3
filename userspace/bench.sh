#!/usr/bin/env bash
# Builds and runs the user-space benchmark (bench.c) on every engine and
# prints a markdown table: ns per op on this machine (clock_gettime) and
# instructions per op (callgrind), advance per jiffy.
#   BENCH_SIZES     pending timers          (1000 10000 100000 1000000)
#   BENCH_JIFFIES   jiffies timed natively  (2048)
#   BENCH_REPEAT    native runs; the table keeps the fastest (3)
#   CG_SIZES        sizes run under callgrind (BENCH_SIZES)
#   CG_JIFFIES      jiffies per add/del/mod phase under callgrind (32)
#   BENCH_ENGINES   engines to run (classic modern reference heap hash simple
#                   hash_sorted straight ordered classic_bounded)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

sizes=${BENCH_SIZES:-1000 10000 100000 1000000}
jiffies=${BENCH_JIFFIES:-2048}
repeat=${BENCH_REPEAT:-3}
cg_sizes=${CG_SIZES:-$sizes}
cg_jiffies=${CG_JIFFIES:-32}
engines=${BENCH_ENGINES:-classic modern reference heap hash simple hash_sorted straight ordered classic_bounded}
bench=$here/build/bench

ksrc=$("$here/setup.sh")
make -s -C "$here" KSRC="$ksrc" bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in $sizes; do
	for e in $engines; do
		log "bench $e $n: native x$repeat"
		for _ in $(seq "$repeat"); do
			"$bench" "$e" "$n" "$jiffies" >>"$tmp/ns"
		done
	done
done

# One callgrind run per engine and size; one dump per op kind.
for n in $cg_sizes; do
	for e in $engines; do
		log "bench $e $n: callgrind"
		rm -f "$tmp"/cg.*
		valgrind -q --tool=callgrind --instr-atstart=no --collect-atstart=no \
			--callgrind-out-file="$tmp/cg.out" \
			"$bench" "$e" "$n" "$cg_jiffies" >"$tmp/ops"
		for f in "$tmp"/cg.out.*; do
			op=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
			ir=$(sed -n 's/^summary: //p' "$f")
			cnt=$(awk -v op="$op" '$1 == "ops" && $2 == op { print $3 }' "$tmp/ops")
			echo "ir $e $n $op $ir $cnt" >>"$tmp/ir"
		done
	done
done
touch "$tmp/ir"

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
