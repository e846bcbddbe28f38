#!/usr/bin/env python3
"""hands_test.py CASE PROGRAM: a hand of tiles (the house rule hand=N,
docs/server-protocol.md "A hand of tiles") through the real server on
127.0.0.1 (label `e2e`): two clients and a spectator through a whole
hand=3 game, each message checked for what it shows of the hands; open
hands; a computer seat; the fair-deal check of the finished record."""

import collections
import json
import os
import random
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (run_case, Client, Failure, Server, check, replay, seat_table, start_state,  # noqa: E402
                 tempdir)

PROGRAM = None


class Recorder(Client):
    """A client that keeps every message it receives, to check them all."""

    def __init__(self, server):
        super().__init__(server)
        self.seen = []

    def recv(self, timeout=60.0):
        msg = super().recv(timeout)
        if msg is not None:
            self.seen.append(msg)
        return msg


def server(workdir, extra=()):
    return Server(PROGRAM, workdir, extra).start()


def seat_recorders(srv, **create):
    """Two human seats and a spectator, all recording; returns the table,
    the seats' clients, the spectator and the first state of each."""
    owner = Recorder(srv)
    r = owner.ok("create", name="Ann", seats=["me", "open"], **create)
    table = r["table"]
    other = Recorder(srv)
    other.ok("join", table=table, name="Bob", seat=1)
    watcher = Recorder(srv)
    watcher.ok("watch", table=table)
    states = [start_state(c, table)[0] for c in (owner, other, watcher)]
    return table, [owner, other], watcher, states


def pick(legal, rng, turn):
    """A move of the hand: the hand's tiles in turn (so that different
    tiles are played), a placement of it, or its discard."""
    hand = legal["hand"]
    check(hand, "legal.ok of a hand game has no `hand`: %s" % legal)
    entry = hand[turn % len(hand)]
    if entry["placements"]:
        p = rng.choice(entry["placements"])
        spots = p.get("spots", [])
        if spots and rng.random() < 0.3:
            return p["move"] + " " + rng.choice(spots)["spot"]
        return p["move"]
    fits = [h for h in hand if h["placements"]]
    if fits and rng.random() < 0.5:
        return rng.choice(fits[0]["placements"])["move"]
    return entry["discard"]


def play_hand_game(table, clients, watcher, rng, stop_turn=None, hidden=True):
    """Plays the seats' moves until the end (or `stop_turn`); every
    connection sees every move event. Returns the last move event of the
    first seat."""
    state = [e for e in clients[0].seen if e.get("type") == "state"][-1]
    turn, to_move, last = state["turn"], state["to_move"], None
    played_tiles = set()
    while to_move is not None and (stop_turn is None or turn < stop_turn):
        mover = clients[to_move]
        other = clients[1 - to_move]
        if not hidden:
            check(other.ok("legal", table=table)["hand"], "open hands: legal for all")
            refused = {"code": "not_your_turn"}
        else:
            refused = other.request("legal", table=table)
        check(refused.get("code") == "not_your_turn",
              "the seat not to move got the mover's legal moves: %s" % refused)
        refused = watcher.request("legal", table=table) if hidden else refused
        check(refused.get("code") == "not_your_turn",
              "the spectator got the mover's legal moves: %s" % refused)
        move = pick(mover.ok("legal", table=table), rng, turn)
        played_tiles.add(move.split()[1] if move.startswith("discard ") else move.split()[0])
        r = mover.request("move", table=table, turn=turn, move=move)
        check(r["type"] == "move.ok", "move %r refused: %s" % (move, r))
        for c in clients + [watcher]:
            e = c.event("move", lambda ev: ev["turn"] == turn)
            if c is clients[0]:
                last = e
        nxt = last["next"]
        turn, to_move = turn + 1, (nxt["player"] if nxt else None)
    return last, played_tiles


