#!/usr/bin/env python3
"""cluster_test.py CASE PROGRAM: the server as several processes on one
PostgreSQL behind HAProxy (label `postgres`), the whole of it started by
scripts/cluster.sh in a temporary folder on free ports, and stopped at the
end. Without PostgreSQL or HAProxy the case fails. See docs/scale.md."""

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (WAIT, Client, Failure, check, play_until, record_moves,  # noqa: E402
                 seat_table, start_state, tempdir)
from e2e_test import Driver  # noqa: E402
import websocket  # noqa: E402  (after e2e, which finds Debian's python3-websocket)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "scripts", "cluster.sh")
TAKEOVER_S = 5.0  # the bound: a dead server's tables run again within it
# The servers trust 127.0.0.1 (HAProxy) to begin each connection with a
# PROXY header: a test that talks to one server straight comes from another
# address of the loopback (all of 127.0.0.0/8 is this machine's).
DIRECT = "127.0.0.2"


def client_from(url, source=DIRECT):
    """A Client of `url` whose connection comes from the address `source`."""
    port = int(url.split(":")[2].split("/")[0])
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                    source_address=(source, 0))
    real = websocket.create_connection
    websocket.create_connection = lambda u, **kw: real(u, socket=sock, **kw)
    try:
        return Client(url)
    finally:
        websocket.create_connection = real


def seat_table_direct(url):
    """e2e's seat_table (two seats) with clients that come from DIRECT:
    the table id, the clients and their tokens."""
    owner = client_from(url)
    r = owner.ok("create", name="Ann", seats=["me", "open"])
    other = client_from(url)
    j = other.ok("join", table=r["table"], name="Bob", seat=1 - r["seat"])
    clients, tokens = [None, None], [None, None]
    clients[r["seat"]], tokens[r["seat"]] = owner, r["token"]
    clients[1 - r["seat"]], tokens[1 - r["seat"]] = other, j["token"]
    return r["table"], clients, tokens


