#!/usr/bin/env python3
"""cli_test.py: black-box checks of `carcassonne engine`, `arena` and
`analyse` through the real program.

usage: cli_test.py CASE CARCASSONNE    (CASE: see the CASES table below)
Exits 0 when the case passes, 1 with a message when it does not.
"""
import json
import math
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from harness import check, run_program  # noqa: E402

CARC = ""


def run(args, stdin=b"", timeout=120):
    return run_program(CARC, args, stdin, timeout)


def requests_of(data):
    """The request lines the engine answers: every line but blank ones."""
    out = []
    for line in data.split(b"\n"):
        if line.endswith(b"\r"):
            line = line[:-1]
        if line.strip(b" \t"):
            out.append(line)
    return out


def engine_replies(data, spec="greedy"):
    code, out, err = run(["engine", "--player", spec], data)
    check(code == 0, "engine exited %d: %s" % (code, err))
    replies = [json.loads(line) for line in out.splitlines()]
    for r in replies:
        check(isinstance(r, dict) and isinstance(r.get("type"), str), "reply without type: %r" % r)
    return replies


# --- The scripted session (engine_session.jsonl) --------------------------------------

def is_error(r):
    return r["type"] == "error" and isinstance(r.get("message"), str) and r["message"]


def case_engine_session():
    with open(os.path.join(HERE, "engine_session.jsonl"), "rb") as f:
        data = f.read()
    r = engine_replies(data)
    # 'quit' ends the session: the request after it is never answered.
    check(len(r) == len(requests_of(data)) - 1, "%d replies for %d requests"
          % (len(r), len(requests_of(data))))
    check(r[0] == {"type": "hello", "protocol": 4, "name": "carcassonne", "player": "greedy"},
          "hello: %r" % r[0])
    check(is_error(r[1]) and "new" in r[1]["message"], "go before new: %r" % r[1])
    check(r[2] == {"type": "ok", "expansions": []}, "new: %r" % r[2])
    check(r[3]["type"] == "state" and r[3]["players"] == 2 and r[3]["seat"] == 1
          and r[3]["to_move"] == 0 and r[3]["tile"] is None and r[3]["moves"] == 0
          and r[3]["scores"] == [0, 0] and r[3]["supply"] == [7, 7] and r[3]["over"] is False
          and r[3]["digest"] is None and r[3]["expansions"] == [], "first state (no digest while the tile is unknown): %r"
          % r[3])
    # small-city: the two-tile city scores 2 for red, the knight goes home.
    city = {"kind": "city", "complete": True, "players": [0], "points": 2, "tiles": 2,
            "pennants": 0, "returned": [1, 0], "x": 0, "y": -1}
    check(r[4] == {"type": "ok"} and r[5] == {"type": "ok", "events": [city]},
          "tile, move: %r %r" % (r[4], r[5]))
    check(r[6]["scores"] == [2, 0] and r[6]["to_move"] == 1 and r[6]["moves"] == 1
          and r[6]["supply"] == [7, 7] and r[6]["tile"] is None, "second state: %r" % r[6])
    check(is_error(r[7]) and "tile" in r[7]["message"], "go without a tile: %r" % r[7])
    check(r[8] == {"type": "ok"}, "tile U: %r" % r[8])
    go = r[9]
    check(go["type"] == "move" and go["move"].startswith("U ") and 0 <= go["win"] <= 1
          and isinstance(go["margin"], (int, float)) and go["iterations"] >= 0
          and go["seconds"] >= 0, "go: %r" % go)
    an = r[10]
    check(an["type"] == "analysis" and an["player"] == 1 and an["tile"] == "U"
          and len(an["moves"]) == 3, "analyse: %r" % an)
    for m in an["moves"]:
        check(m["move"].startswith("U ") and 0 <= m["win"] <= 1 and m["visits"] >= 0,
              "ranked move: %r" % m)
    check(r[11] == {"type": "ok", "events": []}, "blue's move: %r" % r[11])
    check(is_error(r[12]) and "follower" in r[12]["message"], "taken road: %r" % r[12])
    check(is_error(r[13]) and "player 1" in r[13]["message"], "wrong player: %r" % r[13])
    check(r[14] == {"type": "ok", "events": []}, "a move naming its own tile: %r" % r[14])
    check(r[15]["moves"] == 3 and r[15]["scores"] == [2, 0] and r[15]["to_move"] == 1,
          "third state (refused moves changed nothing): %r" % r[15])
    # The final scoring: blue's thief on the open road D-U-U, 3 points.
    road = {"kind": "road", "complete": False, "players": [1], "points": 3, "tiles": 3,
            "pennants": 0, "returned": [0, 1]}
    check(r[16]["type"] == "ok" and len(r[16]["events"]) == 1
          and {k: v for k, v in r[16]["events"][0].items() if k not in "xy"} == road,
          "end: %r" % r[16])
    check(r[17]["over"] is True and r[17]["scores"] == [2, 3] and r[17]["to_move"] is None,
          "final state: %r" % r[17])
    check(is_digest(r[17]["digest"]), "final digest: %r" % r[17])
    check(is_error(r[18]) and "over" in r[18]["message"], "go after the end: %r" % r[18])
    # Protocol 4: 'end' of a game that is over is answered with no events
    # (a controller ends every game), and 'undo' takes the first 'end' back.
    check(r[19] == {"type": "ok", "events": []}, "end after the end: %r" % r[19])
    check(r[20] == {"type": "ok", "moves": 3}, "undo of the end: %r" % r[20])
    check(r[21] == dict(r[15], digest=r[21]["digest"]) and r[21]["tile"] is None,
          "the state before the end again: %r %r" % (r[21], r[15]))
    check(r[22] == {"type": "bye"}, "quit: %r" % r[22])


# --- One engine process, request by request ------------------------------------------------

class Engine:
    """`carcassonne engine` on pipes, asked one request at a time."""

    def __init__(self, spec="random"):
        self.p = subprocess.Popen([CARC, "engine", "--player", spec], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)

    def ask(self, request):
        self.p.stdin.write((json.dumps(request) + "\n").encode())
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        check(line.endswith(b"\n"), "no reply to %r" % request)
        return json.loads(line)

    def ok(self, request):
        r = self.ask(request)
        check(r["type"] == "ok", "%r answered %r" % (request, r))
        return r

    def close(self):
        check(self.ask({"type": "quit"}) == {"type": "bye"}, "quit")
        self.p.stdin.close()
        check(self.p.wait(timeout=60) == 0, "engine exit status")


def moves_of(legal):
    """Every move a 'legal' reply lists."""
    if not legal["placements"]:
        return [legal["discard"]]
    return [m for p in legal["placements"]
            for m in [p["move"]] + ["%s %s" % (p["move"], spot) for spot in p["spots"]]]


ROLES = {"road", "city", "field", "cloister"}


def case_engine_legal():
    """'legal' lists every legal move once, with its follower spots and
    their roles: the same moves as the library's own players rank."""
    e = Engine("greedy")
    check(is_error(e.ask({"type": "legal"})), "legal before new")
    e.ok({"type": "new", "players": 2, "seed": 11})
    check("unknown" in e.ask({"type": "legal"})["message"], "legal before the tile is known")
    compared = 0
    rng = random.Random(5)
    for turn in range(40):
        tile = e.ask({"type": "draw"})
        legal = e.ask({"type": "legal"})
        check(legal["type"] == "legal" and legal["tile"] == tile["tile"]
              and legal["player"] == tile["player"], "legal: %r" % legal)
        moves = moves_of(legal)
        check(len(moves) == len(set(moves)) == legal["count"], "count, duplicates: %r" % legal)
        looks = set()
        for p in legal["placements"]:
            check(p["move"] == "%s %d %d %d" % (tile["tile"], p["x"], p["y"], p["rot"]),
                  "placement: %r" % p)
            check(all(role in ROLES for role in p["spots"].values()), "roles: %r" % p)
            check(("C" in p["spots"]) == (p["spots"].get("C") == "cloister"), "cloister: %r" % p)
            looks.add((p["x"], p["y"], p["rot"]))
        check(len(looks) == len(legal["placements"]), "a placement twice: %r" % legal)
        an = e.ask({"type": "analyse", "top": 100})
        check(an["legal_moves"] == legal["count"], "analyse counts %d, legal %d"
              % (an["legal_moves"], legal["count"]))
        if legal["count"] <= 100:
            check(sorted(m["move"] for m in an["moves"]) == sorted(moves),
                  "legal and greedy's ranking differ: %r %r" % (moves, an["moves"]))
            compared += 1
        e.ok({"type": "move", "move": rng.choice(moves)})
    check(compared >= 20, "only %d positions compared" % compared)
    # A symmetric tile: the straight road U is listed at rotations 0 and 1,
    # and a move at rotation 3 is the same as at 1.
    e.ok({"type": "new", "players": 2, "seed": 11})
    e.ok({"type": "tile", "tile": "U"})
    legal = e.ask({"type": "legal"})
    check({p["rot"] for p in legal["placements"]} <= {0, 1}, "U's rotations: %r" % legal)
    check(e.ask({"type": "go"})["move"].split()[3] in "01", "go names U's lower rotation")
    e.ok({"type": "move", "move": "U 1 0 3 W"})
    check(e.ask({"type": "state"})["supply"] == [6, 7], "U 1 0 3 W is U 1 0 1 E")
    # A tile that fits nowhere: C (city on every side) once the start
    # tile's city is closed.
    e.ok({"type": "new", "players": 2, "seed": 11})
    e.ok({"type": "tile", "tile": "E"})
    e.ok({"type": "move", "move": "E 0 -1 2"})
    e.ok({"type": "tile", "tile": "C"})
    legal = e.ask({"type": "legal"})
    check(legal["placements"] == [] and legal["discard"] == "discard C" and legal["count"] == 1,
          "the discard: %r" % legal)
    e.ok({"type": "move", "move": legal["discard"]})
    check(e.ask({"type": "state"})["moves"] == 2, "the discard was played")
    e.close()


def points_of(events, players):
    points = [0] * players
    for ev in events:
        for p in ev["players"]:
            points[p] += ev["points"]
    return points


def case_engine_points():
    """Protocol 4: 'legal' gives every move's points and the events of what
    it completes, the same as 'try' and 'move' give; 'try' changes nothing
    and shows the state 'move' makes; 'undo' takes moves and 'end' back, to
    the very digest; bad 'try' and 'undo' are refused and change nothing."""
    e = Engine("greedy")
    check("new" in e.ask({"type": "undo"})["message"], "undo before new")
    players = 3
    e.ok({"type": "new", "players": players, "seed": 21})
    check("back" in e.ask({"type": "undo"})["message"], "undo with no move")
    rng = random.Random(8)
    digests, scoring = [], 0
    while True:
        tile = e.ask({"type": "draw"})
        if tile["type"] == "error":
            break
        before = e.ask({"type": "state"})
        digests.append(before["digest"])
        legal = e.ask({"type": "legal"})
        listed = [m["move"] for m in legal["moves"]]
        check(sorted(listed) == sorted(moves_of(legal)) and len(listed) == legal["count"],
              "legal's moves and placements differ: %r" % legal)
        last = before["left"] == 0
        for m in legal["moves"]:
            check(len(m["points"]) == players and min(m["points"]) >= 0, "points: %r" % m)
            check(last or points_of(m.get("events", []), players) == m["points"],
                  "points and events differ: %r" % m)
            check(all(ev["complete"] for ev in m.get("events", [])), "final events: %r" % m)
        # 'try' on a few moves (every scoring one): the same points, the
        # state of the move; nothing changes.
        for m in [m for m in legal["moves"] if any(m["points"])] + rng.sample(legal["moves"], 2 if len(listed) > 1 else 1):
            t = e.ask({"type": "try", "move": m["move"]})
            check(t["type"] == "try" and t["points"] == m["points"]
                  and t["points"] == points_of(t["events"], players)
                  and [ev for ev in t["events"] if ev["complete"]] == m.get("events", []),
                  "try %s: %r, legal %r" % (m["move"], t, m))
            check(t["state"]["moves"] == before["moves"] + 1 and t["state"]["scores"]
                  == [a + b for a, b in zip(before["scores"], t["points"])], "try's state: %r" % t)
            scoring += any(m["points"])
        check(e.ask({"type": "state"}) == before, "try changed the game")
        choice = rng.choice(legal["moves"])
        t = e.ask({"type": "try", "move": choice["move"]})
        r = e.ok({"type": "move", "move": choice["move"]})
        check(r["events"] == t["events"], "move and try: %r %r" % (r, t))
        after = e.ask({"type": "state"})
        check(after == t["state"], "state after the move %r, try said %r" % (after, t["state"]))
    check(scoring >= 10, "only %d scoring moves tried" % scoring)
    final = e.ask({"type": "state"})
    check(final["over"] is True, "the game is over: %r" % final)
    # The last move back, then 10 more: each time the digest of that turn.
    for back in range(11):
        r = e.ask({"type": "undo"})
        check(r == {"type": "ok", "moves": final["moves"] - 1 - back}, "undo: %r" % r)
        st = e.ask({"type": "state"})
        check(st["digest"] == digests[-1 - back] and st["over"] is False and st["tile"],
              "after %d undos: %r, digest %s" % (back + 1, st, digests[-1 - back]))
    # Another move than the one taken back; 'end' taken back too.
    e.ok({"type": "move", "move": e.ask({"type": "legal"})["moves"][0]["move"]})
    mid = e.ask({"type": "state"})
    check(e.ok({"type": "end"})["events"], "end scores something")
    e.ok({"type": "undo"})
    check(e.ask({"type": "state"}) == mid, "undo of the end")
    for bad in ({"type": "try"}, {"type": "try", "move": "E 99 99 0"},
                {"type": "try", "move": 5}, {"type": "try", "move": "Z 0 0 0"},
                {"type": "try", "move": mid["tile"] or "E", "player": 9}):
        check(is_error(e.ask(bad)), "bad try %r" % bad)
    check(e.ask({"type": "state"}) == mid, "bad requests changed the game")
    # One reader for "rules" and "expansions": one name per string in both.
    for extra, words in (({"rules": ["small-city farms-first-edition"]}, "one name"),
                         ({"expansions": ["river inns-cathedrals"]}, "one name"),
                         ({"rules": ["bogus"]}, "unknown rule 'bogus'"),
                         ({"expansions": ["bogus"]}, "unknown expansion 'bogus'"),
                         ({"rules": [""]}, "unknown rule"), ({"rules": [3]}, "string")):
        r = e.ask(dict({"type": "new", "players": 2}, **extra))
        check(is_error(r) and words in r["message"], "new %r: %r" % (extra, r))
    check(e.ask({"type": "state"}) == mid, "a refused new changed the game")
    e.ok({"type": "new", "players": 2, "rules": ["small-city", "farms-first-edition", "small-city"]})
    e.close()


def is_digest(d):
    return isinstance(d, str) and len(d) == 16 and all(c in "0123456789abcdef" for c in d)


def drive_game(e, seed, rng, new=None):
    """Plays one whole game through 'draw', 'legal' and 'move'; returns the
    moves, the draws, the scores the events add up to and the final state's
    digest. `new`: more members of the 'new' request (expansions, rules)."""
    e.ok(dict({"type": "new", "players": 2, "seed": seed}, **(new or {})))
    moves, draws, scored, digests = [], [], [0, 0], set()
    left = e.ask({"type": "state"})["left"]
    while True:
        tile = e.ask({"type": "draw"})
        if tile["type"] == "error":
            check("over" in tile["message"], "draw: %r" % tile)
            break
        check(tile["type"] == "tile" and tile["left"] == left - (len(draws) > 0),
              "draw %d: %r (left %d)" % (len(draws), tile, left))
        check(e.ask({"type": "draw"}) == tile, "a second draw changed the tile")
        left = tile["left"]
        draws.append(tile["tile"])
        digest = e.ask({"type": "state"})["digest"]
        check(is_digest(digest) and digest not in digests, "digest %r after %d moves"
              % (digest, len(moves)))
        digests.add(digest)
        move = rng.choice(moves_of(e.ask({"type": "legal"})))
        reply = e.ok({"type": "move", "player": tile["player"], "move": move})
        for ev in reply["events"]:
            for p in ev["players"]:
                scored[p] += ev["points"]
        moves.append(move)
    state = e.ask({"type": "state"})
    check(state["over"] is True and state["scores"] == scored and state["left"] == 0
          and is_digest(state["digest"]), "events add up to %r, state %r" % (scored, state))
    return moves, draws, scored, state["digest"]


