#!/usr/bin/env bash
# Writes RESULTS_DIR/replay.csv and replay.md: the shipped real traces
# replayed through every engine in user space (userspace/replay/twheel-replay
# --format=csv, its callgrind pass on: Ir/op, exact and reproducible; ns/op
# native, indicative), one set of rows per trace and stream (timer_list,
# hrtimer) with the kernel's own rows, the trace's file name in a first
# column, trace. Host-side work, no guest: scripts/compare.sh runs it in
# both its modes; a few seconds (3 s on 2 cores, 2026-11-27).
#
#   scripts/replay-csv.sh [--no-callgrind] RESULTS_DIR
#
# The traces (userspace/replay/traces/): guest-tcp.tracefs.gz (the QEMU
# guest's Debian 6.12 under TCP over lo) and host-6.18.tracefs.gz (a 6.18
# host under a mixed load); docs/replay.md tells how each was recorded.
# replay.md: the provenance line (date, commit, command) and Ir/op and
# lateness per engine and trace (timer_list), what compare.sh appends to
# summary.md. scripts/plots.sh draws replay.png and scripts/choosing.sh
# the traces' section of docs/choosing.md from replay.csv.
# --no-callgrind: no Ir columns (where valgrind is not installed).
# -h, --help: this text. Exit 2 on a missing directory, 1 when a replay
# fails (its message shown, nothing written).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cg=
case "${1:-}" in
-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
--no-callgrind) cg=--no-callgrind; shift ;;
esac
case "${1:-}" in
"") printf '[twheel] error: replay-csv.sh needs a results directory (see --help)\n' >&2; exit 2 ;;
esac
dir=${1%/}
[ -d "$dir" ] || { printf '[twheel] error: %s: no such directory\n' "$dir" >&2; exit 2; }
traces="guest-tcp.tracefs.gz host-6.18.tracefs.gz"
tool=userspace/replay/twheel-replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
n=0
for t in $traces; do
	n=$((n + 1))
	log "trace replay $n/2: $t (every engine${cg:+, no callgrind})"
	# the tool builds itself first when it is not up to date
	"$TWHEEL_ROOT/$tool" --format=csv --no-progress $cg \
		"$TWHEEL_ROOT/userspace/replay/traces/$t" >"$tmp/$n.csv" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; die "the replay of $t failed"; }
	# a warning (no callgrind pass) is shown, not hidden
	cat "$tmp/err" >&2
	head -n 1 "$tmp/$n.csv" | grep -q '^stream,engine,' ||
		die "the replay of $t wrote no csv header"
	if [ $n -eq 1 ]; then
		head -n 1 "$tmp/$n.csv" | sed 's/^/trace,/' >"$tmp/all.csv"
	elif [ "$(head -n 1 "$tmp/$n.csv")" != "$(head -n 1 "$tmp/1.csv")" ]; then
		die "the replays of the traces wrote different csv headers"
	fi
	tail -n +2 "$tmp/$n.csv" | sed "s/^/$t,/" >>"$tmp/all.csv"
done
secs=$(($(date +%s) - start))
log "trace replay took $secs s"
mv "$tmp/all.csv" "$dir/replay.csv"

commit=$(results_commit)
{
	echo "Trace replay measured $(date -u +%Y-%m-%d) at commit $commit with \`$tool --format=csv${cg:+ $cg} TRACE\`, each of userspace/replay/traces/${traces// /, }, in $secs s on the host (Linux $(uname -r), $(nproc) CPUs): every engine in user space (replay.csv). Ir/op: callgrind's instructions per add, mod, del and expiry, exact; lateness of the timer_list stream in jiffies, the kernel's from the trace."
	echo
	awk -F, -v traces="$traces" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["stream"] != "timer_list" { next }
		{ e = $c["engine"]; t = $c["trace"]
		  if (!(e in seen)) { seen[e] = 1; order[++ne] = e }
		  ir[e, t] = $c["ir_op"] == "" ? "-" : $c["ir_op"]
		  late[e, t] = $c["late_p50"] " / " $c["late_p99"] " / " $c["late_max"] }
		END {
			nt = split(traces, tr, " ")
			h = "| engine |"; s = "|---|"
			for (j = 1; j <= nt; j++) { h = h " Ir/op " tr[j] " |"; s = s "---:|" }
			for (j = 1; j <= nt; j++) { h = h " late p50 / p99 / max j " tr[j] " |"; s = s "---:|" }
			print h; print s
			for (i = 1; i <= ne; i++) {
				e = order[i]; l = "| " (e == "kernel" ? "kernel (trace)" : e) " |"
				for (j = 1; j <= nt; j++) l = l " " ((e, tr[j]) in ir ? ir[e, tr[j]] : "-") " |"
				for (j = 1; j <= nt; j++) l = l " " ((e, tr[j]) in late ? late[e, tr[j]] : "-") " |"
				print l
			}
		}' "$dir/replay.csv"
} >"$dir/replay.md"
log "wrote $dir/replay.csv and $dir/replay.md"
