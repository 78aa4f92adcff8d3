#!/usr/bin/env python3
"""Unit tests of scripts/results.py: the statistics, the marks that leave a
run out, the A/A control and the ranking rule, on exact values.

    python3 -m unittest discover -s scripts -p 'test_results.py'
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402


def fig(n, lo, hi):
    return {"N": n, "lo": lo, "hi": hi}


class Statistics(unittest.TestCase):
    def test_median_odd(self):
        self.assertEqual(results.median([5, 1, 3]), 3)

    def test_median_even_is_mean_of_middle(self):
        self.assertEqual(results.median([4, 1, 3, 10]), 3.5)

    def test_median_one(self):
        self.assertEqual(results.median([7]), 7)

    def test_median_empty_raises(self):
        with self.assertRaises(ValueError):
            results.median([])

    def test_interval_is_min_max(self):
        self.assertEqual(results.interval([170, 176, 168, 190, 171]), (168, 190))

    def test_coverage(self):
        self.assertEqual(results.coverage(3), 0.75)
        self.assertEqual(results.coverage(5), 0.9375)
        self.assertEqual(results.coverage(1), 0.0)

    def test_num(self):
        self.assertEqual(results.num("12"), 12.0)
        self.assertIsNone(results.num("n/a"))
        self.assertIsNone(results.num("-"))
        self.assertIsNone(results.num("inf"))

    def test_fmt(self):
        self.assertEqual(results.fmt(3.0), "3")
        self.assertEqual(results.fmt(3.5), "3.5")
        self.assertEqual(results.fmt(2.25), "2.2")
        self.assertEqual(results.fmt(None), "n/a")


class Ranking(unittest.TestCase):
    def test_apart(self):
        self.assertEqual(results.rank(fig(1000, 100, 110), fig(1000, 111, 120)), "<")
        self.assertEqual(results.rank(fig(1000, 111, 120), fig(1000, 100, 110)), ">")

    def test_overlap_is_tie(self):
        self.assertEqual(results.rank(fig(1000, 100, 115), fig(1000, 110, 120)), "tie")

    def test_touching_is_tie(self):
        self.assertEqual(results.rank(fig(1000, 100, 110), fig(1000, 110, 120)), "tie")

    def test_inside_is_tie(self):
        self.assertEqual(results.rank(fig(1000, 100, 200), fig(1000, 150, 160)), "tie")

    def test_different_n_never_ranked(self):
        self.assertIsNone(results.rank(fig(8192, 1, 2), fig(100000, 50, 60)))
        self.assertIsNone(results.rank(fig("8192", 1, 2), fig("10000", 50, 60)))

    def test_same_n_as_text_and_number(self):
        self.assertEqual(results.rank(fig("1000", 1, 2), fig("1000", 5, 6)), "<")


# A guest output of 3 rounds, 2 passes: classic beside timer_list in pass
# a, modern beside timer_list (reported timer_list_b) in pass b. Round 2's
# modern lost ops; round 3's pass a had its count lowered by admission.
COLS = "| workload | N | engine | add ns | mod ns | del ns | add/mod/del x timer_list | tick p99 ns | late max j | early |"
SEP = "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"


def run(rnd, pas, rows, adm="ok", ops=None, missed=None, stops=0):
    out = ["@@RUN round=%d pass=%s workload=timeouts count=1000 secs=3 admission=%s overload_stops=%d"
           % (rnd, pas, adm, stops)]
    for r in rows:
        e = r.split("|")[3].strip()
        out.append("@@RUNNER %s activity_ops=%d runs=9 missed_jiffies=%s"
                   % (e, (ops or {}).get(e, 1000), (missed or {}).get(e, "-")))
    out += ["@@COMPARE run", "# a header line", COLS, SEP] + rows + ["@@END"]
    return out


def row(e, add, mod, dl, t99, late=0, early=0, n=1000):
    return "| timeouts | %d | %s | %d | %d | %d | x | %d | %d | %d |" % (n, e, add, mod, dl, t99, late, early)


GUEST = "\n".join(
    ["@@INFO kernel=6.12 hz=250 cpus=1 mode=quick cpu=Q"]
    + run(1, "a", [row("classic", 100, 110, 90, 5000), row("timer_list", 300, 310, 170, 9000)])
    + run(1, "b", [row("modern", 120, 100, 95, 4000), row("timer_list", 306, 312, 168, 9100)],
          missed={"modern": 1})
    + run(2, "b", [row("modern", 500, 500, 500, 4000), row("timer_list", 302, 309, 171, 8800)],
          ops={"modern": 900})
    + run(2, "a", [row("classic", 104, 108, 92, 5200), row("timer_list", 298, 305, 175, 9050)])
    + run(3, "a", [row("classic", 900, 900, 900, 1, early=2, n=600), row("timer_list", 1, 1, 1, 1, n=600)],
          adm="lowered")
    + run(3, "b", [row("modern", 118, 104, 97, 4100), row("timer_list", 310, 300, 169, 9000)],
          missed={"modern": 8})
) + "\n"


class AB(unittest.TestCase):
    def row(self, eng, add, tick99, wl="timeouts", n="1000"):
        return {"workload": wl, "N": n, "engine": eng, "add ns": str(add), "mod ns": "100",
                "del ns": "100", "tick p50 ns": "1000", "tick p99 ns": str(tick99)}

    def test_within(self):
        lines, worst, n = results.ab_compare([self.row("classic", 100, 1000)],
                                             [self.row("classic", 101.9, 1049)])
        self.assertEqual(lines, [])
        self.assertEqual(n, 5)
        self.assertAlmostEqual(worst["ns"], 1.9, places=6)
        self.assertAlmostEqual(worst["tick"], 4.9, places=6)

    def test_off_and_missing(self):
        lines, worst, _ = results.ab_compare(
            [self.row("classic", 100, 1000), self.row("modern", 100, 1000)],
            [self.row("classic", 103, 1100), self.row("ratas", 100, 1000)])
        self.assertEqual(len(lines), 4)
        self.assertIn("classic add ns: 100 against 103, 3.0 %", lines[0])
        self.assertIn("tick p99 ns: 1000 against 1100, 10.0 %", lines[1])
        self.assertTrue(lines[2].endswith("modern: only in A"))
        self.assertTrue(lines[3].endswith("ratas: only in B"))

    def test_p99_of_few_ticks(self):
        # 99 busy ticks in one run: its p99 is its worst tick, not compared
        a, b = self.row("classic", 100, 1000), self.row("classic", 100, 2000)
        a["busy ticks"], b["busy ticks"] = "150", "99"
        lines, worst, n = results.ab_compare([a], [b])
        self.assertEqual(lines, [])
        self.assertEqual((n, worst["few"]), (4, 1))
        b["busy ticks"] = "100"
        lines, worst, n = results.ab_compare([a], [b])
        self.assertEqual(len(lines), 1)
        self.assertIn("tick p99 ns: 1000 against 2000, 100.0 %", lines[0])
        self.assertEqual((n, worst["few"]), (5, 0))

    def test_engine_filter(self):
        lines, _, n = results.ab_compare(
            [self.row("classic", 100, 1000), self.row("timer_list", 200, 1000)],
            [self.row("classic", 150, 1000), self.row("timer_list", 201, 1000)],
            engine="timer_list")
        self.assertEqual(lines, [])
        self.assertEqual(n, 5)


class LeftOut(unittest.TestCase):
    """A row whose every round was left out (reps 0, no interval) is
    never ranked, whether cheaper or dearer than the rows that count."""
    def rows(self, straight_v):
        def row(eng, v, lo, hi, reps):
            return {"workload": "expiring", "N": "5405", "engine": eng, "op ns": str(v),
                    "op ns_lo": lo, "op ns_hi": hi, "reps": reps}
        return [row("classic", 643, "643", "643", "5"), row("ratas", 659, "658", "659", "5"),
                row("straight", straight_v, "", "", "0")]

    def test_decide_skips_it(self):
        for v in (739, 100):
            d = results.decide(self.rows(v), {"classic", "ratas", "straight"})
            self.assertEqual(d["pick"]["who"], "classic")
            self.assertEqual(d["up"]["who"], "ratas")

    def test_check_choosing_skips_it(self):
        doc = ("## Decision table\n\n| traffic | use |\n|---|---|\n"
               "| [expiring](#x) (N=5405) | classic | 643 |\n")
        self.assertEqual(results.check_choosing(doc, self.rows(739), {"classic", "ratas", "straight"}), [])


class Rounds(unittest.TestCase):
    def setUp(self):
        info, runs = results.parse_guest(GUEST)
        self.info, self.runs = info, runs
        self.cols, self.rows = results.round_rows(info, runs)
        self.scols, self.srows = results.summarise(self.cols, self.rows, "icount")
        self.by = {(r["N"], r["engine"]): r for r in self.srows}

    def test_parse(self):
        self.assertEqual(self.info["hz"], "250")
        self.assertEqual(len(self.runs), 6)
        self.assertEqual(self.runs[0]["head"], ["a header line"])
        self.assertEqual(len(self.rows), 12)

    def test_labels(self):
        labels = [(r["round"], r["pass"], r["engine"]) for r in self.rows[:4]]
        self.assertEqual(labels, [("1", "a", "classic"), ("1", "a", "timer_list"),
                                  ("1", "b", "modern"), ("1", "b", "timer_list_b")])

    def test_left_out(self):
        why = {(r["round"], r["pass"], r["engine"]): r["left out"] for r in self.rows}
        self.assertEqual(why[("2", "b", "modern")], "lost ops (900 of 1000)")
        self.assertEqual(why[("2", "b", "timer_list_b")], "")
        self.assertEqual(why[("3", "a", "classic")], "admission lowered")
        # missed jiffies are caught up: kept, never a reason
        self.assertEqual(why[("3", "b", "modern")], "")
        m = [r for r in self.rows if (r["round"], r["pass"], r["engine"]) == ("3", "b", "modern")][0]
        self.assertEqual((m["missed jiffies"], m["activity ops"], m["run activity ops"]), ("8", "1000", "1000"))

    def test_overload_stop_leaves_the_run_out(self):
        _, runs = results.parse_guest("\n".join(
            run(1, "a", [row("classic", 1, 1, 1, 1)], stops=1)))
        _, rows = results.round_rows({"hz": "250"}, runs)
        self.assertEqual(rows[0]["left out"], "overload guard stopped the activity (ticks and ops lost)")

    def test_medians_and_intervals(self):
        c = self.by[("1000", "classic")]
        self.assertEqual((c["add ns"], c["add ns_lo"], c["add ns_hi"]), ("102", "100", "104"))
        self.assertEqual((c["reps"], c["excluded"], c["clock"]), ("2", "0", "icount"))
        self.assertEqual((c["op ns"], c["op ns_lo"], c["op ns_hi"]), ("302", "300", "304"))
        t = self.by[("1000", "timer_list")]
        self.assertEqual((t["add ns"], t["add ns_lo"], t["add ns_hi"]), ("299", "298", "300"))
        tb = self.by[("1000", "timer_list_b")]
        self.assertEqual((tb["add ns"], tb["add ns_lo"], tb["add ns_hi"], tb["reps"]),
                         ("306", "302", "310", "3"))
        self.assertEqual((tb["mod ns"], tb["del ns"], tb["tick p99 ns"]), ("309", "169", "9000"))
        m = self.by[("1000", "modern")]
        self.assertEqual((m["add ns"], m["add ns_lo"], m["add ns_hi"], m["reps"], m["excluded"]),
                         ("119", "118", "120", "2", "1"))

    def test_a_group_all_left_out(self):
        c = self.by[("600", "classic")]
        # every round left out: their figure, no interval, reps 0
        self.assertEqual((c["add ns"], c["add ns_lo"], c["reps"], c["excluded"]),
                         ("900", "n/a", "0", "1"))
        # the guarantees see every round, counted or not
        self.assertEqual(c["early"], "2")

    def test_ratios_from_medians(self):
        self.assertEqual(self.by[("1000", "classic")]["add/mod/del x timer_list"], "0.34/0.35/0.53")  # 91 / 172.5
        self.assertEqual(self.by[("1000", "timer_list_b")]["add/mod/del x timer_list"], "1.02/1.00/0.98")  # 306 / 299, 309 / 307.5, 169 / 172.5

    def test_columns(self):
        self.assertEqual(self.scols[:6], ["workload", "N", "engine", "add ns", "add ns_lo", "add ns_hi"])
        self.assertEqual(self.scols[-6:], ["op ns", "op ns_lo", "op ns_hi", "reps", "excluded", "clock"])
        self.assertNotIn("early_lo", self.scols)

    def test_order(self):
        self.assertEqual([(r["N"], r["engine"]) for r in self.srows],
                         [("600", "classic"), ("600", "timer_list"), ("1000", "classic"),
                          ("1000", "timer_list"), ("1000", "timer_list_b"), ("1000", "modern")])

    def test_noise(self):
        n = results.noise(self.srows)
        self.assertEqual(len(n), 1)
        wl, N, d, ra, rb = n[0]
        self.assertEqual((wl, N, ra, rb), ("timeouts", "1000", "2", "3"))
        self.assertEqual(d["add ns"][:2], (299.0, 306.0))
        self.assertAlmostEqual(d["add ns"][2], 100.0 * 7 / 299)
        lines = results.noise_lines(self.srows)
        self.assertEqual(lines[1], "- timeouts N=1000, 2/3 rounds: add 299 / 306 (+2.3 %); "
                         "mod 307.5 / 309 (+0.5 %); del 172.5 / 169 (-2.0 %); "
                         "tick p99 9025 / 9000 (-0.3 %)")

    def test_files(self):
        with tempfile.TemporaryDirectory() as d:
            g = os.path.join(d, "guest.out")
            with open(g, "w") as f:
                f.write(GUEST)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                results.cmd_rounds([g, d, "--clock", "icount", "--table", os.path.join(d, "t.md")])
            self.assertEqual(out.getvalue().splitlines()[-1], "12 rows of 6 runs, 3 left out")
            cols, rows = results.read_csv(os.path.join(d, "compare.csv"))
            self.assertEqual(cols, self.scols)
            self.assertEqual(len(rows), 6)
            rc, rr = results.read_csv(os.path.join(d, "rounds.csv"))
            self.assertEqual(len(rr), 12)
            self.assertEqual(rc[-6:], list(results.RAW) + ["left out"])
            # compare.csv again from rounds.csv alone: the same
            with contextlib.redirect_stdout(io.StringIO()):
                os.rename(os.path.join(d, "compare.csv"), os.path.join(d, "first.csv"))
                results.cmd_summarise([os.path.join(d, "rounds.csv"), d, "--clock", "icount"])
            with open(os.path.join(d, "compare.csv")) as a, open(os.path.join(d, "first.csv")) as b:
                self.assertEqual(a.read(), b.read())
            with open(os.path.join(d, "t.md")) as f:
                t = f.read().splitlines()
            self.assertEqual(t[0], "# a header line")
            self.assertTrue(t[2].startswith("| workload | N | engine | add ns | mod ns |"))


def crow(e, n, op, lo, hi, tmax=1000, tlo=900, thi=1100):
    return {"workload": "timeouts", "N": str(n), "engine": e, "op ns": str(op),
            "op ns_lo": str(lo), "op ns_hi": str(hi), "tick max ns": str(tmax),
            "tick max ns_lo": str(tlo), "tick max ns_hi": str(thi)}


class Decide(unittest.TestCase):
    EXACT = {"classic", "ratas", "volt"}

    def test_pick_apart(self):
        d = results.decide([crow("classic", 1000, 500, 490, 510), crow("ratas", 1000, 530, 520, 540),
                            crow("volt", 1000, 600, 590, 610), crow("timer_list", 1000, 700, 690, 710)],
                           self.EXACT)
        self.assertEqual(d["pick"]["who"], "classic")
        self.assertEqual(d["up"]["who"], "ratas")
        self.assertEqual(d["tl"]["v"], 700.0)
        self.assertEqual(d["tied"], [])

    def test_tie_named_not_picked(self):
        d = results.decide([crow("volt", 1000, 506, 495, 515), crow("classic", 1000, 509, 500, 520),
                            crow("ratas", 1000, 529, 516, 540)], self.EXACT)
        self.assertIsNone(d["pick"])
        self.assertEqual(d["tied"], ["classic", "volt"])
        self.assertEqual(d["why"], "tie: their op ns intervals overlap")

    def test_within_the_noise_floor_is_a_tie(self):
        rows = [crow("classic", 5000, 631, 631, 631), crow("volt", 5000, 634, 634, 634),
                crow("ratas", 5000, 641, 641, 641)]
        d = results.decide(rows, self.EXACT, 1.7)
        self.assertIsNone(d["pick"])
        self.assertEqual(d["tied"], ["classic", "ratas", "volt"])
        self.assertEqual(d["why"], "tie: within the A/A noise floor (1.7 %)")
        d = results.decide(rows, self.EXACT, 0.4)
        self.assertEqual(d["pick"]["who"], "classic")

    def test_floors(self):
        rows = [{"workload": "burst", "N": "5000", "engine": "timer_list", "op ns": "808"},
                {"workload": "burst", "N": "5000", "engine": "timer_list_b", "op ns": "822"}]
        self.assertAlmostEqual(results.floors(rows)[("burst", "5000")], 100.0 * 14 / 808)

    def test_not_exact_never_picked(self):
        d = results.decide([crow("modern", 1000, 100, 99, 101), crow("classic", 1000, 500, 490, 510),
                            crow("ratas", 1000, 600, 590, 610)], self.EXACT)
        self.assertEqual(d["pick"]["who"], "classic")

    def test_no_interval_not_ranked(self):
        r = [crow("volt", 1000, 506, 0, 0), crow("classic", 1000, 529, 0, 0)]
        for x in r:
            x["op ns_lo"] = x["op ns_hi"] = ""
        d = results.decide(r, self.EXACT)
        self.assertIsNone(d["pick"])
        self.assertEqual(d["tied"], ["classic", "volt"])
        self.assertEqual(d["why"], "not ranked: one round, no interval")

    def test_op_ns_from_add_mod_del_without_column(self):
        f = results.figure({"N": "1", "engine": "x", "add ns": "1", "mod ns": "2", "del ns": "3"}, "op ns")
        self.assertEqual((f["v"], f["lo"], f["hi"]), (6.0, None, None))

    def test_ranked(self):
        a = results.figure(crow("a", 1000, 5, 4, 6), "op ns")
        b = results.figure(crow("b", 8192, 50, 40, 60), "op ns")
        self.assertIsNone(results.ranked(a, b))
        c = results.figure({"N": "1000", "engine": "c", "op ns": "9"}, "op ns")
        self.assertEqual(results.ranked(a, c), "n/i")

    def test_pct(self):
        self.assertEqual(results.pct(631, 634), "-0.5 %")
        self.assertEqual(results.pct(110, 100), "+10.0 %")
        self.assertEqual(results.pct(1, 0), "n/a")

    def test_main_n(self):
        rows = [{"N": "10000"}] * 3 + [{"N": "8192"}] * 2
        self.assertEqual(results.main_n(rows), "10000")
        self.assertEqual(results.main_n([{"N": "8192"}, {"N": "10000"}]), "10000")


class Smp(unittest.TestCase):
    COLS = ["round", "pass", "percpu", "remote", "runner", "cpus", "admission", "ops",
            "op_ns", "contended_pct", "runs_early", "nested"]

    def row(self, rnd, pas, pc, ops, ns, adm="-", early="0", pct="1.50"):
        return dict(zip(self.COLS, [str(rnd), pas, str(pc), "0", "classic", "2", adm,
                                    str(ops), str(ns), pct, early, "0"]))

    def test_medians_intervals_and_marks(self):
        rows = [self.row(1, "a", 0, 1000, 500), self.row(2, "a", 0, 1000, 520),
                self.row(3, "a", 0, 1000, 900, adm="lowered"),
                self.row(4, "a", 0, 940, 100, early="2"),
                self.row(5, "a", 0, 1000, 510, pct="2.25")]
        cols, out = results.smp_medians(self.COLS, rows, clock="icount")
        self.assertEqual(len(out), 1)
        o = out[0]
        self.assertEqual(o["clock"], "icount")
        # rounds 3 (admission) and 4 (940 < 95 % of 1000 ops) left out
        self.assertEqual((o["reps"], o["excluded"]), ("3", "2"))
        self.assertEqual((o["op_ns"], o["op_ns_lo"], o["op_ns_hi"]), ("510", "500", "520"))
        self.assertEqual(o["contended_pct"], "1.50")
        self.assertEqual(o["contended_pct_hi"], "2.25")
        # the worst of every round, counted or not
        self.assertEqual(o["runs_early"], "2")
        self.assertIn("op_ns_lo", cols)
        self.assertNotIn("round", cols)

    def test_pass_b_apart(self):
        rows = [self.row(1, "a", 1, 1000, 500), self.row(1, "b", 1, 1000, 505)]
        _, out = results.smp_medians(self.COLS, rows)
        self.assertEqual(sorted(o["pass"] for o in out), ["a", "b"])

    def test_section_ranks_outside_the_floor_only(self):
        def r(pc, pas, ns, lo, hi):
            return {"percpu": str(pc), "remote": "0", "runner": "classic", "cpus": "2",
                    "pass": pas, "op_ns": str(ns), "op_ns_lo": str(lo), "op_ns_hi": str(hi),
                    "reps": "5", "excluded": "0", "contended_pct": "-", "ops_per_s": "1"}
        # A/A: 1000 against 1020 (2 %); percpu=0 at 1500, apart and 33 % off
        text = "\n".join(results.smp_section([r(0, "a", 1500, 1450, 1550), r(1, "a", 1000, 990, 1010),
                                               r(1, "b", 1020, 1000, 1030)]))
        self.assertIn("cheaper (-33.3 %)", text)
        self.assertIn("2 vCPU 2.0 %", text)
        # within the A/A difference: a tie, though the intervals are apart
        text = "\n".join(results.smp_section([r(0, "a", 1015, 1012, 1018), r(1, "a", 1000, 990, 1010),
                                               r(1, "b", 1020, 1000, 1030)]))
        self.assertIn("tie (-1.5 %)", text)


class Readme(unittest.TestCase):
    def test_counts_from_the_files(self):
        with tempfile.TemporaryDirectory() as d:
            scols = ["workload", "N", "engine", "add ns", "add ns_lo", "add ns_hi", "mod ns", "del ns",
                     "op ns", "op ns_lo", "op ns_hi", "reps", "excluded", "clock"]
            rows = [{"workload": w, "N": "1000", "engine": e, "add ns": a, "add ns_lo": a, "add ns_hi": a,
                     "mod ns": "10", "del ns": "10", "op ns": "1", "op ns_lo": "1", "op ns_hi": "1",
                     "reps": rp, "excluded": x, "clock": "icount"}
                    for w, e, a, rp, x in (("timeouts", "classic", "100", "3", "0"),
                                           ("timeouts", "timer_list", "200", "3", "0"),
                                           ("timeouts", "timer_list_b", "210", "2", "1"),
                                           ("burst", "classic", "90", "3", "0"))]
            results.write_csv(os.path.join(d, "compare.csv"), scols, rows)
            text = results.readme(d)
            self.assertIn("4 rows: 2 workloads (timeouts, burst) on 3 runners.", text)
            self.assertIn("Rounds counted per row: 2, 3; rounds left out: 1 (why: rounds.csv); clock: icount.", text)
            self.assertIn("- timeouts N=1000, 3/2 rounds: add 200 / 210 (+5.0 %); mod 10 / 10 (+0.0 %); "
                          "del 10 / 10 (+0.0 %)", text)
            self.assertIn("| [compare.csv](compare.csv) | one row per workload, N and runner: each column "
                          "the median", text)
            self.assertNotIn("smp.csv", text)


class CheckChoosing(unittest.TestCase):
    EXACT = {"classic", "ratas", "volt"}
    ROWS = [crow("classic", 1000, 500, 490, 510), crow("ratas", 1000, 530, 505, 540),
            crow("volt", 1000, 600, 590, 610), crow("straight", 8192, 400, 390, 410)]

    def doc(self, use, n=1000):
        return ("# x\n\n## Decision table\n\n| traffic | use |\n|---|---|\n"
                "| [timeouts](#t) (N=%s) | %s | 1 |\n\n## Timeouts\n\n| [timeouts](#t) (N=1) | volt |\n" % (n, use))

    def test_overlap_caught(self):
        self.assertEqual(results.check_choosing(self.doc("classic"), self.ROWS, self.EXACT),
                         ["timeouts N=1000: classic picked, but its op ns 500 [490..510] against "
                          "ratas's 530 [505..540] is tie"])

    def test_apart_passes(self):
        rows = [dict(r) for r in self.ROWS]
        rows[1]["op ns_lo"] = "511"
        self.assertEqual(results.check_choosing(self.doc("classic"), rows, self.EXACT), [])

    def test_tie_cell_passes(self):
        self.assertEqual(results.check_choosing(self.doc("tie: their op ns intervals overlap: classic; ratas"),
                                                self.ROWS, self.EXACT), [])

    def test_within_noise_floor_caught(self):
        rows = [dict(r) for r in self.ROWS]
        rows[1]["op ns_lo"] = "511"
        rows += [{"workload": "timeouts", "N": "1000", "engine": "timer_list", "op ns": "700"},
                 {"workload": "timeouts", "N": "1000", "engine": "timer_list_b", "op ns": "742"}]
        self.assertEqual(results.check_choosing(self.doc("classic"), rows, self.EXACT),
                         ["timeouts N=1000: classic picked, but ratas is within the A/A noise floor (6.0 %)"])

    def test_wrong_n(self):
        self.assertEqual(results.check_choosing(self.doc("straight"), self.ROWS, self.EXACT),
                         ["timeouts: straight picked at N=1000, which it did not run"])


if __name__ == "__main__":
    unittest.main()