def case_engine_draw():
    """'draw' deals from the engine's own pile, so a script drives whole
    games; 'new' again starts another game in the same process."""
    e = Engine("random")
    first = drive_game(e, 5, random.Random(1))
    second = drive_game(e, 6, random.Random(2))
    again = drive_game(e, 5, random.Random(1))
    check(again == first, "'new' with the same seed deals another game")
    check(second[1] != first[1], "two seeds, one deal")
    e.close()
    fresh = Engine("random")
    check(drive_game(fresh, 6, random.Random(2)) == second, "a fresh process deals otherwise")
    fresh.close()
    for moves, _, scores, digest in (first, second):
        code, out, err = run(["replay", "--json", "-"],
                             ("players 2\n" + "\n".join(moves) + "\n").encode())
        r = json.loads(out)
        check(code == 0 and r["finished"] and r["scores"] == scores and r["digest"] == digest,
              "replayed: %d %r %r %r" % (code, r, scores, digest))


# --- The house rules (variants.md) ------------------------------------------------------

BASE_BAG = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWX",
                    [2, 4, 1, 3, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3, 2, 3, 1, 3, 2, 1, 8, 9, 4, 1]))


def case_engine_hand():
    """hand=3 through the protocol: 'new' with the rule, 'draw' dealing
    into a hand (variants.md's example), 'legal' over the whole hand,
    'state' showing the seat's own hand and only the others' sizes; then a
    whole game the controller deals tile by tile, whose record (with its
    'draw' lines) replays to the engine's digest and scores."""
    e = Engine("greedy")
    e.ok({"type": "new", "players": 2, "rules": ["hand=3"], "seed": 4})
    state = e.ask({"type": "state"})
    check(state["due"] == 6 and state["draw_for"] == 0, "set-up draws due: %r" % state)
    check(is_error(e.ask({"type": "draw", "player": 1, "tiles": ["V"]})), "player 1 draws first")
    check(is_error(e.ask({"type": "tile", "tile": "E"})), "'tile' in a hand game")
    hand = e.ask({"type": "draw", "player": 0, "tiles": ["E", "K", "U"]})
    check(hand["type"] == "hand" and hand["hands"][0] == ["E", "K", "U"] and hand["due"] == 3
          and hand["draw_for"] == 1, "draw 1 E K U: %r" % hand)
    hand = e.ask({"type": "draw", "player": 1, "tiles": ["V", "A", "L"]})
    check(hand["hands"] == [["E", "K", "U"], 3] and hand["due"] == 0, "seat 0 sees sizes: %r" % hand)
    check(is_error(e.ask({"type": "draw", "player": 0, "tiles": ["B"]})), "a hand above 3")
    legal = e.ask({"type": "legal"})
    tiles = {m["move"].split()[0] for m in legal["placements"]}
    check(legal["hand"] == ["E", "K", "U"] and tiles == {"E", "K", "U"}, "legal: %r" % tiles)
    check(is_error(e.ask({"type": "move", "move": "V 0 1 0"})), "a tile not in the hand")
    e.ok({"type": "move", "move": "U 1 0 1 W"})
    e.ask({"type": "draw", "player": 0, "tiles": ["B"]})
    e.ok({"type": "move", "move": "V 0 1 0"})
    e.ask({"type": "draw", "player": 1, "tiles": ["S"]})
    reply = e.ok({"type": "move", "move": "E 0 -1 2 S"})
    check(reply["events"][0]["points"] == 4, "E closes the city: %r" % reply)
    state = e.ask({"type": "state"})
    check(state["scores"] == [4, 0] and state["due"] == 1 and state["tile"] is None,
          "state: %r" % state)

    rng = random.Random(7)
    bag = [t for t, n in BASE_BAG.items() for _ in range(n)]
    rng.shuffle(bag)
    e.ok({"type": "new", "players": 2, "rules": ["hand=3"], "seed": 9})
    lines = ["players 2", "rules hand=3"]
    while True:
        state = e.ask({"type": "state"})
        if state["over"]:
            break
        while state["due"] > 0:
            who, tile = state["draw_for"], bag.pop()
            e.ask({"type": "draw", "player": who, "tiles": [tile]})
            lines.append("draw %d %s" % (who + 1, tile))
            state = e.ask({"type": "state"})
        if state["over"]:
            break
        move = rng.choice(moves_of(e.ask({"type": "legal"})))
        e.ok({"type": "move", "move": move})
        lines.append(move)
    check(not bag, "every tile dealt: %d left" % len(bag))
    e.close()
    code, out, err = run(["replay", "--json", "-"], ("\n".join(lines) + "\n").encode())
    r = json.loads(out) if code == 0 else {}
    check(code == 0 and r["finished"] and r["scores"] == state["scores"]
          and r["digest"] == state["digest"], "replayed: %d %s %r %r" % (code, err, r, state))


def case_engine_table_hand():
    """Valued rules through the protocol's 'new' (carc_rules_parse):
    hand=2 with table=9x9 and table-edge-completes for 8 players; a
    malformed table refused; then a whole game the controller deals, every
    placement inside the table, whose record replays to the engine's
    digest and scores."""
    e = Engine("greedy")
    check(is_error(e.ask({"type": "new", "players": 2, "rules": ["table=8x9"], "seed": 1})),
          "table=8x9 (even) refused")
    check(is_error(e.ask({"type": "new", "players": 9, "rules": ["table=9x9"], "seed": 1})),
          "9 players refused")
    rules = ["hand=2", "table=9x9", "table-edge-completes"]
    rng = random.Random(11)
    bag = [t for t, n in BASE_BAG.items() for _ in range(n)]
    rng.shuffle(bag)
    e.ok({"type": "new", "players": 8, "rules": rules, "seed": 5})
    lines = ["players 8", "rules " + " ".join(rules)]
    placed = 0
    while True:
        state = e.ask({"type": "state"})
        if state["over"]:
            break
        while state["due"] > 0 and bag:
            who, tile = state["draw_for"], bag.pop()
            e.ask({"type": "draw", "player": who, "tiles": [tile]})
            lines.append("draw %d %s" % (who + 1, tile))
            state = e.ask({"type": "state"})
        if state["over"]:
            break
        legal = e.ask({"type": "legal"})
        # A hand's discards (no tile of it fits on the table) are in "moves".
        move = rng.choice(moves_of(legal) if legal["placements"] else
                          [m["move"] for m in legal["moves"]])
        words = move.split()
        if words[0] != "discard":
            check(abs(int(words[1])) <= 4 and abs(int(words[2])) <= 4,
                  "placement beyond the 9x9 table: %s" % move)
            placed += 1
        e.ok({"type": "move", "move": move})
        lines.append(move)
    e.close()
    check(placed <= 80, "at most 80 tiles placed on a 9x9 table: %d" % placed)
    code, out, err = run(["replay", "--json", "-"], ("\n".join(lines) + "\n").encode())
    r = json.loads(out) if code == 0 else {}
    check(code == 0 and r["finished"] and r["scores"] == state["scores"]
          and r["digest"] == state["digest"], "replayed: %d %s %r %r" % (code, err, r, state))


def case_show_table():
    """`show` of a record with table=WxH draws the whole table, framed by
    its edge, an empty square of it as a dot; a record without a table has
    no frame."""
    rec = b"players 2\nrules table=5x3\nU 1 0 1\n"
    code, out, err = run(["show", "--no-color", "-"], rec)
    check(code == 0, "show: %s" % err)
    lines = out.splitlines()
    top = [i for i, line in enumerate(lines) if "\u250c" in line]
    bottom = [i for i, line in enumerate(lines) if "\u2514" in line]
    check(len(top) == 1 and len(bottom) == 1, "no frame: %s" % out)
    body = lines[top[0] + 1:bottom[0]]
    # 3 rows of squares, each 3 lines of art, inside the frame's sides.
    check(len(body) == 9 and all(line.count("\u2502") >= 2 for line in body),
          "the table's rows: %s" % "\n".join(lines[top[0]:bottom[0] + 1]))
    width = lines[top[0]].count("\u2500")
    check(width == 5 * 5, "the frame spans %d columns, not 5 squares" % width)
    # Columns -2..2 are labelled although only x 0 and 1 hold tiles; the
    # 13 empty squares show a dot each in their middle line.
    labels = lines[top[0] - 1].split()
    check(labels == ["-2", "-1", "0", "[1]", "2"], "column labels %r" % labels)
    middles = [body[1], body[4], body[7]]
    check(sum(line.count("\u00b7") for line in middles) >= 13, "dots: %s" % "\n".join(body))
    # The same record without the table rule: no frame, only the 2 columns.
    code, out, err = run(["show", "--no-color", "-"], b"players 2\nU 1 0 1\n")
    check(code == 0 and "\u250c" not in out and "\u2514" not in out, "a frame: %s" % out)


def case_rules_hand_commands():
    """selfplay, replay, show, analyse, arena and bench with --rules hand=3
    (and reshuffle, start-in-pile): the valued rule passes through."""
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "g.rec")
        for rules in ("hand=3", "hand=1,reshuffle", "start-in-pile,hand=2,open-hands"):
            code, out, err = run(["selfplay", "--seed", "3", "--players", "3", "--rules", rules,
                                  "--record", rec])
            check(code == 0, "selfplay --rules %s: %s" % (rules, err))
            text = open(rec).read()
            check(("draw 1 " in text) == ("hand" in rules), "draw lines: %s" % text[:200])
            check(("\nstart " in text) == ("start-in-pile" in rules), "start line")
            code, out, err = run(["replay", "--json", rec])
            check(code == 0 and json.loads(out)["finished"], "replay: %s" % err)
            code, out, err = run(["show", rec])
            check(code == 0, "show: %s" % err)
            code, out, err = run(["analyse", "--player", "greedy", "--each-move", rec])
            check(code == 0, "analyse: %s %s" % (out[:200], err))
        # A server's fair deal (salt, commitment) checked on a hand game's
        # draw lines, and on a start-in-pile game's start tile.
        import hashlib
        salt = "0123456789abcdef0123456789abcdef"
        commit = hashlib.sha256(("%s:3" % salt).encode()).hexdigest()
        for rules in ("hand=3", "start-in-pile,reshuffle"):
            run(["selfplay", "--seed", "3", "--players", "2", "--rules", rules, "--record", rec])
            lines = open(rec).read().split("\n")
            lines[2:2] = ["salt " + salt, "commitment " + commit]
            code, out, err = run(["replay", "-"], "\n".join(lines).encode())
            check(code == 0 and "deal verified" in out, "deal of %s: %s %s" % (rules, out, err))
            forged = list(lines)
            for i, line in enumerate(forged):
                words = line.split()
                if words[:2] == ["draw", "1"] and len(words) == 5 and words[2] != words[4]:
                    forged[i] = " ".join(words[:2] + words[2:][::-1])
                    break
            if forged == lines:
                continue  # no draw lines: the start tile is checked by the moves
            code, out, err = run(["replay", "-"], "\n".join(forged).encode())
            check(code == 1 and "forged deal" in err, "forged %s: %d %s %s" % (rules, code, out, err))
        code, out, err = run(["arena", "mcts:iters=100", "greedy", "--rules", "hand=3", "--games",
                              "2"], timeout=280)
        check(code == 0 and "score rate" in out, "arena --rules hand=3: %s %s" % (out, err))
        code, out, err = run(["bench", "--games", "20", "--rules", "hand=3"])
        check(code == 0, "bench --rules hand=3: %s" % err)


# --- Garbage on the protocol ------------------------------------------------------------

BAD_REQUESTS = [
    b"garbage", b"{", b"}", b"[1,2,3]", b"42", b"\"new\"", b"null", b"{}",
    b"{\"type\":null}", b"{\"type\":7}", b"{\"type\":\"\"}", b"{\"type\":\"fly\"}",
    b"{\"type\":\"new\"}", b"{\"type\":\"new\",\"players\":\"2\"}",
    b"{\"type\":\"new\",\"players\":1}", b"{\"type\":\"new\",\"players\":9}",
    b"{\"type\":\"new\",\"players\":2.5}", b"{\"type\":\"new\",\"players\":2,\"seat\":2}",
    b"{\"type\":\"new\",\"players\":2,\"seat\":-1}",
    b"{\"type\":\"new\",\"players\":2,\"rules\":\"small-city\"}",
    b"{\"type\":\"new\",\"players\":2,\"rules\":[\"bogus\"]}",
    b"{\"type\":\"new\",\"players\":2,\"rules\":[1]}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":\"river\"}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":[\"bogus\"]}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":[1]}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":[\"\"]}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":[\"river\",\"river\"]}",
    b"{\"type\":\"new\",\"players\":2,\"expansions\":[\"river river\"]}",
    b"{\"type\":\"new\",\"players\":2,\"rules\":[\"river-keep-start\"]}",
    b"{\"type\":\"new\",\"players\":2,\"seed\":-5}",
    b"{\"type\":\"new\",\"players\":99999999999999999999999}",
    b"{\"type\":\"new\",\"type\":\"new\",\"players\":2}",
    b"{\"type\":\"tile\",\"tile\":\"E\"}", b"{\"type\":\"move\",\"move\":\"E 0 -1 2\"}",
    b"{\"type\":\"state\"}", b"{\"type\":\"end\"}",
    b"\x00\x01\x02", b"\xff\xfe{\"type\":\"hello\"}", b"{\"type\":\"hel\xc3lo\"}",
    b"{\"type\":\"hello\"\x00}", b"[" * 100000, b"{\"a\":" * 5000,
    b"{\"type\":\"" + b"x" * 70000 + b"\"}",
]

# After a good 'new': requests that must be refused and change nothing.
BAD_IN_GAME = [
    b"{\"type\":\"tile\"}", b"{\"type\":\"tile\",\"tile\":\"Z\"}",
    b"{\"type\":\"tile\",\"tile\":\"EE\"}", b"{\"type\":\"tile\",\"tile\":5}",
    b"{\"type\":\"tile\",\"tile\":\"\"}", b"{\"type\":\"tile\",\"tile\":\"E\",\"player\":1}",
    b"{\"type\":\"tile\",\"tile\":\"E\",\"player\":\"0\"}",
    b"{\"type\":\"move\"}", b"{\"type\":\"move\",\"move\":123}",
    b"{\"type\":\"move\",\"move\":\"\"}", b"{\"type\":\"move\",\"move\":\"E 0 0 0\"}",
    b"{\"type\":\"move\",\"move\":\"E 0 -1 2 S\\nU 1 0 1\"}",
    b"{\"type\":\"move\",\"move\":\"Z 0 -1 2\"}", b"{\"type\":\"move\",\"move\":\"discard E\"}",
    b"{\"type\":\"move\",\"move\":\"E 0 -1 2 S S S S S S S S\"}",
    b"{\"type\":\"move\",\"move\":\"E 99999999999 -1 2\"}",
    b"{\"type\":\"move\",\"move\":\"end\"}", b"{\"type\":\"move\",\"move\":\"\\u00e9 0 0 0\"}",
    b"{\"type\":\"tile\",\"tile\":\"RD\"}", b"{\"type\":\"tile\",\"tile\":\"RA\"}",
    b"{\"type\":\"tile\",\"tile\":\"rd\"}", b"{\"type\":\"tile\",\"tile\":\"RDD\"}",
    b"{\"type\":\"draw\",\"tile\":\"RD\"}", b"{\"type\":\"draw\",\"tile\":\"Z\"}",
    b"{\"type\":\"draw\",\"tile\":\"E\",\"player\":1}",
    b"{\"type\":\"move\",\"move\":\"RD 1 0 0\"}",
    b"{\"type\":\"go\"}", b"{\"type\":\"legal\"}",
    b"{\"type\":\"analyse\",\"top\":0}", b"{\"type\":\"analyse\",\"top\":1000000000}",
    b"{\"type\":\"go\",\"ms\":0}", b"{\"type\":\"go\",\"ms\":\"fast\"}",
]


def case_engine_garbage():
    rng = random.Random(2024)
    lines = list(BAD_REQUESTS)
    for _ in range(300):
        n = rng.randrange(1, 200)
        lines.append(bytes(rng.choice(b"{}[]\":,0123456789-.eE abcxyz\t\\\x00\x7f\xc3\xff")
                           for _ in range(n)))
    data = b"\n".join(lines) + b"\n"
    data += b"{\"type\":\"new\",\"players\":2,\"seed\":3}\n"
    data += b"\n".join(BAD_IN_GAME) + b"\n"
    data += b"{\"type\":\"state\"}\n{\"type\":\"quit\"}"  # no newline at the end
    replies = engine_replies(data, "random")
    reqs = requests_of(data)
    check(len(replies) == len(reqs), "%d replies for %d requests" % (len(replies), len(reqs)))
    bad_count = len(reqs) - 3 - len(BAD_IN_GAME)
    for i in range(bad_count):
        check(is_error(replies[i]), "request %d (%r) answered %r" % (i, reqs[i][:60], replies[i]))
    check(replies[bad_count] == {"type": "ok", "expansions": []},
          "new after garbage: %r" % replies[bad_count])
    for k in range(len(BAD_IN_GAME)):
        r = replies[bad_count + 1 + k]
        check(is_error(r), "%r answered %r" % (BAD_IN_GAME[k], r))
    state = replies[-2]
    check(state["type"] == "state" and state["moves"] == 0 and state["to_move"] == 0
          and state["scores"] == [0, 0] and state["tile"] is None,
          "the refused requests changed the game: %r" % state)
    check(replies[-1] == {"type": "bye"}, "last reply: %r" % replies[-1])


def padded(request, size):
    """`request` padded with spaces inside the object to `size` bytes."""
    return request[:-1] + b" " * (size - len(request)) + b"}"


def case_line_limit():
    """A line of 65,536 bytes (its LF or CR LF not counted) is the longest
    either side may send: one byte more is refused, on both sides."""
    hello = b"{\"type\":\"hello\"}"
    data = (padded(hello, 65536) + b"\n" + padded(hello, 65536) + b"\r\n"
            + padded(hello, 65537) + b"\n" + padded(hello, 65537) + b"\r\n"
            + padded(hello, 200000) + b"\n" + hello + b"\n" + padded(hello, 65537))
    r = engine_replies(data, "random")
    check(len(r) == 7, "%d replies to 7 lines" % len(r))
    check(r[0]["type"] == "hello" and r[1]["type"] == "hello", "65,536 bytes: %r" % r[:2])
    for i in (2, 3, 4, 6):
        check(is_error(r[i]) and "longer than 65536" in r[i]["message"], "line %d: %r" % (i, r[i]))
    check(r[5]["type"] == "hello", "the line after a long one: %r" % r[5])


# --- The arena ----------------------------------------------------------------------

def arena_json(args, expect_code=0):
    code, out, err = run(["arena"] + args + ["--json"], timeout=300)
    check(code == expect_code, "arena %s exited %d: %s" % (args, code, err))
    lines = out.splitlines()
    check(len(lines) == 1, "arena --json printed %d lines" % len(lines))
    return json.loads(lines[0]), err


def check_sane(s, games):
    for key in ("games", "a_wins", "b_wins", "draws", "a_win_rate", "mean_margin", "pairs",
                "a_win_rate_ci", "margin_se", "elo", "elo_ci", "a_mean_score", "b_mean_score",
                "a_ms_per_move", "b_ms_per_move", "a_forfeits", "b_forfeits"):
        check(key in s, "no %s in %r" % (key, s))
    check(s["games"] == games and s["pairs"] == (games + 1) // 2, "games: %r" % s)
    check(s["a_wins"] + s["b_wins"] + s["draws"] == games, "results add up: %r" % s)
    rate = (s["a_wins"] + 0.5 * s["draws"]) / games
    check(abs(s["a_win_rate"] - rate) < 1e-6, "rate: %r" % s)
    lo, hi = s["a_win_rate_ci"]
    check(0 <= lo <= s["a_win_rate"] <= hi <= 1, "interval: %r" % s)
    check(s["elo_ci"][0] <= s["elo"] <= s["elo_ci"][1], "Elo interval: %r" % s)
    check(abs(s["mean_margin"] - (s["a_mean_score"] - s["b_mean_score"])) < 1e-3,
          "margin: %r" % s)
    check(s["a_ms_per_move"] >= 0 and s["b_ms_per_move"] >= 0, "times: %r" % s)


def without_times(s):
    return {k: v for k, v in s.items() if k not in ("a_ms_per_move", "b_ms_per_move", "seconds",
                                                  "threads")}


def case_arena_smoke():
    s, _ = arena_json(["greedy", "random", "--games", "4"])
    check_sane(s, 4)
    check(s["a"] == "greedy" and s["b"] == "random", "names: %r" % s)
    check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "forfeits: %r" % s)
    check(s["a_mean_score"] > 0 and s["b_mean_score"] > 0, "scores: %r" % s)
    # The same seed plays the same games, with one thread or two.
    again, _ = arena_json(["greedy", "random", "--games", "4", "--threads", "2"])
    check(without_times(again) == without_times(s), "not reproducible: %r vs %r" % (s, again))
    other, _ = arena_json(["random", "random", "--games", "3", "--seed", "9",
                           "--rules", "small-city,bonus-turn"])
    check_sane(other, 3)
    check(other["rules"] == "small-city,bonus-turn", "rules: %r" % other)


def case_arena_engine():
    with tempfile.TemporaryDirectory() as tmp:
        engine = "engine:%s engine --player random" % CARC
        s, err = arena_json([engine, "greedy", "--games", "2", "--engine-ms", "200",
                             "--record", tmp])
        check_sane(s, 2)
        check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "forfeits: %r %s" % (s, err))
        check(s["a_ms_per_move"] > 0, "engine time: %r" % s)
        records = sorted(os.listdir(tmp))
        check(records == ["game-0001.rec", "game-0002.rec"], "records: %r" % records)
        for name in records:
            code, out, err = run(["replay", "--json", os.path.join(tmp, name)])
            check(code == 0, "%s does not replay: %s" % (name, err))
            check(json.loads(out)["finished"] is True, "%s is unfinished" % name)
        with open(os.path.join(tmp, "game-0002.rec")) as f:
            text = f.read()
        check("player-1 greedy" in text and "# player 2: engine:" in text, "headers: %s" % text)