def check_hands(messages, seat, players, hand_n, open_hands=False):
    """Every message of a connection shows only what `seat` (None: a
    spectator) may see: its own hand, the others' sizes; the tile of the
    player to move only when it is the seat's own. Returns the number of
    hand fields checked."""
    checked = 0
    finished = False
    for m in messages:
        kind = m.get("type")
        if kind == "end" or (kind == "state" and m.get("status") == "finished"):
            finished = True
        if finished or kind not in ("state", "move"):
            continue
        if kind == "state" and m.get("status") != "playing":
            continue
        if kind == "move" and m.get("next") is None:  # the last move: the game is over
            continue
        hands = m.get("hands")
        check(isinstance(hands, list) and len(hands) == players,
              "a %s without the hands: %s" % (kind, json.dumps(m)[:300]))
        for p, h in enumerate(hands):
            check(0 <= h["count"] <= hand_n, "hand size %s" % h)
            visible = open_hands or p == seat
            if visible:
                check(isinstance(h["tiles"], list) and len(h["tiles"]) == h["count"],
                      "seat %s does not see hand %d: %s" % (seat, p, h))
            else:
                check(h["tiles"] is None, "seat %s sees hand %d: %s" % (seat, p, h))
            checked += 1
        own = m.get("hand")
        check(own == (hands[seat]["tiles"] if seat is not None else []),
              "`hand` is not the seat's own: %s, %s" % (own, hands))
        to_move = m["to_move"] if kind == "state" else (m["next"] or {}).get("player")
        tile = m["tile"] if kind == "state" else (m["next"] or {}).get("tile")
        if to_move is not None and not open_hands and to_move != seat:
            check(tile is None, "seat %s sees the tile of player %d: %s" % (seat, to_move, tile))
        if to_move is not None and (open_hands or to_move == seat):
            check(tile in hands[to_move]["tiles"], "the tile to play %s is not in hand %s"
                  % (tile, hands[to_move]))
        draws = m.get("setup_draws", []) if kind == "state" else m.get("draws", [])
        for move in m.get("moves", []):
            draws = draws + move.get("draws", [])
        for d in draws:
            if not open_hands and d["player"] != seat:
                check(d["tile"] is None, "seat %s sees a draw of player %d: %s"
                      % (seat, d["player"], d))
            else:
                check(isinstance(d["tile"], str), "seat %s misses its own draw %s" % (seat, d))
    return checked


def check_unseen_counts(messages, seat, supply):
    """The tiles left a seat is told (`remaining`) are every tile it has
    not seen: the supply less the start tile, the tiles played or
    discarded and its own hand; so they say nothing of another hand."""
    played = collections.Counter()
    n = 0
    for m in messages:
        if m.get("type") == "state" and m.get("status") == "playing":
            played = collections.Counter()
            for mv in m["moves"]:
                w = mv["move"].split()
                played[w[1] if w[0] == "discard" else w[0]] += 1
        elif m.get("type") == "move" and m.get("next"):
            w = m["move"].split()
            played[w[1] if w[0] == "discard" else w[0]] += 1
        else:
            continue
        if "remaining" not in m:
            continue
        seen = collections.Counter(m.get("hand") or []) + played
        total = collections.Counter(m["remaining"]) + seen
        total["D"] += 1  # the start tile
        check(total == supply, "seat %s: remaining + own hand + played %s is not the supply %s"
              % (seat, dict(total - supply), dict(supply - total)))
        n += 1
    return n


def base_supply(state):
    """The base game's 72 tiles by kind, from a state at turn 0 that sees
    every tile it has not seen in `remaining` (plus its hand, the start)."""
    c = collections.Counter(state["remaining"]) + collections.Counter(state.get("hand") or [])
    c["D"] += 1
    check(sum(c.values()) == 72, "the base game has 72 tiles, counted %d" % sum(c.values()))
    return c


