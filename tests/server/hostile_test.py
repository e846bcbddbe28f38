#!/usr/bin/env python3
"""hostile_test.py CASE PROGRAM: the game server under a hostile or unlucky
client, over real sockets (tests/e2e/e2e.py's server and client): quiet
connections kept while they answer pings, fair workers, cached replays,
clocks across a stalled loop, the error counter, idempotent requests and
frames RFC 6455 forbids. Bounds are generous; no case asserts a timing a
slow machine could miss, except where the case is about time and then with
a wide margin."""
import json
import os
import signal
import socket
import sys
import time
import base64
import random
from collections import deque

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e import WAIT, Client, Failure, Server, check, choose_move, tempdir  # noqa: E402
import websocket  # noqa: E402


def raw_upgrade(port):
    """A TCP socket through the WebSocket handshake at /ws, nothing read after."""
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Protocol: carcassonne.v1\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" % key).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        check(chunk, "the handshake was cut")
        head += chunk
    check(b" 101 " in head.split(b"\r\n")[0], "no upgrade: %r" % head)
    return s


def closed_within(sock, seconds):
    """Whether the server closes `sock` within `seconds` (data read and dropped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(4096):
                return True
        except socket.timeout:
            pass
        except OSError:
            return True
    return False


def keep_quiet(client, seconds):
    """Reads (and so answers pings: websocket-client pongs with the ping's
    payload) without sending anything for `seconds`; True when still open."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        client.ws.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            op, _ = client.ws.recv_data(control_frame=True)  # a ping: answered, returned
            if op == websocket.ABNF.OPCODE_CLOSE:
                return False
        except websocket.WebSocketTimeoutException:
            pass
        except websocket.WebSocketConnectionClosedException:
            return False
    return True


def quiet_client(program, ping_ms, close_ms, keep_s):
    """A silent client that answers pings stays; one that never reads is dropped."""
    with tempdir() as tmp:
        server = Server(program, tmp, ["--ping-ms", str(ping_ms),
                                       "--idle-close-ms", str(close_ms)]).start()
        try:
            deaf = raw_upgrade(server.port)
            c = Client(server)
            c.ok("hello")
            t0 = time.monotonic()
            check(keep_quiet(c, keep_s), "a quiet client answering pings was dropped after %.1f s"
                  % (time.monotonic() - t0))
            check(c.alive(), "the quiet client no longer gets answers")
            check(closed_within(deaf, close_ms / 1000.0 + WAIT),
                  "a client that never answers pings was kept")
            print("quiet client kept %.0f s with pings every %d ms, close after %d ms"
                  % (keep_s, ping_ms, close_ms))
        finally:
            server.stop()


def case_keepalive(program):
    quiet_client(program, 1000, 3000, 10.0)


def case_keepalive_long(program):
    """The real timings (30 s ping, 75 s close): 3 minutes, mostly asleep."""
    quiet_client(program, 30000, 75000, 180.0)


def case_rate_burst(program):
    """A burst far over the rate limit (a client catching up after a stall)
    is answered rate_limited and the connection stays open."""
    with tempdir() as tmp:
        server = Server(program, tmp).start()
        try:
            c = Client(server)
            ids = [c.send("ping", paced=False) for _ in range(200)]
            codes = [c.reply(i).get("code") for i in ids]
            limited = codes.count("rate_limited")
            check(limited >= 101, "only %d of 200 pings at once were limited" % limited)
            time.sleep(1.1)  # the bucket refills
            check(c.alive(), "the connection was closed after %d rate_limited" % limited)
        finally:
            server.stop()