def case_arena_engine_hand():
    """An outside engine in hand games (it was sent 'tile', which a hand
    game refuses, and forfeited every game): told the draws, it plays to
    the end, with a reshuffle and a small table too."""
    engine = "engine:%s engine --player greedy" % CARC
    for rules in ("hand=3", "hand=2,reshuffle,table=7x7"):
        s, err = arena_json([engine, "mcts:iters=200", "--games", "2", "--seed", "5",
                             "--rules", rules])
        check_sane(s, 2)
        check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "%s forfeits: %r %s" % (rules, s, err))


def case_arena_record_error():
    """A record that cannot be written: reported once, the match goes on,
    the statistics of every game print, and the exit status is 1."""
    with tempfile.TemporaryDirectory() as tmp:
        # Folders where games 2 and 3's records should go: fopen fails even as root.
        for name in ("game-0002.rec", "game-0003.rec"):
            os.mkdir(os.path.join(tmp, name))

        def clear():  # a folder with the records of a match is refused without --resume
            for name in ("game-0001.rec", "game-0004.rec"):
                if os.path.isfile(os.path.join(tmp, name)):
                    os.remove(os.path.join(tmp, name))

        for extra in ([], ["--threads", "2"]):
            clear()
            s, err = arena_json(["greedy", "random", "--games", "4", "--record", tmp] + extra,
                                expect_code=1)
            check_sane(s, 4)
            # The first failure to finish is reported: with two games at
            # once, game 3 may finish before game 2.
            first = "game-0002.rec" in err or (extra and "game-0003.rec" in err)
            check(err.count("cannot write") == 1 and first, "the first error, once: %s" % err)
            check("2 of 4 game records could not be written" in err, "the count: %s" % err)
            for name in ("game-0001.rec", "game-0004.rec"):
                check(os.path.isfile(os.path.join(tmp, name)), "%s not written" % name)
        clear()
        code, out, err = run(["arena", "greedy", "random", "--games", "2", "--record", tmp])
        check(code == 1 and "A wins" in out and "cannot write" in err,
              "text: %d %s %s" % (code, out, err))
        # A folder that cannot be made (under a regular file) is refused up front.
        blocker = os.path.join(tmp, "game-0001.rec")
        code, out, err = run(["arena", "greedy", "random", "--games", "2", "--record",
                              os.path.join(blocker, "sub")])
        check(code == 2 and out == "" and "cannot make the folder" in err,
              "uncreatable folder: %d %r %s" % (code, out, err))


def read_records(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def case_arena_resume():
    """--resume counts the games whose finished records are in the folder and
    plays the rest: the same statistics and records as one whole match."""
    with tempfile.TemporaryDirectory() as tmp:
        whole = os.path.join(tmp, "whole")
        part = os.path.join(tmp, "part")
        args = ["greedy", "random", "--games", "6", "--seed", "3"]
        s, _ = arena_json(args + ["--record", whole])
        check(s["resumed"] == 0, "no --resume, nothing resumed: %r" % s)
        records = read_records(whole)
        check(len(records) == 6, "records: %r" % list(records))
        # A match stopped after games 1, 2, 3 and 6, with game 4 cut short.
        os.mkdir(part)
        for name in ("game-0001.rec", "game-0002.rec", "game-0003.rec", "game-0006.rec"):
            with open(os.path.join(part, name), "wb") as f:
                f.write(records[name])
        with open(os.path.join(part, "game-0004.rec"), "wb") as f:
            f.write(b"\n".join(records["game-0004.rec"].split(b"\n")[:20]) + b"\n")
        r, err = arena_json(args + ["--record", part, "--resume", "--verbose"])
        check(r["resumed"] == 4, "4 finished records counted: %r" % r)
        check("4 of 6 games counted" in err, "the count on stderr: %s" % err)
        check(without_times(dict(r, resumed=0)) == without_times(s),
              "resumed %r, whole %r" % (r, s))
        check(read_records(part) == records, "the records of a resumed match differ")
        # Everything there: nothing is played.
        code, out, err = run(["arena"] + args + ["--record", part, "--resume"])
        check(code == 0 and "all 6 games counted from their records" in out,
              "all resumed: %d %s %s" % (code, out, err))
        # The records of another match, or a bad one: refused, nothing changes.
        for other in (["greedy", "random", "--games", "6", "--seed", "4"],
                      ["random", "greedy", "--games", "6", "--seed", "3"],
                      args + ["--rules", "small-city"]):
            code, out, err = run(["arena"] + other + ["--record", part, "--resume"])
            check(code == 2 and out == "" and "game-0001.rec is of another match" in err,
                  "%r: %d %r %s" % (other, code, out, err))
        with open(os.path.join(part, "game-0002.rec"), "ab") as f:
            f.write(b"Z 9 9 9\n")
        os.remove(os.path.join(part, "game-0005.rec"))
        code, out, err = run(["arena"] + args + ["--record", part, "--resume"])
        check(code == 2 and out == "" and "game-0002.rec: line" in err,
              "a bad record: %d %r %s" % (code, out, err))
        check(not os.path.exists(os.path.join(part, "game-0005.rec")),
              "a refused resume played a game")
        # A forfeited game is counted as the forfeit it was.
        forfeits = os.path.join(tmp, "forfeits")
        bad = ["engine:exit 3", "random", "--games", "2", "--engine-ms", "50",
               "--record", forfeits]
        s, _ = arena_json(bad)
        r, _ = arena_json(bad + ["--resume"])
        check(s["a_forfeits"] == 2 and r["a_forfeits"] == 2 and r["resumed"] == 2,
              "forfeits: %r %r" % (s, r))
        # The seat that never opened is named too.
        records = read_records(forfeits)
        check(b"# player 1: engine:exit 3\nplayer-2 random\n" in records["game-0001.rec"]
              and b"player-1 random\n# player 2: engine:exit 3\n" in records["game-0002.rec"],
              "forfeit headers: %r" % records)
        # A longer match on the same seed goes on from a shorter one's games.
        longer, _ = arena_json(["greedy", "random", "--games", "8", "--seed", "3",
                                "--record", whole, "--resume"])
        check(longer["resumed"] == 6 and longer["games"] == 8, "extended: %r" % longer)
        check(sorted(os.listdir(whole)) == ["game-%04d.rec" % i for i in range(1, 9)],
              "files beside the records: %r" % os.listdir(whole))


# Outside engines that misbehave: each must lose its games, never stop the arena.
SILENT_ON_GO = ("while read -r l; do case \"$l\" in *'\"go\"'*) sleep 30;; "
                "*) echo '{\"type\":\"ok\"}';; esac; done")
ILLEGAL_ON_GO = ("while read -r l; do case \"$l\" in *'\"go\"'*) "
                 "echo '{\"type\":\"move\",\"move\":\"Z 9 9 9\"}';; "
                 "*) echo '{\"type\":\"ok\"}';; esac; done")
NO_MOVE_ON_GO = ("while read -r l; do case \"$l\" in *'\"go\"'*) echo '{\"type\":\"move\"}';; "
                 "*) echo '{\"type\":\"ok\"}';; esac; done")
DUPLICATE_KEYS = "while read -r l; do echo '{\"type\":\"ok\",\"type\":\"ok\"}'; done"
TWO_LINES = "while read -r l; do printf '{\"type\":\"ok\"}\\n{\"type\":\"ok\"}\\n'; done"
MOVE_ON_TILE = ("while read -r l; do case \"$l\" in *'\"tile\"'*) "
                "echo '{\"type\":\"move\",\"move\":\"E 0 -1 2\"}';; "
                "*) echo '{\"type\":\"ok\"}';; esac; done")
BAD_ENGINES = [
    ("cat", "a reply to 'new' of type 'new', not 'ok'"),
    (NO_MOVE_ON_GO, "without a \"move\""),
    ("false", "the engine exited (status 1)"),
    ("exit 3", "the engine exited (status 3)"),
    ("kill -9 $$", "killed by signal 9"),
    ("echo not-json; sleep 5", "not a JSON object"),
    ("head -c 100000 /dev/zero | tr '\\0' x", "longer than 65536"),
    (ILLEGAL_ON_GO, "illegal move"),
    (SILENT_ON_GO, "no reply to 'go' within"),
    (DUPLICATE_KEYS, "duplicate"),
    (TWO_LINES, "more than one line in reply to 'new'"),
    (MOVE_ON_TILE, "a reply to 'tile' of type 'move', not 'ok'"),
]


def case_arena_bad_engines():
    for command, message in BAD_ENGINES:
        s, err = arena_json(["engine:" + command, "random", "--games", "2",
                             "--engine-ms", "50"])
        check_sane(s, 2)
        check(s["a_forfeits"] == 2 and s["b_wins"] == 2, "%s: %r" % (command, s))
        check(message in err, "%s: no '%s' in: %s" % (command, message, err))
    # An engine that exits leaves a child holding its output open: it
    # forfeits for having exited (not for a time-out), and the child is
    # killed with it.
    for child in ("</dev/null >/dev/null 2>&1", ""):
        nap = "%d.%d" % (987, os.getpid())
        s, err = arena_json(["engine:sleep %s %s & exit 0" % (nap, child), "random",
                             "--games", "2"])
        check(s["a_forfeits"] == 2 and err.count("exited (status 0)") == 2
              and "no reply" not in err, "an engine that exits: %r %s" % (s, err))
        check(not sleeping(nap), "the engine's child 'sleep %s' survives" % nap)
    # Both sides outside engines, one good and one bad, two threads.
    good = "engine:%s engine --player greedy" % CARC
    s, err = arena_json([good, "engine:cat", "--games", "4", "--threads", "2",
                         "--engine-ms", "50"])
    check(s["b_forfeits"] == 4 and s["a_wins"] == 4, "good vs bad: %r %s" % (s, err))


def sleeping(nap):
    """Whether a process that names NAP (a `sleep NAP`, or the shell of an
    engine that starts one) is still running once it has had some seconds
    to die. NAP is unique to the test: no other process names it."""
    names = (nap.encode() + b"\0", nap.encode() + b" ")
    for _ in range(100):
        alive = False
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmdline = f.read()
                alive |= any(name in cmdline for name in names)
            except OSError:
                pass
        if not alive:
            return False
        time.sleep(0.1)
    return True


def case_arena_engine_reuse():
    """One engine process plays every game of a match ('new' per game); one
    that misbehaves loses that game only and is started again; at the end
    its whole process group is killed."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "starts")
        nap = "%d.%d" % (985, os.getpid())
        good = "engine:echo start >> %s; sleep %s & exec %s engine --player random" % (
            log, nap, CARC)
        s, err = arena_json([good, "greedy", "--games", "6", "--seed", "4"])
        check_sane(s, 6)
        check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "forfeits: %r %s" % (s, err))
        with open(log) as f:
            check(f.read() == "start\n", "one process for 6 games")
        check(not sleeping(nap), "the engine's child 'sleep %s' survives the match" % nap)
        # The same games as with a process per game: six threads, one game each.
        fresh, _ = arena_json([good, "greedy", "--games", "6", "--seed", "4", "--threads", "6"])
        check(without_times(fresh) == without_times(s),
              "reused engine %r, one per game %r" % (s, fresh))
        with open(log) as f:
            check(f.read() == "start\n" * 7, "one process per thread")
        # A process that crashes in game 1 (its first start) loses game 1 only.
        os.remove(log)
        flaky = ("engine:echo start >> %s; [ $(wc -l < %s) -eq 1 ] && exit 5; "
                 "exec %s engine --player random" % (log, log, CARC))
        s, err = arena_json([flaky, "greedy", "--games", "4"])
        check(s["a_forfeits"] == 1 and "game 1: A" in err and "exited (status 5)" in err,
              "one forfeit: %r %s" % (s, err))
        with open(log) as f:
            check(f.read() == "start\n" * 2, "started again once")


def case_arena_stopped():
    """An arena that is stopped (Ctrl-C, kill) takes its engines' process
    groups with it: they are out of reach of the terminal's signals."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        with tempfile.TemporaryDirectory() as tmp:
            mark = os.path.join(tmp, "started")
            nap = "%d.%d" % (984, os.getpid())
            engine = "engine:sleep %s & touch %s; exec %s engine --player random" % (nap, mark,
                                                                                     CARC)
            p = subprocess.Popen([CARC, "arena", engine, "random", "--games", "100000"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(600):
                if os.path.exists(mark) or p.poll() is not None:
                    break
                time.sleep(0.1)
            p.send_signal(sig)
            check(p.wait(timeout=60) == -sig, "the arena ended %r on signal %d" % (p.returncode,
                                                                                  sig))
            check(not sleeping(nap), "the engine's child 'sleep %s' survives signal %d"
                  % (nap, sig))


def case_arena_line_limit():
    """The arena takes a reply of 65,536 bytes and refuses one byte more."""
    with tempfile.TemporaryDirectory() as tmp:
        pad = os.path.join(tmp, "pad.py")
        with open(pad, "w") as f:
            f.write("import subprocess, sys\n"
                    "e = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE,"
                    " stdout=subprocess.PIPE)\n"
                    "for line in sys.stdin.buffer:\n"
                    "    e.stdin.write(line); e.stdin.flush()\n"
                    "    r = e.stdout.readline().rstrip(b'\\n')\n"
                    "    sys.stdout.buffer.write(r[:-1] + b' ' * (int(sys.argv[1]) - len(r))"
                    " + b'}\\n')\n"
                    "    sys.stdout.flush()\n")
        for size, forfeits in ((65536, 0), (65537, 2)):
            engine = "engine:%s %s %d %s engine --player random" % (sys.executable, pad, size,
                                                                  CARC)
            s, err = arena_json([engine, "random", "--games", "2"])
            check(s["a_forfeits"] == forfeits, "replies of %d bytes: %r %s" % (size, s, err))
            check(not forfeits or "longer than 65536" in err, "the reason: %s" % err)


def case_example_bot():
    """examples/random_bot.py plays whole games through the arena, legally."""
    bot = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "random_bot.py")
    s, err = arena_json(["engine:%s %s %s" % (sys.executable, bot, CARC), "random",
                         "--games", "4", "--engine-ms", "100"])
    check_sane(s, 4)
    check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "forfeits: %r %s" % (s, err))
    check(err == "", "standard error: %s" % err)
    # The River: 'new' passes the expansions to the rules engine beside it.
    s, err = arena_json(["engine:%s %s %s" % (sys.executable, bot, CARC), "random",
                         "--games", "2", "--engine-ms", "100", "--expansions", "river"])
    check_sane(s, 2)
    check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0 and err == "",
          "river forfeits: %r %s" % (s, err))
    example_bot_try(bot)


