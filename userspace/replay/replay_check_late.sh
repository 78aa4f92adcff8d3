#!/usr/bin/env bash
# The kernel's lateness as kernel people read it, and what the trace does
# not say (replay_check.sh runs it): one "PASS <name>" or "FAIL <name>"
# line per check, exit 1 if any failed.
#  - the 6.18 trace: the kernel's timer_list lateness against each
#    start's bucket_expiry, worked out here on its own (awk pairs each
#    timer_expire_entry with its timer's last timer_start), is the
#    replay's in json, csv, md and text (p50 0, p99 1, max 1), its
#    lateness against expires= unchanged (1/8/62), modern's against
#    bucket_expiry 0/0/0, the other engines' null; the hrtimers' against
#    their hard expiry (expires=) likewise, worked out by awk;
#  - without bucket_expiry (a kernel before 6.8): null, empty or "-";
#  - unknown is unknown: perf's flags give deferrable null ("unknown"),
#    lines without a CPU column cpus null ("unknown");
#  - a field that is not a number is named.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build/replay
fail=0
result() { [ "$1" = 0 ] && echo "PASS $2" || { echo "FAIL $2"; fail=1; }; }
bad() { echo "replay-check: $*" >&2; return 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { "$bin" --no-callgrind -r 1 "$@" 2>"$tmp/err"; }
# sorted values on stdin, over DIV, in FMT: "n zero p50 p99 max" (the replay's ranks)
pct() {
	sort -n | awk -v d="$1" -v f="$2" '{ v[NR] = $1; z += !$1 }
		END { printf "%d %d " f " " f " " f "\n", NR, z, v[int((NR - 1) / 2) + 1] / d,
			v[int((NR - 1) * 99 / 100) + 1] / d, v[NR] / d }'
}
# the value of key=... among the fields of a line
field='function f(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }'

zcat "$here/traces/host-6.18.tracefs.gz" >"$tmp/h.txt"
fails=0
# each timer_expire_entry against its timer's last timer_start's bucket_expiry
awk "$field"'
	/ timer_start: / { if (f("bucket_expiry") != "") be[f("timer")] = f("bucket_expiry"); next }
	/ timer_expire_entry: / { t = f("timer"); if (t in be) { d = f("now") - be[t]; print d < 0 ? 0 : d; delete be[t] } }' \
	"$tmp/h.txt" | pct 1 %d >"$tmp/awk"
[ "$(cat "$tmp/awk")" = "3030 2662 0 1 1" ] || { bad "awk's kernel lateness: $(cat "$tmp/awk")"; fails=1; }
# each hrtimer_expire_entry against its hrtimer's last hrtimer_start's expires=
awk "$field"'
	/ hrtimer_start: / { x[f("hrtimer")] = f("expires"); next }
	/ hrtimer_expire_entry: / { t = f("hrtimer"); if (t in x) { d = f("now") - x[t]; print d < 0 ? 0 : d; delete x[t] } }' \
	"$tmp/h.txt" | pct 1000 %.3f >"$tmp/awk-hr"
[ "$(cat "$tmp/awk-hr")" = "20001 125 19.496 28.653 1752.837" ] || { bad "awk's hrtimer lateness: $(cat "$tmp/awk-hr")"; fails=1; }
run -f json "$tmp/h.txt" >"$tmp/h.json" || fails=1
python3 - "$tmp/h.json" "$tmp/awk" "$tmp/awk-hr" <<'PY' || { bad "6.18 json: lateness"; fails=1; }
import json, sys
d = json.load(open(sys.argv[1]))
n, zero, p50, p99, mx = (float(x) for x in open(sys.argv[2]).read().split())
hn, hearly, h50, h99, hmx = (float(x) for x in open(sys.argv[3]).read().split())
ok = True
def want(r, **kv):
    global ok
    got = {k: r[k] for k in kv}
    if got != kv:
        print("replay-check:", r["stream"], r["engine"], got, "not", kv, file=sys.stderr)
        ok = False
for r in d["results"]:
    if r["stream"] == "timer_list" and r["engine"] == "kernel":
        want(r, late_ref="expires", late_b_ref="bucket_expiry", late_p50=1, late_p99=8,
             late_max=62, late_b_p50=p50, late_b_p99=p99, late_b_max=mx, early_b=0,
             on_time_b_pct=round(100 * zero / n, 1), expired=int(n), deferrable=347)
    elif r["stream"] == "timer_list" and r["engine"] == "modern":
        want(r, late_p50=1, late_p99=8, late_max=62, late_b_p50=0, late_b_p99=0,
             late_b_max=0, early_b=0, on_time_b_pct=100.0, deferrable=None)
    elif r["stream"] == "hrtimer" and r["engine"] == "kernel":
        want(r, late_ref="softexpires", late_b_ref="expires", late_p50=23.262,
             late_b_p50=h50, late_b_p99=h99, late_b_max=hmx, early_b=int(hearly),
             expired=int(hn), deferrable=None)
    else:
        want(r, late_b_p50=None, late_b_p99=None, late_b_max=None, early_b=None,
             on_time_b_pct=None)
want({"stream": "trace", "engine": "", "cpus": d["cpus"]}, cpus=2)
sys.exit(0 if ok else 1)
PY
# the same figures in csv (by its header's names), md and text
run -f csv -e modern,heap "$tmp/h.txt" >"$tmp/h.csv" || fails=1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $1, $2, $c["late_b_ref"], $c["late_b_p50"] "/" $c["late_b_p99"] "/" $c["late_b_max"], $c["early_b"], $c["deferrable"] }' \
	"$tmp/h.csv" >"$tmp/h.csvb"
