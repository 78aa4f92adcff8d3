#!/usr/bin/env python3
"""twheel's results pipeline: the rounds of a comparison run to medians.

scripts/guest/compare.sh runs every workload in rounds (--reps), each run
printed as its own compare table under an @@RUN line. This module reads
that output, marks the runs that cannot count (admission lowered or forced their count,
the overload guard stopped their activity, a runner ran fewer activity ops
than the others of its run), and writes, per workload,
N and runner, the median of the rounds and its interval.

    results.py rounds GUEST_OUT OUTDIR [--clock CLOCK] [--table FILE]
        OUTDIR/rounds.csv: every row of every round, with its round, pass,
        runner label (timer_list's second pass: timer_list_b) and, when it
        is left out, why; OUTDIR/compare.csv: the medians (below); --table:
        the same as a markdown table headed like the module's.
    results.py summarise ROUNDS_CSV OUTDIR [--clock CLOCK]
        compare.csv again from a rounds.csv (its marks made again from its
        columns when it has them).
    results.py noise COMPARE_CSV
        The A/A control: timer_list against timer_list_b, the run's noise
        floor, a line per workload (printed under every table).
    results.py choosing RESULTS_DIR
        docs/choosing.md on stdout, from RESULTS_DIR's compare.csv (and
        compare.md's provenance line, stream.csv, replay.csv): a decision
        table first, then a table per traffic shape.
    results.py check-choosing RESULTS_DIR DOC
        Each engine DOC's decision table picks, checked against
        RESULTS_DIR/compare.csv: its op ns interval apart from every other
        exact engine's at the same N (a problem a line; exit 1 on any).
    results.py ab A_CSV B_CSV [--ns PCT] [--tick PCT] [--engine NAME]
        Two runs of the same thing (two --out directories, two module
        builds): every add/mod/del ns median of A's compare.csv within
        PCT (2) per cent of B's, every tick p50/p99 within --tick (5); a
        line per figure off, the largest difference of each kind, exit 1
        on any. --engine keeps one runner's rows (timer_list for an A/B
        of two builds).
    results.py smp SMP_ROUNDS_CSV [--clock CLOCK]
        smp.csv on stdout from compare-smp.sh's rounds (smp-rounds.csv):
        per configuration (percpu, remote, runner, vCPUs, pass) the
        median of the rounds that count, every ns column and the shares
        with <column>_lo and <column>_hi (min..max of those rounds),
        reps, excluded and clock (wall unless given); runs_early and nested the worst of
        every round. A round does not count when admission changed its
        load or it lost ops (fewer than 95 % of the configuration's most).
    results.py readme RESULTS_DIR
        results/README.md on stdout: what each file beside it holds, its
        figures counted from the files themselves.

The statistics (every name below is what the CSV files call it):
- a value is the median of the rounds that count (an even count: the mean
  of the two middle ones);
- its interval, <column>_lo and <column>_hi, is the min..max of those
  rounds; with n rounds the population median lies in it with probability
  1 - 2^(1 - n) (75 % at 3 rounds, 93.75 % at 5), whatever the
  distribution;
- op ns is add + mod + del ns of one round, its median and interval over
  the rounds as the other columns (not the sum of three medians);
- two runners are ranked only when their intervals do not overlap, and
  never across different N: rank() says "<", ">", "tie" or None.

Python 3 and its standard library only.
"""

import csv
import io
import math
import os
import sys

# The columns with an interval: every time (ns, us) and lateness (j).
def has_interval(col):
    return col.endswith((" ns", " us", " j"))

# Columns whose value is the worst over every round, counted or not: what
# the engines guarantee is checked on them.
WORST = ("early", "late max j", "cascaded max")

# The ratios the module prints against the same run's timer_list, made
# again from the medians.
RATIO_OPS = "add/mod/del x timer_list"
RATIO_TICK = "tick p99 x timer_list"
OP_COLS = ("add ns", "mod ns", "del ns")

# A runner's missed jiffies (the tick caught them up, several jiffies at
# once) are kept in rounds.csv but leave nothing out: they rise with the
# runner's place in the tick's order (each runner's tick runs after the
# others'), a harness effect the rotation spreads over the runners; the
# timers of those jiffies still ran. Ticks are lost when the overload
# guard ends the activity.
# A runner lost ops when it ran fewer activity ops than this share of the
# most any runner of the same run ran (they all get the same ops a tick).
LOST_OPS_SHARE = 0.95