def example_bot_try(bot):
    """The "try" command of random_bot.py's own docstring, run as written
    from a source tree (a copy: examples/ and build/carcassonne) with no
    `carcassonne` on the PATH: the bot finds the built program, no game is
    forfeited. Without any program the bot says so and exits 1."""
    with open(bot) as f:
        doc = f.read()
    tries = [l.strip() for l in doc.splitlines() if l.strip().startswith("build/carcassonne arena")]
    check(len(tries) == 1, "no try command in random_bot.py: %r" % tries)
    env = {k: v for k, v in os.environ.items() if k != "CARCASSONNE"}
    env["PATH"] = "/usr/bin:/bin"
    with tempfile.TemporaryDirectory() as tree:
        os.mkdir(os.path.join(tree, "examples"))
        with open(os.path.join(tree, "examples", "random_bot.py"), "w") as f:
            f.write(doc)
        p = subprocess.run(["sh", "-c", "python3 examples/random_bot.py"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 1 and "no carcassonne program" in p.stderr,
              "without a program: %d %r" % (p.returncode, p.stderr))
        os.mkdir(os.path.join(tree, "build"))
        os.symlink(os.path.abspath(CARC), os.path.join(tree, "build", "carcassonne"))
        p = subprocess.run(["sh", "-c", tries[0] + " --games 2 --json"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, "try: %d %s" % (p.returncode, p.stderr))
        s = json.loads(p.stdout)
        check(s["games"] == 2 and s["a_forfeits"] == 0, "try: %r %s" % (s, p.stderr))


# --- analyse -----------------------------------------------------------------------------

def case_analyse_exact():
    """analyse --exact: every legal move with its exact margin, best first,
    on a selfplay record truncated to 2 tiles left, as --json and as text;
    a record with too many tiles left falls back to the search with
    "exact": false and says why; a finished game is refused."""
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "game.rec")
        code, out, err = run(["selfplay", "--seed", "5", "--players", "2", "--record", rec])
        check(code == 0, "selfplay: %s" % err)
        with open(rec) as f:
            game = f.read().splitlines()
        # Header keys are lower case; moves start with a tile id or `discard`.
        head = [l for l in game if l[:1].islower() and not l.startswith("discard")]
        moves = [l for l in game if l not in head and not l.startswith("#")]
        late = os.path.join(tmp, "late.rec")
        with open(late, "w") as f:  # 70 tiles after the start: 68 moves leave 2 to draw
            f.write("\n".join(head + moves[:68]) + "\n")
        code, out, err = run(["analyse", "--exact", "--json", late])
        check(code == 0, "analyse --exact: %d %s" % (code, err))
        a = json.loads(out)
        check(a["exact"] is True and a["tiles_left"] == 2 and len(a["moves"]) >= 1, "exact: %r" % a)
        margins = [m["margin"] for m in a["moves"]]
        check(margins == sorted(margins, reverse=True), "best first: %r" % margins)
        tile = a["tile"]
        check(all(m["move"].split(" ")[0] == tile for m in a["moves"]), "moves: %r" % a["moves"])
        # On one thread and on three: the same moves with the same margins.
        for threads in ("1", "3"):
            code, out, err = run(["analyse", "--exact", "--exact-threads", threads, "--json", late])
            b = json.loads(out) if code == 0 else {}
            check(code == 0 and b.get("moves") == a["moves"],
                  "--exact-threads %s: %d %r %s" % (threads, code, b, err))
        code, text, err = run(["analyse", "--exact", late])
        check(code == 0 and "exact expected final margins" in text
              and a["moves"][0]["move"] in text, "text: %s %s" % (text, err))
        # Too many tiles: the search ranks instead, and says why.
        early = os.path.join(tmp, "early.rec")
        with open(early, "w") as f:
            f.write("\n".join(head + moves[:20]) + "\n")
        code, out, err = run(["analyse", "--exact", "--json", "--ms", "20", early])
        check(code == 0, "fallback: %d %s" % (code, err))
        a = json.loads(out)
        check(a["exact"] is False and a["tiles_left"] == 50 and "50 tiles left" in a["reason"]
              and len(a["moves"]) >= 1 and "not exact" in err, "fallback: %r %s" % (a, err))
        # A finished game: nothing to rank.
        code, out, err = run(["analyse", "--exact", "--json", rec])
        check(code == 1 and out == "" and "over" in err, "finished: %d %r %s" % (code, out, err))
    code, out, err = run(["analyse", "--exact", "--each-move", "x.rec"])
    check(code == 2 and "--each-move" in err, "--exact --each-move: %d %s" % (code, err))
    code, out, err = run(["analyse", "--exact", "--exact-ms", "0", "x.rec"])
    check(code == 2 and "--exact-ms" in err, "--exact-ms 0: %d %s" % (code, err))
    for bad in ("0", "65", "two", "-1"):
        code, out, err = run(["analyse", "--exact", "--exact-threads", bad, "x.rec"])
        check(code == 2 and out == "" and "--exact-threads takes 1 to 64" in err,
              "--exact-threads %s: %d %s" % (bad, code, err))
    code, out, err = run(["analyse", "--exact-threads", "2", "x.rec"])
    check(code == 2 and "go with --exact" in err, "--exact-threads alone: %d %s" % (code, err))


def case_analyse():
    small = os.path.join(HERE, "small.rec")
    code, out, err = run(["analyse", "--player", "greedy", "--tile", "U", "--top", "3",
                          "--json", small])
    check(code == 0, "analyse: %d %s" % (code, err))
    a = json.loads(out)
    check(a["player"] == 1 and a["tile"] == "U" and a["moves_played"] == 2
          and a["legal_moves"] > 3 and len(a["best"]) == 3, "analysis: %r" % a)
    margins = [m["margin"] for m in a["best"]]
    check(margins == sorted(margins, reverse=True), "greedy ranks by margin: %r" % margins)
    for m in a["best"]:
        check(m["move"].startswith("U ") and 0 <= m["win"] <= 1, "move: %r" % m)
    code, out, err = run(["analyse", "--player", "greedy", "--tile", "U", small])
    check(code == 0 and "rank  move" in out and "\n     1  U " in out, "text: %s %s" % (out, err))
    code, out, err = run(["analyse", "--ms", "30", "--top", "2", "--json", small])
    check(code == 0 and len(json.loads(out)["best"]) == 2, "default player: %s %s" % (out, err))
    # Every ranking is in one order: the chance to win, then the margin.
    code, out, err = run(["analyse", "--ms", "100", "--top", "100", "--tile", "B", "--json", small])
    a = json.loads(out)
    check(code == 0 and a["order"] == "chance to win, then margin", "order: %r %s" % (a, err))
    # The sort keys are the figures as shown, lround(win * 1000) and
    # lround(margin * 100); the JSON has 6 significant digits, so a value
    # that reads exactly half-way may have been rounded either way.
    def shown(x, scale):
        v = x * scale
        f = math.floor(v)
        return {f, f + 1} if abs(v - f - 0.5) < 1e-6 else {math.floor(v + 0.5)}

    keys = [[(w, g) for w in shown(m["win"], 1000) for g in shown(m["margin"], 100)]
            for m in a["best"]]
    check(len(keys) == a["legal_moves"] and
          all(max(keys[i]) >= min(keys[i + 1]) for i in range(len(keys) - 1)),
          "not by win, then margin, as shown: %r" % [min(k) for k in keys])
    code, out, err = run(["analyse", "--ms", "30", "--tile", "B", small])
    check("best first by chance to win, then margin" in out, "the order unsaid: %s" % out)
    # A symmetric tile's placements are listed once, whoever ranks them: U
    # turned 1 and 3 is the same straight road.
    lists = {}
    for spec in ("random", "greedy", "star25"):
        code, out, err = run(["analyse", "--player", spec, "--tile", "U", "--top", "100",
                              "--json", small])
        a = json.loads(out)
        moves = [m["move"] for m in a["best"]]
        check(code == 0 and a["legal_moves"] == len(moves) == len(set(moves)),
              "%s lists a move twice: %r" % (spec, moves))
        lists[spec] = sorted(moves)
    check(lists["random"] == lists["greedy"] == lists["star25"] and len(lists["random"]) == 22,
          "the players list different moves: %r" % lists)
    for seed in range(1, 30):
        code, out, err = run(["analyse", "--player", "random", "--seed", str(seed), "--tile", "U",
                              "--top", "1", "--json", small])
        move = json.loads(out)["best"][0]["move"]
        check(move in lists["greedy"], "random's choice %r is not listed so" % move)

    code, out, err = run(["analyse", "--each-move", "--player", "greedy", "--json", small])
    check(code == 0, "each move: %d %s" % (code, err))
    r = json.loads(out)
    check([m["played"] for m in r["moves"]] == ["E 0 -1 2 SSE", "U 1 0 1 E"],
          "reviewed moves: %r" % r["moves"])
    for m in r["moves"]:
        check(m["best_margin"] >= m["margin"] - 1e-9 and abs(m["loss"] - (m["best_margin"]
              - m["margin"])) < 1e-6, "loss: %r" % m)
    check([p["player"] for p in r["players"]] == [1, 2], "players: %r" % r["players"])
    code, out, err = run(["analyse", "--each-move", "--player", "greedy", small])
    check(code == 0 and "player 1 (Red): lost" in out, "review text: %s" % out)

    # A finished game has no position to rank; an invalid record is refused.
    code, out, err = run(["analyse", "--player", "greedy", "-"], b"players 2\nend\n")
    check(code == 1 and "over" in err and out == "", "finished game: %d %s" % (code, err))
    code, out, err = run(["analyse", "--player", "greedy", "-"], b"players 2\nZ 0 0 0\n")
    check(code == 1 and err.startswith("line 2: ") and out == "", "invalid: %d %s" % (code, err))
    code, out, err = run(["analyse", "--player", "greedy", "--tile", "D", "-"],
                         b"players 2\nD 1 0 0\nD 2 0 0\nD 3 0 0\n")
    check(code == 1 and "--tile D" in err, "a tile none of is left: %d %s" % (code, err))


# --- Arguments ---------------------------------------------------------------------------

BAD_ARGS = [
    ["arena"], ["arena", "greedy"], ["arena", "greedy", "random"],
    ["arena", "greedy", "random", "--games", "0"], ["arena", "greedy", "random", "--games", "x"],
    ["arena", "greedy", "random", "--games", "2", "--threads", "0"],
    ["arena", "greedy", "random", "--games", "2", "--threads", "65"],
    ["arena", "greedy", "random", "--games", "2", "--seed", "-1"],
    ["arena", "greedy", "random", "--games", "2", "--rules", "bogus"],
    ["arena", "greedy", "random", "--games", "2", "--engine-ms", "0"],
    ["arena", "greedy", "random", "--games"], ["arena", "bogus", "random", "--games", "2"],
    ["arena", "mcts:ms=0", "random", "--games", "2"],
    ["arena", "engine:", "random", "--games", "2"],
    ["arena", "greedy", "random", "random", "--games", "2"],
    ["arena", "greedy", "random", "--games", "2", "--bogus"],
    ["arena", "greedy", "random", "--games", "2", "--record", "/dev/null/x"],
    ["arena", "greedy", "random", "--games", "2", "--resume"],
    ["engine", "--bogus"], ["engine", "--player"], ["engine", "--player", "bogus"],
    ["engine", "--seed", "x"], ["engine", "extra"],
    ["analyse"], ["analyse", "--top", "0", "x.rec"], ["analyse", "--ms", "0", "x.rec"],
    ["analyse", "--tile", "Z", "x.rec"], ["analyse", "--player", "bogus", "x.rec"],
    ["analyse", "--bogus", "x.rec"], ["analyse", "a.rec", "b.rec"],
    ["analyse", "--player", "greedy", "does/not/exist.rec"],
]


# Bad arguments of every command but connect's (BAD_ARGS but its files
# that cannot be written or read, and more): each must also say what is
# wrong and "Try 'carcassonne CMD --help'".
USAGE_ERRORS = [a for a in BAD_ARGS if a[-1] not in ("/dev/null/x", "does/not/exist.rec")] + [
    ["serve", "--port", "abc"], ["serve", "--port", "-1"], ["serve", "--port", "70000"],
    ["serve", "--port"], ["serve", "--workers", "0"], ["serve", "--max-tables", "x"],
    ["serve", "--bogus"], ["serve", "extra"], ["serve", "--host"], ["serve", "--host", ""],
    ["serve", "--tls-cert", "c.pem"], ["serve", "--static", "/does/not/exist"],
    ["replay"], ["replay", "a.rec", "b.rec"], ["replay", "--bogus", "a.rec"],
    ["selfplay"], ["selfplay", "--seed", "x", "--players", "2"],
    ["selfplay", "--seed", "1", "--players", "9"], ["selfplay", "--seed", "1", "--players", "2",
                                                     "--games", "0"],
    ["selfplay", "--seed", "1", "--players", "2", "--expansions", "bogus"],
    ["selfplay", "--bogus"],
    ["show"], ["show", "a.rec", "b.rec"], ["show", "--delay", "x", "a.rec"],
    ["show", "--last", "x", "a.rec"], ["show", "--bogus", "a.rec"],
    ["bench", "--games", "x"], ["bench", "--games", "0"], ["bench", "--seed"],
    ["bench", "--expansions", "bogus"], ["bench", "--bogus"],
    ["play", "--bogus"], ["play", "--players", "bogus"], ["play", "--load"],
    ["play", "--expansions", "bogus"], ["play", "extra"],
    ["selfplay", "--seed", "1", "--players", "2", "--games", "2", "--record", "-"],
    ["analyse", "--exact-ms", "5", "x.rec"], ["bench", "--mcts", "greedy", "--players", "3"],
    ["serve", "--tls-cert", "no/such/cert.pem", "--tls-key", "no/such/key.pem", "--db",
     "/does/not/exist/s.db"],
    ["serve", "--hint-ms", "5000", "--max-think-ms", "1000", "--db", "/does/not/exist/s.db"],
    ["admin"], ["admin", "bogus"], ["admin", "--bogus"], ["admin", "--db"],
    ["admin", "accounts", "extra"], ["admin", "disable"], ["admin", "enable", "a;b"],
    ["admin", "reset-password", "--force", "Ann"], ["admin", "delete-table", "abc"],
    ["admin", "--db", "/does/not/exist/s.db", "delete-table", "abc"], ["admin", "backup"],
]


def case_usage_errors():
    """Every bad argument of serve, replay, selfplay, show, bench, play,
    arena, engine and analyse: exit status 2, nothing on standard output,
    what is wrong and "Try 'carcassonne CMD --help'" on standard error."""
    for args in USAGE_ERRORS:
        code, out, err = run(args)
        hint = "Try 'carcassonne %s --help'." % args[0]
        check(code == 2 and out == "", "%s: exit %d, output %r" % (args, code, out))
        lines = err.strip().splitlines()
        check(len(lines) >= 2 and lines[0].startswith("carcassonne %s: " % args[0])
              and lines[-1] == hint, "%s: message %r" % (args, err))
    code, out, err = run(["serve", "--port", "abc"])
    check("--port must be a whole number from 0 to 65535, not 'abc'" in err,
          "serve --port abc: %r" % err)


def case_play_port_in_use():
    """scripts/play.sh with its port taken exits 1 with one clear line, both
    when something listens there (seen before starting the server) and when
    a socket only holds the address (the server's bind fails); a PORT that
    is not a number is refused. CARCASSONNE= skips the install and build."""
    import socket
    play = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "play.sh")
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, CARCASSONNE=os.path.abspath(CARC), XDG_DATA_HOME=data)
        listening = socket.socket()
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        bound = socket.socket()
        bound.bind(("127.0.0.1", 0))
        for sock in (listening, bound):
            port = sock.getsockname()[1]
            env["PORT"] = str(port)
            p = subprocess.run(["sh", play], env=env, capture_output=True, text=True, timeout=60)
            want = "port %d is in use: try PORT=%d scripts/play.sh\n" % (port, port + 1)
            check(p.returncode == 1 and p.stderr == want,
                  "port %d taken: %d %r %r" % (port, p.returncode, p.stdout, p.stderr))
        listening.close()
        bound.close()
        env["PORT"] = "abc"
        p = subprocess.run(["sh", play], env=env, capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "PORT must be a port number" in p.stderr,
              "PORT=abc: %d %r" % (p.returncode, p.stderr))


