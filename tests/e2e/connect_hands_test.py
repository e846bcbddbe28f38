#!/usr/bin/env python3
"""connect_hands_test.py CASE PROGRAM: `carcassonne connect` at tables with
a hand of tiles (the house rule hand=N; docs/connect.md "A hand of tiles"),
with library players and an outside engine,
through the real server on 127.0.0.1 (label `e2e`). Every case plays a
whole game, checks that every client saw the same final scores, that each
seat printed its own hand and only the sizes of the others', and that the
finished record replays with `carcassonne replay` to those scores."""

import os
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (run_case, WAIT, Failure, Server, check, connect_proc, drain, read_until, replay,  # noqa: E402
                 tempdir)

PROGRAM = None
HANDS = re.compile(r"^  hands( .*)$")


def finish(procs):
    """Waits for every (process, output) pair to end well; returns each
    one's final scores."""
    finals = []
    for p, out in procs:
        p.wait(timeout=WAIT * 4)
        time.sleep(0.1)  # the reader thread takes the last lines
        text = "".join(out)
        check(p.returncode == 0, "connect exited %s: %s" % (p.returncode, "".join(out[-15:])))
        m = re.search(r"final scores ([\d ]+)", text)
        check(m, "no final scores: %s" % text[-500:])
        finals.append([int(x) for x in m.group(1).split()])
    return finals


def hand_lines(out, seat, players, hand_n, open_hands=False):
    """Checks each `  hands ...` line of a client's output: one entry a
    seat, a size from 0 to N; the tiles of its own seat (or every seat
    with open hands) and of no other. Returns how many lines there were."""
    n = 0
    for line in out:
        m = HANDS.match(line.rstrip("\n"))
        if not m:
            continue
        n += 1
        entries = m.group(1).split()
        check(len(entries) == players, "a hands line without every seat: %r" % line)
        for p, e in enumerate(entries):
            size, _, tiles = e.partition(":")
            own = size.endswith("(you)")
            size = int(size.replace("(you)", ""))
            check(own == (p == seat), "seat %s marked as (you) in %r" % (p, line))
            check(0 <= size <= hand_n, "a hand of %d in %r" % (size, line))
            shown = tiles.split(",") if tiles else []
            if open_hands or p == seat:
                check(len(shown) == size, "the hand of seat %d is not shown: %r" % (p, line))
            else:
                check(not shown, "seat %s sees the hand of seat %d: %r" % (seat, p, line))
    return n


def play_table(tmp, rules, seats, player_a, player_b=None, players=2, hand_n=3,
               open_hands=False):
    """A table made by `connect --create SEATS --rules RULES` (seat 0 this
    client, with `player_a`), its open seat 1 (if any) taken by a second
    connect with `player_b`, and a spectator. Plays it to the end and
    checks the final scores, the hands printed and the record's replay.
    Returns the replay's JSON and the first client's output."""
    srv = Server(PROGRAM, tmp).start()
    procs = []
    try:
        rec = os.path.join(tmp, "hands.rec")
        out_a, out_b, out_w = [], [], []
        a = connect_proc(PROGRAM, srv.url, "--create", seats, "--rules", rules, "--player",
                         player_a, "--record", rec, "--seed", "3")
        procs.append((a, out_a))
        table = read_until(a, r"^table (\S+)", out_a).group(1)
        w = connect_proc(PROGRAM, srv.url, "--table", table, "--watch")
        procs.append((w, out_w))
        read_until(w, r"^table ", out_w)
        if player_b:
            b = connect_proc(PROGRAM, srv.url, "--table", table, "--player", player_b,
                             "--seed", "4")
            procs.append((b, out_b))
            drain(b, out_b)
        drain(a, out_a)
        drain(w, out_w)
        finals = finish(procs)
        check(all(f == finals[0] for f in finals),
              "the clients disagree on the final scores: %s" % finals)
        check(len(finals[0]) == players, "%d final scores" % len(finals[0]))
        check(hand_lines(out_a, 0, players, hand_n, open_hands) >= 10,
              "seat 0 printed too few hands lines: %s" % "".join(out_a[-10:]))
        if player_b:
            check(hand_lines(out_b, 1, players, hand_n, open_hands) >= 10,
                  "seat 1 printed too few hands lines")
        check(hand_lines(out_w, None, players, hand_n, open_hands) >= 10,
              "the spectator printed too few hands lines")
        text = open(rec).read()
        check(re.search(r"^draw 1 ", text, re.M), "the record has no draw lines:\n%s" % text[:800])
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0, "replay refused the record: %s" % err)
        check(out["scores"] == finals[0], "replay scores %s, the game's %s"
              % (out["scores"], finals[0]))
        return out, out_a
    finally:
        for p, _ in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


def case_hand3(tmp):
    """Two connect processes (random and greedy) play a hand=3 table to its
    end: each sees its own hand only, the spectator sizes only."""
    play_table(tmp, "hand=3", "me,open", "random", "greedy")


def case_hand2_reshuffle_table(tmp):
    """hand=2 with reshuffle on a 7x7 table, connect (greedy) against a
    second connect (random): a small table leaves tiles that fit nowhere,
    which go back into the pile while the engine's slack for returns lasts
    (at most 16), later ones set aside; every placement lies on the
    table."""
    out, lines = play_table(tmp, "hand=2,reshuffle,table=7x7", "me,open", "greedy", "random",
                            hand_n=2)
    for h in out["history"]:
        if "x" in h and h.get("x") is not None:
            check(-3 <= h["x"] <= 3 and -3 <= h["y"] <= 3, "a tile beyond the table: %s" % h)
    discards = sum(1 for h in out["history"] if h["move"].startswith("discard"))
    returned = sum(1 for line in lines if line.endswith("went back into the pile\n"))
    check(discards == 0 or 0 < returned <= min(discards, 16),
          "%d discards, %d tiles announced as returned" % (discards, returned))


def case_seven_open_hands(tmp):
    """Seven seats with open hands (hand=1): this client (mcts, short)
    among six of the server's computer players; it sees every hand."""
    play_table(tmp, "hand=1,open-hands", "me,random,random,greedy,random,random,random",
               "mcts:iters=200,threads=1", players=7, hand_n=1, open_hands=True)


def case_engine_hand(tmp):
    """An outside engine seat (`engine:carcassonne engine`) at hand tables:
    connect tells it every draw (its own as shown, the others' as the
    replica guesses them) and its moves; it plays hand=3, and hand=2 with
    reshuffle on a 7x7 table, to the end against a second connect."""
    engine = "engine:%s engine --player greedy" % PROGRAM
    for rules, n in (("hand=3", 3), ("hand=2,reshuffle,table=7x7", 2)):
        sub = os.path.join(tmp, rules.replace(",", "_").replace("=", ""))
        os.mkdir(sub)
        play_table(sub, rules, "me,open", engine, "random", hand_n=n)


def main():
    return run_case(globals(), "connect_hands_test.py")


if __name__ == "__main__":
    sys.exit(main())