def http_get(port, path, source=DIRECT):
    """The body of GET `path` on 127.0.0.1:`port`, asked from `source`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read().decode()
        check(r.status == 200, "GET %s: %d %s" % (path, r.status, body))
        return body
    finally:
        conn.close()


def free_port_block(n):
    """A port P such that P..P+n, P+1000 and P+2000 look free: below the
    kernel's ephemeral ports (32768 on), which the other tests' outgoing
    connections take at any moment (a balancer that found its port taken
    between this check and its bind failed CI once)."""
    for _ in range(200):
        p = random.randint(20000, 29000)
        ok = True
        for q in list(range(p, p + n + 1)) + [p + 1000, p + 2000]:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", q))
                except OSError:
                    ok = False
                    break
        if ok:
            return p
    raise Failure("no free ports")


class Cluster:
    def __init__(self, program, tmp, servers, relay="postgresql", **env):
        self.env = dict(os.environ, CARC=program, CLUSTER_DIR=os.path.join(tmp, "cluster"),
                        PORT=str(free_port_block(servers + 1)), RELAY=relay, **env)
        self.port = int(self.env["PORT"])
        self.servers = servers
        self.cwd = None

    def run(self, *args, ok=True):
        p = subprocess.run([CLUSTER] + list(args), env=self.env, capture_output=True,
                           text=True, timeout=120, cwd=self.cwd)
        if not ok:
            return p
        check(p.returncode == 0, "cluster.sh %s: %s%s" % (" ".join(args), p.stdout, p.stderr))
        return p.stdout

    def start(self):
        out = self.run("start", "--servers", str(self.servers))
        check("listening on http://127.0.0.1:%d" % self.port in out, "start said: " + out)
        return self

    def stop(self):
        subprocess.run([CLUSTER, "stop"], env=self.env, capture_output=True, timeout=120,
                       cwd=self.cwd)

    def status(self):
        """{server number: (pid or None, port)} from `status`."""
        found = {}
        for line in self.run("status").splitlines():
            w = line.split()
            if w[0] == "server":
                found[int(w[1])] = (None if w[3] == "-" else int(w[3]), int(w[5]))
        return found

    @property
    def url(self):
        return "ws://127.0.0.1:%d/ws" % self.port

    def server_url(self, i):
        return "ws://127.0.0.1:%d/ws" % (self.port + i)

    def stats(self, i):
        return json.loads(http_get(self.port + i, "/api/stats"))

    def record(self, table, base=None):
        return http_get(base or self.port, "/api/tables/%s/record" % table)

    def pg_ctl(self, action):
        pgbin = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
        cmd = ["/usr/lib/postgresql/%s/bin/pg_ctl" % pgbin, "-D",
               os.path.join(self.env["CLUSTER_DIR"], "pg", "data"), "-w", "-m", "immediate",
               "-l", os.path.join(self.env["CLUSTER_DIR"], "pg", "postgres.log"), action]
        if os.getuid() == 0:
            cmd = ["runuser", "-u", "nobody", "--"] + cmd
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)


def resume_until(url, table, token, deadline, connect=Client):
    """A client resumed at `table`, trying again (a new connection each
    time) until `deadline`: the time a client sees "reconnecting"."""
    last = None
    while time.monotonic() < deadline:
        try:
            c = connect(url)
            r = c.request("resume", table=table, token=token)
            if r["type"] == "resume.ok":
                return c
            last = r
            c.close()
        except Exception as e:  # refused while the balancer finds a live server
            last = e
        time.sleep(0.1)
    raise Failure("no resume of %s: %s" % (table, last))


def drivers_on(url, n, seed=0):
    drivers = []
    for k in range(n):
        table, clients, tokens, _ = seat_table(url)
        _, state = start_state(clients[0], table)
        start_state(clients[1], table)
        d = Driver(clients, table, state, seed + k)
        d.tokens = tokens
        drivers.append(d)
    for d in drivers:
        d.start()
    return drivers


def wait_moves(drivers, n):
    deadline = time.monotonic() + WAIT
    while min(len(d.acked) for d in drivers) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    check(all(d.is_alive() for d in drivers), "a game ended too soon")


def finish_after_reconnect(cluster, drivers, since, deadline):
    """Every driver's table resumed through the balancer, its acknowledged
    moves all kept (and nothing more than the move in flight), played to
    its end. Returns the seconds from `since` until each table's seats
    were resumed (it accepts moves again)."""
    waits, seated = [], []
    for d in drivers:
        clients = [resume_until(cluster.url, d.table, d.tokens[s], deadline) for s in (0, 1)]
        waits.append(time.monotonic() - since)
        seated.append(clients)
    for d, clients in zip(drivers, seated):
        kept = record_moves(cluster.record(d.table))
        check(kept[:len(d.acked)] == d.acked, "an acknowledged move was lost: acked %d, kept %d"
              % (len(d.acked), len(kept)))
        check(len(kept) <= len(d.acked) + 1, "moves nobody sent: %d kept, %d acked"
              % (len(kept), len(d.acked)))
        s = clients[0].event("state")
        clients[1].event("state")
        state = {"turn": s["turn"], "to_move": s["to_move"]}
        play_until(clients, d.table, state, rng=random.Random(9))
        clients[0].event("end")
        for c in clients:
            c.close()
    return waits


def case_two_servers(program, tmp):
    """A game whose two players sit on different server processes, a
    spectator on the first: requests for the table go to the process that
    runs it, its events come back; the whole game, chat both ways, the end
    and its review."""
    play_across(Cluster(program, tmp, 2).start())


def case_two_servers_redis(program, tmp):
    """The same game with the events between the processes over Redis
    pub/sub (--relay redis://...; cluster.sh's RELAY=redis starts a
    redis-server of its own, and without one the case fails): both servers
    are subscribed to their channels there, and the game crosses them."""
    cluster = Cluster(program, tmp, 2, relay="redis").start()
    try:
        status = cluster.run("status")
        redis = [line.split() for line in status.splitlines() if line.startswith("redis ")]
        check(redis and redis[0][-1] == "running", "no redis in the status: %s" % status)
        p = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", redis[0][4], "pubsub",
                            "channels", "carc_*"], capture_output=True, text=True, timeout=30)
        channels = p.stdout.split()
        check(len(channels) == 2, "the servers' channels on redis: %r" % channels)
    except BaseException:
        cluster.stop()
        raise
    play_across(cluster)


def play_across(cluster):
    """case_two_servers's game on a started `cluster`, which it stops."""
    try:
        ann = client_from(cluster.server_url(1))
        r = ann.ok("create", name="Ann", seats=["me", "open"])
        table = r["table"]
        bob = client_from(cluster.server_url(2))
        bob.ok("join", table=table, name="Bob")
        watcher = client_from(cluster.server_url(2))
        watcher.ok("watch", table=table)
        clients = [ann, bob]
        _, state = start_state(ann, table)
        start_state(bob, table)
        bob.ok("chat", table=table, text="hello from 2")
        check(ann.event("chat")["text"] == "hello from 2", "chat did not cross")
        ann.ok("chat", table=table, text="hello from 1")
        check(bob.event("chat", lambda e: e["text"] == "hello from 1"), "chat did not cross")
        acked = []
        play_until(clients, table, state, rng=random.Random(3), acked=acked)
        for c in (ann, bob, watcher):
            c.event("end")
        check(watcher.event("move", lambda e: e["turn"] == 0), "the spectator missed moves")
        kept = record_moves(cluster.record(table, cluster.port + 1))
        check(kept[:len(acked)] == acked, "the record is not the game played")
        review = bob.ok("review", table=table, ms=10)
        check("position" in review, "no review: %s" % review)
        check(bob.event("review", timeout=120)["moves"], "an empty review")
        # The lobby and "my games" of one server show the other's tables.
        carol = client_from(cluster.server_url(1))
        waiting = carol.ok("create", name="Carol", seats=["me", "open"])
        lobby = bob.ok("lobby")["tables"]
        check([t["table"] for t in lobby] == [waiting["table"]], "lobby on 2: %s" % lobby)
        mine = bob.ok("mine", seats=[{"table": table, "token": r["token"]},
                                     {"table": waiting["table"], "token": waiting["token"]}])
        check(len(mine["tables"]) == 2, "mine across processes: %s" % mine)
    finally:
        cluster.stop()


