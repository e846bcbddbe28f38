#!/usr/bin/env python3
"""e2e_test.py CASE PROGRAM: one end-to-end test of the game server and its
clients over real sockets on 127.0.0.1 (label `e2e`). Each case starts its
own server (`PROGRAM serve --port 0` on a temporary database) and stops it.
See docs/server-protocol.md for the messages."""

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (run_case, WAIT, Client, Failure, Server, check, choose_move, commitment_of,  # noqa: E402
                 drain, play_until, read_until, record_moves, replay, seat_table, start_state,
                 tempdir)
from e2e import connect_proc as e2e_connect_proc  # noqa: E402

PROGRAM = None


def server(workdir, extra=()):
    return Server(PROGRAM, workdir, extra).start()


# --- Whole games ---------------------------------------------------------------


def case_two_player_game(tmp):
    """Two scripted clients play a whole game; the record, from the socket
    and from HTTP, replays to the scores the server announced."""
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        last = play_until(clients, table, state, rng=random.Random(7))
        check(last["next"] is None, "the last move names a next turn")
        ends = [c.event("end") for c in clients]
        check(ends[0]["scores"] == ends[1]["scores"], "the players see different final scores")
        check(ends[0]["scores"] == last["scores"], "end scores %s differ from the last move's %s"
              % (ends[0]["scores"], last["scores"]))
        rec = clients[0].ok("record", table=table)
        check(rec["finished"] is True, "record.ok: finished is not true")
        status, ctype, text = srv.http("/api/tables/%s/record" % table)
        check(status == 200 and ctype.startswith("text/plain"), "GET record: %s %s" % (status, ctype))
        check(text == rec["record"], "the HTTP record differs from the socket's")
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0, "replay refused the record: " + err)
        check(out["scores"] == ends[0]["scores"], "replay scores %s, server %s"
              % (out["scores"], ends[0]["scores"]))
        check(out.get("finished") is True, "replay: the game is not finished")
        check(out["digest"] == last["digest"], "the last move's digest %s, the library's %s"
              % (last["digest"], out["digest"]))
    finally:
        srv.stop()


def case_computer_seat(tmp):
    """A person against a computer seat, to the final scoring."""
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(srv, seats=("me", "mcts:level=easy"))
        _, state = start_state(clients[0], table)
        last = play_until(clients, table, state, rng=random.Random(3))
        end = clients[0].event("end")
        check(end["scores"] == last["scores"], "end scores differ from the last move's")
        clients[0].ok("sync", table=table)
        moves = clients[0].event("state")["moves"]
        by = {m["player"] for m in moves}
        check(by == {0, 1}, "both seats moved")
        check(len(moves) >= 71, "a whole game has 71 moves, not %d" % len(moves))
        code, out, err = replay(PROGRAM, clients[0].ok("record", table=table)["record"], tmp)
        check(code == 0 and out["scores"] == end["scores"], "replay: %s %s" % (out, err))
    finally:
        srv.stop()


def case_spectator(tmp):
    """A spectator joins mid-game, sees every move so far and every move
    after, may ask for the legal moves but may not move."""
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        play_until(clients, table, state, stop_turn=10)
        watcher = Client(srv)
        watcher.ok("watch", table=table)
        s = watcher.event("state")
        check(s["you"] is None, "a spectator has a seat: %s" % s["you"])
        check(len(s["moves"]) == 10 and s["turn"] == 10, "the spectator's state misses moves")
        r = watcher.request("move", table=table, turn=10, move="discard A")
        check(r.get("code") == "not_seated", "a spectator's move: %s" % r)
        watcher.ok("legal", table=table)
        play_until(clients + [watcher], table, state, stop_turn=20)
        check(watcher.alive(), "the spectator's connection died")
        clients[0].ok("chat", table=table, text="hello watcher")
        chat = watcher.event("chat")
        check(chat["text"] == "hello watcher" and chat["seat"] == 0, "chat: %s" % chat)
        play_until(clients + [watcher], table, state)
        end = watcher.event("end")
        check(end["scores"] == clients[0].event("end")["scores"], "spectator's end differs")
    finally:
        srv.stop()


def case_reconnect(tmp):
    """A player drops mid-game; the others see it away; it comes back with
    its token and the state has every move it missed."""
    srv = server(tmp)
    try:
        table, clients, tokens, _ = seat_table(srv, seats=("me", "open", "greedy"),
                                               names=("Ann", "Bob", "Cid"))
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        # Play until seat 1 has just moved, then drop it.
        play_until(clients, table, state, stop_turn=8)
        while state["to_move"] != 2:
            play_until(clients, table, state, stop_turn=state["turn"] + 1)
        clients[1].ws.sock.close() if clients[1].ws.sock else None
        clients[1] = None
        away = clients[0].event("seat", lambda e: e["seat"] == 1 and e["present"] is False)
        check(away["seat"] == 1, "no away event")
        played_meanwhile = state["turn"]
        # Seats 2 and 0 move until seat 1 is to move: two moves, or more when
        # a tile fits nowhere (discarded, its player draws again; two moves
        # at turn 8 and 9 then left seat 1 not to move, about one deal in
        # 1000).
        while state["to_move"] != 1:
            check(state["to_move"] is not None and state["turn"] < played_meanwhile + 10,
                  "seat 1 is not to move again (turn %d, seat %s to move)"
                  % (state["turn"], state["to_move"]))
            play_until(clients, table, state, stop_turn=state["turn"] + 1)
        back = Client(srv)
        r = back.ok("resume", table=table, token=tokens[1])
        check(r["seat"] == 1 and r["table"] == table, "resume.ok: %s" % r)
        s = back.event("state")
        check(s["you"] == 1, "resumed as seat %s" % s["you"])
        check(len(s["moves"]) == state["turn"], "the state has %d moves, %d were made"
              % (len(s["moves"]), state["turn"]))
        check(s["turn"] == state["turn"] and s["to_move"] == 1, "the resumed state's turn is off")
        check(played_meanwhile < state["turn"], "no move was missed")
        clients[0].event("seat", lambda e: e["seat"] == 1 and e["present"] is True)
        clients[1] = back
        play_until(clients, table, state)
        clients[0].event("end")
        clients[1].event("end")
    finally:
        srv.stop()


# --- The fair deal --------------------------------------------------------------


