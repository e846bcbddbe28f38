#!/usr/bin/env python3
"""position_test.py CASE PROGRAM: the `position` request (the browser's
lessons): the legal moves of a record's next turn with a tile chosen as
the drawn one, computed on the worker pool and kept like replays; bad
input (a broken record, an unknown tile, a tile the pile cannot give, a
finished game, a record over the message limit) gets a clear error and
changes nothing."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e import Client, Server, check, run_case  # noqa: E402

# Red closes the start tile's city (4 points); Blue's turn comes next.
RECORD = "players 2\n# a lesson\nE 0 -1 2 S\n"
# A hand of two tiles each: Red holds E and V.
HAND = "players 2\nrules hand=2\ndraw 1 E V\ndraw 2 W B\n"


def case_answers(tmp):
    """The legal moves of tile U after the record: Blue (player 1) to
    move at turn 1, every placement a `legal` reply would list, the same
    answer again from the cache, another tile another answer."""
    server = Server(PROGRAM, tmp).start()
    try:
        c = Client(server)
        r = c.ok("position", record=RECORD, tile="U")
        check(r["turn"] == 1 and r["player"] == 1, "turn and player: %s" % r)
        check(r["tile"] == "U", "tile: %s" % r["tile"])
        check(r["scores"] == [4, 0], "scores: %s" % r["scores"])
        check(r["figures"] == ["follower"], "figures: %s" % r["figures"])
        moves = {p["move"] for p in r["placements"]}
        # East of the start tile the straight road runs east-west (rot 1).
        check("U 1 0 1" in moves, "U 1 0 1 missing: %s" % sorted(moves))
        check(all(m.startswith("U ") for m in moves), "moves of another tile: %s" % moves)
        check("discard" not in r, "a tile that fits has no discard: %s" % r)
        east = next(p for p in r["placements"] if p["move"] == "U 1 0 1")
        roles = sorted(s["role"] for s in east["spots"])
        check(roles == ["field", "field", "road"], "spots of U 1 0 1: %s" % east["spots"])
        again = c.ok("position", record=RECORD, tile="U")
        del r["re"], again["re"]
        check(again == r, "the kept answer differs")
        other = c.ok("position", record=RECORD, tile="V")
        check(other["tile"] == "V" and other["placements"] != r["placements"], "tile V: %s" % other)
        # The same record replayed is a `replay` answer, not the position's.
        rp = c.ok("replay", record=RECORD)
        check(rp["type"] == "replay.ok" and rp["moves"][0]["move"].startswith("E 0 -1 2 S"), "replay: %s" % rp)
        # The river: its next tile comes from the river pile.
        river = c.ok("position", record="players 2\nexpansions river\n", tile="RD")
        check(river["placements"], "no placement of RD after the spring: %s" % river)
        # A hand of tiles: the tile asked is the one held, and `hand` lists
        # the moves of each tile of the hand.
        hand = c.ok("position", record=HAND, tile="V")
        check(hand["tile"] == "V" and [h["tile"] for h in hand["hand"]] == ["E", "V"],
              "the hand: %s" % hand)
        check(all(p["move"].startswith("V ") for p in hand["placements"]), "V's moves: %s" % hand)
        check(any(p["move"] == "E 0 -1 2" for p in hand["hand"][0]["placements"]), "E's: %s" % hand)
        print("position: %d placements of U, %d of V" % (len(moves), len(other["placements"])))
    finally:
        server.stop()


def case_bad_input(tmp):
    """Every bad request is refused with a clear error, and the server
    answers a good one afterwards."""
    server = Server(PROGRAM, tmp).start()
    try:
        c = Client(server)

        def refused(code, words, **fields):
            r = c.request("position", **fields)
            check(r["type"] == "error" and r["code"] == code, "%s: %s" % (fields.keys(), r))
            check(words in r["message"], "message %r lacks %r" % (r["message"], words))

        refused("illegal", "line 3", record="players 2\nE 0 -1 2 S\nE 5 5 0\n", tile="U")
        refused("illegal", "line 1", record="not a record\n", tile="U")
        refused("bad_field", "'tile'", record=RECORD, tile="ZZ")
        refused("bad_field", "'tile' is missing", record=RECORD)
        refused("bad_field", "'record'", tile="U")
        refused("bad_field", "'record' is empty", record="", tile="U")
        refused("illegal", "tile RD cannot be drawn", record=RECORD, tile="RD")
        refused("illegal", "tile U is not in the hand", record=HAND, tile="U")
        # A huge record: over the message limit, the frame is refused.
        # A huge record: over the message limit, the frame is refused as a
        # whole (the error names no request: its id was never read).
        huge = "players 2\n" + "# padding\n" * 1000
        c.send("position", record=huge, tile="U")
        r = c.recv()
        check(r and r["type"] == "error" and r["code"] == "too_big", "huge record: %s" % r)
        # Within the limit, a long record that does not read: illegal.
        refused("illegal", "line", record="players 2\n" + "E 0 -1 2 S\n" * 600, tile="U")
        r = c.ok("position", record=RECORD, tile="U")
        check(r["placements"], "no answer after the bad requests")
        print("position: every bad request refused, the server still answers")
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(run_case(globals(), sys.argv[0]))