def case_kill9(program, tmp):
    """kill -9 of the server that runs the games, mid-game: through the
    balancer the clients reconnect, the other server takes the tables over
    within 5 s, every acknowledged move is kept and the games end. `status`
    lists the servers; `start` brings the dead one back."""
    cluster = Cluster(program, tmp, 2).start()
    try:
        st = cluster.status()
        check(sorted(st) == [1, 2] and all(pid for pid, _ in st.values()), "status: %s" % st)
        drivers = drivers_on(cluster.url, 3)
        wait_moves(drivers, 10)
        running = [i for i in (1, 2) if cluster.stats(i)["tables_live"] == 3]
        check(len(running) == 1, "the games are not on one server: %s"
              % [cluster.stats(i) for i in (1, 2)])
        victim = running[0]
        os.kill(st[victim][0], 9)
        killed = time.monotonic()
        for d in drivers:
            d.join(WAIT)
            check(d.error is not None, "a driver did not notice the kill")
        waits = finish_after_reconnect(cluster, drivers, killed, killed + TAKEOVER_S)
        print("takeover: the tables accepted moves again at most %.2f s after the kill"
              % max(waits))
        survivor = 3 - victim
        check(cluster.stats(survivor)["tables_live"] == 0, "the games did not end")
        check(cluster.status()[victim][0] is None, "status: the killed server is listed running")
        cluster.start()
        st = cluster.status()
        check(all(pid for pid, _ in st.values()), "start did not restart the server: %s" % st)
    finally:
        cluster.stop()