def tile_swaps(moves):
    """Pairs of moves with different tiles, late ones first, and the two
    move lines with their tiles swapped (the tile counts stay right)."""
    placed = [i for i, m in enumerate(moves) if not m.startswith("discard") and m != "end"]
    for j in reversed(placed):
        for i in reversed([k for k in placed if k < j]):
            if moves[i][0] != moves[j][0]:
                yield i, j, moves[j][0] + moves[i][1:], moves[i][0] + moves[j][1:]


def case_fair_deal(tmp):
    """The seed and salt revealed at the end hash to the commitment
    published at the start; the record replays; a record with one tile
    changed is refused even when the changed move is legal; the server's
    `replay` answers the same check ("verified" for the table, "mismatch"
    for the forged record, still replayed)."""
    srv = server(tmp)
    try:
        owner = Client(srv)
        r = owner.ok("create", seats=["greedy", "random"])
        commitment = r["commitment"]
        check(re.fullmatch(r"[0-9a-f]{64}", commitment), "commitment: %r" % commitment)
        owner.event("state")
        end = owner.event("end")
        check(commitment_of(end["salt"], end["seed"]) == commitment,
              "SHA-256 of SALT:SEED is not the commitment")
        check(re.fullmatch(r"[0-9a-f]{32}", end["salt"]), "salt: %r" % end["salt"])
        text = owner.ok("record", table=r["table"])["record"]
        for key, value in (("seed", str(end["seed"])), ("salt", end["salt"]),
                           ("commitment", commitment)):
            check(re.search(r"^%s %s$" % (key, value), text, re.M), "record header %s" % key)
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0 and out["scores"] == end["scores"], "replay: %s %s" % (out, err))
        # The server's `replay` of the finished table runs the same check.
        deal = owner.ok("replay", table=r["table"])["deal"]
        check(deal == {"status": "verified", "text": "deal verified (seed, salt, commitment)"},
              "the server's replay of the table: deal %r" % deal)
        # One tile changed: refused.
        lines = text.splitlines()
        moves = record_moves(text)
        idx = [k for k, l in enumerate(lines) if l in set(moves)]
        one = list(lines)
        one[idx[-1]] = ("A" if moves[-1][0] != "A" else "B") + moves[-1][1:]
        c, _, _ = replay(PROGRAM, "\n".join(one) + "\n", tmp, "one.rec")
        check(c == 1, "replay accepted a record with one tile changed")
        # Two tiles swapped so that the rules alone accept the record (it
        # replays without its seed): still refused, the deal does not match.
        headers = re.compile(r"^(seed|salt|commitment) ")
        for tried, (i, j, mi, mj) in enumerate(tile_swaps(moves)):
            check(tried < 300, "no legal swap of two tiles found")
            cand = list(lines)
            cand[idx[i]], cand[idx[j]] = mi, mj
            unseeded = [l for l in cand if not headers.match(l)]
            c, _, _ = replay(PROGRAM, "\n".join(unseeded) + "\n", tmp, "cand.rec")
            if c != 0:
                continue
            c, _, err = replay(PROGRAM, "\n".join(cand) + "\n", tmp, "swapped.rec")
            check(c == 1, "replay accepted a record whose tiles %d and %d are swapped" % (i, j))
            print("swapped tiles refused: " + err.strip())
            # The server still replays a record sent whole with a forged
            # deal, and says so.
            forged = owner.ok("replay", record="\n".join(cand) + "\n")
            check(forged["deal"]["status"] == "mismatch" and "forged deal" in forged["deal"]["text"]
                  and len(forged["moves"]) == len(moves), "the server's replay of the swapped "
                  "record: %r" % forged["deal"])
            break
    finally:
        srv.stop()


def case_review(tmp):
    """The engine's review of a finished game: queued, then one `review`
    event with every move, its best move and the loss; asked again, at once;
    refused (not_started/game_over aside) while the game runs."""
    srv = server(tmp)
    try:
        owner = Client(srv)
        t = owner.ok("create", seats=["random", "random"])["table"]
        owner.event("end")
        r = owner.ok("review", table=t, ms=10)
        check(isinstance(r.get("position"), int), "review.ok: %s" % r)
        rev = owner.event("review", timeout=WAIT * 2)
        moves = rev["moves"]
        check(len(moves) == 71, "the review has %d moves" % len(moves))
        # (loss is an estimate: with a short budget it may come out below 0)
        check(all(isinstance(m["loss"], (int, float)) and m["played"] and m["best"]
                  for m in moves), "review: %s" % moves[:3])
        check([m["turn"] for m in moves] == list(range(71)), "review turns")
        again = Client(srv)
        check(again.ok("review", table=t, ms=10)["position"] == 0, "a second review waits")
        check(again.event("review")["moves"] == moves, "the kept review differs")
        expect_error(again, "bad_field", None, type="review", table=t, ms=5)
        table, clients, _, _ = seat_table(srv)
        r = clients[0].request("review", table=table, ms=10)
        check(r["type"] == "error", "a review of a running game: %s" % r)
    finally:
        srv.stop()


def case_clock_forfeit(tmp):
    """A seat whose move clock runs out at a `forfeit` table loses: the game
    ends, `end` names the seat, and the record replays."""
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(
            srv, clock={"mode": "move", "seconds": 5, "on_timeout": "forfeit"})
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        play_until(clients, table, state, stop_turn=2)
        late = state["to_move"]
        end = clients[0].event("end", timeout=WAIT)  # about 5 s later
        check(end["forfeit"] == late and late not in end["winners"], "end: %s" % end)
        text = clients[1].ok("record", table=table)["record"]
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0 and out["finished"] and out["scores"] == end["scores"],
              "replay of a forfeit: %s %s, end %s" % (out, err, end["scores"]))
    finally:
        srv.stop()


# --- Bad messages ------------------------------------------------------------------


def snapshot(client, table):
    client.events = [e for e in client.events if e.get("type") != "state"]
    client.ok("sync", table=table)
    s = client.event("state")
    return (s["status"], s["turn"], s["to_move"], s["tile"], [m["move"] for m in s["moves"]],
            [(x["name"], x["score"]) for x in s["seats"]])


def expect_error(client, code, raw=None, **msg):
    if raw is not None:
        client.send_raw(raw)
        r = client.recv()
        while r is not None and "re" not in r and r.get("type") != "error":
            client.events.append(r)  # an event, not the reply
            r = client.recv()
    else:
        r = client.request(msg.pop("type"), **msg)
    check(r is not None and r.get("type") == "error" and r.get("code") == code,
          "expected error %s, got %s" % (code, r))
    check(isinstance(r.get("message"), str), "an error without a message")
    return r