def replay_json(text):
    code, out, err = run(["replay", "--json", "-"], text.encode())
    check(code == 0, "replay --json exited %d: %s" % (code, err))
    return json.loads(out)


def case_replay_json():
    """replay --json: the header lines as [key, value] pairs in order (no
    comments, values of several words kept whole), and the digest of the
    public state: the same for the same moves whatever the headers, another
    after one more move; the deal check's `deal` field."""
    moves = "E 0 -1 2 S\nU 1 0 1 W\n"
    text = ("players 2   # two\nrules  small-city\nseed 42\n# a comment line\n"
            "player-kind random\nnote two  words # not this\nempty\n" + moves)
    r = replay_json(text)
    check(r["headers"] == [["players", "2"], ["rules", "small-city"], ["seed", "42"],
                           ["player-kind", "random"], ["note", "two  words"], ["empty", ""]],
          "headers: %r" % r["headers"])
    check(is_digest(r["digest"]), "digest: %r" % r["digest"])
    plain = replay_json("players 2\nrules small-city\n" + moves)
    check(plain["headers"] == [["players", "2"], ["rules", "small-city"]],
          "headers: %r" % plain["headers"])
    check(plain["digest"] == r["digest"], "headers changed the digest: %r %r"
          % (plain["digest"], r["digest"]))
    other = replay_json("players 2\n" + moves)
    check(other["digest"] != r["digest"], "the rules are not in the digest")
    longer = replay_json("players 2\nrules small-city\n" + moves + "V 0 1 0\n")
    check(longer["moves"] == 3 and longer["digest"] != r["digest"],
          "one more move, the same digest: %r" % longer)
    # The deal check: none without a commitment; verified on a server's record.
    unchecked = {"status": "unchecked", "text": "no commitment: the deal was not checked"}
    check(r["deal"] == unchecked, "deal: %r" % r.get("deal"))
    with open(os.path.join(HERE, "..", "server", "records", "fair_deal.rec")) as f:
        fair = replay_json(f.read())
    check(fair["deal"] == {"status": "verified", "text": "deal verified (seed, salt, commitment)"},
          "deal of a fair record: %r" % fair.get("deal"))


def case_bad_arguments():
    for args in BAD_ARGS:
        code, out, err = run(args)
        check(code == 2, "%s exited %d, not 2" % (args, code))
        check(out == "" and err.strip(), "%s: output %r, message %r" % (args, out, err))
    for cmd in ("arena", "engine", "analyse"):
        code, out, err = run([cmd, "--help"])
        check(code == 0 and out.startswith("usage: carcassonne " + cmd), "%s --help" % cmd)


def case_bench_mcts():
    """bench --mcts: one JSON object with the search's rate and memory, in the
    midgame or over a whole game; bad arguments are refused."""
    code, out, err = run(["bench", "--mcts", "mcts:iters=2000,threads=2", "--games", "2",
                          "--json"])
    check(code == 0, "bench --mcts exited %d: %s" % (code, err))
    r = json.loads(out)
    check(r["player"] == "mcts:iters=2000,threads=2,c=0.2,own=0.25", "player %r" % r["player"])
    check(r["positions"] == 2, "positions %r" % r["positions"])
    check(r["iterations"] == 4000, "two searches of 2000 iterations, not %r" % r["iterations"])
    check(r["iterations_per_second"] > 0, "no rate")
    check(0 < r["peak_memory_mib"] <= 256, "peak memory %r MiB" % r["peak_memory_mib"])
    check(r["plies"] == 30, "the midgame by default, not %r" % r["plies"])
    code, out, err = run(["bench", "--mcts", "mcts:iters=500,threads=1", "--plies", "all",
                          "--games", "71", "--json"])
    check(code == 0, "bench --plies all exited %d: %s" % (code, err))
    r = json.loads(out)
    check(r["positions"] == 71 and r["plies"] is None, "whole game: %r" % r)
    # The last draw is searched exactly, so not every position takes 500.
    check(60 * 500 <= r["iterations"] <= 71 * 500, "iterations %r" % r["iterations"])
    check(r["ms_per_search"] > 0, "no time per search")
    code, out, err = run(["bench", "--mcts", "mcts:iters=500", "--plies", "70", "--games", "1"])
    check(code == 0 and "70 greedy moves in" in out, "the last draw: %d %r" % (code, out))
    for args, message in ((["--mcts", "mcts:level=unknown"], "unknown level"),
                          (["--mcts", "mcts", "--plies", "71"], "--plies takes 0 to 70"),
                          (["--mcts", "mcts", "--plies", "some"], "--plies takes 0 to 70"),
                          (["--mcts", "mcts", "--plies"], "--plies takes 0 to 70"),
                          (["--plies", "3"], "--plies goes with --mcts")):
        code, out, err = run(["bench"] + args)
        check(code == 2 and out == "" and message in err, "%r: %d %r" % (args, code, err))


# --- The River ------------------------------------------------------------------------------

# The river pile of river.md: every river tile but the spring RA, the lake RL
# drawn last.
RIVER_PILE = sorted(["RB", "RC", "RD", "RD", "RE", "RG", "RG", "RH", "RI", "RK", "RL"])


def case_engine_river():
    """'new' with "expansions":["river"]: the replies name the expansions,
    the spring is the start tile, only river tiles can be drawn, the river
    must go on at its open end, the U-turn of river.md's example is refused;
    bad names are clear errors that change nothing."""
    e = Engine("greedy")
    for extra, words in (({"expansions": ["bogus"]}, "unknown expansion 'bogus'"),
                         ({"expansions": ["river", "river"]}, "named twice"),
                         ({"expansions": "river"}, "array"),
                         ({"expansions": ["river inns-cathedrals"]}, "one name"),
                         ({"rules": ["river-keep-start"]}, "needs the river"),
                         ({"rules": ["river-keep-start"], "expansions": []}, "needs the river")):
        r = e.ask(dict({"type": "new", "players": 2}, **extra))
        check(is_error(r) and words in r["message"], "new %r: %r" % (extra, r))
    check("new" in e.ask({"type": "state"})["message"], "a refused 'new' started a game")
    check(e.ask({"type": "new", "players": 2, "expansions": ["river"], "seed": 3})
          == {"type": "ok", "expansions": ["river"]}, "new with the river")
    st = e.ask({"type": "state"})
    # 83 tiles: the spring on the board, one drawn, 81 left in the two piles.
    check(st["expansions"] == ["river"] and st["left"] == 81 and st["moves"] == 0
          and st["tile"] is None and st["supply"] == [7, 7], "state: %r" % st)
    # Not drawable now: the spring (on the board), the lake (drawn last), a
    # base tile (the river is being laid), a tile The River has not (RF).
    for tile in ("RA", "RL", "E", "RF"):
        r = e.ask({"type": "tile", "tile": tile})
        check(is_error(r) and tile in r["message"], "tile %s: %r" % (tile, r))
        r = e.ask({"type": "draw", "tile": tile})
        check(is_error(r), "draw %s: %r" % (tile, r))
    check(e.ask({"type": "state"})["tile"] is None, "a refused draw made the tile known")
    check(e.ask({"type": "draw", "tile": "RD"})
          == {"type": "tile", "player": 0, "tile": "RD", "left": 81}, "draw RD")
    # RD (straight, river E-W, a field either side) can only continue the
    # river east of the spring, at 1 0; its two rotations that fit are one
    # move, listed at rotation 0; its followers go on the two fields.
    legal = e.ask({"type": "legal"})
    check(legal["tile"] == "RD" and len(legal["placements"]) == 1 and legal["count"] == 3,
          "legal RD: %r" % legal)
    p = legal["placements"][0]
    check(p["move"] == "RD 1 0 0" and (p["x"], p["y"], p["rot"]) == (1, 0, 0)
          and sorted(p["spots"].values()) == ["field", "field"], "RD's placement: %r" % p)
    r = e.ask({"type": "move", "move": "RD 1 0 0 E"})
    check(is_error(r) and "river" in r["message"], "a follower on the river: %r" % r)
    r = e.ask({"type": "move", "move": "RD 1 1 0"})
    check(is_error(r), "RD beside the spring, not at the open end: %r" % r)
    go = e.ask({"type": "go"})
    check(go["move"].startswith("RD 1 0 0"), "go: %r" % go)
    # river.md's example: RD, RB with a knight, RG bending south; RG 3 1 1
    # is an immediate U-turn, RG 3 1 2 the legal S-bend.
    e.ok({"type": "move", "move": "RD 1 0 0"})
    e.ok({"type": "move", "player": 1, "move": "RB 2 0 0 N"})
    e.ok({"type": "move", "move": "RG 3 0 0"})
    r = e.ask({"type": "move", "move": "RG 3 1 1"})
    check(is_error(r) and "U-turn" in r["message"], "the U-turn: %r" % r)
    e.ok({"type": "move", "move": "RG 3 1 2"})
    st = e.ask({"type": "state"})
    check(st["scores"] == [0, 0] and st["supply"] == [7, 6] and st["moves"] == 4
          and st["left"] == 77 and st["to_move"] == 0, "after the example: %r" % st)
    # The first draw of the river phase names a river tile.
    d = e.ask({"type": "draw"})
    check(d["tile"] in RIVER_PILE and d["tile"] != "RL", "draw: %r" % d)
    # 'new' again without expansions: the base game.
    check(e.ask({"type": "new", "players": 2}) == {"type": "ok", "expansions": []}, "base new")
    check(e.ask({"type": "state"})["left"] == 70, "the base game has 72 tiles")
    check(e.ask({"type": "new", "players": 2, "expansions": ["river"],
                 "rules": ["river-keep-start"]}) == {"type": "ok", "expansions": ["river"]},
          "river-keep-start with the river")
    check(e.ask({"type": "state"})["left"] == 82, "river-keep-start has 84 tiles")
    e.close()


def case_engine_river_game():
    """Whole river games through 'draw', 'legal' and 'move': the river pile
    first and the lake last, then the 71 base tiles; 82 moves; every river
    placement at the one open end; the moves replay as a record."""
    e = Engine("random")
    for seed, keep in ((5, False), (6, False), (7, True)):
        new = {"expansions": ["river"]}
        if keep:
            new["rules"] = ["river-keep-start"]
        moves, draws, scores, digest = drive_game(e, seed, random.Random(seed), new)
        check(sorted(draws[:11]) == RIVER_PILE and draws[10] == "RL",
              "the river pile first, the lake last: %r" % draws[:11])
        base = draws[11:]
        check(len(base) == (72 if keep else 71) and all(len(t) == 1 for t in base),
              "then the base tiles: %r" % base)
        # The fourth D is the base game's start tile: in the main pile only
        # with river-keep-start.
        check(base.count("D") == (4 if keep else 3), "D: %d" % base.count("D"))
        check(len(moves) == (83 if keep else 82), "%d moves" % len(moves))
        rules = "rules river-keep-start\n" if keep else ""
        code, out, err = run(["replay", "--json", "-"],
                             ("players 2\nexpansions river\n" + rules + "\n".join(moves)
                              + "\n").encode())
        check(code == 0, "replay: %s" % err)
        r = json.loads(out)
        check(r["finished"] and r["scores"] == scores and r["digest"] == digest
              and r["expansions"] == ["river"] and r["moves"] == len(moves),
              "replayed: %r, %r %r" % (r, scores, digest))
    # During the river phase every placement is at one square.
    e.ok({"type": "new", "players": 2, "expansions": ["river"], "seed": 9})
    rng = random.Random(9)
    for turn in range(11):
        tile = e.ask({"type": "draw"})
        legal = e.ask({"type": "legal"})
        squares = {(p["x"], p["y"]) for p in legal["placements"]}
        check(len(squares) <= 1 and tile["tile"] in RIVER_PILE, "turn %d: %r" % (turn, legal))
        for p in legal["placements"]:
            check(all(role in ROLES for role in p["spots"].values()), "roles: %r" % p)
        e.ok({"type": "move", "move": rng.choice(moves_of(legal))})
    check(len(e.ask({"type": "draw"})["tile"]) == 1, "a base tile after the lake")
    e.close()


def case_arena_river():
    """arena --expansions river: library players and an outside engine play
    river games (the engine gets the expansions in 'new'); the records have
    the `expansions river` line and replay; --resume tells a river match
    from a base one."""
    with tempfile.TemporaryDirectory() as tmp:
        s, err = arena_json(["greedy", "random", "--games", "2", "--expansions", "river",
                             "--record", tmp])
        check_sane(s, 2)
        check(s["expansions"] == "river" and s["a_forfeits"] == 0 and s["b_forfeits"] == 0,
              "river match: %r %s" % (s, err))
        for name in sorted(os.listdir(tmp)):
            path = os.path.join(tmp, name)
            with open(path) as f:
                text = f.read()
            check("\nexpansions river\n" in text, "%s: no expansions line" % name)
            code, out, err = run(["replay", "--json", path])
            r = json.loads(out)
            check(code == 0 and r["finished"] and r["expansions"] == ["river"]
                  and r["moves"] == 82, "%s: %d %r %s" % (name, code, r, err))
        again, _ = arena_json(["greedy", "random", "--games", "2", "--expansions", "river",
                               "--record", tmp, "--resume"])
        check(again["resumed"] == 2 and without_times(again)["a_win_rate"] == s["a_win_rate"],
              "resumed: %r" % again)
        code, out, err = run(["arena", "greedy", "random", "--games", "2", "--record", tmp,
                              "--resume"])
        check(code == 2 and "expansions differ" in err, "a base resume of river records: %d %s"
              % (code, err))
    base, _ = arena_json(["greedy", "random", "--games", "2"])
    check(base["expansions"] == "none", "base match: %r" % base)
    engine = "engine:%s engine --player random" % CARC
    s, err = arena_json([engine, "greedy", "--games", "2", "--expansions", "river",
                         "--engine-ms", "100"])
    check_sane(s, 2)
    check(s["a_forfeits"] == 0 and s["b_forfeits"] == 0, "engine forfeits: %r %s" % (s, err))
    code, out, err = run(["arena", "random", "random", "--games", "2", "--expansions", "river",
                          "--rules", "river-keep-start"])
    check(code == 0 and "expansions river" in out and "river-keep-start rules" in out,
          "text: %d %s %s" % (code, out, err))