def case_race(program, tmp):
    """Two live servers racing for the tables of a third that died, a
    client of each resuming every table at once: each table is run by
    exactly one of them (the other relays), and of the same turn's move
    sent through both, one only is accepted, and stored once."""
    cluster = Cluster(program, tmp, 3).start()
    try:
        st = cluster.status()
        tables = []
        for k in range(6):
            table, clients, tokens = seat_table_direct(cluster.server_url(1))
            _, state = start_state(clients[0], table)
            start_state(clients[1], table)
            play_until(clients, table, state, stop_turn=2, rng=random.Random(k))
            tables.append((table, tokens, dict(state)))
            for c in clients:
                c.close()
        os.kill(st[1][0], 9)
        killed = time.monotonic()
        for table, tokens, state in tables:
            seat = state["to_move"]
            pair = [resume_until(cluster.server_url(i), table, tokens[seat],
                                 killed + TAKEOVER_S, connect=client_from) for i in (2, 3)]
            legal = pair[0].ok("legal", table=table)
            move = legal["placements"][0]["move"] if legal["placements"] else \
                "discard " + legal["tile"]
            rids = [c.send("move", table=table, turn=state["turn"], move=move) for c in pair]
            answers = [c.reply(rid) for c, rid in zip(pair, rids)]
            accepted = [a for a in answers if a["type"] == "move.ok"]
            check(len(accepted) == 1, "turn %d: %d moves accepted: %s"
                  % (state["turn"], len(accepted), answers))
            kept = record_moves(cluster.record(table, cluster.port + 2))
            check(len(kept) == state["turn"] + 1, "turn %d stored %d moves"
                  % (state["turn"], len(kept)))
            for c in pair:
                c.close()
        live = [cluster.stats(i)["tables_live"] for i in (2, 3)]
        check(sum(live) == len(tables), "%s tables live on the survivors, not %d in all"
              % (live, len(tables)))
    finally:
        cluster.stop()


def case_postgres_restart(program, tmp):
    """PostgreSQL stopped (as a crash would) and started again mid-game:
    the servers wait for it and start over, the clients reconnect and
    resume, every acknowledged move is kept, the games end."""
    cluster = Cluster(program, tmp, 2).start()
    try:
        drivers = drivers_on(cluster.url, 3)
        wait_moves(drivers, 10)
        cluster.pg_ctl("stop")
        for d in drivers:
            d.join(WAIT)
            check(d.error is not None, "a driver did not notice the database go")
        time.sleep(1)
        cluster.pg_ctl("start")
        now = time.monotonic()
        waits = finish_after_reconnect(cluster, drivers, now, now + WAIT)
        print("PostgreSQL back: the tables accepted moves again at most %.2f s later"
              % max(waits))
        st = cluster.status()
        check(all(pid for pid, _ in st.values()), "a server stopped for good: %s" % st)
    finally:
        cluster.stop()


def case_proxy_limits(program, tmp):
    """The per-address limits through the balancer (issue 35): HAProxy
    passes each client's address to the server (send-proxy-v2, the servers
    trusting 127.0.0.1), so one address's four tables of computer seats
    only (--max-computer-tables-per-ip's default) make its own fifth
    `create` fail with too_many and not another address's. The two
    clients come from 127.0.0.2 and 127.0.0.3; without the PROXY header
    the server saw 127.0.0.1 for both and refused the second one too.
    A connection straight to a server from 127.0.0.1 (a trusted proxy's
    address) without a header is refused."""
    cluster = Cluster(program, tmp, 1, SERVE_ARGS="--workers 1 --max-think-ms 200").start()
    try:
        computers = ["mcts:level=easy", "mcts:level=easy"]
        attacker = client_from(cluster.url, "127.0.0.2")
        for _ in range(4):
            attacker.ok("create", seats=computers)
        r = attacker.request("create", seats=computers)
        check(r.get("code") == "too_many", "a fifth table of computers from one address: %s" % r)
        victim = client_from(cluster.url, "127.0.0.3")
        r = victim.request("create", seats=computers)
        check(r["type"] == "create.ok", "another address's create through the balancer: %s" % r)
        refused = False
        try:
            Client(cluster.server_url(1))
        except Exception:  # closed unanswered
            refused = True
        check(refused, "a connection straight from 127.0.0.1 without a PROXY header was served")
        for c in (attacker, victim):
            c.close()
    finally:
        cluster.stop()