printf '%s\n' "timer_list modern bucket_expiry 0/0/0 0 " "timer_list heap bucket_expiry //  " \
	"timer_list kernel bucket_expiry 0/1/1 0 347" "hrtimer heap expires //  " \
	"hrtimer kernel expires 19.496/28.653/1752.837 125 " | cmp -s - "$tmp/h.csvb" ||
	{ bad "6.18 csv: $(cat "$tmp/h.csvb")"; fails=1; }
run -f md -e modern,heap "$tmp/h.txt" >"$tmp/h.md" || fails=1
awk -F'|' '/^\| engine/ { split("", c); for (i = 2; i < NF; i++) { h = $i; gsub(/^ +| +$/, "", h); c[h] = i }; next }
	/^\| (kernel|modern|heap)/ { l = $2 "|" $(c["bucket late p50 (jiffies)"] + c["hard late p50 (us)"]) "|" \
		$(c["bucket late max (jiffies)"] + c["hard late max (us)"]); gsub(/ +/, "", l); print l }' \
	"$tmp/h.md" >"$tmp/h.mdb"
printf '%s\n' "modern|0|0" "heap|-|-" "kernel(trace)|0|1" "heap|-|-" "kernel(trace)|19.496|1752.837" |
	cmp -s - "$tmp/h.mdb" || { bad "6.18 md: $(tr '\n' ' ' <"$tmp/h.mdb")"; fails=1; }
grep -q "^# lateness: late and on time against each timer's expires=; bucket late " "$tmp/h.md" &&
	grep -q "^# lateness: late and on time against each hrtimer's softexpires= .*; hard late " "$tmp/h.md" &&
	grep -q "; against bucket_expiry the kernel ran them 0/1/1 jiffies late, modern 0/0/0$" "$tmp/h.md" ||
	{ bad "6.18 md: which reference, the verdict"; fails=1; }