def case_stall(program):
    """A move sent 1 s into a 5 s clock while the server is stopped (SIGSTOP)
    for 7 s counts when it runs again (SIGCONT): input waiting in the socket
    is read before the clocks expire, and the stall is not charged."""
    with tempdir() as tmp:
        server = Server(program, tmp).start()
        try:
            a = Client(server)
            r = a.ok("create", name="Ann", seats=["me", "open"],
                     clock={"mode": "move", "seconds": 5, "on_timeout": "forfeit"})
            table = r["table"]
            b = Client(server)
            b.ok("join", table=table, name="Bob", seat=1)
            state = a.event("state", lambda e: e.get("status") == "playing")
            mover = a if state["to_move"] == r["seat"] else b
            legal = mover.ok("legal", table=table)
            places = legal["placements"]
            move = places[0]["move"] if places else "discard " + legal["tile"]
            server.proc.send_signal(signal.SIGSTOP)
            try:
                time.sleep(1.0)
                rid = mover.send("move", table=table, turn=state["turn"], move=move)
                time.sleep(6.0)  # past the 5 s clock
            finally:
                server.proc.send_signal(signal.SIGCONT)
            reply = mover.reply(rid)
            check(reply["type"] == "move.ok", "the move sent in time was refused: %s" % reply)
            ev = mover.event("move", lambda e: e["turn"] == state["turn"])
            check(ev["by"] == "player" and ev["move"] != "end", "the move event: %s" % ev)
            time.sleep(0.5)
            nxt = mover.request("sync", table=table)
            check(nxt["type"] == "sync.ok", "sync: %s" % nxt)
            st = mover.event("state", lambda e: e["turn"] == state["turn"] + 1)
            check(st["status"] == "playing", "the game did not go on: %s" % st["status"])
        finally:
            server.stop()


def stats(server):
    return json.loads(server.http("/api/stats")[2])


def finished_table_of(owner):
    """A table of two computer seats made by `owner`, played to its end; its id."""
    table = owner.ok("create", seats=["random", "random"])["table"]
    owner.event("end", lambda e: e.get("table", table) == table)
    owner.ok("leave", table=table)
    return table


def finished_table(server):
    owner = Client(server)
    table = finished_table_of(owner)
    owner.close()
    return table


def case_replay_cache(program):
    """Many `replay` requests for a finished table from many connections:
    the answer is computed once, every request answered the same, and a
    ping from another connection is answered meanwhile."""
    with tempdir() as tmp:
        server = Server(program, tmp).start()
        try:
            table = finished_table(server)
            time.sleep(0.3)  # nobody follows it: the table is let go, the cache stays
            clients = [Client(server) for _ in range(10)]
            first = clients[0].ok("replay", table=table)
            del first["re"]
            pending = [(c, c.send("replay", paced=False, table=table))
                       for _ in range(15) for c in clients]
            watcher = Client(server)
            t0 = time.monotonic()
            check(watcher.alive(), "a ping was not answered")
            ping_ms = (time.monotonic() - t0) * 1000
            for c, rid in pending:
                r = c.reply(rid)
                check(r["type"] == "replay.ok", "replay refused: %s" % r)
                del r["re"]
                check(r == first, "a cached answer differs from the first")
            st = stats(server)
            check(st["replays_computed"] == 1, "replays computed: %s" % st)
            check(st["replays_cached"] == len(pending), "replays cached: %s" % st)
            print("%d replays of one finished table: computed %d time(s); a ping meanwhile "
                  "took %.0f ms" % (len(pending) + 1, st["replays_computed"], ping_ms))
        finally:
            server.stop()


class ClientFrom(Client):
    """A client whose connection comes from `source` (another loopback
    address: 127.0.0.2 is another address to the server)."""

    def __init__(self, server, source):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT,
                                        source_address=(source, 0))
        self.ws = websocket.create_connection(server.url, subprotocols=["carcassonne.v1"],
                                              timeout=WAIT, socket=sock)
        self.events = []
        self.next_id = 0
        self.closed_code = None
        self.sent_at = deque()


