#!/usr/bin/env python3
"""puzzles_test.py CASE PROGRAM: the puzzles' HTTP API (GET
/api/puzzles/daily, /api/puzzles/next, POST /api/puzzles/ID/attempt)
against a real `carcassonne serve` over sockets, with a set of four
puzzles of the committed one; a guest, an account, and sets the server
refuses."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
from e2e import Server, check, run_case  # noqa: E402
from accounts_test import expect, http, signup  # noqa: E402

PROGRAM = None
SET = os.path.join(HERE, "..", "..", "docs", "puzzles", "set.json")


def small_set(tmp):
    """Four puzzles of the committed set, with far-apart ratings, in a
    file of `tmp`: its path and the puzzles."""
    with open(SET) as f:
        data = json.load(f)
    chosen = data["puzzles"][:4]
    for p, rating in zip(chosen, (1100, 1400, 1700, 2000)):
        p["rating"] = rating
    data["puzzles"] = chosen
    path = os.path.join(tmp, "set.json")
    with open(path, "w") as f:
        json.dump(data, f)
    return path, chosen


def start(tmp):
    path, puzzles = small_set(tmp)
    return Server(PROGRAM, tmp, ["--puzzles", path]).start(), puzzles


def attempt(server, pid, body, cookie=None, **kw):
    return http(server, "POST", "/api/puzzles/%s/attempt" % pid, body, cookie=cookie, **kw)


def case_guest(tmp):
    """A guest: the day's puzzle the same twice and without its answer;
    the next one nearest the rating given, other than those excluded; a
    right and a wrong answer rated from the rating sent, nothing stored;
    bad input refused with a clear error."""
    server, puzzles = start(tmp)
    by_id = {p["id"]: p for p in puzzles}
    try:
        day = expect(http(server, "GET", "/api/puzzles/daily"), 200).json
        check(day["id"] in by_id and "best" not in day and "why" not in day,
              "the day's puzzle: %s" % day)
        check(day["record"] == by_id[day["id"]]["record"] and day["tile"] and day["goal_text"],
              "the day's position: %s" % day)
        check(len(day["date"]) == 10, "its date: %s" % day)
        check(expect(http(server, "GET", "/api/puzzles/daily"), 200).json["id"] == day["id"],
              "another puzzle of the day")
        near = expect(http(server, "GET", "/api/puzzles/next?rating=1750"), 200).json
        check(near["id"] == puzzles[2]["id"] and near["rating"] == 1700, "nearest 1750: %s" % near)
        other = expect(http(server, "GET", "/api/puzzles/next?rating=1750&exclude=%s,nope" %
                            puzzles[2]["id"]), 200).json
        check(other["id"] in (puzzles[1]["id"], puzzles[3]["id"]), "excluded: %s" % other)
        low = expect(http(server, "GET", "/api/puzzles/next"), 200).json
        check(low["id"] == puzzles[1]["id"], "no rating: nearest 1500: %s" % low)
        for q in ("rating=abc", "rating=-5", "rating=99999", "rating=1e999"):
            expect(http(server, "GET", "/api/puzzles/next?" + q), 400, "bad_rating")
        p = puzzles[2]
        right = expect(attempt(server, p["id"], {"move": p["best"], "rating": 1600, "rd": 80,
                                                 "streak": 4, "best_streak": 4}), 200).json
        check(right["correct"] is True and right["best"] == p["best"] and right["move"] == p["best"],
              "the best move: %s" % right)
        check(right["rated"] is True and right["stored"] is False, "a guest's: %s" % right)
        s = right["solver"]
        check(s["before"] == 1600 and s["rating"] > 1600 and s["rd"] < 80 and s["streak"] == 5 and
              s["best_streak"] == 5, "the guest's rating up: %s" % s)
        check(right["puzzle_rating"]["before"] == 1700 and right["puzzle_rating"]["rating"] < 1700,
              "the puzzle's down: %s" % right["puzzle_rating"])
        check(right["why"] == p["why"] and right["points"] == p["points"] and
              right["runners_up"] == p["runners_up"], "why: %s" % right)
        wrong = expect(attempt(server, p["id"], {"move": p["runners_up"][0]["move"],
                                                 "rating": 1600, "streak": 4}), 200).json
        check(wrong["correct"] is False and wrong["best"] == p["best"] and
              wrong["solver"]["rating"] < 1600 and wrong["solver"]["streak"] == 0 and
              wrong["solver"]["best_streak"] == 4, "a wrong answer: %s" % wrong)
        # Nothing of a guest's is stored: the puzzle's rating is its own still.
        again = expect(http(server, "GET", "/api/puzzles/next?rating=1700"), 200).json
        check(again["id"] == p["id"] and again["rating"] == 1700 and again["attempts"] == 0,
              "a guest's attempt stored: %s" % again)
        expect(attempt(server, p["id"], {"move": "Z 99 99 0", "rating": 1500}), 400, "illegal")
        expect(attempt(server, p["id"], {"move": 7, "rating": 1500}), 400, "bad_field")
        expect(attempt(server, p["id"], {"move": p["best"]}), 400, "bad_rating")
        expect(attempt(server, p["id"], {"move": p["best"], "rating": "1500"}), 400, "bad_rating")
        expect(attempt(server, p["id"], {"move": p["best"], "rating": 1500, "rd": 0}), 400,
               "bad_rating")
        expect(attempt(server, "no-such-puzzle", {"move": p["best"], "rating": 1500}), 404,
               "no_puzzle")
        expect(attempt(server, p["id"], None, raw=b"{not json"), 400, "bad_json")
        expect(attempt(server, p["id"], {"move": p["best"], "rating": 1500},
                       origin="http://elsewhere.example"), 403, "foreign_origin")
        expect(http(server, "GET", "/api/puzzles/%s/attempt" % p["id"]), 405, "bad_method")
        expect(http(server, "POST", "/api/puzzles/daily", {}), 405, "bad_method")
    finally:
        server.stop()


def case_account(tmp):
    """An account: the next puzzle near its rating and not attempted; the
    first attempt rated and stored with the streak, a second one not; the
    ratings kept over a restart."""
    server, puzzles = start(tmp)
    try:
        ann = signup(server, "ann")
        first = expect(http(server, "GET", "/api/puzzles/next", cookie=ann), 200).json
        check(first["id"] == puzzles[1]["id"] and first["unsolved"] is True and
              first["solver"]["rating"] == 1500, "a new solver's next: %s" % first)
        p = puzzles[1]
        right = expect(attempt(server, p["id"], {"move": p["best"]}, cookie=ann), 200).json
        check(right["correct"] and right["rated"] and right["stored"], "stored: %s" % right)
        check(right["solver"]["streak"] == 1 and right["solver"]["attempts"] == 1 and
              right["solver"]["rating"] > 1500, "the solver: %s" % right["solver"])
        after = right["solver"]["rating"]
        repeat = expect(attempt(server, p["id"], {"move": p["runners_up"][0]["move"]},
                                cookie=ann), 200).json
        check(repeat["correct"] is False and repeat["rated"] is False and
              repeat["solver"]["rating"] == after and repeat["solver"]["streak"] == 1,
              "a second attempt rated: %s" % repeat)
        nxt = expect(http(server, "GET", "/api/puzzles/next", cookie=ann), 200).json
        check(nxt["id"] != p["id"] and nxt["unsolved"], "an attempted puzzle again: %s" % nxt)
        q = next(x for x in puzzles if x["id"] == nxt["id"])
        wrong = expect(attempt(server, q["id"], {"move": q["runners_up"][0]["move"]},
                               cookie=ann), 200).json
        check(wrong["rated"] and wrong["solver"]["streak"] == 0 and
              wrong["solver"]["best_streak"] == 1 and wrong["solver"]["attempts"] == 2,
              "a wrong answer: %s" % wrong)
        rating_q = wrong["puzzle_rating"]["rating"]
        check(rating_q > wrong["puzzle_rating"]["before"], "the puzzle gained: %s" % wrong)
        server.stop()
        server.start()
        day = expect(http(server, "GET", "/api/puzzles/daily", cookie=ann), 200).json
        check(day["solver"]["attempts"] == 2 and day["solver"]["best_streak"] == 1,
              "the solver after a restart: %s" % day["solver"])
        seen = expect(http(server, "GET", "/api/puzzles/next?rating=%d" % round(rating_q)), 200)
        check(seen.json["id"] == q["id"] and seen.json["rating"] == round(rating_q, 1) and
              seen.json["attempts"] == 1, "the puzzle's rating kept: %s" % seen.json)
    finally:
        server.stop()


def refused(tmp, name, data, why):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(data if isinstance(data, str) else json.dumps(data))
    r = subprocess.run([PROGRAM, "serve", "--port", "0", "--db", os.path.join(tmp, "x.db"),
                        "--puzzles", path], capture_output=True, text=True, timeout=30)
    check(r.returncode == 1 and why in r.stderr, "%s: %d %s" % (name, r.returncode, r.stderr))


def case_bad_set(tmp):
    """Sets the server refuses at start, saying why: not JSON, no puzzles,
    a best move that is not legal, a tile the position cannot draw, an id
    given twice; a missing file is a bad argument."""
    _, puzzles = small_set(tmp)
    refused(tmp, "text.json", "not json", "the puzzles:")
    refused(tmp, "empty.json", {"puzzles": []}, "no \"puzzles\" array")
    bad = dict(puzzles[0], best="Z 0 0 0")
    refused(tmp, "best.json", {"puzzles": [bad]}, "not a legal move")
    bad = dict(puzzles[0], tile="RA")
    refused(tmp, "tile.json", {"puzzles": [bad]}, "cannot be drawn")
    refused(tmp, "twice.json", {"puzzles": [puzzles[0], puzzles[0]]}, "another puzzle's")
    r = subprocess.run([PROGRAM, "serve", "--puzzles", os.path.join(tmp, "none.json")],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 2 and "no such file" in r.stderr, "missing: %s" % r.stderr)


if __name__ == "__main__":
    sys.exit(run_case(globals(), "puzzles_test.py"))