run -f text -e modern,heap "$tmp/h.txt" >"$tmp/h.text" || fails=1
[ "$(grep -E '^(modern|heap|kernel \(trace\)) ' "$tmp/h.text" | awk '{ print $NF }' | tr '\n' ' ')" = "0/0/0 - 0/1/1 - 19/29/1753 " ] ||
	{ bad "6.18 text: $(grep -E '^(modern|heap|kernel)' "$tmp/h.text")"; fails=1; }
result $fails replay-late-bucket

# No bucket_expiry (before 6.8): no figure against it, in any format.
fails=0
sed -E 's/ bucket_expiry=[0-9]+//' "$tmp/h.txt" >"$tmp/pre68.txt"
run -f json -e modern "$tmp/pre68.txt" | python3 -c '
import json, sys
r = [r for r in json.load(sys.stdin)["results"] if r["stream"] == "timer_list"]
sys.exit(0 if all(x["late_b_p50"] is None and x["early_b"] is None and x["late_p50"] == 1
                  for x in r) and len(r) == 2 else 1)' || { bad "pre-6.8: json"; fails=1; }
[ "$(run -f csv -e modern "$tmp/pre68.txt" | grep '^timer_list,' | cut -d, -f25-30 | sort -u)" = "bucket_expiry,,,,," ] ||
	{ bad "pre-6.8: csv"; fails=1; }
run -f text -e modern "$tmp/pre68.txt" >"$tmp/pre68.text"
[ "$(grep -E '^(modern|kernel \(trace\)) ' "$tmp/pre68.text" | head -2 | awk '{ print $NF }' | tr '\n' ' ')" = "- - " ] ||
	{ bad "pre-6.8: text"; fails=1; }
result $fails replay-late-pre-6.8

# Unknown is unknown: perf's flags (every timer "D|P|I"), no CPU column.
fails=0
gzip -dc "$here/traces/guest-tcp.perf.gz" | sed -E 's/ \[[0-9]+\] / /' >"$tmp/nocpu.txt"
run -f json -e modern "$tmp/nocpu.txt" | python3 -c '
import json, sys
d = json.load(sys.stdin)
k = [r for r in d["results"] if r["engine"] == "kernel"]
sys.exit(0 if d["cpus"] is None and d["no_cpu_column"] is True and
         all(r["deferrable"] is None for r in k) and len(k) == 2 else 1)' || { bad "perf, no CPU: json"; fails=1; }
run -f md -e modern "$tmp/nocpu.txt" >"$tmp/nocpu.md"
grep -q "^# CPUs: unknown (the lines have no CPU column: their events are paired as one CPU's)$" "$tmp/nocpu.md" &&
	grep -q "^# kernel: .*, deferrable unknown (the trace's form does not show the timers' flags), armed" "$tmp/nocpu.md" &&
	grep -q "^# CPUs: 2 with events$" "$tmp/h.md" || { bad "perf, no CPU: md"; fails=1; }
result $fails replay-unknown

# A field that is not a number is named, with its line (and file).
fails=0
sed '14s/\[timeout=10\]/[timeout=1x]/' "$here/traces/oracle.tracefs" >"$tmp/nan.txt"
run -f md -e modern "$tmp/nan.txt" >"$tmp/nan.md"
grep -qxF "# malformed lines (1): 14 (field 'timeout' is not a number)" "$tmp/nan.md" ||
	{ bad "timeout=1x: $(grep malformed "$tmp/nan.md")"; fails=1; }
sed '14s/ expires=\([0-9]*\)/ expires=\1z/' "$here/traces/oracle.tracefs" >"$tmp/nan2.txt"
run -f md -e modern "$tmp/nan.txt" "$tmp/nan2.txt" >"$tmp/nan2.md"
grep -qxF "# malformed lines (2): $tmp/nan.txt:14 (field 'timeout' is not a number) $tmp/nan2.txt:14 (field 'expires' is not a number)" "$tmp/nan2.md" ||
	{ bad "two files: $(grep malformed "$tmp/nan2.md")"; fails=1; }
result $fails replay-field-named
exit $fail