def num(v):
    """A cell as a number, or None (n/a, -, empty)."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def median(values):
    """The median of a non-empty list of numbers."""
    v = sorted(values)
    if not v:
        raise ValueError("median of nothing")
    m = len(v) // 2
    if len(v) % 2:
        return v[m]
    return (v[m - 1] + v[m]) / 2


def interval(values):
    """The min..max of the rounds: (lo, hi)."""
    if not values:
        raise ValueError("interval of nothing")
    return (min(values), max(values))


def coverage(n):
    """The chance that min..max of n rounds holds the population median."""
    return 1 - 2.0 ** (1 - n) if n >= 1 else 0.0


def rank(a, b):
    """Rank two figures, each a dict with N, lo, hi (lower is cheaper).

    None when their N differ (never ranked), "tie" when their intervals
    overlap (touching counts as overlap), "<" when a is cheaper, ">" when
    b is.
    """
    if str(a["N"]) != str(b["N"]):
        return None
    if a["hi"] < b["lo"]:
        return "<"
    if b["hi"] < a["lo"]:
        return ">"
    return "tie"


def fmt(v):
    """A number as the tables write it: integers bare, else one decimal."""
    if v is None:
        return "n/a"
    if abs(v - round(v)) < 1e-9:
        return str(int(round(v)))
    return "%.1f" % v


# ---- the guest's output ----

def parse_table(lines):
    """A markdown table (the module's compare): its '# ' lines and rows."""
    head, cols, rows = [], None, []
    for line in lines:
        if line.startswith("# "):
            head.append(line[2:])
            continue
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cols is None:
            cols = cells
        else:
            rows.append(dict(zip(cols, cells)))
    return head, cols or [], rows


def kv(words):
    """key=value words to a dict."""
    out = {}
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            out[k] = v
    return out


def parse_guest(text):
    """The runs of the rounds in a guest's output.

    Returns (info, runs): info the @@INFO line's key=value pairs, runs a
    list of dicts: round, pass, workload, count, secs, admission,
    overload_stops, runners {name: {activity_ops, runs, missed_jiffies}},
    head (the table's '# ' lines), cols, rows.
    """
    info, runs, cur, table = {}, [], None, None
    for line in text.splitlines():
        if line.startswith("@@INFO "):
            info = kv(line.split()[1:])
        elif line.startswith("@@RUN "):
            cur = kv(line.split()[1:])
            cur["runners"] = {}
            runs.append(cur)
        elif line.startswith("@@RUNNER ") and cur is not None:
            w = line.split()
            cur["runners"][w[1]] = kv(w[2:])
        elif line == "@@COMPARE run" and cur is not None:
            table = []
        elif line.startswith("@@END") and table is not None:
            cur["head"], cur["cols"], cur["rows"] = parse_table(table)
            table, cur = None, None
        elif table is not None:
            table.append(line)
    return info, [r for r in runs if "rows" in r]


# rounds.csv's columns besides the module's: what the marks are made from.
RAW = ("admission", "overload stops", "activity ops", "run activity ops", "missed jiffies")


def raw(run, runner):
    """The marks' inputs for a runner's row of a run, as rounds.csv holds them."""
    st = run["runners"].get(runner, {})
    ops = [num(x.get("activity_ops")) or 0 for x in run["runners"].values()]
    return {"admission": run.get("admission", "ok"),
            "overload stops": run.get("overload_stops", "0"),
            "activity ops": st.get("activity_ops", ""),
            "run activity ops": fmt(max(ops)) if ops else "",
            "missed jiffies": st.get("missed_jiffies", "")}


def left_out(row):
    """Why a round's row does not count ("" when it does), from RAW."""
    why = []
    if row.get("admission", "ok") not in ("ok", ""):
        why.append("admission " + row["admission"])
    if (num(row.get("overload stops")) or 0) > 0:
        why.append("overload guard stopped the activity (ticks and ops lost)")
    mine, most = num(row.get("activity ops")), num(row.get("run activity ops"))
    if mine is not None and most and mine < LOST_OPS_SHARE * most:
        why.append("lost ops (%d of %d)" % (mine, most))
    return "; ".join(why)


def label(run, engine):
    """A row's runner: timer_list's second pass is the A/A twin."""
    if engine == "timer_list" and run.get("pass") == "b":
        return "timer_list_b"
    return engine


def round_rows(info, runs):
    """Every row of every run, labelled and marked: (columns, rows)."""
    cols, out = [], []
    for run in runs:
        for c in run["cols"]:
            if c not in cols:
                cols.append(c)
        for r in run["rows"]:
            row = dict(r)
            row["engine"] = label(run, r["engine"])
            row["round"] = run.get("round", "1")
            row["pass"] = run.get("pass", "")
            row.update(raw(run, r["engine"]))
            row["left out"] = left_out(row)
            out.append(row)
    return cols, out


def summarise(cols, rows, clock):
    """The medians per workload, N and runner: (columns, rows).

    Rows that are left out count only in excluded and in the WORST
    columns. A group whose every row is left out shows the median of all
    its rows with no interval and reps 0: a figure to read, never ranked.
    """
    order, groups = [], {}
    for r in rows:
        key = (r["workload"], r["N"], r["engine"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    value_cols = [c for c in cols if c not in ("workload", "N", "engine")]
    out_cols = ["workload", "N", "engine"]
    for c in value_cols:
        out_cols.append(c)
        if has_interval(c):
            out_cols += [c + "_lo", c + "_hi"]
    out_cols += ["op ns", "op ns_lo", "op ns_hi", "reps", "excluded", "clock"]
    # the workloads in the order they ran, then N, then the runners in the
    # order they first ran, timer_list_b right after timer_list
    first_wl, first_run = {}, {}
    for r in rows:
        first_wl.setdefault(r["workload"], len(first_wl))
        first_run.setdefault(r["engine"], len(first_run))
    if "timer_list_b" in first_run and "timer_list" in first_run:
        first_run["timer_list_b"] = first_run["timer_list"] + 0.5
    order.sort(key=lambda k: (first_wl[k[0]], num(k[1]) or 0, first_run[k[2]]))
    out = []
    for key in order:
        g = groups[key]
        ok = [r for r in g if not r["left out"]]
        # every round left out: the figures of all of them, no interval
        fig = ok or g
        row = {"workload": key[0], "N": key[1], "engine": key[2]}
        for c in value_cols + ["op ns"]:
            if c in (RATIO_OPS, RATIO_TICK):
                continue
            if c == "op ns":
                vals = [sum(num(r.get(o)) for o in OP_COLS) for r in fig
                        if all(num(r.get(o)) is not None for o in OP_COLS)]
            else:
                src = g if c in WORST else fig
                vals = [num(r.get(c)) for r in src if num(r.get(c)) is not None]
            if c in WORST:
                row[c] = fmt(max(vals)) if vals else "n/a"
            else:
                row[c] = fmt(median(vals)) if vals else "n/a"
            if has_interval(c):
                lo, hi = interval(vals) if vals and ok else (None, None)
                row[c + "_lo"], row[c + "_hi"] = fmt(lo), fmt(hi)
        row["reps"] = str(len(ok))
        row["excluded"] = str(len(g) - len(ok))
        row["clock"] = clock
        out.append(row)
    ratios(out)
    return out_cols, out


def ratios(rows):
    """The x timer_list columns again, from the medians of each group."""
    base = {(r["workload"], r["N"]): r for r in rows if r["engine"] == "timer_list"}
    for r in rows:
        t = base.get((r["workload"], r["N"]))

        def ratio(c):
            a, b = num(r.get(c)), num(t.get(c)) if t else None
            return "%.2f" % (a / b) if a is not None and b else "n/a"
        r[RATIO_OPS] = "/".join(ratio(c) for c in OP_COLS)
        r[RATIO_TICK] = ratio("tick p99 ns")


# ---- the A/A control ----

def noise(rows):
    """timer_list against timer_list_b, per workload and N: a list of
    (workload, N, {column: (a, b, per cent of a)}, reps a, reps b)."""
    a = {(r["workload"], r["N"]): r for r in rows if r["engine"] == "timer_list"}
    out = []
    for r in rows:
        if r["engine"] != "timer_list_b" or (r["workload"], r["N"]) not in a:
            continue
        t = a[(r["workload"], r["N"])]
        d = {}
        for c in OP_COLS + ("op ns", "tick p50 ns", "tick p99 ns"):
            x, y = num(t.get(c)), num(r.get(c))
            if c == "tick p99 ns" and not p99_holds(t, r):
                d[c] = (x, y, "few")
            elif x is not None and y is not None:
                d[c] = (x, y, 100.0 * (y - x) / x if x else None)
        out.append((r["workload"], r["N"], d, t.get("reps"), r.get("reps")))
    return out


def noise_lines(rows):
    """The A/A control as the lines printed under every table."""
    n = noise(rows)
    if not n:
        return ["A/A control: no timer_list_b rows in this run (no noise floor measured)."]
    lines = ["A/A control (timer_list measured twice a round, the second pass as "
             "timer_list_b; medians, timer_list_b against timer_list): the run's noise floor."]
    for wl, N, d, ra, rb in n:
        parts = []
        for c in OP_COLS + ("tick p99 ns",):
            if c in d:
                x, y, p = d[c]
                if p == "few":
                    p = "not noise: under %d busy ticks p99 is the worst tick" % P99_MIN_TICKS
                else:
                    p = "n/a" if p is None else "%+.1f %%" % p
                parts.append("%s %s / %s (%s)" % (c[:-3], fmt(x), fmt(y), p))
        lines.append("- %s N=%s, %s/%s rounds: %s" % (wl, N, ra, rb, "; ".join(parts)))
    return lines


# ---- files ----

def read_csv(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return list(r.fieldnames or []), list(r)


def write_csv(path, cols, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow([r.get(c, "") for c in cols])


def md_table(cols, rows):
    out = io.StringIO()
    out.write("| " + " | ".join(cols) + " |\n")
    out.write("|" + "|".join("---" if c in ("workload", "engine", "clock") else "---:"
                             for c in cols) + "|\n")
    for r in rows:
        out.write("| " + " | ".join(r.get(c, "") for c in cols) + " |\n")
    return out.getvalue()


def cmd_rounds(args):
    clock, table = "wall", None
    pos = []
    it = iter(args)
    for a in it:
        if a == "--clock":
            clock = next(it)
        elif a == "--table":
            table = next(it)
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit("usage: results.py rounds GUEST_OUT OUTDIR [--clock CLOCK] [--table FILE]")
    with open(pos[0], errors="replace") as f:
        info, runs = parse_guest(f.read())
    if not runs:
        sys.exit("results.py: no @@RUN table in " + pos[0])
    cols, rows = round_rows(info, runs)
    write_csv(pos[1] + "/rounds.csv",
              ["round", "pass"] + cols + list(RAW) + ["left out"], rows)
    scols, srows = summarise(cols, rows, clock)
    write_csv(pos[1] + "/compare.csv", scols, srows)
    if table:
        with open(table, "w") as f:
            for h in runs[0]["head"]:
                f.write("# " + h + "\n")
            reps = max(int(r["reps"]) for r in srows)
            f.write("# every figure: the median of %d rounds (those that count), "
                    "<column>_lo.._hi in compare.csv the min..max of those rounds; "
                    "rounds.csv: every round's row, and why one is left out\n" % reps)
            f.write(md_table([c for c in scols if not c.endswith(("_lo", "_hi"))], srows))
    left = [r for r in rows if r["left out"]]
    for r in left:
        print("left out: round %s pass %s %s %s: %s" % (r["round"], r["pass"], r["workload"],
                                                        r["engine"], r["left out"]))
    print("%d rows of %d runs, %d left out" % (len(rows), len(runs), len(left)))


def cmd_summarise(args):
    clock, pos = "wall", []
    it = iter(args)
    for a in it:
        if a == "--clock":
            clock = next(it)
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit("usage: results.py summarise ROUNDS_CSV OUTDIR [--clock CLOCK]")
    cols, rows = read_csv(pos[0])
    for r in rows:
        if all(c in r for c in RAW):
            r["left out"] = left_out(r)
    mcols = [c for c in cols if c not in ("round", "pass", "left out") + RAW]
    scols, srows = summarise(mcols, rows, clock)
    write_csv(pos[1] + "/compare.csv", scols, srows)
    print("\n".join(noise_lines(srows)))


def cmd_noise(args):
    if len(args) != 1:
        sys.exit("usage: results.py noise COMPARE_CSV")
    _, rows = read_csv(args[0])
    print("\n".join(noise_lines(rows)))


# ---- docs/choosing.md ----

# The traffic shapes, in the guide's order: workload, title, what it is,
# the op stream's mix whose bytes per timer go with it.
SHAPES = (
    ("timeouts", "Timeouts that are almost always cancelled",
     "the kernel's common case (network and I/O timeouts): re-armed or deleted long before they are due", "s"),
    ("expiring", "Short timers that expire", "1..64 jiffies, every timer runs", "s"),
    ("long", "Long timers", "256..2^20 jiffies", "u"),
    ("burst", "Bursts: many timers due at once",
     "every timer due in one jiffy (one tv2 slot of the classic wheel)", None),
    ("mixed", "Mixed traffic", "6/10 timeouts, 2/10 expiring, 2/10 long", "u"),
)
KERNEL = ("timer_list", "timer_list_b", "hrtimer")


def figure(r, col):
    """A row's figure of col as a dict N, v, lo, hi (lo, hi None when the
    file has no interval); op ns falls back on add + mod + del ns."""
    v = num(r.get(col))
    lo, hi = num(r.get(col + "_lo")), num(r.get(col + "_hi"))
    if col == "op ns" and v is None:
        parts = [num(r.get(c)) for c in OP_COLS]
        v = sum(parts) if None not in parts else None
    return {"N": r["N"], "v": v, "lo": lo, "hi": hi, "who": r["engine"]}


def ranked(a, b):
    """rank() on two figures; "n/i" when either has no interval."""
    if a["lo"] is None or b["lo"] is None:
        return "n/i" if str(a["N"]) == str(b["N"]) else None
    return rank(a, b)


def show(f, scale=1.0):
    """A figure as "v [lo..hi]" (scaled: ns to us with 1000)."""
    if f["v"] is None:
        return "n/a"

    def g(x):
        return fmt(x / scale) if scale == 1.0 else "%.1f" % (x / scale)
    if f["lo"] is None:
        return g(f["v"])
    return "%s [%s..%s]" % (g(f["v"]), g(f["lo"]), g(f["hi"]))


def main_n(rows):
    """The N most runners of a workload ran at (ties: the largest)."""
    count = {}
    for r in rows:
        count[r["N"]] = count.get(r["N"], 0) + 1
    return max(count, key=lambda n: (count[n], num(n) or 0))


def stream_bytes(stream, engine, mix):
    """bytes per timer of an engine in stream.csv at 10000 pending."""
    for r in stream:
        if r.get("engine") == engine and r.get("mix") == mix and r.get("pending") == "10000":
            return r.get("bytes per timer")
    return None


def stream_ir(stream, mix):
    """(engine, Ir of an add, a del, a mod and a fired timer) of stream.csv
    at 10000 pending, the cheapest first."""
    out = []
    for r in stream:
        if r.get("mix") != mix or r.get("pending") != "10000":
            continue
        v = [num(r.get(c)) for c in ("add Ir", "del Ir", "mod Ir", "Ir per fired")]
        if None not in v:
            out.append((r["engine"], sum(v)))
    return sorted(out, key=lambda x: (x[1], x[0]))


def decide(rows, exact, floor=0.0):
    """The decision for one workload's rows at one N: a dict with pick
    (a figure or None), tied (names), up (runner-up figure), tl
    (timer_list's figure), why (text when nothing is picked).

    floor: the run's A/A difference of op ns at that workload and N, per
    cent: the engines whose median lies within it of the cheapest tie
    with it too, even where their intervals (a few rounds) do not overlap.
    """
    figs = [figure(r, "op ns") for r in rows if r["engine"] in exact]
    figs = [f for f in figs if f["v"] is not None]
    # A row with no interval beside rows with one had every round left
    # out (reps 0: the guard stopped it, ...): read, never ranked.
    if any(f["lo"] is not None for f in figs):
        figs = [f for f in figs if f["lo"] is not None]
    figs.sort(key=lambda f: f["v"])
    tl = [figure(r, "op ns") for r in rows if r["engine"] == "timer_list"]
    out = {"pick": None, "tied": [], "up": None, "tl": tl[0] if tl else None, "why": ""}
    if not figs:
        out["why"] = "no exact engine measured"
        return out
    best = figs[0]
    if best["lo"] is None:
        out["why"] = "not ranked: one round, no interval"
        out["tied"] = sorted(f["who"] for f in figs)
        return out
    tied = sorted(f["who"] for f in figs if ranked(best, f) == "tie")
    if len(tied) > 1:
        out["tied"] = tied
        out["why"] = "tie: their op ns intervals overlap"
        return out
    near = sorted(f["who"] for f in figs if 100.0 * (f["v"] - best["v"]) / best["v"] <= floor)
    if len(near) > 1:
        out["tied"] = near
        out["why"] = "tie: within the A/A noise floor (%.1f %%)" % floor
        return out
    out["pick"] = best
    out["up"] = figs[1] if len(figs) > 1 else None
    return out


def floors(rows):
    """The A/A difference of op ns per (workload, N), per cent (absolute)."""
    out = {}
    for wl, n, d, _, _ in noise(rows):
        if "op ns" in d and d["op ns"][2] is not None:
            out[(wl, n)] = abs(d["op ns"][2])
    return out


def pct(a, b):
    """a against b, per cent with one decimal."""
    return "%+.1f %%" % (100.0 * (a - b) / b) if b else "n/a"


def choosing(dirname):
    """docs/choosing.md from the files of a results directory, as text."""
    _, rows = read_csv(dirname + "/compare.csv")
    rows = [r for r in rows if r.get("engine")]
    stream = read_csv(dirname + "/stream.csv")[1] if os.path.exists(dirname + "/stream.csv") else []
    replay = read_csv(dirname + "/replay.csv")[1] if os.path.exists(dirname + "/replay.csv") else []
    prov = ""
    if os.path.exists(dirname + "/compare.md"):
        with open(dirname + "/compare.md") as f:
            prov = f.readline().strip()
    clocks = sorted({r["clock"] for r in rows if r.get("clock")})
    if clocks:
        clock = ", ".join(clocks)
    else:
        clock = "icount" if "--clock=icount" in prov else "wall"
    clock_text = {"icount": "the instruction clock (QEMU -icount shift=0: one guest ns is one guest instruction)",
                  "wall": "the wall clock (QEMU TCG: emulated-CPU ns, which move with the host's load)",
                  "host": "this machine's own clock"}.get(clock, clock)
    reps = sorted({r.get("reps") for r in rows if r.get("reps") not in (None, "", "0")},
                  key=int)
    none_count = ["%s on %s" % (r["engine"], r["workload"]) for r in rows
                  if r.get("reps") == "0"]
    has_iv = any(r.get("op ns_lo") not in (None, "", "n/a") for r in rows)
    exact = set(exact_engines())
    o = []
    o.append("# Choosing a structure for a workload")
    o.append("")
    o.append("Generated by `scripts/results.py choosing results/ > docs/choosing.md` (also")
    o.append("`scripts/choosing.sh results/`) from the files of [results/](../results/README.md);")
    o.append("do not edit it by hand: make check fails when it differs from what the script")
    o.append("writes from results/.")
    o.append("")
    o.append("Clock: %s." % clock_text)
    if prov:
        o.append("The guest's figures: %s" % prov)
    if has_iv:
        o.append("Every guest figure is the median of the rounds that count (%s rounds), "
                 "with its interval, the min..max of those rounds [lo..hi]. Two structures "
                 "are ranked only when their intervals do not overlap, else they tie; runs "
                 "of different N are never ranked against each other.%s"
                 % ("/".join(reps) or "no",
                    (" No round counts for %s (each lost ticks or ops, or admission changed "
                     "its load: rounds.csv says which): not ranked." % ", ".join(none_count))
                    if none_count else ""))
    else:
        o.append("These files hold one round per figure and no interval: nothing below is "
                 "ranked on the guest's ns (a figure alone cannot say whether it is told "
                 "apart from the run's noise). `make compare` now measures rounds; rerun it "
                 "to rank. Runs of different N are never ranked against each other.")
    o.append("Cost is an add, a mod and a del (op ns: their sum in the same round); "
             "exact engines (scripts/engines.sh --exact) run every timer at its jiffy. "
             "The kernel's runners: timer_list (timer_setup, mod_timer) and hrtimer, a "
             "soft-mode hrtimer (HRTIMER_MODE_REL_SOFT: its callback in HRTIMER_SOFTIRQ, "
             "not in hard interrupt context).")
    o.append("")
    o.append("## Decision table")
    o.append("")
    o.append("| traffic | use | its cost, op ns | against the runner-up | against timer_list | what you give up |")
    o.append("|---|---|---:|---|---|---|")
    tables = []
    for wl, title, what, mix in SHAPES:
        wr = [r for r in rows if r["workload"] == wl]
        if not wr:
            continue
        n = main_n(wr)
        at = [r for r in wr if r["N"] == n]
        d = decide(at, exact, floors(rows).get((wl, n), 0.0))
        link = "[%s](#%s)" % (wl, title.lower().replace(" ", "-").replace(":", "").replace(",", ""))
        if d["pick"] is None:
            use = "; ".join(d["tied"][:6]) + (" ..." if len(d["tied"]) > 6 else "")
            o.append("| %s (N=%s) | %s: %s | - | - | - | - |" % (link, n, d["why"], use or "-"))
        else:
            p, up, tl = d["pick"], d["up"], d["tl"]
            prow = [r for r in at if r["engine"] == p["who"]][0]
            vs_up = "-"
            if up:
                vs_up = "%s %s: %s" % (up["who"], show(up), pct(p["v"], up["v"]))
            vs_tl = "-"
            if tl and tl["v"]:
                vs_tl = "%s: %s" % (show(tl), pct(p["v"], tl["v"]))
            give = []
            ticks = [(figure(r, "tick max ns"), r["engine"]) for r in at if r["engine"] in exact]
            ticks = [t for t in ticks if t[0]["v"] is not None]
            mine = figure(prow, "tick max ns")
            if ticks and mine["v"] is not None:
                low = min(ticks, key=lambda t: t[0]["v"])
                if low[1] != p["who"] and ranked(low[0], mine) == "<":
                    give.append("worst tick %s us against %s's %s us" % (show(mine, 1000), low[1], show(low[0], 1000)))
                else:
                    give.append("worst tick %s us (none lower apart)" % show(mine, 1000))
            b = stream_bytes(stream, p["who"], mix) if mix else None
            if b:
                give.append("%s bytes per timer (op stream, mix %s)" % (b, mix))
            o.append("| %s (N=%s) | %s | %s | %s | %s | %s |" % (link, n, p["who"], show(p), vs_up, vs_tl, "; ".join(give)))
        tables.append((wl, title, what, n, wr))
    for tr in sorted({r["trace"] for r in replay}):
        tl = [r for r in replay if r["trace"] == tr and r["stream"] == "timer_list" and r["engine"] != "kernel"]
        tl = [r for r in tl if num(r.get("ir_op")) is not None]
        ex = sorted([r for r in tl if r.get("exact") == "yes"], key=lambda r: num(r["ir_op"]))
        if len(ex) >= 2:
            a, b = ex[0], ex[1]
            o.append("| real trace %s, timer_list stream | %s | %s Ir/op | %s %s Ir/op: %s | - | Ir counts (callgrind): exact for one build; the compiler is not recorded in replay.csv |"
                     % (tr, a["engine"], a["ir_op"], b["engine"], b["ir_op"], pct(num(a["ir_op"]), num(b["ir_op"]))))
    o.append("")
    o.append("(use: the cheapest exact engine by op ns when its interval is apart from every "
             "other exact engine's at the same N and its median below the others' by more "
             "than the run's A/A difference of op ns; else the tie is named. Real traces: "
             "instructions per op from replay.csv, one deterministic count per engine.)")
    for wl, title, what, n, wr in tables:
        o.append("")
        o.append("## " + title)
        o.append("")
        o.append("The `%s` workload: %s." % (wl, what))
        mix = [m for w, _, _, m in SHAPES if w == wl][0]
        ir = stream_ir(stream, mix)
        if ir:
            o.append("")
            o.append("Instructions (callgrind's Ir, one deterministic count per engine; the op "
                     "stream of stream.csv, mix %s, 10000 pending: an add, a del, a mod and a "
                     "fired timer together): %s." % (mix, ", ".join(
                         "%s %.1f%s" % (e, v, "" if e in exact else " (not exact)") for e, v in ir)))
        for N in sorted({r["N"] for r in wr}, key=lambda x: -(num(x) or 0)):
            at = [r for r in wr if r["N"] == N]
            figs = sorted(at, key=lambda r: figure(r, "op ns")["v"] if figure(r, "op ns")["v"] is not None else 1e18)
            best = [figure(r, "op ns") for r in figs if r["engine"] in exact]
            best = best[0] if best else None
            o.append("")
            o.append("N=%s%s:" % (N, "" if N == n else " (not ranked against N=%s)" % n))
            o.append("")
            o.append("| runner | exact | op ns | add / mod / del ns | x timer_list | worst tick us | late p50 / p99 / max j | reps | against the lowest median (%s) |" % (best["who"] if best else "-"))
            o.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
            for r in figs:
                f = figure(r, "op ns")
                vs = "-"
                if best and r["engine"] != best["who"]:
                    k = ranked(best, f)
                    vs = {"<": "dearer", ">": "cheaper", "tie": "tie", "n/i": "no interval"}.get(k, "-")
                o.append("| %s | %s | %s | %s / %s / %s | %s | %s | %s / %s / %s | %s | %s |" % (
                    r["engine"], "yes" if r["engine"] in exact else "no", show(f),
                    r.get("add ns"), r.get("mod ns"), r.get("del ns"), r.get(RATIO_OPS, "n/a"),
                    show(figure(r, "tick max ns"), 1000), r.get("late p50 j"), r.get("late p99 j"),
                    r.get("late max j"), r.get("reps") or "1", vs))
        o.append("")
        o.append("\n".join(noise_lines([r for r in wr])))
    if replay:
        o += replay_section(replay)
    smp_path = dirname + "/smp.csv"
    if os.path.exists(smp_path):
        o += smp_section(read_csv(smp_path)[1])
    o.append("")
    o.append("The other files: [smp.csv](../results/smp.csv) (per-CPU against shared instances), "
             "[stream.csv](../results/stream.csv) (the op stream's instructions and bytes), "
             "[replay.csv](../results/replay.csv) (the shipped traces); how to read them: "
             "[results/README.md](../results/README.md).")
    return "\n".join(o) + "\n"


def replay_section(replay):
    """The shipped real traces: each engine's Ir/op on each stream."""
    o = ["", "## The shipped real traces", "",
         "The traces of userspace/replay/traces/ replayed through every engine in user "
         "space ([replay.csv](../results/replay.csv)): Ir/op is callgrind's count of "
         "instructions per add, mod, del and expiry, one deterministic count per engine "
         "and build (the compiler is not recorded in replay.csv); exact: every timer it "
         "took ran at its tick; refused: arms beyond the engine's range.", ""]
    o.append("| trace | stream | engine | exact on the trace | Ir/op | refused | late p50 / p99 / max |")
    o.append("|---|---|---|---|---:|---:|---:|")
    key = lambda r: (r["trace"], r["stream"] != "timer_list", r["engine"] == "kernel",
                     num(r.get("ir_op")) or 0, r["engine"])
    for r in sorted(replay, key=key):
        o.append("| %s | %s | %s | %s | %s | %s | %s / %s / %s %s |" % (
            r["trace"], r["stream"], r["engine"] if r["engine"] != "kernel" else "kernel (trace)",
            r.get("exact") or "-", r.get("ir_op") or "-", r.get("refused") or "-",
            r.get("late_p50"), r.get("late_p99"), r.get("late_max"), r.get("late_unit")))
    return o


# ---- smp.csv: the SMP section's rounds to medians ----

SMP_KEY = ("percpu", "remote", "runner", "cpus", "pass")
# every ns column, and the shares, with the rounds' min..max
SMP_SPREAD = ("op_ns", "ops_per_s", "contended_pct", "wait_p99_ns", "per_op_cont", "per_op_wait_ns",
              "per_remote_op_cont", "per_remote_op_wait_ns")
SMP_WORST = ("runs_early", "nested")


def decimals(cells):
    """The most decimals among the numeric cells (the medians keep them)."""
    return max([len(c.split(".")[1]) if "." in c else 0 for c in cells if num(c) is not None] or [0])


def smp_left_out(rows):
    """Each round row's reason not to count ("" if it counts): admission
    changed its load, or its runner ran fewer activity ops than
    LOST_OPS_SHARE of the most that configuration ran in any round (the
    guest lost ticks, or the runner lost ops)."""
    most = {}
    for r in rows:
        k = tuple(r[c] for c in SMP_KEY)
        most[k] = max(most.get(k, 0), num(r["ops"]) or 0)
    why = []
    for r in rows:
        if r.get("admission", "-") not in ("-", ""):
            why.append("admission " + r["admission"])
        elif (num(r["ops"]) or 0) < LOST_OPS_SHARE * most[tuple(r[c] for c in SMP_KEY)]:
            why.append("lost ops")
        else:
            why.append("")
    return why


def smp_medians(cols, rows, clock="wall"):
    """smp.csv's columns and rows from the rounds' (smp-rounds.csv)."""
    why = smp_left_out(rows)
    groups = {}
    for r, w in zip(rows, why):
        groups.setdefault(tuple(r[c] for c in SMP_KEY), []).append((r, w))
    vals = [c for c in cols if c not in SMP_KEY + ("round", "admission")]
    out_cols = list(SMP_KEY) + ["reps", "excluded", "clock"]
    for c in vals:
        out_cols.append(c)
        if c in SMP_SPREAD:
            out_cols += [c + "_lo", c + "_hi"]
    out = []
    for k, members in groups.items():
        counted = [r for r, w in members if not w]
        o = dict(zip(SMP_KEY, k))
        o["reps"] = str(len(counted))
        o["excluded"] = str(len(members) - len(counted))
        o["clock"] = clock
        for c in vals:
            src = [m for m, _ in members] if c in SMP_WORST else counted
            cells = [r[c] for r in src]
            nums = [num(x) for x in cells if num(x) is not None]
            if not nums:
                o[c] = "-"
                if c in SMP_SPREAD:
                    o[c + "_lo"] = o[c + "_hi"] = "-"
                continue
            d = decimals(cells)
            f = lambda v, d=d: "%.*f" % (d, v)
            o[c] = f(max(nums) if c in SMP_WORST else median(nums))
            if c in SMP_SPREAD:
                lo, hi = interval(nums)
                o[c + "_lo"], o[c + "_hi"] = f(lo), f(hi)
        out.append(o)
    return out_cols, out


def cmd_smp(args):
    clock = "wall"
    if len(args) == 3 and args[1] == "--clock":
        clock = args[2]
        args = args[:1]
    if len(args) != 1:
        sys.exit("usage: results.py smp SMP_ROUNDS_CSV [--clock CLOCK]")
    cols, rows = read_csv(args[0])
    missing = [c for c in SMP_KEY + ("round", "ops", "op_ns") if c not in cols]
    if missing:
        sys.exit("results.py smp: %s has no column %s" % (args[0], ", ".join(missing)))
    out_cols, out = smp_medians(cols, rows, clock)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(out_cols)
    for r in out:
        w.writerow([r.get(c, "") for c in out_cols])


def smp_section(smp):
    """Per-CPU against shared instances, from smp.csv (medians of rounds):
    the A/A line, and each percpu=1 figure against percpu=0's, called
    apart only when their intervals do not overlap and the difference is
    larger than the A/A difference of that boot."""
    o = ["", "## Per-CPU instances or one shared instance", "",
         "What an instance per CPU (percpu=1) costs against one instance every CPU "
         "shares (percpu=0), at remote= per cent of each CPU's ops on another CPU's "
         "timers ([smp.csv](../results/smp.csv), drawn in [smp.png](../results/smp.png), "
         "from `scripts/compare-smp.sh`, %s clock). Under multi-threaded TCG on a 2-core "
         "host each vCPU is a host thread sharing the cores with QEMU's own: the counters "
         "(acquisitions, remote ops, migrations) are exact, while ns per op and ns waited "
         "follow how the host schedules those threads (the A/A line below gives the size "
         "of that)." % ((smp[0].get("clock") if smp else None) or "wall")]
    if not smp or "pass" not in smp[0]:
        o.append("One boot per configuration and no interval: nothing here is ranked.")
        return o
    a_rows = {tuple(r[c] for c in ("percpu", "remote", "runner", "cpus")): r
              for r in smp if r["pass"] == "a"}
    floor, aa = {}, []
    for r in smp:
        if r["pass"] != "b":
            continue
        a = a_rows.get((r["percpu"], r["remote"], r["runner"], r["cpus"]))
        va, vb = num(a and a["op_ns"]), num(r["op_ns"])
        if va and vb:
            d = abs(100.0 * (vb - va) / va)
            floor[r["cpus"]] = max(floor.get(r["cpus"], 0.0), d)
            aa.append("%s vCPU %s: %s [%s..%s] against %s [%s..%s] ns/op (%s)" % (
                r["cpus"], r["runner"], a["op_ns"], a["op_ns_lo"], a["op_ns_hi"],
                r["op_ns"], r["op_ns_lo"], r["op_ns_hi"], pct(vb, va)))
    reps = sorted({r["reps"] for r in smp}, key=lambda x: int(x))
    excl = sum(int(r["excluded"] or 0) for r in smp)
    o.append("Each figure is the median of the rounds that count (%s a configuration; %d "
             "left out: smp-rounds.csv says why), its interval the min..max of those "
             "rounds." % (", ".join(reps), excl))
    if aa:
        o.append("A/A control: percpu=1 remote=0 measured twice in every round (pass b): "
                 + "; ".join(aa) + ". A percpu=1 figure is called cheaper or dearer than "
                 "percpu=0's only when their intervals do not overlap and they differ by "
                 "more than the largest A/A difference of that boot (%s); else \"tie\"." % (
                     ", ".join("%s vCPU %.1f %%" % (c, floor[c]) for c in sorted(floor))))
    o += ["", "| vCPUs | percpu | remote | runner | ns/op | min..max | rounds | contended % "
          "| ops/s | percpu=1 against percpu=0 |",
          "|---:|---:|---:|---|---:|---:|---:|---:|---:|---|"]
    told = []
    for r in smp:
        if r["pass"] != "a":
            continue
        verdict = ""
        base = a_rows.get(("0", r["remote"], r["runner"], r["cpus"]))
        if r["percpu"] == "1" and base:
            v1, v0 = num(r["op_ns"]), num(base["op_ns"])
            lo1, hi1 = num(r["op_ns_lo"]), num(r["op_ns_hi"])
            lo0, hi0 = num(base["op_ns_lo"]), num(base["op_ns_hi"])
            if None in (v1, v0, lo1, hi1, lo0, hi0) or r["cpus"] not in floor:
                verdict = "n/a"
            elif abs(100.0 * (v1 - v0) / v0) <= floor[r["cpus"]] or not (hi1 < lo0 or hi0 < lo1):
                verdict = "tie (%s)" % pct(v1, v0)
            else:
                verdict = "%s (%s)" % ("cheaper" if v1 < v0 else "dearer", pct(v1, v0))
        o.append("| %s | %s | %s | %s | %s | %s..%s | %s | %s | %s | %s |" % (
            r["cpus"], r["percpu"], r["remote"], r["runner"], r["op_ns"], r["op_ns_lo"],
            r["op_ns_hi"], r["reps"], r.get("contended_pct") or "-", r.get("ops_per_s"), verdict))
        if verdict:
            told.append(verdict.split()[0])
    o += smp_locks(smp, a_rows)
    apart = [v for v in told if v in ("cheaper", "dearer")]
    o += ["", "%d of the %d percpu=1 figures told apart from percpu=0's (%d cheaper, %d dearer)%s" % (
        len(apart), len(told), apart.count("cheaper"), apart.count("dearer"),
        ": below the A/A difference, what per-CPU instances change here is not told apart "
        "from the run's own spread." if told and not apart else ".")]
    return o


def smp_locks(smp, a_rows):
    """The engines' lock counters per op, percpu=0 against percpu=1 at
    each remote share (counted, not timed: what this section can show
    apart from the wall clock's spread); wait ns with their min..max."""
    rows = [r for r in smp if r["pass"] == "a" and r["percpu"] == "1" and r["runner"] != "timer_list"
            and num(r["cpus"]) and num(r["cpus"]) >= 2 and r.get("per_op_wait_ns_lo")]
    if not rows:
        return []
    o = ["", "The engines' own locks, per activity op (counted on the acquiring CPU: "
         "acquisitions, contended ones, ns waited with the rounds' min..max), one shared "
         "instance against one per CPU:", "",
         "| vCPUs | remote | runner | acquired 0 / 1 | contended 0 / 1 | wait ns percpu=0 | "
         "wait ns percpu=1 | per-CPU waits |", "|---:|---:|---|---:|---:|---:|---:|---|"]
    for r in rows:
        b = a_rows.get(("0", r["remote"], r["runner"], r["cpus"]))
        if not b or not b.get("per_op_wait_ns_lo"):
            continue
        w1, w0 = num(r["per_op_wait_ns"]), num(b["per_op_wait_ns"])
        lo1, hi1 = num(r["per_op_wait_ns_lo"]), num(r["per_op_wait_ns_hi"])
        lo0, hi0 = num(b["per_op_wait_ns_lo"]), num(b["per_op_wait_ns_hi"])
        if None in (w1, w0, lo1, hi1, lo0, hi0):
            v = "n/a"
        elif hi1 < lo0:
            v = "less"
        elif hi0 < lo1:
            v = "more"
        else:
            v = "tie"
        o.append("| %s | %s | %s | %s / %s | %s / %s | %s [%s..%s] | %s [%s..%s] | %s |" % (
            r["cpus"], r["remote"], r["runner"], b["per_op_acq"], r["per_op_acq"],
            b["per_op_cont"], r["per_op_cont"], b["per_op_wait_ns"], b["per_op_wait_ns_lo"],
            b["per_op_wait_ns_hi"], r["per_op_wait_ns"], r["per_op_wait_ns_lo"],
            r["per_op_wait_ns_hi"], v))
    return o


def exact_engines():
    """The exact engines, as scripts/engines.sh --exact names them."""
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([os.path.join(here, "engines.sh"), "--exact"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def cmd_choosing(args):
    if len(args) != 1:
        sys.exit("usage: results.py choosing RESULTS_DIR")
    sys.stdout.write(choosing(args[0].rstrip("/")))


# ---- results/README.md ----

# Each file of a results directory: what it holds and what writes it.
FILES = (
    ("summary.md", "the run in one table per question: every workload on every runner (medians of the rounds), the A/A line, the scale sweep, the shadow and the trace replay", "scripts/compare.sh"),
    ("compare.md", "every column of debugfs `compare`, the medians of the rounds, with the run's provenance line and the A/A line", "scripts/compare.sh"),
    ("compare.csv", "one row per workload, N and runner: each column the median of the rounds that count; every ns, us and j column with `<column>_lo` and `<column>_hi`, the min..max of those rounds; `op ns` (add + mod + del of one round: median, lo, hi); `reps` (rounds counted), `excluded` (rounds left out), `clock`; early, late max j and cascaded max the worst of every round, counted or not; timer_list_b is timer_list measured again in the other pass of each round (the A/A control)", "scripts/results.py rounds"),
    ("rounds.csv", "every round's row of every runner: round, pass, the module's columns, and `left out` (why a row does not count: admission lowered or forced its count, the overload guard stopped the ops, it lost ops or ticks)", "scripts/results.py rounds"),
    ("sweep.csv", "the scale sweep: one runner per load, N pending timers re-armed as they run, add ns and tick ns per run by N", "scripts/compare.sh"),
    ("hist.csv", "the first round's busy-tick and lateness histograms per workload and runner (log2 buckets: floor ns, count)", "scripts/compare.sh"),
    ("stream.csv", "the op stream in user space: callgrind's Ir per add, del, mod, empty tick and fired timer (exact for one build), native ns (indicative) and bytes per timer, per engine, mix and size", "scripts/stream-csv.sh"),
    ("replay.csv", "the shipped real traces replayed through every engine in user space: Ir per op, lateness, refusals, the placement oracle", "scripts/replay-csv.sh"),
    ("replay.md", "the replay's provenance line and table", "scripts/replay-csv.sh"),
    ("shadow.csv", "the live shadow: the kernel's own timer_list traffic mirrored into every engine, one row per engine and the kernel's", "scripts/compare.sh"),
    ("shadow.md", "the shadow's table, each engine against the kernel", "scripts/compare.sh"),
    ("smp.csv", "percpu=0 against percpu=1 at remote=0..90 on 2 vCPUs and remote=0 on 1: ns an op, lock contention, remote ops, migrations; the medians of the rounds, every ns column and share with `_lo` and `_hi` (min..max), `reps`, `excluded`, `clock`; pass b is the A/A control (percpu=1 remote=0 again in each round)", "scripts/results.py smp"),
    ("smp-rounds.csv", "every round's row of the SMP section (round, pass, admission)", "scripts/compare-smp.sh"),
    ("pull.md", "per-CPU ticks under tick=nohz, pull=0 against pull=1, one migrator at a time, deferrable timers waking none; at 2 vCPUs, and at 4 with two levels of groups", "scripts/compare-smp.sh (scripts/guest/pull.sh)"),
    ("capabilities.md", "the burst's worst ticks without and with budget=, slack=0 against slack=10, tick=nohz against periodic", "scripts/compare.sh (scripts/guest/capabilities.sh, nohz.sh)"),
    ("ops.png", "op cost: ns per add, mod and del, every runner on every workload", "scripts/plots.sh"),
    ("tick.png", "tick cost: busy tick p99 and worst busy tick", "scripts/plots.sh"),
    ("burst.png", "the burst: worst cascade and worst busy tick", "scripts/plots.sh"),
    ("lateness.png", "the CCDF of lateness per workload, from hist.csv", "scripts/plots.sh"),
    ("sweep.png", "the scale sweep, from sweep.csv", "scripts/plots.sh"),
    ("replay.png", "the shipped traces' Ir per op and modern's lateness against the kernel's", "scripts/plots.sh"),
    ("smp.png", "ns an op against remote=, from smp.csv", "scripts/plots.sh"),
)

# The same files as a run before the rounds (one round, no interval) wrote them.
BEFORE_ROUNDS = {
    "summary.md": "the run in one table per question: every workload on every runner (one round), the scale sweep, the shadow and the trace replay",
    "compare.md": "every column of debugfs `compare` (one round), with the run's provenance line",
    "compare.csv": "one row per workload, N and runner, as debugfs `compare` printed it: one round, written before the rounds (no interval, reps or clock column)",
    "hist.csv": "the run's busy-tick and lateness histograms per workload and runner (log2 buckets: floor ns, count)",
}


def readme(dirname):
    """results/README.md from the files of a results directory, as text."""
    have = set(os.listdir(dirname))
    o = ["# Results", "",
         "The files beside this one, what each holds and what writes it. `make compare` "
         "(scripts/compare.sh) rewrites them all but stream.csv (scripts/stream-csv.sh); "
         "this file is written from them by `scripts/results.py readme results/ > "
         "results/README.md`, so every figure below is counted from the files. Which "
         "structure they suggest for which traffic: [docs/choosing.md](../docs/choosing.md). "
         "Earlier runs and measurements: `git log -p -- results/`.", ""]
    prov = ""
    if "compare.md" in have:
        with open(os.path.join(dirname, "compare.md")) as f:
            prov = f.readline().strip()
    if prov:
        o += ["Provenance of the guest's files: " + prov, ""]
    rounds = False
    if "compare.csv" in have:
        rounds = "op ns_lo" in read_csv(os.path.join(dirname, "compare.csv"))[0]
    o += ["## The files", "", "| file | what it holds | written by |", "|---|---|---|"]
    for name, what, by in FILES:
        if name not in have:
            continue
        if not rounds and name in BEFORE_ROUNDS:
            what = BEFORE_ROUNDS[name]
            by = "scripts/compare.sh"
        o.append("| [%s](%s) | %s | %s |" % (name, name, what, by))
    o.append("")
    if "compare.csv" in have:
        cols, rows = read_csv(os.path.join(dirname, "compare.csv"))
        wls = []
        for r in rows:
            if r["workload"] not in wls:
                wls.append(r["workload"])
        runners = sorted({r["engine"] for r in rows})
        reps = sorted({r["reps"] for r in rows if r.get("reps")}, key=lambda x: int(x))
        clocks = sorted({r["clock"] for r in rows if r.get("clock")})
        o.append("## compare.csv")
        o.append("")
        o.append("%d rows: %d workloads (%s) on %d runners." % (len(rows), len(wls), ", ".join(wls), len(runners)))
        if reps:
            excl = sum(int(r.get("excluded") or 0) for r in rows)
            o.append("Rounds counted per row: %s; rounds left out: %d (why: rounds.csv); clock: %s." % (
                ", ".join(reps), excl, ", ".join(clocks) or "not recorded"))
        else:
            o.append("One round per row and no interval (written before the rounds): "
                     "its figures are not ranked against each other (docs/choosing.md).")
        o.append("")
        o += noise_lines(rows)
        o.append("")
    if "smp.csv" in have:
        _, smp = read_csv(os.path.join(dirname, "smp.csv"))
        o += ["## smp.csv", "", "%d rows: %s vCPU boots." % (
            len(smp), " and ".join(sorted({r["cpus"] for r in smp}, reverse=True)))]
        sec = smp_section(smp)
        o += [l for l in sec if l.startswith(("A/A control", "Each figure is the median", "One boot"))]
        o.append("")
    if "sweep.csv" in have:
        _, sw = read_csv(os.path.join(dirname, "sweep.csv"))
        ns = sorted({r["N"] for r in sw}, key=lambda x: num(x) or 0)
        o += ["## sweep.csv", "", "%d rows: N = %s, %d runners." % (
            len(sw), ", ".join(ns), len({r["engine"] for r in sw})), ""]
    if "stream.csv" in have:
        _, st = read_csv(os.path.join(dirname, "stream.csv"))
        o += ["## User-space benchmarks", "",
              "stream.csv: %d rows, %d engines, mixes %s, %s pending timers." % (
                  len(st), len({r["engine"] for r in st}), " and ".join(sorted({r["mix"] for r in st})),
                  ", ".join(sorted({r["pending"] for r in st}, key=lambda x: num(x) or 0))), ""]
    if "capabilities.md" in have:
        o += ["## Capabilities", "", "capabilities.md: the tables of the run's "
              "scripts/guest/capabilities.sh (and nohz.sh in a full run), under their titles.", ""]
    if "shadow.csv" in have:
        _, sh = read_csv(os.path.join(dirname, "shadow.csv"))
        o += ["## The live shadow", "", "shadow.csv: %d rows (%d engines and the kernel's)." % (
            len(sh), len([r for r in sh if r.get("engine") != "shadow"])), ""]
    if "replay.csv" in have:
        _, rp = read_csv(os.path.join(dirname, "replay.csv"))
        o += ["## Trace replay", "", "replay.csv: %d rows, traces %s, streams %s." % (
            len(rp), ", ".join(sorted({r["trace"] for r in rp})),
            ", ".join(sorted({r["stream"] for r in rp}))), ""]
    o += ["## Other dated measurements", "",
          "None kept here: this file describes the files beside it. Earlier runs and "
          "one-off measurements are in git history (`git log -p -- results/README.md`)."]
    return "\n".join(o) + "\n"


def cmd_readme(args):
    if len(args) != 1:
        sys.exit("usage: results.py readme RESULTS_DIR")
    sys.stdout.write(readme(args[0].rstrip("/")))


def check_choosing(doc, rows, exact):
    """The problems of a guide's decision table against compare.csv rows:
    a pick whose op ns interval touches another exact engine's at its N,
    a pick without an interval, a pick at an N the workload did not run."""
    bad = []
    on = False
    floor = floors(rows)
    for line in doc.splitlines():
        if line.startswith("## "):
            on = line == "## Decision table"
            continue
        if not on or not line.startswith("| ["):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        wl = cells[0][1:cells[0].index("]")]
        n = cells[0][cells[0].find("(N=") + 3:cells[0].rfind(")")] if "(N=" in cells[0] else None
        use = cells[1]
        at = [r for r in rows if r["workload"] == wl and r["N"] == n]
        mine = [r for r in at if r["engine"] == use]
        if not mine:
            if use in {r["engine"] for r in rows}:
                bad.append("%s: %s picked at N=%s, which it did not run" % (wl, use, n))
            continue
        f = figure(mine[0], "op ns")
        if f["lo"] is None:
            bad.append("%s: %s picked without an interval" % (wl, use))
            continue
        for r in at:
            if r["engine"] == use or r["engine"] not in exact:
                continue
            g = figure(r, "op ns")
            if g["lo"] is None:
                continue	# every round left out: never ranked (decide())
            k = ranked(f, g)
            if k != "<":
                bad.append("%s N=%s: %s picked, but its op ns %s against %s's %s is %s" % (
                    wl, n, use, show(f), r["engine"], show(g), k or "not comparable"))
            elif g["v"] is not None and 100.0 * (g["v"] - f["v"]) / f["v"] <= floor.get((wl, n), 0.0):
                bad.append("%s N=%s: %s picked, but %s is within the A/A noise floor (%.1f %%)" % (
                    wl, n, use, r["engine"], floor[(wl, n)]))
    return bad


def cmd_check_choosing(args):
    if len(args) != 2:
        sys.exit("usage: results.py check-choosing RESULTS_DIR DOC")
    _, rows = read_csv(args[0].rstrip("/") + "/compare.csv")
    with open(args[1]) as f:
        bad = check_choosing(f.read(), rows, set(exact_engines()))
    for b in bad:
        print("check-choosing: " + b)
    sys.exit(1 if bad else 0)


AB_NS = ("add ns", "mod ns", "del ns")
AB_TICK = ("tick p50 ns", "tick p99 ns")
# A p99 needs 100 values to be other than the largest: below that many busy
# ticks "tick p99" is the run's worst tick, whose rounds differ by which
# timers happened to expire, and it is neither compared nor called noise.
P99_MIN_TICKS = 100


def p99_holds(*rows):
    """Whether every row's tick p99 comes from at least P99_MIN_TICKS busy
    ticks (a row without the column counts as holding)."""
    for r in rows:
        t = num(r.get("busy ticks"))
        if t is not None and t < P99_MIN_TICKS:
            return False
    return True


def ab_compare(a_rows, b_rows, ns_pct=2.0, tick_pct=5.0, engine=None):
    """The figures of two compare.csv files that differ by more than their
    bound: (lines, {kind: largest difference in per cent}, figures compared).
    Rows pair by workload, N and engine; a row in one file only is a line."""
    def key(r):
        return (r.get("workload"), r.get("N"), r.get("engine"))
    a = {key(r): r for r in a_rows if engine in (None, r.get("engine"))}
    b = {key(r): r for r in b_rows if engine in (None, r.get("engine"))}
    lines, worst, n = [], {"ns": 0.0, "tick": 0.0, "few": 0}, 0
    for k in sorted(set(a) | set(b), key=lambda k: tuple(str(x) for x in k)):
        if k not in a or k not in b:
            lines.append("%s N=%s %s: only in %s" % (k[0], k[1], k[2], "A" if k in a else "B"))
            continue
        for kind, cols, bound in (("ns", AB_NS, ns_pct), ("tick", AB_TICK, tick_pct)):
            for c in cols:
                va, vb = num(a[k].get(c)), num(b[k].get(c))
                if va is None and vb is None:
                    continue
                if c == "tick p99 ns" and not p99_holds(a[k], b[k]):
                    worst["few"] += 1
                    continue
                n += 1
                if va is None or vb is None or min(va, vb) <= 0:
                    if va != vb:
                        lines.append("%s N=%s %s %s: %s against %s" % (k + (c, a[k].get(c), b[k].get(c))))
                    continue
                d = abs(va - vb) / min(va, vb) * 100.0
                worst[kind] = max(worst[kind], d)
                if d > bound:
                    lines.append("%s N=%s %s %s: %s against %s, %.1f %% (bound %g %%)"
                                 % (k + (c, a[k].get(c), b[k].get(c), d, bound)))
    return lines, worst, n


def cmd_ab(args):
    ns_pct, tick_pct, engine, pos = 2.0, 5.0, None, []
    it = iter(args)
    try:
        for a in it:
            if a == "--ns":
                ns_pct = float(next(it))
            elif a == "--tick":
                tick_pct = float(next(it))
            elif a == "--engine":
                engine = next(it)
            else:
                pos.append(a)
    except (StopIteration, ValueError):
        pos = []
    if len(pos) != 2:
        sys.exit("usage: results.py ab A_CSV B_CSV [--ns PCT] [--tick PCT] [--engine NAME]")
    _, a_rows = read_csv(pos[0])
    _, b_rows = read_csv(pos[1])
    lines, worst, n = ab_compare(a_rows, b_rows, ns_pct, tick_pct, engine)
    for line in lines:
        print("ab: " + line)
    print("ab: %d figures compared; largest difference: add/mod/del ns %.1f %% (bound %g %%), "
          "tick p50/p99 %.1f %% (bound %g %%); %d off"
          % (n, worst["ns"], ns_pct, worst["tick"], tick_pct, len(lines)))
    if worst["few"]:
        print("ab: %d tick p99 figures not compared: under %d busy ticks, where p99 is the "
              "worst tick" % (worst["few"], P99_MIN_TICKS))
    sys.exit(1 if lines or n == 0 else 0)


def main(argv):
    cmds = {"rounds": cmd_rounds, "summarise": cmd_summarise, "noise": cmd_noise, "choosing": cmd_choosing,
            "readme": cmd_readme, "check-choosing": cmd_check_choosing, "ab": cmd_ab,
            "smp": cmd_smp}
    if len(argv) < 2 or argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    main(sys.argv)