def case_fair_workers(program):
    """One address runs as many tables of six mcts:level=strongest seats as
    it may and asks reviews of finished games (twice each); a victim's
    greedy opponent on another address still answers within seconds."""
    with tempdir() as tmp:
        server = Server(program, tmp, ["--workers", "2"]).start()
        try:
            attacker = [ClientFrom(server, "127.0.0.2") for _ in range(3)]
            finished = [finished_table_of(attacker[0]) for _ in range(3)]
            strongest = ["mcts:level=strongest"] * 6
            accepted = refused = 0
            for i in range(12):
                r = attacker[1 + i % 2].request("create", seats=strongest)
                if r["type"] == "create.ok":
                    accepted += 1
                else:
                    check(r.get("code") == "too_many", "create: %s" % r)
                    refused += 1
            check(refused > 0, "%d tables of computers only accepted from one address" % accepted)
            for table in finished * 2:
                attacker[0].ok("review", table=table, ms=1000)
            victim = Client(server)
            r = victim.ok("create", name="Victim", seats=["me", "greedy"])
            table, me = r["table"], r["seat"]
            state = victim.event("state", lambda e: e.get("status") == "playing")
            turn, to_move = state["turn"], state["to_move"]
            rng = random.Random(3)
            waits = []
            asked = time.monotonic()
            while len(waits) < 3 and to_move is not None:
                if to_move == me:
                    move, _ = choose_move(victim, table, rng)
                    check(victim.request("move", table=table, turn=turn, move=move)["type"]
                          == "move.ok", "the victim's move was refused")
                    asked = time.monotonic()
                ev = victim.event("move", lambda e: e["turn"] == turn)
                if to_move != me:
                    waits.append(time.monotonic() - asked)
                turn += 1
                to_move = ev["next"]["player"] if ev["next"] else None
            worst = max(waits)
            print("victim's greedy opponent answered in %s s (worst %.2f s) while one address ran "
                  "%d tables of six strongest seats (%d refused) and 3 reviews asked twice"
                  % (", ".join("%.2f" % w for w in waits), worst, accepted, refused))
            check(worst < 10.0, "the victim's computer took %.1f s" % worst)
            st = stats(server)
            check(st["reviews_asked"] == 3, "reviews asked: %s" % st)
        finally:
            server.stop()


def raw_replies(client, ids, timeout=WAIT):
    """Reads until a reply to each of `ids` came; their ids in the order they came."""
    order = []
    deadline = time.monotonic() + timeout
    while len(order) < len(ids):
        left = deadline - time.monotonic()
        check(left > 0, "no reply to %s" % ids)
        msg = client.recv(left)
        check(msg is not None, "the connection closed")
        if msg.get("re") in ids:
            order.append((msg["re"], msg))
    return order


def case_replay_off_loop(program):
    """A `replay` runs on the worker pool, not on the event loop: with the
    only worker busy on a long search, a ping sent after a replay is
    answered first, and the replay's answer follows."""
    with tempdir() as tmp:
        server = Server(program, tmp, ["--workers", "1", "--max-think-ms", "4000"]).start()
        try:
            c = Client(server)
            table = finished_table_of(c)
            record = c.ok("record", table=table)["record"]
            busy = c.ok("create", seats=["mcts:level=strongest", "mcts:level=strongest"])
            c.event("state", lambda e: e.get("table") == busy["table"])
            time.sleep(0.5)  # the first computer move is being searched
            rid = c.send("replay", record=record + "# not kept yet\n")
            pid = c.send("ping")
            order = raw_replies(c, [rid, pid])
            check(order[0][0] == pid, "the replay was answered before the ping: %s"
                  % [o[1]["type"] for o in order])
            check(order[1][1]["type"] == "replay.ok", "the replay: %s" % order[1][1])
            print("with the only worker searching, the ping came before the replay")
        finally:
            server.stop()