def case_selfplay_river():
    """selfplay --expansions river --record writes a river record that
    replay (text and --json), show and analyse read."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "river.rec")
        code, out, err = run(["selfplay", "--seed", "3", "--players", "2", "--expansions",
                              "river", "--record", path])
        check(code == 0 and out.startswith("game 1 (seed 3): "), "selfplay: %d %s %s"
              % (code, out, err))
        scores = [int(v) for v in out.split(":")[1].split()]
        with open(path) as f:
            text = f.read()
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        check("expansions river" in lines, "no expansions line: %s" % text)
        first = lines.index("expansions river") + 1
        while lines[first].split()[0] in ("seed", "player-kind", "rules"):
            first += 1
        check(lines[first].split()[0] in RIVER_PILE, "first move: %r" % lines[first])
        r = replay_json(text)
        check(r["expansions"] == ["river"] and r["finished"] and r["moves"] == 82
              and r["scores"] == scores and ["expansions", "river"] in r["headers"],
              "replay --json: %r" % r)
        code, out, err = run(["replay", path])
        check(code == 0 and "expansions: river" in out and "finished after 82 moves" in out,
              "replay: %s %s" % (out, err))
        code, out, err = run(["show", "--no-color", "--last", "82", path])
        check(code == 0 and "expansions: river" in out
              and re.search(r"\nMove 1/82: Red R[B-K] 1 0 \d", out)
              and "Move 82/82: Blue " in out, "show: %d %s" % (code, err))
        code, out, err = run(["selfplay", "--seed", "3", "--players", "3", "--games", "2",
                              "--expansions", "river", "--rules", "river-keep-start"])
        check(code == 0 and len(out.splitlines()) == 2, "two games: %s %s" % (out, err))
    code, out, err = run(["show", "--no-color", "-"], b"players 2\nexpansions river\n")
    check(code == 0 and "Start: tile RA at 0 0" in out and "82 tiles left" in out,
          "show at the start: %s %s" % (out, err))
    code, out, err = run(["analyse", "--player", "greedy", "--top", "100", "--json", "-"],
                         b"players 2\nexpansions river\nRD 1 0 0\n")
    a = json.loads(out) if code == 0 else {}
    check(code == 0 and a["tile"] in RIVER_PILE and a["tile"] != "RL"
          and a["player"] == 2, "analyse: %d %r %s" % (code, a, err))
    # The river goes on at 2 0, the open end of RD at 1 0.
    for m in a["best"]:
        check(m["move"].startswith(a["tile"] + " 2 0 "), "ranked move: %r" % m)
    code, out, err = run(["analyse", "--player", "greedy", "--tile", "RL", "-"],
                         b"players 2\nexpansions river\nRD 1 0 0\n")
    check(code == 1 and "--tile RL" in err, "the lake too early: %d %s" % (code, err))


def case_bench_river():
    """bench plays the river beside the base game: 71 draws a base game, 82
    a river game; --expansions runs one set; the base checksum of the
    default 200,000 games stays that of docs/performance.md."""
    code, out, err = run(["bench", "--games", "200", "--json"])
    check(code == 0, "bench: %s" % err)
    r = json.loads(out)
    check(r["games"] == 200 and r["plies"] == 200 * 71 and r["expansions"] == []
          and r["river"]["games"] == 200 and r["river"]["plies"] == 200 * 82
          and r["river"]["expansions"] == ["river"] and is_digest(r["checksum"])
          and is_digest(r["river"]["checksum"]) and r["checksum"] != r["river"]["checksum"]
          and r["river"]["games_per_second"] > 0, "bench --json: %r" % r)
    code, out, err = run(["bench", "--games", "200", "--json", "--expansions", "river"])
    river = json.loads(out)
    check(code == 0 and "river" not in river and river["expansions"] == ["river"]
          and river["plies"] == 200 * 82 and river["checksum"] == r["river"]["checksum"],
          "--expansions river: %r" % river)
    code, out, err = run(["bench", "--games", "200"])
    rows = {line[:18].strip(): line[18:].split() for line in out.splitlines()[2:]}
    check(code == 0 and out.splitlines()[1].split() == ["base", "game", "river", "inns-cathedrals",
                                                        "traders-builders", "all", "three"]
          and rows["plies"] == [str(200 * 71), str(200 * 82), str(200 * 89), str(200 * 95),
                                str(200 * 124)]
          and rows["of base tiles/s"][0] == "100%" and len(rows["tiles per second"]) == 5
          and rows["checksum"] == [r["checksum"], r["river"]["checksum"],
                                   r["inns-cathedrals"]["checksum"],
                                   r["traders-builders"]["checksum"],
                                   r["all-three"]["checksum"]], "text: %s" % out)
    code, out, err = run(["bench", "--games", "200", "--json", "--expansions",
                          "river,inns-cathedrals,traders-builders"])
    three = json.loads(out)
    check(code == 0 and three["checksum"] == r["all-three"]["checksum"]
          and three["plies"] == 200 * 124
          and abs(three["tiles_per_second"] - three["games_per_second"] * 124)
          <= 0.01 * three["tiles_per_second"] + 124,
          "all three alone: %r" % three)
    code, out, err = run(["bench", "--json", "--expansions", ""], timeout=300)
    base = json.loads(out)
    check(code == 0 and base["checksum"] == "631c8a2f1f6202bc" and base["games"] == 200000
          and "river" not in base, "the base checksum: %r" % base)
    code, out, err = run(["bench", "--mcts", "mcts:iters=300", "--expansions", "river",
                          "--plies", "81", "--games", "1", "--json"])
    check(code == 0 and json.loads(out)["plies"] == 81, "--mcts at the river's last draw: %s"
          % err)
    code, out, err = run(["bench", "--mcts", "mcts", "--expansions", "river", "--plies", "82"])
    check(code == 2 and "--plies takes 0 to 81" in err, "82 plies: %d %s" % (code, err))


# Bad --expansions and --rules: exit status 2 and the reason.
EXPANSION_ARGS = [
    (["selfplay", "--seed", "1", "--players", "2", "--rules", "river-keep-start"],
     "needs the river"),
    (["selfplay", "--seed", "1", "--players", "2", "--expansions", "bogus"],
     "unknown expansion 'bogus'"),
    (["selfplay", "--seed", "1", "--players", "2", "--expansions", "river,river"],
     "named twice"),
    (["selfplay", "--seed", "1", "--players", "2", "--expansions"], "needs a value"),
    (["arena", "greedy", "random", "--games", "2", "--rules", "river-keep-start"],
     "needs the river"),
    (["arena", "greedy", "random", "--games", "2", "--expansions", "bogus"], "unknown expansion"),
    (["arena", "greedy", "random", "--games", "2", "--expansions"], "needs a value"),
    (["bench", "--rules", "river-keep-start"], "needs the river"),
    (["bench", "--expansions", "river", "--rules", "bogus"], "unknown rule"),
    (["bench", "--expansions", "bogus"], "unknown expansion"),
    (["bench", "--server", "ws://127.0.0.1:1", "--expansions", "bogus"], "unknown expansion"),
    (["connect", "ws://127.0.0.1:1", "--create", "me,open", "--expansions", "bogus"],
     "unknown expansion"),
    (["connect", "ws://127.0.0.1:1", "--create", "me,open", "--rules", "river-keep-start"],
     "needs the river"),
    (["connect", "ws://127.0.0.1:1", "--table", "t1", "--expansions", "river"],
     "go with --create"),
]


def case_expansion_arguments():
    for args, words in EXPANSION_ARGS:
        code, out, err = run(args)
        check(code == 2 and out == "" and words in err, "%s: %d %r %r" % (args, code, out, err))
    for cmd in ("selfplay", "arena", "bench", "connect"):
        code, out, err = run([cmd, "--help"])
        check(code == 0 and "--expansions" in out, "%s --help: %s" % (cmd, out))
    code, out, err = run(["bench", "--server", "x", "--help"])
    check(code == 0 and "--expansions" in out, "bench --server --help: %s" % out)


# --- Inns & Cathedrals ----------------------------------------------------------------

INNS_TILES = ["I" + c for c in "ABCDEFGHIJKLMNOPQ"]


def figure_moves_of(legal):
    """Every move a 'legal' reply lists, the large follower's included."""
    moves = moves_of(legal)
    for p in legal["placements"]:
        moves += ["%s %s large" % (p["move"], spot) for spot in p.get("large", [])]
        moves += ["%s %s builder" % (p["move"], spot) for spot in p.get("builder", [])]
        moves += ["%s %s pig" % (p["move"], spot) for spot in p.get("pig", [])]
    return moves


def case_engine_inns():
    """'new' with inns-cathedrals: 'legal' lists spot F of IH and the large
    follower's spots (a move each), 'state' the figures left; a move with
    `large` puts the large follower on the board, and its owner cannot
    deploy it again until it comes home."""
    e = Engine("greedy")
    check(e.ask({"type": "new", "players": 2, "seed": 4, "expansions": ["inns-cathedrals"]})
          == {"type": "ok", "expansions": ["inns-cathedrals"]}, "new")
    st = e.ask({"type": "state"})
    check(st["figures"] == [{"followers": 7, "large": 1}] * 2 and st["left"] == 88,
          "state at the start: %r" % st)
    check(e.ask({"type": "draw", "tile": "IH"})["tile"] == "IH", "draw IH")
    legal = e.ask({"type": "legal"})
    spots = [len(p["spots"]) for p in legal["placements"]]
    check(legal["count"] == sum(1 + 2 * n for n in spots), "count: %r" % legal)
    north = [p for p in legal["placements"] if p["move"] == "IH 0 -1 0"]
    check(len(north) == 1 and north[0]["spots"].get("F") == "field"
          and "F" in north[0]["large"] and sorted(north[0]["large"]) == sorted(north[0]["spots"]),
          "IH north of the start: %r" % north)
    r = e.ask({"type": "move", "move": "IH 0 -1 0 F large"})
    check(r == {"type": "ok", "events": []}, "the large farmer: %r" % r)
    st = e.ask({"type": "state"})
    check(st["figures"] == [{"followers": 7, "large": 0}, {"followers": 7, "large": 1}]
          and st["supply"] == [7, 7], "after the large farmer: %r" % st)
    # Player 1's turn, then player 0 again: no large follower left to list.
    e.ask({"type": "draw"})
    e.ok({"type": "move", "move": moves_of(e.ask({"type": "legal"}))[0]})
    e.ask({"type": "draw"})
    legal = e.ask({"type": "legal"})
    check(legal["player"] == 0 and all(p["large"] == [] for p in legal["placements"]),
          "player 0 has no large follower: %r" % legal)
    if legal["placements"]:
        p = legal["placements"][0]
        for spot in p["spots"]:
            r = e.ask({"type": "move", "move": "%s %s large" % (p["move"], spot)})
            check(is_error(r), "a second large follower: %r" % r)
    # Without the expansion the word is refused and 'legal' has no "large".
    e.ok({"type": "new", "players": 2, "seed": 4})
    e.ask({"type": "draw"})
    legal = e.ask({"type": "legal"})
    check(all("large" not in p for p in legal["placements"]), "base legal: %r" % legal)
    p = legal["placements"][0]
    spot = next(iter(p["spots"]), None)
    if spot:
        check(is_error(e.ask({"type": "move", "move": "%s %s large" % (p["move"], spot)})),
              "large in the base game")
    check(e.ask({"type": "state"})["figures"] == [{"followers": 7, "large": 0}] * 2,
          "base figures")
    e.close()


def case_engine_traders_game():
    """Whole Traders & Builders games through the protocol (alone and with
    both other expansions), every move chosen at random among the moves
    'legal' lists (the builder's and the pig's spots included: as many as
    its count); 'state' says whose turn and whether it is a second tile
    (the same player again, never a third); events carry the pig's bonus
    and goods; each game replays as a record to the same scores, figures,
    goods and second tiles."""
    e = Engine("random")
    seen = {"builder": 0, "pig": 0, "second": 0, "goods": 0}
    for seed, expansions in ((31, ["traders-builders"]),
                             (32, ["river", "inns-cathedrals", "traders-builders"])):
        rng = random.Random(seed)
        e.ok({"type": "new", "players": 2, "seed": seed, "expansions": expansions})
        st = e.ask({"type": "state"})
        check(st["figures"][0]["builder"] == 1 and st["figures"][0]["pig"] == 1
              and st["goods"] == [{"wine": 0, "grain": 0, "cloth": 0}] * 2
              and st["second_part"] is False, "state at the start: %r" % st)
        moves, seconds, last = [], [], None
        while True:
            tile = e.ask({"type": "draw"})
            if tile["type"] != "tile":
                break
            st = e.ask({"type": "state"})
            check(st["to_move"] == tile["player"], "draw and state disagree: %r" % st)
            if st["second_part"]:
                check(tile["player"] == last and not seconds[-1:] == [True],
                      "a second tile for another player, or a third: %r" % st)
            seconds.append(st["second_part"])
            legal = e.ask({"type": "legal"})
            listed = figure_moves_of(legal)
            check(legal["count"] == len(listed) and legal["second_part"] == st["second_part"],
                  "legal's count: %d for %d listed" % (legal["count"], len(listed)))
            move = rng.choice(listed)
            r = e.ask({"type": "move", "move": move})
            check(r["type"] == "ok", "move %s: %r" % (move, r))
            for ev in r["events"]:
                if ev.get("bonus") == "goods":
                    seen["goods"] += 1
                    check(set(ev["goods"]) == {"wine", "grain", "cloth"}, "goods: %r" % ev)
            moves.append(move)
            last = tile["player"]
            seen["builder"] += move.endswith(" builder")
            seen["pig"] += move.endswith(" pig")
        seen["second"] += sum(seconds)
        state = e.ask({"type": "state"})
        check(state["over"], "not over: %r" % state)
        code, out, err = run(["replay", "--json", "-"],
                             ("players 2\nexpansions %s\n" % " ".join(expansions)
                              + "\n".join(moves) + "\n").encode())
        check(code == 0, "replay: %s" % err)
        r = json.loads(out)
        check(r["finished"] and r["scores"] == state["scores"] and r["digest"] == state["digest"]
              and r["figures"] == state["figures"] and r["goods"] == state["goods"]
              and r["goods_points"] == state["goods_points"]
              and [b["goods"] for b in r["breakdown"]] == state["goods_points"]
              and [h["second_part"] for h in r["history"]] == seconds,
              "replayed: %r / %r" % (r, state))
        for h, m in zip(r["history"], moves):
            words = m.split()
            want = None if len(words) < 5 else words[-1] if words[-1] in (
                "large", "builder", "pig") else "follower"
            check(h["figure"] == want, "history: %r for %r" % (h, m))
        code, text, err = run(["replay", "-"], ("players 2\nexpansions %s\n" % " ".join(expansions)
                                                + "\n".join(moves) + "\n").encode())
        check(code == 0 and text.count("  goods: ") == 2 and "points for goods" in text,
              "replay's text: %s" % text)
        rec = ("players 2\nexpansions %s\n" % " ".join(expansions)
               + "\n".join(moves) + "\n").encode()
        code, text, err = run(["show", "--no-color", "-"], rec)
        check(code == 0 and "\u2207 wine  \u00a5 grain  # cloth  \u24c7 builder  \u24e1 pig" in text
              and text.count("goods: ") == 2 and "\u2207" in text.split("\u2207 wine")[0],
              "show: %s %s" % (text[-600:], err))
    check(seen["builder"] > 0 and seen["pig"] > 0 and seen["second"] > 0 and seen["goods"] > 0,
          "not every rule came up: %r" % seen)
    e.close()


def case_engine_inns_game():
    """Whole I&C games (with and without the river) through the protocol,
    every figure chosen at random among the legal moves; each replays as a
    record, and replay --json gives the figures left and each move's
    figure."""
    e = Engine("random")
    larges = 0
    for seed, expansions in ((21, ["inns-cathedrals"]), (22, ["river", "inns-cathedrals"])):
        rng = random.Random(seed)
        e.ok({"type": "new", "players": 2, "seed": seed, "expansions": expansions})
        moves = []
        while e.ask({"type": "draw"})["type"] == "tile":
            move = rng.choice(figure_moves_of(e.ask({"type": "legal"})))
            e.ok({"type": "move", "move": move})
            moves.append(move)
        state = e.ask({"type": "state"})
        check(state["over"], "not over: %r" % state)
        draws = [m.split()[0] for m in moves if not m.startswith("discard")]
        check(len(moves) == (100 if "river" in expansions else 89), "%d moves" % len(moves))
        check(set(INNS_TILES) <= set(draws) or any(m.startswith("discard I") for m in moves),
              "not every I&C tile drawn: %r" % sorted(set(draws)))
        code, out, err = run(["replay", "--json", "-"],
                             ("players 2\nexpansions %s\n" % " ".join(expansions)
                              + "\n".join(moves) + "\n").encode())
        check(code == 0, "replay: %s" % err)
        r = json.loads(out)
        check(r["finished"] and r["scores"] == state["scores"] and r["digest"] == state["digest"]
              and r["figures"] == state["figures"] and len(r["history"]) == len(moves),
              "replayed: %r / %r" % (r, state))
        for i, (h, m) in enumerate(zip(r["history"], moves)):
            words = m.split()
            want = None if len(words) < 5 else "large" if words[-1] == "large" else "follower"
            check(h["move"] == m and h["player"] == 1 + i % 2 and h["figure"] == want,
                  "history %d: %r for %r" % (i, h, m))
            larges += want == "large"
    check(larges > 0, "no large follower deployed")
    e.close()


