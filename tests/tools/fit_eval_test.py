#!/usr/bin/env python3
"""fit_eval_test.py: black-box checks of tools/fit_eval.

usage: fit_eval_test.py FIT_EVAL
Exits 0 when every check passes, 1 with a message at the first that fails.
"""
import csv
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import check, run_program  # noqa: E402

GAMES = 120
TERMS = 13


def run(args):
    return run_program(TOOL, args, timeout=240)


def weights(section):
    """term name -> (now, fitted, se) of one phase's table."""
    out = {}
    for line in section.splitlines():
        m = re.match(r"\s+(.+?)\s+(-|-?[0-9.]+)\s+(-?[0-9.]+)\s+([0-9.]+)$", line)
        if m and m.group(1) != "term":
            out[m.group(1)] = (m.group(2), float(m.group(3)), float(m.group(4)))
    return out


def check_fit(tmp):
    path = os.path.join(tmp, "positions.csv")
    code, out, err = run(["--games", str(GAMES), "--seed", "3", "--csv", path])
    check(code == 0, "fit_eval exited %d: %s" % (code, err))
    # Every game draws the 71 tiles of the pile: one position each.
    check("%d games of greedy:eval=full" % GAMES in out and "%d positions" % (71 * GAMES) in out,
          "header: %r" % out[:200])
    sections = out.split("\nphase ")[1:]
    check(len(sections) == 1, "one phase by default, got %d" % len(sections))
    w = weights(sections[0])
    check(len(w) == TERMS + 1, "intercept and %d terms, got %r" % (TERMS, sorted(w)))
    now, fitted, se = w["points scored"]
    check(now == "1.000", "points scored weigh 1 now, not %s" % now)
    # A point scored is a point at the end: the fit must find about 1.
    check(0.7 < fitted < 1.3 and 0 < se < 0.3, "points scored fitted %.3f (se %.3f)" % (fitted, se))
    check(w["cities x to come"][0] == "-0.450", "the early doubt: %r" % (w["cities x to come"],))
    r2 = float(re.search(r"R\^2 (-?[0-9.]+)", sections[0]).group(1))
    check(0.1 < r2 < 1.0, "R^2 %.3f" % r2)

    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows[0][:2] == ["game", "to_come"] and rows[0][-1] == "margin" and
          len(rows[0]) == TERMS + 3, "CSV header %r" % rows[0])
    check(len(rows) == 1 + 71 * GAMES, "CSV rows %d" % len(rows))
    margin = {}
    for r in rows[1:]:
        game, to_come = int(r[0]), int(r[1])
        check(0 <= game < GAMES and 1 <= to_come <= 71, "CSV row %r" % r)
        check(margin.setdefault(game, r[-1]) == r[-1], "two margins for game %d" % game)
        # The early terms are the full ones scaled by the tiles to come.
        for k in range(4):
            full, early = float(r[4 + k]), float(r[8 + k])
            check(abs(early - full * to_come / 71) <= 1e-4 * max(1, abs(full)),
                  "early term %d of %r" % (k, r))
    check(len(margin) == GAMES, "games in the CSV: %d" % len(margin))

    code, out3, err = run(["--games", "30", "--seed", "3", "--phases", "3"])
    check(code == 0, "--phases 3 exited %d: %s" % (code, err))
    sections = out3.split("\nphase ")[1:]
    check(len(sections) == 3, "three phases, got %d" % len(sections))
    check("(71 to 49 tiles" in out3 and "(24 to 1 tiles" in out3, "phase ranges: %r" % out3)
    for s in sections:
        w = weights(s)
        check(len(w) == TERMS - 4 + 1 and "cities x to come" not in w,
              "phases leave the early terms out: %r" % sorted(w))


BAD = [
    ["--games", "0"], ["--games", "x"], ["--games"], ["--phases", "0"], ["--phases", "9"],
    ["--seed", "-1"], ["--seed", "1x"], ["--player", "bogus"], ["--player", "mcts:level=none"],
    ["--bogus", "1"],
]


def check_bad():
    for args in BAD:
        code, out, err = run(args)
        check(code == 2 and out == "" and err.strip(), "%s: exit %d, %r, %r" % (args, code, out, err))
    code, out, err = run(["--games", "2", "--csv", "/nonexistent/dir/positions.csv"])
    check(code == 1 and "/nonexistent/dir/positions.csv" in err, "unwritable CSV: %d %r" % (code, err))
    code, out, err = run(["--help"])
    check(code == 0 and out.startswith("usage: fit_eval"), "--help: %d %r" % (code, out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: fit_eval_test.py FIT_EVAL", file=sys.stderr)
        sys.exit(2)
    TOOL = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        check_fit(tmp)
    check_bad()