def replay_attack(port, record, seconds, out):
    """The attacker of case_replay_flood, in a process of its own (so that
    its threads never slow the victim's measurements): 60 connections from
    127.0.0.2, each sending 20 replays a second of records nobody asked
    before for `seconds`, then reading every answer. Puts its counts on the
    queue `out`."""
    import threading

    import types
    at = types.SimpleNamespace(port=port, url="ws://127.0.0.1:%d/ws" % port)
    attackers = [ClientFrom(at, "127.0.0.2") for _ in range(60)]
    for a in attackers:
        a.sent = a.got = 0
        a.cut = False  # the server closed it: it read too slowly (its queue passed 1 MB)
    answers = {"ok": 0, "limited": 0, "other": []}
    lock = threading.Lock()
    t_end = time.monotonic() + seconds

    flooding = [threading.Event() for _ in range(4)]  # set when a group's sender is done

    def flood(group, n, done):
        next_at = time.monotonic()
        while time.monotonic() < t_end:
            for a in group:
                if a.cut:
                    continue
                n += 1
                try:
                    a.send_raw(json.dumps({"type": "replay", "id": n,
                                           "record": record + "# %d\n" % n}), paced=False)
                    a.sent += 1
                except (websocket.WebSocketException, OSError):
                    a.cut = True
            next_at += 1.0 / 20
            time.sleep(max(0.0, next_at - time.monotonic()))
        done.set()

    def read_answers(group, done):
        until = t_end + 3 * WAIT
        while time.monotonic() < until:
            # The sender may still be in its last round after t_end: only
            # once it is done are its counts final.
            if done.is_set() and all(a.cut or a.got >= a.sent for a in group):
                return
            for a in group:
                if a.cut or a.got >= a.sent:
                    continue
                a.ws.settimeout(0.02)
                try:
                    _, data = a.ws.recv_data(control_frame=False)
                except websocket.WebSocketTimeoutException:
                    continue
                except (websocket.WebSocketException, OSError):
                    a.cut = True
                    continue
                a.got += 1
                with lock:
                    if data.startswith(b'{"type":"replay.ok"'):
                        answers["ok"] += 1
                    elif b'"rate_limited"' in data:
                        answers["limited"] += 1
                    else:
                        answers["other"].append(data[:200].decode(errors="replace"))

    groups = [attackers[i::4] for i in range(4)]
    threads = [threading.Thread(target=flood, args=(g, 1000000 * i, flooding[i]))
               for i, g in enumerate(groups)]
    threads += [threading.Thread(target=read_answers, args=(g, flooding[i]))
                for i, g in enumerate(groups)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cut = sum(a.sent - a.got for a in attackers if a.cut)
    out.put((sum(a.sent for a in attackers), sum(a.got for a in attackers), cut,
             sum(a.cut for a in attackers), answers))


def case_replay_flood(program):
    """The attack of issue 35: 60 connections from one address each send
    20 replays a second of records nobody asked before, for FLOOD_SECONDS
    (default 4); a victim on another address plays against the greedy
    player and pings. Every replay is answered (replay.ok, or rate_limited
    when the address has its share being computed), the victim's pings and
    moves are answered, and a new connection is accepted (an attacking
    connection that reads too slowly may be closed by the server: its queue
    passed 1 MB; the replays it sent count as lost, not unanswered). Prints the
    victim's ping and the computer's replies (figures, not asserted)."""
    import multiprocessing
    seconds = float(os.environ.get("FLOOD_SECONDS", "4"))
    with tempdir() as tmp:
        server = Server(program, tmp, ["--workers", "2", "--max-conns-per-ip", "200"]).start()
        try:
            owner = Client(server)
            record = owner.ok("record", table=finished_table_of(owner))["record"]
            owner.close()
            victim = Client(server)
            r = victim.ok("create", name="Victim", seats=["me", "greedy"])
            table, me = r["table"], r["seat"]
            state = victim.event("state", lambda e: e.get("status") == "playing")
            out = multiprocessing.Queue()
            attack = multiprocessing.Process(target=replay_attack,
                                             args=(server.port, record, seconds, out))
            attack.start()
            time.sleep(0.5)  # the attack's connections are made
            pings, replies, rng = [], [], random.Random(4)
            turn, to_move = state["turn"], state["to_move"]
            t_end = time.monotonic() + seconds - 0.5
            asked = time.monotonic()
            while time.monotonic() < t_end and to_move is not None:
                t0 = time.monotonic()
                check(victim.alive(), "the victim's ping was not answered")
                pings.append(time.monotonic() - t0)
                if to_move == me:
                    move, _ = choose_move(victim, table, rng)
                    check(victim.request("move", table=table, turn=turn, move=move)["type"]
                          == "move.ok", "the victim's move was refused")
                    asked = time.monotonic()
                ev = victim.event("move", lambda e: e["turn"] == turn)
                if to_move != me:
                    replies.append(time.monotonic() - asked)
                turn += 1
                to_move = ev["next"]["player"] if ev["next"] else None
            t0 = time.monotonic()
            late = Client(server)
            check(late.alive(), "a new connection was not answered")
            connect_s = time.monotonic() - t0
            sent, got, cut, ncut, answers = out.get(timeout=seconds + 4 * WAIT)
            attack.join()
            check(got + cut == sent, "replays unanswered: %d of %d" % (sent - got - cut, sent))
            check(not answers["other"], "unexpected answers: %s" % answers["other"][:3])
            check(answers["ok"] > 0, "no replay of the flood was answered")
            pings.sort()
            replies.sort()
            print("replay flood, %.0f s: %d replays from 60 connections of one address (%d "
                  "answered, %d rate_limited, %d lost with %d connections the server closed for "
                  "reading too slowly); the victim's ping median %.1f ms, worst %.1f ms "
                  "(%d pings); its greedy opponent's replies median %.0f ms, worst %.0f ms; a new "
                  "connection %.0f ms"
                  % (seconds, sent, answers["ok"], answers["limited"], cut, ncut,
                     pings[len(pings) // 2] * 1000, pings[-1] * 1000, len(pings),
                     (replies[len(replies) // 2] if replies else 0) * 1000,
                     (replies[-1] if replies else 0) * 1000, connect_s * 1000))
        finally:
            server.stop()


def masked_frame(opcode, payload):
    key = os.urandom(4)
    body = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + key + body


def read_until_closed(sock):
    """Everything the server sends until it closes the socket."""
    data = b""
    sock.settimeout(WAIT)
    while True:
        try:
            chunk = sock.recv(4096)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
    return data


def case_unmasked(program):
    """RFC 6455 5.1: a client frame without a mask closes the connection
    with 1002, unanswered; a masked one on the same socket before it is
    answered; other connections live on."""
    ping = json.dumps({"type": "ping", "id": 1}).encode()
    with tempdir() as tmp:
        server = Server(program, tmp).start()
        try:
            other = Client(server)
            for control in (False, True):
                raw = raw_upgrade(server.port)
                raw.sendall(masked_frame(0x1, ping))
                if control:  # an unmasked ping (a control frame)
                    raw.sendall(bytes([0x89, 4]) + b"ping")
                else:
                    raw.sendall(bytes([0x81, len(ping)]) + ping)
                data = read_until_closed(raw)
                check(data.count(b"ping.ok") <= 1, "an unmasked frame was answered: %r" % data)
                close = data.rfind(b"\x88")
                check(close >= 0, "no close frame: %r" % data)
                code = int.from_bytes(data[close + 2:close + 4], "big")
                check(code == 1002, "close code %d, not 1002: %r" % (code, data))
                raw.close()
            check(other.alive(), "another connection died")
        finally:
            server.stop()


CASES = {
    "replay_off_loop": case_replay_off_loop,
    "replay_flood": case_replay_flood,
    "unmasked": case_unmasked,
    "fair_workers": case_fair_workers,
    "replay_cache": case_replay_cache,
    "stall": case_stall,
    "rate_burst": case_rate_burst,
    "keepalive": case_keepalive,
    "keepalive_long": case_keepalive_long,
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        print("usage: hostile_test.py %s PROGRAM" % "|".join(CASES))
        sys.exit(2)
    try:
        CASES[sys.argv[1]](sys.argv[2])
    except Failure as e:
        print("FAIL: %s" % e)
        sys.exit(1)
    print("ok")