def case_port_change(program, tmp):
    """cluster.sh keeps its data in $XDG_STATE_HOME/carcassonne/cluster
    whatever the current folder (nothing written there), and starts on
    whatever PORT is asked: started, stopped, started again on another
    port (PostgreSQL too), the table of the first start still there; a
    start on a third port while it runs is refused with the reason."""
    work, state = os.path.join(tmp, "work"), os.path.join(tmp, "state")
    os.mkdir(work)
    os.mkdir(state)
    os.chmod(state, 0o755)
    cluster = Cluster(program, tmp, 1, XDG_STATE_HOME=state)
    del cluster.env["CLUSTER_DIR"]
    cluster.cwd = work
    try:
        cluster.start()
        table = client_from(cluster.url).ok("create", name="Ann", seats=["me", "open"])["table"]
        cluster.stop()
        check(os.listdir(work) == [], "cluster.sh wrote into the current folder: %s"
              % os.listdir(work))
        check(os.path.isdir(os.path.join(state, "carcassonne", "cluster", "pg", "data")),
              "no PostgreSQL data under $XDG_STATE_HOME/carcassonne/cluster")
        cluster.port = free_port_block(2)
        cluster.env["PORT"] = str(cluster.port)
        cluster.start()
        c = client_from(cluster.url)
        lobby = c.ok("lobby")["tables"]
        check([t["table"] for t in lobby] == [table], "the first start's table: %s" % lobby)
        c.close()
        cluster.env["PORT"] = str(free_port_block(2))
        p = cluster.run("start", ok=False)
        check(p.returncode != 0 and "runs on port %d" % cluster.port in p.stderr,
              "a start on another port while it runs: %d %s" % (p.returncode, p.stderr))
        cluster.env["PORT"] = str(cluster.port)
    finally:
        cluster.stop()


def closes_within(client, seconds):
    """Whether the server closes `client`'s connection within `seconds`
    (its events read and dropped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if client.recv(max(0.05, deadline - time.monotonic())) is None:
                return True
        except (websocket.WebSocketTimeoutException, socket.timeout):
            pass
        except (websocket.WebSocketException, OSError):
            return True
    return False


def wait_log(cluster, i, text, since, deadline):
    """Waits until server `i`'s log holds `text` after its first `since`
    bytes."""
    path = os.path.join(cluster.env["CLUSTER_DIR"], "server-%d.log" % i)
    while time.monotonic() < deadline:
        with open(path) as f:
            if text in f.read()[since:]:
                return
        time.sleep(0.1)
    raise Failure("server %d's log does not say %r" % (i, text))


def case_redis_down(program, tmp):
    """Redis killed (-9) under a --relay redis cluster (issue 35): no
    server stops; a table whose players are on the process that runs it
    goes on; a player on another process sees its connection close (it
    may have missed events), and a request from there for a table of the
    other process is answered `internal` while Redis is away. Redis
    started again: each server connects again by itself (the same pids),
    the player resumes through the other process, and the game crosses
    the processes again, moves and chat both ways."""
    cluster = Cluster(program, tmp, 2, relay="redis").start()
    try:
        pids = {i: pid for i, (pid, _) in cluster.status().items()}
        local, local_clients, _ = seat_table_direct(cluster.server_url(1))
        _, local_state = start_state(local_clients[0], local)
        start_state(local_clients[1], local)
        ann = client_from(cluster.server_url(1))
        r = ann.ok("create", name="Ann", seats=["me", "open"])
        table, ann_seat = r["table"], r["seat"]
        bob = client_from(cluster.server_url(2))
        bob_token = bob.ok("join", table=table, name="Bob", seat=1 - ann_seat)["token"]
        clients = [None, None]
        clients[ann_seat], clients[1 - ann_seat] = ann, bob
        _, state = start_state(ann, table)
        start_state(bob, table)
        play_until(clients, table, state, stop_turn=2, rng=random.Random(5))
        logs = [os.path.getsize(os.path.join(cluster.env["CLUSTER_DIR"], "server-%d.log" % i))
                for i in (1, 2)]
        redis = [w for w in (line.split() for line in cluster.run("status").splitlines())
                 if w[0] == "redis"]
        os.kill(int(redis[0][2]), 9)
        check(closes_within(bob, 10), "the player across processes was not disconnected")
        play_until(local_clients, local, local_state, stop_turn=local_state["turn"] + 4,
                   rng=random.Random(6))
        away = client_from(cluster.server_url(2))
        r = away.request("resume", table=table, token=bob_token)
        check(r.get("code") == "internal", "a request across processes without Redis: %s" % r)
        away.close()
        now = {i: pid for i, (pid, _) in cluster.status().items()}
        check(now == pids, "a server stopped when Redis died: %s, before %s" % (now, pids))
        cluster.run("start")  # Redis again (the servers run)
        deadline = time.monotonic() + WAIT
        for i in (1, 2):
            wait_log(cluster, i, "redis is back", logs[i - 1], deadline)
        time.sleep(1)  # the servers tell each other of the gap at their next tick
        check({i: pid for i, (pid, _) in cluster.status().items()} == pids,
              "the servers were started again")
        bob = resume_until(cluster.server_url(2), table, bob_token, deadline, connect=client_from)
        s = bob.event("state")
        state = {"turn": s["turn"], "to_move": s["to_move"]}
        clients[1 - ann_seat] = bob
        play_until(clients, table, state, stop_turn=state["turn"] + 4, rng=random.Random(7))
        bob.ok("chat", table=table, text="back across")
        check(ann.event("chat", lambda e: e["text"] == "back across"), "chat did not cross")
        ann.ok("chat", table=table, text="and back")
        check(bob.event("chat", lambda e: e["text"] == "and back"), "chat did not cross back")
    finally:
        cluster.stop()


def account_http(port, method, path, body=None, cookie=None, source=DIRECT):
    """An accounts request to one server: (status, JSON answer, session cookie set or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT,
                                      source_address=(source, 0))
    headers = {"Cookie": "carc_session=" + cookie} if cookie else {}
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)
        r = conn.getresponse()
        answer = json.loads(r.read().decode() or "null")
        set_cookie = r.getheader("Set-Cookie") or ""
        value = set_cookie.split(";")[0].split("=", 1)[1] if "=" in set_cookie else None
        return r.status, answer, value or None
    finally:
        conn.close()