def case_inns_commands():
    """selfplay, arena, analyse and bench take --expansions inns-cathedrals;
    replay, show and analyse read its records; show draws the inns, the
    cathedrals and the large follower."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "inns.rec")
        code, out, err = run(["selfplay", "--seed", "3", "--players", "2", "--expansions",
                              "inns-cathedrals", "--record", path])
        check(code == 0 and out.startswith("game 1 (seed 3): "), "selfplay: %s" % err)
        with open(path) as f:
            text = f.read()
        check("\nexpansions inns-cathedrals\n" in text and " large\n" in text,
              "record: %s" % text)
        r = replay_json(text)
        check(r["expansions"] == ["inns-cathedrals"] and r["moves"] == 89 and r["finished"]
              and any(h["figure"] == "large" for h in r["history"]), "replay: %r" % r)
        code, out, err = run(["show", "--no-color", "--step", path])
        check(code == 0 and "\u25b3 inn" in out and "\u2020 cathedral" in out
              and "large follower" in out, "show: %s" % err)
        # The step after the first large follower shows its letter twice.
        first = next(i for i, h in enumerate(r["history"]) if h["figure"] == "large")
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        head = [ln for ln in lines if not ln[0].isupper() or ln.startswith("players")]
        body = [ln for ln in lines if ln not in head]
        partial = "\n".join(head + body[:first + 1]) + "\n"
        code, out, err = run(["show", "--no-color", "-"], partial.encode())
        letter = "RB"[r["history"][first]["player"] - 1]
        check(code == 0 and (letter * 2 in out or letter.lower() * 2 in out),
              "no large follower drawn: %s %s" % (out, err))
        check("the large one on the board" in out, "the supply line: %s" % out)
        code, out, err = run(["show", "--no-color", "-"], b"players 2\nexpansions inns-cathedrals\n")
        check(code == 0 and out.count("7 followers and the large follower in supply") == 2
              and "89 tiles left" in out, "show at the start: %s %s" % (out, err))
        code, out, err = run(["analyse", "--player", "greedy", "--tile", "IK", "--top", "100",
                              "--json", "-"], b"players 2\nexpansions inns-cathedrals\n")
        a = json.loads(out) if code == 0 else {}
        check(code == 0 and a["tile"] == "IK"
              and any(m["move"].endswith(" large") for m in a["best"]),
              "analyse: %d %r %s" % (code, a, err))
        s, err = arena_json(["greedy", "random", "--games", "2", "--expansions",
                             "river,inns-cathedrals", "--record", tmp])
        check_sane(s, 2)
        check(s["expansions"] == "river,inns-cathedrals", "arena: %r" % s)
    code, out, err = run(["bench", "--games", "200", "--json"])
    r = json.loads(out)
    ic = r.get("inns-cathedrals", {})
    check(code == 0 and ic.get("plies") == 200 * 89 and ic.get("expansions") == ["inns-cathedrals"]
          and is_digest(ic.get("checksum")) and ic["checksum"] not in (r["checksum"],
                                                                      r["river"]["checksum"]),
          "bench --json: %r" % r)
    code, out, err = run(["bench", "--games", "200", "--json", "--expansions", "inns-cathedrals"])
    check(code == 0 and json.loads(out)["checksum"] == ic["checksum"], "bench I&C alone: %s" % out)
    for cmd in ("selfplay", "arena", "bench", "connect"):
        code, out, err = run([cmd, "--help"])
        check(code == 0 and "inns-cathedrals" in out and "traders-builders" in out,
              "%s --help: %s" % (cmd, out))
    code, out, err = run(["--help"])
    check(code == 0 and "traders-builders" in out, "--help: %s" % out)


def case_match_records():
    """The strength matches' records in docs/matches: each folder's command
    of docs/matches/README.md, with `--record FOLDER --resume`, counts the
    folder's games without playing one (it reads every record move by
    move, with its deal, as replay does, and refuses the match at the
    first that does not read), and the folder's first record replays with
    `replay` too. (One replay a record was 660 processes: about 40 s of
    the release pass and two minutes of the sanitizer pass, for nothing
    the arena's reading does not check.)"""
    root = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "matches")
    with open(os.path.join(root, "README.md")) as f:
        rows = re.findall(r"^\| `([\w-]+)` \| `carcassonne (arena [^`]+)`", f.read(), re.M)
    check(len(rows) >= 3, "docs/matches/README.md lists %d matches" % len(rows))
    for folder, command in rows:
        where = os.path.join(root, folder)
        games = sorted(n for n in os.listdir(where) if n.endswith(".rec"))
        check(games, "%s: no records" % folder)
        code, _, err = run(["replay", os.path.join(where, games[0])])
        check(code == 0, "%s/%s does not replay: %s" % (folder, games[0], err))
        # an outside engine's spec is quoted: the engine is never started,
        # since every game is counted from its record
        args = shlex.split(command) + ["--record", where, "--resume", "--json"]
        total = int(args[args.index("--games") + 1])
        args[args.index("--games") + 1] = str(len(games))
        code, out, err = run(args, timeout=60)
        check(code == 0, "%s: %s exited %d: %s" % (folder, command, code, err))
        stats = json.loads(out.splitlines()[-1])
        # resumed: the games counted from their records, none played
        check(stats["games"] == len(games) and stats["resumed"] == len(games),
              "%s: counted %r of %d records" % (folder, stats, len(games)))
        check(stats["a_wins"] + stats["b_wins"] + stats["draws"] == len(games),
              "%s: wins and draws do not add up: %r" % (folder, stats))
        check(len(games) <= total, "%s: more records than the command's games" % folder)


def case_carcasum_tiles():
    """tools/carcasum/make_tiles.py reads the tile table of src/tile_data.c
    (a C file it parses) and writes Carcasum's basic.xml: every kind A..X
    in order with its count, each edge of each tile held by one part (a
    road's edge by the road and the two farm halves beside it), the start
    tile, and a few kinds checked whole against docs/record.md's table."""
    import xml.etree.ElementTree as ET
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "basic.xml")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "carcasum", "make_tiles.py"),
                            os.path.join(ROOT, "src", "tile_data.c"), out],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, "make_tiles.py: %s" % r.stderr)
        tiles = ET.parse(out).getroot().findall("tile")
    check([t.get("id") for t in tiles] == [chr(65 + i) for i in range(24)], "kinds A..X in order")
    check(sum(int(t.get("count")) for t in tiles) == 72, "72 tiles")
    kinds = {}
    for t in tiles:
        parts = [(e.tag, " ".join((e.text or "").split()), e.get("city"), e.get("pennant"))
                 for e in t if e.tag != "position"]
        held = [side for tag, text, _, _ in parts if tag != "cloister" for side in text.split()]
        for edge in "NESW":
            whole, halves = held.count(edge), held.count(edge + "L") + held.count(edge + "R")
            road = any(tag == "road" and edge in text.split() for tag, text, _, _ in parts)
            check((whole, halves) == ((1, 2) if road else (1, 0)),
                  "%s: edge %s held %d whole and %d halves" % (t.get("id"), edge, whole, halves))
        kinds[t.get("id")] = parts
    check([t.get("id") for t in tiles if t.find("position") is not None] == ["D"], "start tile D")
    # A: a cloister with a road south; C: the city of four sides with a
    # pennant; D: a city north, a road east-west, the farms beside it;
    # V: a curve of road south-west.
    check(kinds["A"] == [("cloister", "", None, None), ("road", "S", None, None),
                         ("farm", "N E SL SR W", None, None)], "A: %r" % kinds["A"])
    check(kinds["C"] == [("city", "N E S W", None, "yes")], "C: %r" % kinds["C"])
    check([k[0] for k in kinds["D"]] == ["city", "road", "farm", "farm"] and
          kinds["D"][1][1] == "E W" and kinds["D"][0][1] == "N", "D: %r" % kinds["D"])
    check(sum(1 for k in kinds["D"] if k[0] == "farm" and k[2] == "N") == 1,
          "D: one farm borders the city: %r" % kinds["D"])
    check(sorted(k[1] for k in kinds["V"] if k[0] == "road") == ["S W"], "V: %r" % kinds["V"])


# --- Puzzles (docs/puzzles.md) ----------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(HERE))
GOALS = {"win-game", "win-city", "win-road", "cloister", "farm", "claim-city", "claim-road",
         "grow-city", "grow-road", "grow-farm", "grow-cloister", "best"}


def check_puzzle_set(data, where):
    """Every puzzle of a set meets the criteria the set states: the best
    move ahead of every runner-up by the gaps, its record replays to the
    position, the fields the server and the browser read."""
    crit = data["criteria"]
    check(crit["win_gap"] > 0 and crit["margin_gap"] > 0, "%s: criteria %r" % (where, crit))
    ids = set()
    for p in data["puzzles"]:
        name = "%s: %s" % (where, p.get("id"))
        check(re.fullmatch(r"[a-z0-9-]+", p["id"]) and p["id"] not in ids, name + ": a bad id")
        ids.add(p["id"])
        check(p["goal"] in GOALS and p["goal_text"] and p["why"], name + ": goal and why")
        check(p["legal_moves"] >= crit["min_moves"], name + ": too few moves")
        check(1000 <= p["rating"] <= 2200, name + ": rating %r" % p["rating"])
        check(p["runners_up"], name + ": no runner-up")
        for r in p["runners_up"]:
            check(p["win"] - r["win"] >= crit["win_gap"] - 0.001 and
                  p["margin"] - r["margin"] >= crit["margin_gap"] - 0.01,
                  "%s: %s is not clearly ahead of %r" % (name, p["best"], r))
            check(r["move"] != p["best"], name + ": the best move is a runner-up")
        with tempfile.NamedTemporaryFile("w", suffix=".rec") as f:
            f.write(p["record"])
            f.flush()
            code, out, err = run(["replay", "--json", f.name])
            check(code == 0, "%s: its record does not replay: %s" % (name, err))
            check(json.loads(out)["moves"] == p["moves_played"], name + ": moves played")
            # The best move is legal there, with the tile the puzzle names.
            code, _, err = run(["replay", "-"], (p["record"] + p["best"] + "\n").encode())
            check(code == 0, "%s: %s is not legal: %s" % (name, p["best"], err))
            check(p["best"].split()[0] == p["tile"], name + ": the best move's tile")
    return ids


def case_puzzles():
    """`carcassonne puzzles` on two committed records: a set whose every
    puzzle meets its criteria; a record with hidden hands gives none; bad
    arguments refused."""
    games = [os.path.join(ROOT, "docs", "matches", "base-155k", "game-000%d.rec" % n)
             for n in (2, 5)]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "set.json")
        code, _, err = run(["puzzles", "--from"] + games +
                           ["--out", out, "--ms", "40", "--max", "3", "--per-game", "2"],
                           timeout=240)
        check(code == 0, "puzzles exited %d: %s" % (code, err))
        check(re.search(r"\d+ puzzles from \d+ positions", err), "no summary: %r" % err)
        with open(out) as f:
            data = json.load(f)
        check(1 <= len(data["puzzles"]) <= 3, "%d puzzles" % len(data["puzzles"]))
        check(data["criteria"]["check"].startswith("mcts:ms=320"), "the check: %r" % data)
        check_puzzle_set(data, "made")
        hand = os.path.join(ROOT, "docs", "matches", "hand3-155k", "game-0001.rec")
        code, _, err = run(["puzzles", "--from", hand, "--out", out, "--ms", "5"])
        check(code == 1 and "no position" in err, "a hand record: %d %s" % (code, err))
    for args in (["--out", "x.json"], ["--from", games[0]], ["--from", games[0], "--out", "x",
                                                              "--ms", "0"],
                 ["--from", games[0], "--out", "x", "--max", "many"], ["--bogus"],
                 ["--from", "/nonexistent.rec", "--out", "/tmp/x.json"]):
        code, _, err = run(["puzzles"] + args)
        check(code == 2 and "carcassonne puzzles" in err, "%r: %d %s" % (args, code, err))


def case_file_errors():
    """What the commands say about files and modes they cannot use: selfplay
    --record - for several games (no files named '--1', '--2'), analyse
    --each-move of a record without moves and --exact-ms without --exact,
    every tile set in analyse --tile's message, puzzles --regoal of a SET
    that cannot be read (status 2) and a puzzle set that cannot be written
    (with the reason), more RECORDs than puzzles takes, bench --players
    with --mcts and a bad --players; the engine's message for an unknown
    tile; every played move of a hand game found in its review."""
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([CARC, "selfplay", "--seed", "1", "--players", "2", "--games", "2",
                            "--record", "-"], cwd=tmp, capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and p.stdout == "" and os.listdir(tmp) == []
              and "--record - writes one game" in p.stderr,
              "selfplay --games 2 --record -: %d %r %r %r"
              % (p.returncode, p.stdout, p.stderr, os.listdir(tmp)))
        code, out, err = run(["selfplay", "--seed", "1", "--players", "2", "--record", "-"])
        check(code == 0 and out.startswith("players 2\n"),
              "one game to stdout: %d %s" % (code, err))
        code, out, err = run(["analyse", "--each-move", "--player", "greedy", "-"],
                             b"players 2\nend\n")
        check(code == 1 and out == "" and "no move to review" in err,
              "each move of no move: %d %r %r" % (code, out, err))
        code, out, err = run(["analyse", "--tile", "ZZ", "-"], b"players 2\n")
        check(code == 2 and "IA..IQ, TA..TX" in err, "--tile ZZ: %r" % err)
        code, out, err = run(["puzzles", "--regoal", os.path.join(tmp, "none.json"), "--out", "-"])
        check(code == 2 and out == "" and "cannot read" in err and "No such file" in err,
              "--regoal of no file: %d %r" % (code, err))
        code, out, err = run(["puzzles", "--regoal", tmp, "--out", "-"])
        check(code == 2 and "Is a directory" in err, "--regoal of a folder: %d %r" % (code, err))
        code, out, err = run(["puzzles", "--regoal", os.path.join(ROOT, "docs", "puzzles",
                                                                  "set.json"), "--out", tmp])
        check(code == 1 and "cannot write %s: Is a directory" % tmp in err,
              "a set into a folder: %d %r" % (code, err))
    # A hand game's review finds every played move among the ranked ones
    # (a record's move names no tile; the ranked ones of a hand name theirs).
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "hand.rec")
        run(["selfplay", "--seed", "4", "--players", "3", "--rules", "hand=3", "--record", rec])
        with open(rec) as f:
            lines = f.read().splitlines()
        with open(rec, "w") as f:
            f.write("\n".join(lines[:30]) + "\n")
        code, out, err = run(["analyse", "--each-move", "--player", "greedy", "--json", rec])
        moves = json.loads(out)["moves"] if code == 0 else []
        check(moves and all(m["margin"] is not None and m["loss"] is not None for m in moves),
              "hand game's review: %d %s %s" % (code, out[:300], err))
    replies = engine_replies(b'{"type":"new","players":2}\n{"type":"tile","tile":"ZZ"}\n')
    check(is_error(replies[1]) and "IA..IQ, TA..TX" in replies[1]["message"],
          "engine, tile ZZ: %r" % replies[1])
    for args, says in ((["analyse", "--exact-ms", "5", "x.rec"], "--exact-ms and --exact-threads go with --exact"),
                       (["puzzles", "--out", "-", "--from"] + ["r.rec"] * 4097, "at most 4096"),
                       (["bench", "--mcts", "greedy", "--players", "3"], "not with --players"),
                       (["bench", "--players", "9"], "not '9'")):
        code, out, err = run(args)
        check(code == 2 and out == "" and says in err, "%r: %d %r" % (args, code, err))


def help_options(text):
    """The options of a usage block (up to its first blank line)."""
    block = text.split("\n\n")[0]
    return set(re.findall(r"--[a-z][a-z-]*", block)) - {"--help"}


def case_docs_options():
    """The man page's synopsis of each command and README's lines under "The
    commands" name exactly the options of the command's --help usage."""
    with open(os.path.join(ROOT, "docs", "carcassonne.1")) as f:
        man = f.read().replace("\\-", "-")
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    for cmd in ("replay", "show", "selfplay", "arena", "engine", "analyse", "puzzles", "bench"):
        code, out, err = run([cmd, "--help"])
        want = help_options(out)
        line = re.search(r"^\.B %s .*$" % cmd, man, re.M)
        got = set(re.findall(r"--[a-z][a-z-]*", re.sub(r"\\f[BIR]", "", line.group(0))))
        check(got == want, "man page, %s: %s missing, %s extra"
              % (cmd, sorted(want - got), sorted(got - want)))
        lines = re.findall(r"^carcassonne %s .*$" % cmd, readme, re.M)
        got = set(re.findall(r"--[a-z][a-z-]*", " ".join(lines)))
        check(got == want, "README, %s: %s missing, %s extra"
              % (cmd, sorted(want - got), sorted(got - want)))


