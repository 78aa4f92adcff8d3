#!/usr/bin/env python3
"""twheel's results pipeline: the rounds of a comparison run to medians.

scripts/guest/compare.sh runs every workload in rounds (--reps), each run
printed as its own compare table under an @@RUN line. This module reads
that output, marks the runs that cannot count, and writes, per workload,
N and runner, the median of the rounds and its interval.

    results.py rounds GUEST_OUT OUTDIR [--clock CLOCK] [--table FILE]
        OUTDIR/rounds.csv: every row of every round, with its round, pass,
        runner label (timer_list's second pass: timer_list_b) and, when it
        is left out, why; OUTDIR/compare.csv: the medians (below); --table:
        the same as a markdown table headed like the module's.
    results.py noise COMPARE_CSV
        The A/A control: timer_list against timer_list_b, the run's noise
        floor, a line per workload (printed under every table).

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

# A run lost ticks when its tick caught up more jiffies than this share of
# the run's jiffies (a catch-up of a few, as a burst's long tick needs,
# is not a loss).
LOST_TICKS_SHARE = 0.01
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


def left_out(run, runner, hz):
    """Why a runner's row of a run does not count ("" when it does)."""
    why = []
    if run.get("admission", "ok") != "ok":
        why.append("admission " + run["admission"])
    if (num(run.get("overload_stops")) or 0) > 0:
        why.append("overload guard stopped the ops")
    st = run["runners"].get(runner, {})
    ops = [num(s.get("activity_ops")) or 0 for s in run["runners"].values()]
    mine = num(st.get("activity_ops"))
    if ops and max(ops) > 0 and mine is not None and mine < LOST_OPS_SHARE * max(ops):
        why.append("lost ops (%d of %d)" % (mine, max(ops)))
    missed = num(st.get("missed_jiffies"))
    secs = num(run.get("secs"))
    if missed is not None and secs and hz and missed > LOST_TICKS_SHARE * secs * hz:
        why.append("lost ticks (%d missed jiffies)" % missed)
    return "; ".join(why)


def label(run, engine):
    """A row's runner: timer_list's second pass is the A/A twin."""
    if engine == "timer_list" and run.get("pass") == "b":
        return "timer_list_b"
    return engine


def round_rows(info, runs):
    """Every row of every run, labelled and marked: (columns, rows)."""
    hz = num(info.get("hz"))
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
            row["left out"] = left_out(run, r["engine"], hz)
            out.append(row)
    return cols, out


def summarise(cols, rows, clock):
    """The medians per workload, N and runner: (columns, rows).

    Rows that are left out count only in excluded and in the WORST
    columns. A group whose every row is left out has n/a figures, reps 0.
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
        row = {"workload": key[0], "N": key[1], "engine": key[2]}
        for c in value_cols + ["op ns"]:
            if c in (RATIO_OPS, RATIO_TICK):
                continue
            if c == "op ns":
                vals = [sum(num(r.get(o)) for o in OP_COLS) for r in ok
                        if all(num(r.get(o)) is not None for o in OP_COLS)]
            else:
                src = g if c in WORST else ok
                vals = [num(r.get(c)) for r in src if num(r.get(c)) is not None]
            if c in WORST:
                row[c] = fmt(max(vals)) if vals else "n/a"
            else:
                row[c] = fmt(median(vals)) if vals else "n/a"
            if has_interval(c):
                lo, hi = interval(vals) if vals else (None, None)
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
            if x is not None and y is not None:
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
                parts.append("%s %s / %s (%s)" % (c[:-3], fmt(x), fmt(y),
                             "n/a" if p is None else "%+.1f %%" % p))
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
              ["round", "pass"] + cols + ["left out"], rows)
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


def cmd_noise(args):
    if len(args) != 1:
        sys.exit("usage: results.py noise COMPARE_CSV")
    _, rows = read_csv(args[0])
    print("\n".join(noise_lines(rows)))


def main(argv):
    cmds = {"rounds": cmd_rounds, "noise": cmd_noise}
    if len(argv) < 2 or argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    main(sys.argv)