def case_bad_messages(tmp):
    """Every error code of the protocol, each leaving the table as it was
    and the connection alive; a foreign seat's token; abuse closes."""
    srv = server(tmp)
    try:
        table, clients, tokens, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        play_until(clients, table, state, stop_turn=4)
        other, _, other_tokens, _ = seat_table(srv, names=("Cy", "Di"))
        lonely = Client(srv)
        waiting = lonely.ok("create", name="Lo", seats=["me", "open"])["table"]
        c, spectator = clients[state["to_move"]], Client(srv)
        idle = clients[1 - state["to_move"]]
        spectator.ok("watch", table=table)
        before = snapshot(c, table)
        turn = state["turn"]
        move, legal = choose_move(c, table, random.Random(5))
        cases = [
            ("bad_json", "{not json", {}),
            ("bad_json", "[1, 2, 3]", {}),
            ("too_big", json.dumps({"type": "chat", "table": table, "text": "x" * 9000}), {}),
            ("unknown_type", None, {"type": "fly", "table": table}),
            ("unknown_type", '{"id": 5, "table": "%s"}' % table, {}),
            ("bad_field", None, {"type": "move", "table": table, "turn": "four", "move": move}),
            ("bad_field", None, {"type": "create", "name": "Ann", "seats": ["me"]}),
            ("bad_field", None, {"type": "join", "table": waiting, "name": "\u0007bell"}),
            ("no_table", None, {"type": "watch", "table": "t0000000000"}),
            ("no_table", None, {"type": "move", "table": "tnosuchtabl", "turn": turn,
                                "move": move}),
            ("no_seat", None, {"type": "join", "table": table, "name": "Eve", "seat": 0}),
            ("no_seat", None, {"type": "join", "table": table, "name": "Eve", "seat": 5}),
            ("bad_token", None, {"type": "resume", "table": table, "token": "0" * 32}),
            ("bad_token", None, {"type": "resume", "table": table, "token": other_tokens[0]}),
            ("not_seated", None, {"type": "move", "table": other, "turn": 0, "move": move}),
            ("not_started", None, {"type": "move", "table": waiting, "turn": 0,
                                   "move": "discard A", "_by": "lonely"}),
            ("not_your_turn", None, {"type": "move", "table": table, "turn": turn,
                                     "move": move, "_by": "idle"}),
            ("stale", None, {"type": "move", "table": table, "turn": turn - 1, "move": move}),
            ("stale", None, {"type": "move", "table": table, "turn": turn + 1, "move": move}),
            ("illegal", None, {"type": "move", "table": table, "turn": turn,
                               "move": legal["tile"] + " 40 40 0"}),
            ("illegal", None, {"type": "move", "table": table, "turn": turn, "move": "banana"}),
        ]
        for code, raw, msg in cases:
            who = {"idle": idle, "lonely": lonely}.get(msg.pop("_by", None), c)
            expect_error(who, code, raw, **msg)
            check(who.alive(), "the connection died after %s" % code)
        spectator_move = expect_error(spectator, "not_seated", None, type="move", table=table,
                                      turn=turn, move=move)
        check(spectator_move["re"] is not None, "no re")
        check(snapshot(c, table) == before, "an error changed the table")
        # rate_limited: more than 20 messages a second.
        ids = [c.send("ping", paced=False) for _ in range(40)]
        codes = [c.reply(i).get("code") for i in ids]
        check("rate_limited" in codes, "40 pings at once were not limited: %s" % codes)
        time.sleep(1.5)
        check(c.alive(), "the connection died after rate_limited")
        # The game goes on after all that.
        r = c.request("move", table=table, turn=turn, move=move)
        check(r["type"] == "move.ok", "the legal move after the errors: %s" % r)
        # too_big twice closes the connection (1008).
        abuser = Client(srv)
        expect_error(abuser, "too_big", "x" * 9000)
        abuser.send_raw("x" * 9000)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and abuser.recv() is not None:
            pass
        check(abuser.closed_code == 1008, "close code %s" % abuser.closed_code)
        # More than 100 errors close it too.
        noisy = Client(srv)
        closed = False
        for i in range(130):
            try:
                noisy.send_raw('{"type":"fly"}')  # paced: unknown_type, not rate_limited
                if noisy.recv(WAIT) is None:
                    closed = True
                    break
            except Exception:
                closed = True
                break
        check(closed, "130 errors did not close the connection")
        check(noisy.closed_code in (1008, None), "close code %s" % noisy.closed_code)
        check(clients[0].alive() and clients[1].alive(), "the players' connections died")
    finally:
        srv.stop()


def case_limits(tmp):
    """too_many: a table over the limit of one address, a connection over
    its limit; nothing changes and the other connections live on."""
    srv = server(tmp, ["--max-tables-per-ip", "2", "--max-conns-per-ip", "3"])
    try:
        a, b = Client(srv), Client(srv)
        for _ in range(2):
            a.ok("create", name="Ann", seats=["me", "open"])
        before = len(a.ok("lobby")["tables"])
        expect_error(a, "too_many", None, type="create", name="Ann", seats=["me", "open"])
        check(len(a.ok("lobby")["tables"]) == before and a.alive(), "a refused create changed it")
        c = Client(srv)  # the third connection is allowed
        check(c.alive(), "the third connection")
        try:
            d = Client(srv)
        except Exception:
            d = None  # refused at the handshake: as good
        if d is not None:
            r = d.recv(WAIT)
            check(r is None or r.get("code") == "too_many", "a fourth connection: %s" % r)
            check(r is None or d.recv(WAIT) is None, "the refused connection stays open")
        check(a.alive() and b.alive() and c.alive(), "the others died")
        c.close()
        deadline = time.monotonic() + WAIT
        while True:  # a freed place is free again (once the server has seen the close)
            try:
                e = Client(srv)
                if e.alive():
                    break
            except Exception:
                pass
            check(time.monotonic() < deadline, "no connection after one closed")
            time.sleep(0.2)
    finally:
        srv.stop()