def account_client(url, cookie, source=DIRECT):
    """client_from(url) whose WebSocket upgrade carries the session cookie."""
    real = websocket.create_connection
    websocket.create_connection = lambda u, **kw: real(u, cookie="carc_session=" + cookie, **kw)
    try:
        return client_from(url, source)
    finally:
        websocket.create_connection = real


def case_accounts(program, tmp):
    """Accounts across two processes on one PostgreSQL: signed up on one,
    known on the other; a seat of the account resumed without a token
    through a connection on the other process (the request relayed with
    its account); a logout on one process ends the session on the other
    at once, for HTTP and for an open WebSocket connection."""
    cluster = Cluster(program, tmp, 2).start()
    try:
        one, two = cluster.port + 1, cluster.port + 2
        status, answer, cookie = account_http(one, "POST", "/api/signup",
                                              {"name": "Ann", "password": "correct horse"})
        check(status == 201 and cookie, "sign-up on server 1: %s %s" % (status, answer))
        status, answer, _ = account_http(two, "GET", "/api/me", cookie=cookie)
        check(status == 200 and answer["name"] == "Ann", "me on server 2: %s %s" % (status, answer))
        owner = account_client(cluster.server_url(2), cookie)
        table = owner.ok("create", name="Ann", seats=["me", "open"])["table"]
        away = account_client(cluster.server_url(1), cookie)
        r = away.ok("resume", table=table)  # run by server 2: relayed with the account
        check(r["seat"] == 0, "resumed through server 1: %s" % r)
        guest = client_from(cluster.server_url(1))
        r = guest.request("resume", table=table)
        check(r.get("code") == "bad_token", "a guest resumed the account's seat: %s" % r)
        status, _, _ = account_http(one, "POST", "/api/logout", cookie=cookie)
        check(status == 200, "logout on server 1: %s" % status)
        status, answer, _ = account_http(two, "GET", "/api/me", cookie=cookie)
        check(status == 401, "the session lives on server 2 after the logout: %s" % answer)
        later = account_client(cluster.server_url(2), cookie)
        r = later.request("resume", table=table)
        check(r.get("code") == "bad_token", "a connection of the ended session resumed: %s" % r)
        r = owner.request("resume", table=table)  # open since before the logout
        check(r.get("code") == "bad_token", "the open connection still acts for Ann: %s" % r)
        for c in (owner, away, guest, later):
            c.close()
    finally:
        cluster.stop()


def main():
    if len(sys.argv) != 3:
        print("usage: cluster_test.py CASE PROGRAM", file=sys.stderr)
        return 2
    case, program = sys.argv[1], os.path.abspath(sys.argv[2])
    fn = globals().get("case_" + case)
    if not fn:
        print("unknown case " + case, file=sys.stderr)
        return 2
    with tempdir() as tmp:
        os.chmod(tmp, 0o755)
        try:
            fn(program, tmp)
        except Failure as e:
            print("FAIL %s: %s" % (case, e), file=sys.stderr)
            return 1
    print("ok " + case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