def case_puzzle_set():
    """The committed set (docs/puzzles/set.json): enough puzzles for a
    stream, each meeting the criteria it states; its goals as `--regoal`
    derives them today (a grown feature named, not "the best place"), and
    `--regoal` changing nothing else; a broken set refused."""
    committed = os.path.join(ROOT, "docs", "puzzles", "set.json")
    with open(committed) as f:
        data = json.load(f)
    ids = check_puzzle_set(data, "docs/puzzles/set.json")
    check(len(ids) >= 50, "%d puzzles in the committed set" % len(ids))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "set.json")
        code, _, err = run(["puzzles", "--regoal", committed, "--out", out])
        check(code == 0, "regoal exited %d: %s" % (code, err))
        with open(out) as f:
            again = json.load(f)
        check(again == data, "the committed set's goals are not what --regoal derives")
        grown = [p for p in data["puzzles"] if p["goal"].startswith("grow-")]
        check(len(grown) >= 10 and all(p["goal_text"] and "your" in p["goal_text"] and
                                       "if the game ended now" in p["why"] for p in grown),
              "grown features: %r" % [(p["id"], p["goal_text"]) for p in grown][:3])
        # A puzzle whose best move is not legal in its position is refused.
        broken = json.loads(json.dumps(data))
        broken["puzzles"][0]["best"] = "A 40 40 0"
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump(broken, f)
        code, _, err = run(["puzzles", "--regoal", bad, "--out", out])
        check(code == 1 and "puzzle 1 does not read" in err, "a broken set: %d %s" % (code, err))
        code, _, err = run(["puzzles", "--regoal", os.path.join(tmp, "none.json"), "--out", out])
        check(code == 2 and "cannot read" in err, "a missing set: %d %s" % (code, err))
        code, _, err = run(["puzzles", "--regoal", os.path.join(HERE, "small.rec"), "--out", out])
        check(code == 1 and "not a puzzle set" in err, "a record as a set: %d %s" % (code, err))
        code, _, err = run(["puzzles", "--regoal", committed, "--from", committed, "--out", out])
        check(code == 2 and "go apart" in err, "--regoal with --from: %d %s" % (code, err))


def case_seed_range():
    """--seed takes the whole 64-bit range that the records' seed headers
    carry (an arena record's deck seed has 20 digits), and refuses a
    number past it: the record of the largest seed says that seed and
    replays."""
    top = "18446744073709551615"
    code, out, err = run(["selfplay", "--seed", top, "--players", "2", "--record", "-"])
    check(code == 0 and ("\nseed %s\n" % top) in out, "--seed %s: %d %s" % (top, code, err))
    code, rout, err = run(["replay", "-"], out.encode())
    check(code == 0, "the record of seed %s does not replay: %d %s" % (top, code, err))
    for bad in ("18446744073709551616", "99999999999999999999", "123456789012345678901"):
        code, out, err = run(["selfplay", "--seed", bad, "--players", "2"])
        check(code == 2 and "--seed takes a number" in err, "--seed %s: %d %r" % (bad, code, err))


def case_play_needs_terminal():
    """play without a terminal (standard input a pipe or /dev/null, or its
    output a pipe) says so and exits 2 at once, where curses would wait
    for keys forever; a bad option still gets its own message first."""
    code, out, err = run(["play", "--players", "greedy,greedy"], timeout=20)
    check(code == 2 and "needs a terminal" in err, "play from a pipe: %d %r" % (code, err))
    with open(os.devnull, "rb") as null:
        p = subprocess.run([CARC, "play"], stdin=null, capture_output=True, text=True, timeout=20)
    check(p.returncode == 2 and "needs a terminal" in p.stderr,
          "play from /dev/null: %d %r" % (p.returncode, p.stderr))
    code, out, err = run(["play", "--players", "nobody"], timeout=20)
    check(code == 2 and "needs a terminal" not in err, "a bad option: %d %r" % (code, err))


# --- Counts, option combinations, '--', record folders, hands (QA fixes) -----------------

def case_plurals():
    """A count of one is said in the singular in the text outputs (arena,
    analyse, replay, show, puzzles), the JSON outputs keep their keys."""
    code, out, err = run(["arena", "greedy", "random", "--games", "1"])
    check(code == 0 and "\n1 game (1 deck), seed 1," in out, "arena, 1 game: %d %s %s"
          % (code, out, err))
    code, out, err = run(["arena", "greedy", "random", "--games", "2"])
    check(code == 0 and "\n2 games (1 deck, seats swapped)," in out, "arena, 2 games: %s" % out)
    s, _ = arena_json(["greedy", "random", "--games", "1"])
    check(s["games"] == 1 and s["pairs"] == 1, "arena --json: %r" % s)
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.rec")
        with open(one, "w") as f:
            f.write("players 2\nE 0 -1 2 S\n")
        code, out, err = run(["replay", one])
        check(code == 0 and "in progress after 1 move, 70 tiles left\n" in out,
              "replay: %d %s %s" % (code, out, err))
        code, out, err = run(["show", one])
        check(code == 0 and "1 move in the record\n" in out, "show: %d %s %s" % (code, out, err))
        code, out, err = run(["analyse", "--each-move", "--player", "greedy", one])
        check(code == 0 and out.startswith("Review of 1 move,") and "over 1 move\n" in out
              and " 1 moves" not in out, "analyse --each-move: %d %s %s" % (code, out, err))
        code, out, err = run(["puzzles", "--from", os.path.join(HERE, "small.rec"), "--ms", "1",
                              "--out", os.path.join(tmp, "set.json")])
        check(re.search(r"puzzles: (1 puzzle|\d+ puzzles) from \d+ positions\n", err) is not None
              and not re.search(r"\b1 puzzles\b", err), "puzzles: %d %s" % (code, err))
        rec = os.path.join(tmp, "game.rec")
        run(["selfplay", "--seed", "5", "--players", "2", "--record", rec])
        last = os.path.join(tmp, "last.rec")
        write_moves(rec, last, 69)  # one tile left in the pile
        code, out, err = run(["analyse", "--exact", last])
        check(code == 0 and "; 1 tile left; " in out, "analyse --exact: %d %s %s"
              % (code, out, err))


def write_moves(rec, path, n):
    """The record `rec` with its headers and first `n` moves, into `path`."""
    with open(rec) as f:
        game = f.read().splitlines()
    head = [l for l in game if l[:1].islower() and not l.startswith("discard")]
    moves = [l for l in game if l not in head and not l.startswith("#")]
    with open(path, "w") as f:
        f.write("\n".join(head + moves[:n]) + "\n")


def case_option_combinations():
    """show --delay means nothing without --step: a usage error; analyse
    --exact --top K lists the best K of the exact ranking (every move
    without --top), as text and as JSON."""
    small = os.path.join(HERE, "small.rec")
    code, out, err = run(["show", "--delay", "5", small])
    lines = err.strip().splitlines()
    check(code == 2 and out == "" and lines == ["carcassonne show: --delay goes with --step",
                                                "Try 'carcassonne show --help'."],
          "show --delay without --step: %d %r %r" % (code, out, err))
    code, out, err = run(["show", "--step", "--delay", "0", small])
    check(code == 0 and "Move 2/2" in out, "show --step --delay 0: %d %s" % (code, err))
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "game.rec")
        run(["selfplay", "--seed", "5", "--players", "2", "--record", rec])
        last = os.path.join(tmp, "last.rec")
        write_moves(rec, last, 69)
        code, out, err = run(["analyse", "--exact", "--json", last])
        every = json.loads(out)["moves"]
        check(code == 0 and len(every) > 3, "every move: %d %r %s" % (code, every, err))
        code, out, err = run(["analyse", "--exact", "--top", "2", "--json", last])
        a = json.loads(out)
        check(code == 0 and a["exact"] is True and a["moves"] == every[:2],
              "--exact --top 2 --json: %r, all %r" % (a, every))
        code, out, err = run(["analyse", "--exact", "--top", "2", last])
        ranks = [l for l in out.splitlines() if re.match(r"^ +\d+  ", l)]
        check(code == 0 and len(ranks) == 2 and "%d legal moves" % len(every) in out
              and "the best 2 shown" in out, "--exact --top 2: %s %s" % (out, err))
        code, out, err = run(["analyse", "--exact", last])
        ranks = [l for l in out.splitlines() if re.match(r"^ +\d+  ", l)]
        check(len(ranks) == len(every) and "shown" not in out, "--exact: %s" % out)


def case_end_of_options():
    """'--' ends the options of replay, show, analyse and puzzles: a file
    named -x.rec is read after it (and refused as an option before it)."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(HERE, "small.rec"), "rb") as f:
            data = f.read()
        with open(os.path.join(tmp, "-small.rec"), "wb") as f:
            f.write(data)

        def run_in(args):
            p = subprocess.run([CARC] + args, cwd=tmp, capture_output=True, timeout=60)
            return p.returncode, p.stdout.decode(), p.stderr.decode()

        code, want, err = run(["replay", os.path.join(HERE, "small.rec")])
        check(code == 0, "replay: %s" % err)
        code, out, err = run_in(["replay", "--", "-small.rec"])
        check(code == 0 and out == want, "replay -- -small.rec: %d %s %s" % (code, out, err))
        code, out, err = run_in(["replay", "-small.rec"])
        check(code == 2 and "unknown option '-small.rec'" in err, "without --: %d %s"
              % (code, err))
        code, out, err = run_in(["replay", "--json", "--", "--help"])
        check(code == 2 and "cannot read --help" in err, "a file named --help: %d %s"
              % (code, err))
        code, out, err = run_in(["replay", "--", "-small.rec", "x.rec"])
        check(code == 2 and "only one FILE" in err, "two files: %d %s" % (code, err))
        code, out, err = run_in(["show", "--", "-small.rec"])
        check(code == 0 and "2 moves in the record" in out, "show: %d %s" % (code, err))
        code, out, err = run_in(["analyse", "--player", "greedy", "--tile", "U", "--json", "--",
                                 "-small.rec"])
        check(code == 0 and json.loads(out)["moves_played"] == 2, "analyse: %d %s"
              % (code, err))
        code, out, err = run_in(["analyse", "--player", "greedy", "--", "--help"])
        check(code == 2 and "cannot read --help" in err, "analyse -- --help: %d %s"
              % (code, err))
        code, out, err = run_in(["puzzles", "--ms", "1", "--out", "set.json", "--",
                                 "-small.rec"])
        check("cannot read" not in err and "unknown argument" not in err
              and re.search(r"from [1-9]\d* position", err), "puzzles: %d %s" % (code, err))


def case_arena_record_taken():
    """arena --record DIR refuses a DIR that holds game records without
    --resume, in one line, writing nothing; other files do not count."""
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "d")
        args = ["arena", "greedy", "random", "--games", "2", "--record", d]
        code, out, err = run(args)
        check(code == 0, "first match: %d %s" % (code, err))
        before = read_records(d)
        code, out, err = run(["arena", "greedy", "random", "--games", "3", "--seed", "9",
                              "--record", d])
        lines = err.strip().splitlines()
        check(code == 2 and out == "" and len(lines) == 1
              and lines[0].startswith("carcassonne arena: %s already holds game records" % d)
              and "--resume" in lines[0] and "another folder" in lines[0],
              "a folder with records: %d %r %r" % (code, out, err))
        check(read_records(d) == before, "the refused match wrote: %r" % sorted(read_records(d)))
        code, out, err = run(args + ["--resume"])
        check(code == 0 and "all 2 games counted" in out, "--resume: %d %s %s" % (code, out, err))
        # Other files, and a folder named like a record, are not records.
        other = os.path.join(tmp, "other")
        os.makedirs(os.path.join(other, "game-0009.rec"))
        with open(os.path.join(other, "notes.txt"), "w") as f:
            f.write("x\n")
        with open(os.path.join(other, "game-0001.rec.part"), "w") as f:
            f.write("x\n")
        code, out, err = run(["arena", "greedy", "random", "--games", "1", "--record", other])
        check(code == 0 and os.path.isfile(os.path.join(other, "game-0001.rec")),
              "a folder without records: %d %s" % (code, err))


def case_analyse_hand():
    """In a hand game analyse ranks the moves of every tile held: the
    heading names those tiles, not one drawn tile, and no guess; --tile X
    keeps X's moves alone (text and JSON), and refuses a tile not held."""
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "hand.rec")
        run(["selfplay", "--seed", "4", "--players", "2", "--rules", "hand=3", "--record", rec])
        with open(rec) as f:
            lines = f.read().splitlines()
        part = os.path.join(tmp, "part.rec")
        with open(part, "w") as f:
            f.write("\n".join(lines[:14]) + "\n")
        code, out, err = run(["analyse", "--player", "greedy", "--top", "100", part])
        check(code == 0, "analyse: %d %s" % (code, err))
        head = out.splitlines()[0]
        m = re.search(r" to place one of the tiles held \(([A-Z ]+)\); \d+ legal moves", head)
        check(m is not None and "guess" not in out, "heading: %s" % out)
        held = m.group(1).split()
        listed = {l.split()[1] for l in out.splitlines()[3:] if l.strip()}
        check(len(held) > 1 and listed <= set(held) and len(listed) > 1,
              "held %r, listed %r" % (held, listed))
        # --tile X: the moves of X alone, as many as X's legal moves among
        # all of them, the heading and the JSON naming X.
        total = int(re.search(r"; (\d+) legal moves", head).group(1))
        counted = 0
        for tile in sorted(set(held)):
            code, out, err = run(["analyse", "--player", "greedy", "--top", "100", "--tile", tile,
                                  part])
            check(code == 0, "analyse --tile %s: %d %s" % (tile, code, err))
            m = re.search(r" to place tile (\S+); (\d+) legal moves", out.splitlines()[0])
            check(m is not None and m.group(1) == tile, "--tile %s heading: %s" % (tile, out))
            rows = [l.split() for l in out.splitlines()[3:] if l.strip()]
            legal = int(m.group(2))
            check(len(rows) == min(legal, 100) and all(r[1] == tile for r in rows),
                  "--tile %s lists %r" % (tile, sorted({r[1] for r in rows})))
            counted += legal
            code, out, err = run(["analyse", "--player", "greedy", "--top", "100", "--tile", tile,
                                  "--json", part])
            doc = json.loads(out)
            check(code == 0 and doc["tile"] == tile and doc["legal_moves"] == legal and
                  all(b["move"].split()[0] == tile for b in doc["best"]),
                  "--tile %s --json: %s" % (tile, out[:300]))
        check(counted == total, "the held tiles' moves add up: %d of %d" % (counted, total))
        missing = next(t for t in "ABCDEFGHIJKLMNOPQRSTUVWX" if t not in held)
        code, out, err = run(["analyse", "--player", "greedy", "--tile", missing, part])
        check(code != 0 and "holds no tile " + missing in err and out == "",
              "--tile %s not held: %d %r %r" % (missing, code, out, err))


CASES = {
    "bench_mcts": case_bench_mcts,
    "engine_session": case_engine_session,
    "engine_garbage": case_engine_garbage,
    "engine_legal": case_engine_legal,
    "engine_points": case_engine_points,
    "engine_draw": case_engine_draw,
    "line_limit": case_line_limit,
    "arena_smoke": case_arena_smoke,
    "arena_engine": case_arena_engine,
    "arena_engine_hand": case_arena_engine_hand,
    "arena_bad_engines": case_arena_bad_engines,
    "arena_record_error": case_arena_record_error,
    "arena_engine_reuse": case_arena_engine_reuse,
    "arena_line_limit": case_arena_line_limit,
    "arena_stopped": case_arena_stopped,
    "example_bot": case_example_bot,
    "arena_resume": case_arena_resume,
    "analyse": case_analyse,
    "analyse_exact": case_analyse_exact,
    "bad_arguments": case_bad_arguments,
    "replay_json": case_replay_json,
    "engine_river": case_engine_river,
    "engine_river_game": case_engine_river_game,
    "arena_river": case_arena_river,
    "selfplay_river": case_selfplay_river,
    "bench_river": case_bench_river,
    "expansion_arguments": case_expansion_arguments,
    "usage_errors": case_usage_errors,
    "play_port_in_use": case_play_port_in_use,
    "engine_inns": case_engine_inns,
    "engine_inns_game": case_engine_inns_game,
    "engine_traders_game": case_engine_traders_game,
    "inns_commands": case_inns_commands,
    "engine_hand": case_engine_hand,
    "engine_table_hand": case_engine_table_hand,
    "rules_hand_commands": case_rules_hand_commands,
    "show_table": case_show_table,
    "match_records": case_match_records,
    "puzzles": case_puzzles,
    "puzzle_set": case_puzzle_set,
    "file_errors": case_file_errors,
    "docs_options": case_docs_options,
    "seed_range": case_seed_range,
    "play_needs_terminal": case_play_needs_terminal,
    "plurals": case_plurals,
    "option_combinations": case_option_combinations,
    "end_of_options": case_end_of_options,
    "arena_record_taken": case_arena_record_taken,
    "analyse_hand": case_analyse_hand,
    "carcasum_tiles": case_carcasum_tiles,
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        print("usage: cli_test.py CASE CARCASSONNE; CASE: " + ", ".join(CASES), file=sys.stderr)
        sys.exit(2)
    CARC = os.path.abspath(sys.argv[2])
    CASES[sys.argv[1]]()