def case_protocol_details(tmp):
    """What the document promises beside the games: no subprotocol is
    version 1, string ids come back as `re`, `leave` stops the events,
    `lobby` and `mine` list the right tables, HTTP 404 for no table."""
    srv = server(tmp)
    try:
        plain = Client(srv, subprotocols=())
        r = plain.request("hello")
        check(r["type"] == "hello.ok" and r["protocol"] == 1, "hello without subprotocol: %s" % r)
        a = Client(srv)
        a.send_raw(json.dumps({"type": "ping", "id": "my-id-7"}))
        r = a.recv()
        check(r == {"type": "ping.ok", "re": "my-id-7"}, "string id: %s" % r)
        expect_error(a, "bad_field", json.dumps({"type": "ping", "id": "x" * 65}))
        table, clients, tokens, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        unlisted = Client(srv)
        hidden = unlisted.ok("create", name="Hid", seats=["me", "open"], listed=False)
        lobby = [t["table"] for t in a.ok("lobby")["tables"]]
        check(table in lobby and hidden["table"] not in lobby, "lobby: %s" % lobby)
        mine = a.ok("mine", seats=[{"table": table, "token": tokens[1]},
                                   {"table": hidden["table"], "token": tokens[0]}])["tables"]
        check([(t["table"], t["seat"]) for t in mine] == [(table, 1)], "mine: %s" % mine)
        watcher = Client(srv)
        watcher.ok("watch", table=table)
        watcher.event("state")
        watcher.ok("leave", table=table)
        play_until(clients, table, state, stop_turn=2)
        watcher.ok("ping")
        check(not [e for e in watcher.events if e.get("type") == "move"],
              "events after leave: %s" % watcher.events)
        # An invite seat: refused without its code or with a wrong one; an
        # invite link (the table and the code, no seat) takes it.
        inviter = Client(srv)
        inv = inviter.ok("create", name="Ivy", seats=["me", "invite"])
        code = inv["invites"][1]
        check(inv["invites"][0] is None and isinstance(code, str) and code, "invites: %s" % inv)
        guest = Client(srv)
        expect_error(guest, "no_seat", None, type="join", table=inv["table"], name="G")
        expect_error(guest, "no_seat", None, type="join", table=inv["table"], name="G",
                     invite=("b" if code[0] == "a" else "a") + code[1:])
        check(guest.ok("join", table=inv["table"], name="G", invite=code)["seat"] == 1, "invite")
        try:
            status = srv.http("/api/tables/tnosuchtabl/record")[0]
        except urllib.error.HTTPError as e:
            status = e.code
        check(status == 404, "GET record of no table: %s" % status)
    finally:
        srv.stop()