def case_hidden_hands(tmp):
    """Two seats and a spectator through a whole hand=3 game: each seat is
    sent its own hand only, the spectator only sizes; `legal` is the mover's
    alone; the record has no draw lines while the game runs (and `replay` of
    the table is refused); at the end everything is shown and the record,
    draws included, passes the fair-deal check."""
    srv = server(tmp)
    try:
        table, clients, watcher, states = seat_recorders(srv, rules=["hand=3"])
        for s, st in zip((0, 1, None), states):
            check(st["rules"] == ["hand=3"], "the state's rules: %s" % st["rules"])
            check(len(st["setup_draws"]) == 6, "set-up draws: %s" % st["setup_draws"])
        check(len(states[0]["hand"]) == 3 and len(states[1]["hand"]) == 3, "hands of 3")
        check(states[2]["hand"] == [], "a spectator has a hand: %s" % states[2]["hand"])
        supply = base_supply(states[0])
        rng = random.Random(11)
        last, _ = play_hand_game(table, clients, watcher, rng, stop_turn=12)
        text = clients[0].ok("record", table=table)["record"]
        check("rules hand=3" in text, "the running record's rules line: %s" % text[:200])
        check(not re.search(r"^draw ", text, re.M), "the running record shows draws")
        status, _, http_text = srv.http("/api/tables/%s/record" % table)
        check(status == 200 and not re.search(r"^draw ", http_text, re.M),
              "the HTTP record of the running game shows draws")
        r = watcher.request("replay", table=table)
        check(r.get("code") == "bad_field", "replay of a running hidden-hand table: %s" % r)
        # A state asked again (sync) shows the same hidden things.
        for c in clients + [watcher]:
            c.ok("sync", table=table)
            c.event("state", lambda e: e["turn"] == 12)
        last, played = play_hand_game(table, clients, watcher, rng)
        check(last["next"] is None, "the game did not end")
        check(len(played) >= 4, "different tiles played: %s" % sorted(played))
        end = clients[0].event("end")
        for seat, c in ((0, clients[0]), (1, clients[1]), (None, watcher)):
            n = check_hands(c.seen, seat, 2, 3)
            check(n > 100, "too few hands checked for seat %s: %d" % (seat, n))
        for seat, c in ((0, clients[0]), (1, clients[1])):
            check(check_unseen_counts(c.seen, seat, supply) > 50, "too few counts checked")
        # The end: every draw in the record, and the deal verified.
        text = clients[0].ok("record", table=table)["record"]
        draws = re.findall(r"^draw ([12]) (.*)$", text, re.M)
        check(len(draws) >= 6, "the finished record's draw lines: %d" % len(draws))
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0 and out["scores"] == end["scores"], "replay: %s %s" % (out, err))
        deal = clients[0].ok("replay", table=table)["deal"]
        check(deal["status"] == "verified", "the server's deal check: %s" % deal)
        # Two tiles of one draw swapped: the same hand, still a legal
        # record, but the deal no longer matches the seed.
        lines = text.splitlines()
        at = next(i for i, l in enumerate(lines)
                  if l.startswith("draw ") and len(set(l.split()[2:])) > 1)
        w = lines[at].split()
        k = next(j for j in range(3, len(w)) if w[j] != w[2])
        w[2], w[k] = w[k], w[2]
        lines[at] = " ".join(w)
        forged = clients[0].ok("replay", record="\n".join(lines) + "\n")
        check(forged["deal"]["status"] == "mismatch" and "forged deal" in forged["deal"]["text"],
              "a record with two draws swapped: %s" % forged["deal"])
        code, _, err = replay(PROGRAM, "\n".join(lines) + "\n", tmp, "forged.rec")
        check(code == 1 and "forged deal" in err, "replay of the forged record: %d %s" % (code, err))
    finally:
        srv.stop()


def case_open_hands(tmp):
    """With open-hands every connection, the spectator too, sees every
    hand and the tile to play, and may ask `legal`."""
    srv = server(tmp)
    try:
        table, clients, watcher, states = seat_recorders(srv, rules=["hand=2", "open-hands"])
        rng = random.Random(5)
        play_hand_game(table, clients, watcher, rng, stop_turn=1, hidden=False)
        for seat, c in ((0, clients[0]), (1, clients[1]), (None, watcher)):
            check(check_hands(c.seen, seat, 2, 2, open_hands=True) >= 4, "hands checked")
        legal = watcher.ok("legal", table=table)
        check(legal["hand"], "the spectator's legal moves of an open hand: %s" % legal)
        text = watcher.ok("record", table=table)["record"]
        check(re.search(r"^draw 1 ", text, re.M), "open hands: the record keeps its draws")
    finally:
        srv.stop()


def case_computer_hand(tmp):
    """A person against a computer seat with hand=3 and reshuffle: the
    computer plays from its own hand (its seat's view) to the end; the
    person never sees the computer's tiles; a discard goes back into the
    pile; the finished game's review covers every move."""
    srv = server(tmp)
    try:
        owner = Recorder(srv)
        r = owner.ok("create", name="Ann", seats=["me", "greedy"], rules=["hand=3", "reshuffle"])
        table = r["table"]
        rng = random.Random(2)
        state = owner.event("state", lambda e: e.get("status") == "playing")
        turn, to_move = state["turn"], state["to_move"]
        while to_move is not None:
            if to_move == 0:
                move = pick(owner.ok("legal", table=table), rng, turn)
                owner.ok("move", table=table, turn=turn, move=move)
            e = owner.event("move", lambda ev: ev["turn"] == turn)
            if e["move"].startswith("discard "):
                check(e.get("returned") == e["move"].split()[1], "reshuffle: %s" % e)
            turn, to_move = turn + 1, (e["next"] or {}).get("player")
        owner.event("end")
        check(check_hands(owner.seen, 0, 2, 3) > 50, "hands checked")
        moves = owner.ok("replay", table=table)["moves"]
        check({m["player"] for m in moves} == {0, 1}, "both seats moved")
        # The review of the finished game replays its draws: every move.
        owner.ok("review", table=table, ms=10)
        review = owner.event("review")["moves"]
        check(len(review) == len(moves), "the review has %d of the %d moves"
              % (len(review), len(moves)))
        check(all(r["played"].split()[0] in (m["move"].split()[0], "discard")
                  for r, m in zip(review, moves)), "the review's moves are the game's")
    finally:
        srv.stop()


def main():
    return run_case(globals(), "hands_test.py")


if __name__ == "__main__":
    sys.exit(main())