def case_storage_failure(tmp):
    """internal: the database refuses the commit (another process holds its
    write lock past the server's busy timeout); the move is not made, the
    connection lives, and the same move goes through once the lock is gone."""
    import sqlite3
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        play_until(clients, table, state, stop_turn=3)
        c = clients[state["to_move"]]
        move, _ = choose_move(c, table, random.Random(2))
        before = snapshot(c, table)
        locker = sqlite3.connect(srv.db, timeout=WAIT, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # the write lock, held
        try:
            r = c.request("move", table=table, turn=state["turn"], move=move)
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        check(r.get("code") == "internal", "a move the database refused: %s" % r)
        check(snapshot(c, table) == before and c.alive(), "the refused move changed the table")
        r = c.request("move", table=table, turn=state["turn"], move=move)
        check(r["type"] == "move.ok", "the move after the lock: %s" % r)
        status, _, text = srv.http("/api/tables/%s/record" % table)
        check(record_moves(text)[-1] == move and len(record_moves(text)) == 4, "record: " + text)
    finally:
        srv.stop()


def case_game_over(tmp):
    """A move at a finished table is game_over for its seat."""
    srv = server(tmp)
    try:
        table, clients, _, _ = seat_table(srv)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        play_until(clients, table, state)
        clients[0].event("end")
        before = snapshot(clients[0], table)
        expect_error(clients[0], "game_over", None, type="move", table=table, turn=state["turn"],
                     move="discard A")
        check(snapshot(clients[0], table) == before and clients[0].alive(), "state changed")
    finally:
        srv.stop()


# --- Durability -------------------------------------------------------------------


class Driver(threading.Thread):
    """Plays a two-seat table as fast as it can, keeping every move the
    server acknowledged, until the connection fails."""

    def __init__(self, clients, table, state, seed):
        super().__init__(daemon=True)
        self.clients, self.table, self.state = clients, table, state
        self.rng = random.Random(seed)
        self.acked = []
        self.error = None

    def run(self):
        try:
            while self.state["to_move"] is not None:
                play_until(self.clients, self.table, self.state,
                           stop_turn=self.state["turn"] + 1, rng=self.rng, acked=self.acked)
        except Exception as e:  # the server was killed
            self.error = e


def connect_proc(url, *args, log=None):
    return e2e_connect_proc(PROGRAM, url, *args, log=log)


def case_first_kept(tmp):
    """How the first seat was chosen (a draw-off) is stored with the table:
    after the server restarts on the same database, `state` tells it
    again, word for word."""
    srv = server(tmp)
    try:
        ann = Client(srv)
        r = ann.ok("create", name="Ann", seats=["me", "open"], first="draw-off")
        table = r["table"]
        bob = Client(srv)
        bob.ok("join", table=table, name="Bob")
        before, _ = start_state(ann, table)
        text = before.get("first", "")
        check("Draw-off" in text and "starts" in text, "no draw-off in state: %r" % text)
        ann.close()
        bob.close()
        srv.stop()
        srv.start()
        again = Client(srv)
        again.ok("resume", table=table, token=r["token"])
        after = again.event("state")
        check(after.get("first") == text, "after the restart: %r, not %r"
              % (after.get("first"), text))
    finally:
        srv.stop()


def case_kill9(tmp):
    """kill -9 of the server while moves are in flight; a restart on the same
    database keeps every acknowledged move; the games go on; `carcassonne
    connect` players reconnect by themselves and finish theirs."""
    srv = server(tmp)
    procs = []
    try:
        # Two connect players, a search player so the game takes a while.
        spec = "mcts:iters=1000,threads=1"
        out_a, out_b = [], []
        a = connect_proc(srv.url, "--create", "me,open", "--player", spec, "--name", "A",
                         "--record", os.path.join(tmp, "a.rec"))
        procs.append(a)
        ctable = read_until(a, r"^table (\S+)", out_a).group(1)
        b = connect_proc(srv.url, "--table", ctable, "--player", spec, "--name", "B")
        procs.append(b)
        read_until(b, r"^seat 1", out_b)
        read_until(a, r"^turn 3:", out_a)
        drain(a, out_a)
        drain(b, out_b)
        # Scripted pairs playing as fast as they can.
        drivers = []
        for k in range(3):
            table, clients, tokens, _ = seat_table(srv)
            _, state = start_state(clients[0], table)
            start_state(clients[1], table)
            d = Driver(clients, table, state, k)
            d.tokens = tokens
            drivers.append(d)
        for d in drivers:
            d.start()
        deadline = time.monotonic() + WAIT
        while min(len(d.acked) for d in drivers) < 15 and time.monotonic() < deadline:
            time.sleep(0.01)
        check(all(d.is_alive() for d in drivers), "a game ended before the kill")
        port = srv.port
        srv.kill9()
        for d in drivers:
            d.join(WAIT)
            check(d.error is not None, "a driver did not notice the kill")
        srv.start(port=port)
        for d in drivers:
            status, _, text = srv.http("/api/tables/%s/record" % d.table)
            kept = record_moves(text)
            check(kept[:len(d.acked)] == d.acked, "an acknowledged move was lost: acked %d, "
                  "kept %d" % (len(d.acked), len(kept)))
            check(len(kept) <= len(d.acked) + 1, "moves nobody sent: %d kept, %d acked"
                  % (len(kept), len(d.acked)))
        # The scripted games go on after a resume.
        for d in drivers:
            clients = [Client(srv), Client(srv)]
            for seat in (0, 1):
                clients[seat].ok("resume", table=d.table, token=d.tokens[seat])
            s = clients[0].event("state")
            clients[1].event("state")
            state = {"turn": s["turn"], "to_move": s["to_move"]}
            play_until(clients, d.table, state, rng=random.Random(9))
            clients[0].event("end")
        # The connect players reconnect by themselves and finish.
        for p, out in ((a, out_a), (b, out_b)):
            p.wait(timeout=WAIT * 2)
            check(p.returncode == 0, "connect exited %s: %s" % (p.returncode, "".join(out[-15:])))
        text = "".join(out_a)
        check("game over: final scores" in text, "no final scores: " + text[-500:])
        check("reconnecting" in text and "resumed seat 0" in text, "A did not reconnect")
        check("resumed seat 1" in "".join(out_b), "B did not reconnect")
        final = re.search(r"final scores ([\d ]+)", text).group(1).split()
        code, out, err = replay(PROGRAM, open(os.path.join(tmp, "a.rec")).read(), tmp)
        check(code == 0 and out["scores"] == [int(x) for x in final], "replay: %s %s" % (out, err))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


# --- Load ----------------------------------------------------------------------


def case_load(tmp):
    """50 tables of scripted players on one event loop for a few seconds:
    no move lost or duplicated."""
    srv = server(tmp, ["--max-conns-per-ip", "200", "--max-tables-per-ip", "100"])
    try:
        p = subprocess.run([PROGRAM, "bench", "--server", srv.url, "--tables", "50", "--rate",
                            "300", "--seconds", "3", "--idle-seconds", "0.5", "--server-pid",
                            str(srv.proc.pid), "--json"], capture_output=True, text=True,
                           timeout=WAIT * 2)
        check(p.returncode == 0, "bench --server failed: %s %s" % (p.stdout, p.stderr))
        r = json.loads(p.stdout)
        check(r["tables_held"] == 50 and r["connections_held"] == 100, "held: %s" % r)
        check(r["moves"] > 50, "too few moves: %s" % r)
        check(r["lost"] == 0 and r["duplicated"] == 0 and r["unchecked"] == 0, "lost: %s" % r)
        check(r["refused"] == 0 and r["event_gaps"] == 0, "refused or gaps: %s" % r)
    finally:
        srv.stop()


# --- carcassonne connect -----------------------------------------------------------


def connect_game(tmp, spec_a, spec_b):
    srv = server(tmp)
    procs = []
    try:
        out_a, out_b = [], []
        rec = os.path.join(tmp, "connect.rec")
        a = connect_proc(srv.url, "--create", "me,open", "--player", spec_a, "--record", rec)
        procs.append(a)
        table = read_until(a, r"^table (\S+)", out_a).group(1)
        token = read_until(a, r"^token ([0-9a-f]{32})$", out_a).group(1)
        check(token, "no token printed")
        out_w = []
        w = connect_proc(srv.url, "--table", table, "--watch", "--quiet")
        procs.append(w)
        read_until(w, r"^table ", out_w)
        b = connect_proc(srv.url, "--table", table, "--player", spec_b, "--quiet")
        procs.append(b)
        drain(a, out_a)
        drain(b, out_b)
        drain(w, out_w)
        for p, out in ((a, out_a), (b, out_b), (w, out_w)):
            p.wait(timeout=WAIT * 2)
            time.sleep(0.1)
            check(p.returncode == 0, "connect exited %s: %s" % (p.returncode, "".join(out[-15:])))
        fa = re.search(r"final scores ([\d ]+)", "".join(out_a)).group(1).split()
        fb = re.search(r"final scores ([\d ]+)", "".join(out_b)).group(1).split()
        fw = re.search(r"final scores ([\d ]+)", "".join(out_w)).group(1).split()
        check(fa == fb == fw, "the players and the spectator disagree: %s %s %s" % (fa, fb, fw))
        code, out, err = replay(PROGRAM, open(rec).read(), tmp)
        check(code == 0 and out["scores"] == [int(x) for x in fa], "replay: %s %s" % (out, err))
        status, _, text = srv.http("/api/tables/%s/record" % table)
        # connect names its player in its seat's line (the server: "human").
        line = ("seat-1 %s\n" if " " not in spec_a else "# seat 1: %s\n") % spec_a
        check(text.replace("seat-1 human\n", line) == open(rec).read(),
              "--record differs from the server's record but for the seat")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


def case_connect_greedy(tmp):
    """`carcassonne connect --player greedy` on both seats, to the end."""
    connect_game(tmp, "greedy", "greedy")


def case_connect_engine(tmp):
    """An outside engine through `connect --player engine:COMMAND`: the
    project's own `carcassonne engine --player random`."""
    connect_game(tmp, "engine:%s engine --player random" % PROGRAM, "greedy")


def logged_requests(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def controller_sequence(record_text, seat, ms, scores):
    """What a controller sends an engine in `seat` after 'new', for the game
    of the record (docs/protocol.md, "The controller"): every turn's 'tile',
    'go' on the engine's own turns, every 'move', then 'end' and 'quit'."""
    out = []
    player = 0
    for move in record_moves(record_text):
        tile = move.split()[1] if move.startswith("discard ") else move.split()[0]
        out.append({"type": "tile", "player": player, "tile": tile})
        if player == seat:
            out.append({"type": "go", "ms": ms})
        out.append({"type": "move", "player": player, "move": move})
        if not move.startswith("discard "):  # after a discard the same player draws again
            player = 1 - player
    return out + [{"type": "end", "scores": scores}, {"type": "quit"}]


def check_new(request, seat):
    check(request["type"] == "new" and request["players"] == 2 and request["seat"] == seat
          and request["rules"] == [] and isinstance(request["seed"], int)
          and "expansions" not in request, "new: %r" % request)


def logger(log):
    """A filter that appends each line to `log` before it passes it on, so
    that a line the engine answered is in the log even when the controller
    kills the pipeline at once (tee writes its output before its file).
    A script beside the log keeps the engine's command short."""
    script = log + ".sh"
    with open(script, "w") as f:
        f.write("while IFS= read -r line; do\n"
                "    printf '%%s\\n' \"$line\" >> '%s'\n"
                "    printf '%%s\\n' \"$line\"\n"
                "done\n" % log)
    return "sh " + script


def case_connect_engine_sequence(tmp):
    """`connect --player engine:COMMAND` drives the engine as the arena
    does: a scripted engine (the project's engine behind `tee`) logs what
    it receives; both logs are the sequence of docs/protocol.md for their
    game's record: one 'tile' a turn (never twice on the engine's turn),
    'go' with 'ms' (the default 1000, or a share of the table's clock), the
    last move and 'end' with the final scores. The saved record names the
    engine's seat, and the turns are printed from 1."""
    srv = server(tmp)
    procs = []
    try:
        for clock in ([], ["--clock", "fischer:600"]):
            log = os.path.join(tmp, "connect-%d.log" % len(clock))
            rec = os.path.join(tmp, "connect-%d.rec" % len(clock))
            engine = "engine:%s | %s engine --player random" % (logger(log), PROGRAM)
            out = []
            a = connect_proc(srv.url, "--create", "me,greedy", "--player", engine,
                             "--record", rec, *clock)
            procs.append(a)
            drain(a, out)
            a.wait(timeout=WAIT * 2)
            time.sleep(0.1)
            text = "".join(out)
            check(a.returncode == 0, "connect exited %s: %s" % (a.returncode, text[-1500:]))
            # (the second turn may be a discard: a tile that fits nowhere
            # on the small board, as C once did, is drawn again)
            check(re.search(r"^turn 1: player 1 \(you\) ", text, re.M)
                  and re.search(r"^turn 2: player 2 (discard )?[A-X]", text, re.M)
                  and not re.search(r"^turn 0|player 0", text, re.M), "turns from 1: " + text[:600])
            final = [int(x) for x in re.search(r"final scores ([\d ]+)", text).group(1).split()]
            record = open(rec).read()
            check(("\n# seat 1: %s\n" % engine) in record and "seat-1 human" not in record
                  and "\nseat-2 greedy\n" in record, "the record's seats: " + record[:400])
            got = logged_requests(log)
            check_new(got[0], 0)
            if clock:
                go = [r["ms"] for r in got if r["type"] == "go"]
                check(25000 <= go[0] <= 30000 and all(100 <= ms <= 30000 for ms in go),
                      "go's ms from a 600 s clock: %r" % go[:5])
                got = [dict(r, ms=1000) if r["type"] == "go" else r for r in got]
            want = controller_sequence(record, 0, 1000, final)
            # The logger may still be writing the engine's last lines on a
            # busy machine: wait for them (5 s at most) before comparing.
            deadline = time.time() + 5
            while len(got) < len(want) + 1 and time.time() < deadline:
                time.sleep(0.05)
                got = logged_requests(log)
                if clock:
                    got = [dict(r, ms=1000) if r["type"] == "go" else r for r in got]
            for i, (g, w) in enumerate(zip(got[1:], want)):
                check(g == w, "request %d: connect sent %r, the controller sends %r" % (i + 1, g, w))
            check(len(got) == len(want) + 1, "%d requests, %d expected" % (len(got), len(want) + 1))
        # The arena, for the same engine: the same sequence for its game.
        log = os.path.join(tmp, "arena.log")
        recs = os.path.join(tmp, "arena")
        p = subprocess.run([PROGRAM, "arena", "engine:%s | %s engine --player random"
                            % (logger(log), PROGRAM), "greedy", "--games", "1", "--record", recs],
                           capture_output=True, text=True, timeout=WAIT * 2)
        check(p.returncode == 0, "arena: %s %s" % (p.stdout, p.stderr))
        record = open(os.path.join(recs, "game-0001.rec")).read()
        code, out, err = replay(PROGRAM, record, tmp)
        check(code == 0, "replay: %s" % err)
        got = logged_requests(log)
        check_new(got[0], 0)
        check(got[1:] == controller_sequence(record, 0, 1000, out["scores"]),
              "the arena's sequence: %r" % got[-4:])
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


def expansion_game(tmp, expansions, spec_a, check_create=False):
    """A game with `expansions` (names separated by commas) through the
    server between two `connect` processes: seat 1 creates the table
    (`--create me,open --expansions LIST --player SPEC_A --record`), seat 2
    joins as greedy. Both must end with the same final scores; the record
    must name the expansions, replay to those scores with one move a line,
    and equal the server's record but for the seat lines (connect names its
    own seat's player; the server knows a seat taken by a client as human).
    Returns (the record's move lines split into words, replay's JSON), or
    None when the server refused the table: with `check_create` the create
    request's "expansions" are checked and a refusal must name them."""
    names = expansions.split(",")
    srv = server(tmp)
    procs = []
    try:
        out_a, out_b = [], []
        rec = os.path.join(tmp, "game.rec")
        a = connect_proc(srv.url, "--create", "me,open", "--expansions", expansions,
                         "--player", spec_a, "--record", rec,
                         *(["--trace"] if check_create else []))
        procs.append(a)
        if check_create:
            m = read_until(a, r"^> (\{\"type\":\"create\".*)$", out_a)
            create = json.loads(m.group(1))
            check(create["expansions"] == names, "create: %r" % create)
        m = read_until(a, r"^table (\S+)|carcassonne connect: ", out_a)
        if not m.group(1):
            a.wait(timeout=WAIT)
            text = "".join(out_a)
            check(check_create and a.returncode == 1 and names[0] in text,
                  "refused: %s" % text[-1500:])
            return None
        table = m.group(1)
        b = connect_proc(srv.url, "--table", table, "--player", "greedy", "--quiet")
        procs.append(b)
        drain(a, out_a)
        drain(b, out_b)
        for p, out in ((a, out_a), (b, out_b)):
            p.wait(timeout=WAIT * 2)
            time.sleep(0.1)
            check(p.returncode == 0, "connect exited %s: %s" % (p.returncode, "".join(out[-15:])))
        fa = re.search(r"final scores ([\d ]+)", "".join(out_a)).group(1).split()
        fb = re.search(r"final scores ([\d ]+)", "".join(out_b)).group(1).split()
        check(fa == fb, "the players disagree: %s %s" % (fa, fb))
        text = open(rec).read()
        check("\nexpansions %s\n" % " ".join(names) in text, "the record: %s" % text[:300])
        moves = [ln.split() for ln in text.splitlines()
                 if ln[:1].isupper() or ln.startswith("discard ")]
        code, out, err = replay(PROGRAM, text, tmp)
        check(code == 0 and out["scores"] == [int(x) for x in fa]
              and out["expansions"] == names and out["moves"] == len(moves),
              "replay: %s %s" % (out, err))
        status, _, served = srv.http("/api/tables/%s/record" % table)
        # A player spec with a blank is a comment line ("# seat 1: ...").
        seat = ("seat-", "# seat ")
        mine = [ln for ln in text.splitlines() if not ln.startswith(seat)]
        theirs = [ln for ln in served.splitlines() if not ln.startswith(seat)]
        check(mine == theirs, "--record differs from the server's record: %r" %
              [(x, y) for x, y in zip(mine, theirs) if x != y][:3])
        return moves, out
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


def case_connect_river(tmp):
    """`connect --create ... --expansions river` sends the create request's
    "expansions":["river"]. A server that offers The River then plays the
    table's river game to the end, through an outside engine (which gets
    the expansions in 'new') and a library player, the record with its
    `expansions river` line; a server that does not refuses the table with
    a message that names the expansion, and connect fails cleanly."""
    game = expansion_game(tmp, "river", "engine:%s engine --player random" % PROGRAM,
                          check_create=True)
    if game is None:
        print("note: this server does not offer The River; the create request was checked")


def case_connect_inns(tmp):
    """`connect --create ... --expansions inns-cathedrals`: a random and a
    greedy seat play an Inns & Cathedrals game to the end through the
    server; both see the same final scores; the record has the expansion,
    the I&C tiles and any large follower as `large`, and replays to those
    scores with the figures each player has left."""
    moves, out = expansion_game(tmp, "inns-cathedrals", "random")
    check(sum(1 for m in moves if m[0].startswith("I") or m[-1].startswith("I")) >= 17,
          "too few I&C tiles in the record")
    check(len(out["figures"]) == 2, "replay's figures: %r" % out.get("figures"))
    larges = [h for h in out["history"] if h["figure"] == "large"]
    check(len(larges) == sum(1 for m in moves if m[-1] == "large"), "large: %r" % larges)


def case_connect_traders(tmp):
    """`connect --create ... --expansions traders-builders`: a random and a
    greedy seat play a Traders & Builders game to the end through the
    server, second tiles included (the same seat moves twice); both see
    the same final scores; the record replays to them with goods per
    player."""
    # A deal where nobody puts a builder or a pig down (about one game in
    # 10,000 of random against greedy): another game, three at most.
    for _ in range(3):
        moves, out = expansion_game(tmp, "traders-builders", "random")
        figures = [m[-1] for m in moves if m[-1] in ("builder", "pig")]
        if figures:
            break
    check(len(figures) >= 1, "nobody played a builder or a pig in three games")
    check(sum(1 for m in moves if m[0].startswith("T") or m[-1].startswith("T")) >= 23,
          "too few T&B tiles in the record")
    check(all(set(g) == {"wine", "grain", "cloth"} for g in out["goods"]),
          "replay's goods: %r" % out.get("goods"))
    # The same player moves twice in a row after a builder's second tile
    # is announced, or after a discard (the player draws again), never else.
    history = out["history"]
    for before, after in zip(history, history[1:]):
        again = after["player"] == before["player"]
        check(again == (after.get("second_part", False) or before["move"].startswith("discard")),
              "two moves in a row: %r %r" % (before, after))


def case_connect_all_expansions(tmp):
    """`connect --create ... --expansions river,inns-cathedrals,traders-builders`:
    a random and a greedy seat play a game with all three expansions to
    the end over real sockets: 124 moves (every tile of the pile placed or
    discarded), the river first; the record replays to the final scores."""
    moves, out = expansion_game(tmp, "river,inns-cathedrals,traders-builders", "random")
    check(len(moves) == 124, "%d moves, not 124" % len(moves))
    tiles = [m[1] if m[0] == "discard" else m[0] for m in moves]
    check(all(t.startswith("R") for t in tiles[:11]) and tiles[10] == "RL",
          "the river is not first: %r" % tiles[:12])
    check(any(t.startswith("I") for t in tiles) and any(t.startswith("T") for t in tiles),
          "no I&C or T&B tile")
    check(out["finished"] and all(set(g) == {"wine", "grain", "cloth"} for g in out["goods"]),
          "replay: %r" % {k: out.get(k) for k in ("finished", "goods")})


def case_connect_human(tmp):
    """`connect --player human` through pipes: the prompt, the board, `?`
    (the legal moves), a refused move, moves without the tile letter; the
    game against a greedy seat to the end."""
    human_game(tmp, clock=False)


def case_connect_human_clock(tmp):
    """A person who lets the clock run out: the server moves for the seat,
    the prompt says the turn has moved on, and the next turn is asked."""
    human_game(tmp, clock=True)


def human_game(tmp, clock):
    srv = server(tmp)
    proc = None
    try:
        extra = ["--clock", "move:5"] if clock else []
        proc = subprocess.Popen([PROGRAM, "connect", srv.url, "--create", "me,greedy", "--name",
                                 "Hu"] + extra, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        fd = proc.stdout.fileno()
        buf = b""
        # The whole prompt: what the client prints after it (the listing of
        # `?`, a refusal) starts on the prompt's line, as no terminal echoes
        # the answer and its newline into the pipe.
        prompt = b"Your move (X Y ROT [SPOT], '?' lists the legal moves, 'board' redraws): "

        def read_until_any(markers):
            nonlocal buf
            deadline = time.monotonic() + WAIT
            while True:
                for m in markers:
                    k = buf.find(m)
                    if k >= 0:
                        before, buf = buf[:k], buf[k + len(m):]
                        return m, before.decode()
                check(time.monotonic() < deadline, "connect printed no %s: %s" % (markers, buf[-800:]))
                chunk = os.read(fd, 65536)
                check(chunk, "connect ended: " + buf[-800:].decode(errors="replace"))
                buf += chunk

        def say(line):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()

        turns = 0
        while True:
            m, text = read_until_any([prompt, b"game over: final scores"])
            if m != prompt:
                break
            if turns == 0 and clock:
                _, before = read_until_any([b"(the turn has moved on)"])  # 5 s later
                _, text = read_until_any([prompt])
                check(re.search(r"turn 1: player 1 ", before + text), "no move for the seat: "
                      + before + text)
                clock = False
            if turns == 0:
                check("Your tile:" in text and "rot 0" in text, "no tile shown: " + text)
                say("Z 99 99 9")  # refused, and asked again
                _, text = read_until_any([prompt])
                check("not a legal move" in text, "a bad move was not refused: " + text)
            say("?")
            _, listing = read_until_any([prompt])
            lines = [l.split() for l in listing.splitlines() if l.startswith("  ")]
            check(lines, "no legal moves listed: " + listing)
            first = lines[0]
            if first[0] == "the":  # the tile fits nowhere
                say("discard " + first[-1])
            elif turns % 2:
                say(" ".join(first[1:4]))  # without the letter
            else:
                say(" ".join(first[0:4]))
            turns += 1
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(timeout=WAIT)
        check(proc.returncode == 0, "connect exited %s: %s" % (
            proc.returncode, (buf + rest)[-1500:].decode(errors="replace")))
        check(turns >= 30, "only %d turns were asked of the person" % turns)
    finally:
        if proc and proc.poll() is None:
            proc.kill()
        srv.stop()


def case_connect_resume(tmp):
    """A `connect` player killed mid-game comes back as a new process with
    --table and --token, and the game goes on to the end."""
    srv = server(tmp)
    procs = []
    try:
        out_a, out_b, out_a2 = [], [], []
        a = connect_proc(srv.url, "--create", "me,open", "--player", "mcts:iters=1000,threads=1")
        procs.append(a)
        table = read_until(a, r"^table (\S+)", out_a).group(1)
        token = read_until(a, r"^token ([0-9a-f]{32})$", out_a).group(1)
        b = connect_proc(srv.url, "--table", table, "--player", "mcts:iters=1000,threads=1")
        procs.append(b)
        read_until(a, r"^turn 5:", out_a)
        a.kill()
        a.wait()
        drain(b, out_b)
        a2 = connect_proc(srv.url, "--table", table, "--token", token, "--player", "greedy")
        procs.append(a2)
        drain(a2, out_a2)
        for p, out in ((a2, out_a2), (b, out_b)):
            p.wait(timeout=WAIT * 2)
            time.sleep(0.1)
            check(p.returncode == 0, "connect exited %s: %s" % (p.returncode, "".join(out[-15:])))
        text = "".join(out_a2)
        check(re.search(r"^seat 0$", text, re.M), "the token's seat is not 0: " + text[:300])
        fa = re.search(r"final scores ([\d ]+)", text).group(1).split()
        fb = re.search(r"final scores ([\d ]+)", "".join(out_b)).group(1).split()
        check(fa == fb, "the players disagree: %s %s" % (fa, fb))
        check("seat 0 (mcts:iters=1000,threads=1) is away" in "".join(out_b),
              "B did not see A away")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        srv.stop()


def case_connect_errors(tmp):
    """`carcassonne connect` with bad arguments or a refused request: a
    clear message and a failing status, no crash."""
    srv = server(tmp)
    try:
        runs = [
            ([], 2, "URL"),
            ([srv.url], 2, "--create"),
            (["ftp://x", "--table", "t1"], 2, "scheme"),
            ([srv.url, "--table", "t1", "--seat", "9"], 2, "--seat"),
            ([srv.url, "--create", "me,open", "--clock", "move:ten"], 2, "--clock"),
            (["ws://127.0.0.1:1", "--table", "t1", "--retry-for", "1"], 1, "giving up"),
            ([srv.url, "--table", "t0000000000", "--player", "greedy"], 1, "no_table"),
            ([srv.url, "--create", "me,open", "--player", "nonsense"], 2, "--player"),
            # Bad arguments fail at once (they were retried for 120 s).
            (["notaurl", "--create", "me,open"], 2, "not a server URL"),
            (["localhost:1", "--table", "t1"], 2, "not a server URL"),
            (["gopher://x", "--table", "t1"], 2, "scheme"),
            ([srv.url, "--create", "me,bogus"], 2, "seat 1 'bogus'"),
            (["ws://127.0.0.1:1", "--create", "me,mcts:level=wild"], 2, "seat 1"),
            (["ws://127.0.0.1:1", "--create", "me"], 2, "2 to 8 seat"),
            (["ws://127.0.0.1:1", "--create", "me,me"], 2, "one seat"),
            (["ws://127.0.0.1:1", "--create", "me,open", "--player", "engine:"], 2, "--player"),
            (["ws://127.0.0.1:1", "--create", "me,open", "--player", "bogus"], 2, "--player"),
            ([srv.url, "--table", "t0000000000", "--token", "0" * 32, "--player", "greedy"], 1,
             "no_table|bad_token"),
        ]
        for args, status, text in runs:
            start = time.monotonic()
            p = subprocess.run([PROGRAM, "connect"] + args, capture_output=True, text=True,
                               timeout=WAIT)
            check(p.returncode == status and re.search(text, p.stderr),
                  "connect %s: exit %d, %r" % (args, p.returncode, p.stderr))
            check(status != 2 or time.monotonic() - start < 5, "connect %s took %.1f s"
                  % (args, time.monotonic() - start))
    finally:
        srv.stop()


def main():
    return run_case(globals(), "e2e_test.py")


if __name__ == "__main__":
    sys.exit(main())
