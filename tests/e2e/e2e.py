"""e2e.py: what the end-to-end tests share: a game server of their own on
127.0.0.1 (a free port, a temporary database), scripted WebSocket clients
(websocket-client, the sync API) and the `carcassonne` program's replay and
connect. Every wait is bounded and polls, with generous bounds."""

import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import deque

try:
    import websocket
except ImportError:  # a python3 of its own (pyenv) beside Debian's python3-websocket
    import sys
    sys.path.append("/usr/lib/python3/dist-packages")
    import websocket

WAIT = 60.0  # seconds: a bound no healthy run comes near, even under load
RATE = 16  # messages a second a scripted client sends at most (the server allows 20)


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Server:
    """`carcassonne serve` on 127.0.0.1 with its own database."""

    def __init__(self, program, workdir, extra=()):
        self.program = program
        # CARC_E2E_DB: a PostgreSQL URI instead (the cases run on it too)
        self.db = os.environ.get("CARC_E2E_DB") or os.path.join(workdir, "server.db")
        # Passwords hashed at the cheapest limits unless a test names its own
        # (the default's 256 MiB and 0.8 s a hash is tested by accounts_test.py's
        # password_cost case and test_accounts.c).
        self.extra = list(extra)
        if "--password-cost" not in self.extra:
            self.extra += ["--password-cost", "interactive"]
        self.proc = None
        self.port = 0
        self.output = []

    def start(self, port=0):
        cmd = [self.program, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", self.db] + self.extra
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        found = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.output.append(line)
                m = re.search(r"listening on http://[^:\s]+:(\d+)", line)
                if m and not found.is_set():
                    self.port = int(m.group(1))
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + WAIT
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise Failure("the server did not start: " + "".join(self.output[-20:]))
        return self

    @property
    def url(self):
        return "ws://127.0.0.1:%d/ws" % self.port

    def http(self, path):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path),
                                    timeout=WAIT) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=WAIT)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Client:
    """A scripted WebSocket client: requests wait for their reply; events
    are kept until a test asks for them."""

    def __init__(self, server_or_url, subprotocols=("carcassonne.v1",)):
        url = server_or_url if isinstance(server_or_url, str) else server_or_url.url
        self.ws = websocket.create_connection(url, subprotocols=list(subprotocols) or None,
                                              timeout=WAIT)
        self.events = []
        self.next_id = 0
        self.closed_code = None
        self.sent_at = deque()

    def pace(self):
        """Waits until one more message keeps this client under RATE a second."""
        while len(self.sent_at) >= RATE:
            wait = self.sent_at[0] + 1.0 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.sent_at.popleft()
        self.sent_at.append(time.monotonic())

    def send_raw(self, text, paced=True):
        if paced:
            self.pace()
        self.ws.send(text)

    def recv(self, timeout=WAIT):
        """The next message as an object (None when the connection closed)."""
        self.ws.settimeout(timeout)
        try:
            op, data = self.ws.recv_data(control_frame=False)
        except websocket.WebSocketConnectionClosedException:
            return None
        if op == websocket.ABNF.OPCODE_CLOSE:
            self.closed_code = int.from_bytes(data[:2], "big") if len(data) >= 2 else 1005
            return None
        return json.loads(data.decode())

    def send(self, type_, paced=True, **fields):
        self.next_id += 1
        msg = dict(type=type_, id=self.next_id, **fields)
        self.send_raw(json.dumps(msg), paced)
        return self.next_id

    def reply(self, rid, timeout=WAIT):
        """Reads until the reply to request `rid`; events are kept."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            check(left > 0, "no reply to request %s" % rid)
            msg = self.recv(left)
            check(msg is not None, "the connection closed while waiting for reply %s" % rid)
            if "re" in msg:
                check(msg["re"] == rid, "reply %s came before the reply to %s" % (msg, rid))
                return msg
            self.events.append(msg)

    def request(self, type_, **fields):
        return self.reply(self.send(type_, **fields))

    def ok(self, type_, **fields):
        r = self.request(type_, **fields)
        check(r["type"] == type_ + ".ok", "%s refused: %s" % (type_, r))
        return r

    def event(self, type_, pred=lambda e: True, timeout=WAIT):
        """Takes the first event of `type_` that satisfies `pred`, waiting
        for it; the events before it stay."""
        deadline = time.monotonic() + timeout
        i = 0
        while True:
            while i < len(self.events):
                e = self.events[i]
                if e.get("type") == type_ and pred(e):
                    del self.events[i]
                    return e
                i += 1
            left = deadline - time.monotonic()
            check(left > 0, "no %s event came" % type_)
            msg = self.recv(left)
            check(msg is not None, "the connection closed while waiting for a %s event" % type_)
            self.events.append(msg)

    def drop_events(self):
        self.events = []

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass

    def alive(self):
        """The connection still answers."""
        return self.request("ping")["type"] == "ping.ok"


def choose_move(client, table, rng):
    """A random legal move, asked of the server (`legal`)."""
    legal = client.ok("legal", table=table)
    places = legal["placements"]
    if not places:
        return "discard " + legal["tile"], legal
    p = rng.choice(places)
    spots = p.get("spots", [])
    if spots and rng.random() < 0.4:
        return p["move"] + " " + rng.choice(spots)["spot"], legal
    return p["move"], legal


def seat_table(server, seats=("me", "open"), names=("Ann", "Bob"), **create):
    """Creates a table and fills its open seats; returns the table id, the
    clients by seat (None for computer seats) and their tokens."""
    owner = Client(server)
    r = owner.ok("create", name=names[0], seats=list(seats), **create)
    table = r["table"]
    clients = [None] * len(seats)
    tokens = [None] * len(seats)
    clients[r["seat"]] = owner
    tokens[r["seat"]] = r["token"]
    for i, spec in enumerate(seats):
        if spec == "open":
            c = Client(server)
            j = c.ok("join", table=table, name=names[i % len(names)], seat=i)
            clients[i], tokens[i] = c, j["token"]
    return table, clients, tokens, r


def play_until(clients, table, state, stop_turn=None, rng=None, acked=None):
    """Plays the human seats' moves with random legal moves until the game
    ends (or turn `stop_turn`). `state` is {'turn','to_move'}, updated.
    Every client must see every move event. Returns the last move event."""
    rng = rng or random.Random(1)
    last = None
    while state["to_move"] is not None and (stop_turn is None or state["turn"] < stop_turn):
        turn, player = state["turn"], state["to_move"]
        mover = clients[player]
        if mover is not None:
            move, _ = choose_move(mover, table, rng)
            r = mover.request("move", table=table, turn=turn, move=move)
            check(r["type"] == "move.ok" and r["turn"] == turn, "move refused: %s" % r)
            if acked is not None:
                acked.append(move)
        for c in clients:
            if c is not None:
                last = c.event("move", lambda e: e["turn"] == turn)
        nxt = last["next"]
        state["turn"] = turn + 1
        state["to_move"] = nxt["player"] if nxt else None
    return last


def start_state(client, table):
    """The turn and player to move of the client's latest `state` event."""
    s = client.event("state", lambda e: e.get("status") == "playing")
    return s, {"turn": s["turn"], "to_move": s["to_move"]}


def replay(program, record_text, workdir, name="game.rec"):
    """`carcassonne replay --json` of a record: (exit status, json or None, stderr)."""
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        f.write(record_text)
    p = subprocess.run([program, "replay", "--json", path], capture_output=True, text=True,
                       timeout=WAIT)
    out = json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None
    return p.returncode, out, p.stderr


def commitment_of(salt, seed):
    return hashlib.sha256(("%s:%s" % (salt, seed)).encode()).hexdigest()


def record_moves(record_text):
    """The move lines of a record, in order (comments and headers left out)."""
    moves = []
    for line in record_text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if re.match(r"^[A-Z]{1,2} ", line) or line.startswith("discard ") or line == "end":
            moves.append(line)
    return moves


def connect_proc(program, url, *args, log=None):
    """`carcassonne connect URL ARGS...`, its output a text pipe (standard
    error too, unless `log` takes it)."""
    return subprocess.Popen([program, "connect", url] + list(args), stdout=subprocess.PIPE,
                            stderr=log or subprocess.STDOUT, text=True)


def read_until(proc, pattern, lines, timeout=WAIT):
    """Reads the process's output into `lines` until a line matches;
    returns the match."""
    result = {}

    def read():
        for line in proc.stdout:
            lines.append(line)
            m = re.search(pattern, line)
            if m and "m" not in result:
                result["m"] = m
                return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    check("m" in result, "no line matching %r: %s" % (pattern, "".join(lines[-20:])))
    return result["m"]


def drain(proc, lines):
    """Keeps reading the process's output into `lines` (a thread)."""
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()


def tempdir():
    return tempfile.TemporaryDirectory(prefix="carc-e2e-")


def run_case(namespace, script):
    """The main of a test file run as `SCRIPT CASE PROGRAM`: sets the
    file's PROGRAM and runs its case_CASE(tmp) in a fresh folder. Returns
    the exit status: 0 passed, 1 failed, 2 bad arguments."""
    if len(sys.argv) != 3:
        print("usage: %s CASE PROGRAM" % script, file=sys.stderr)
        return 2
    case = sys.argv[1]
    namespace["PROGRAM"] = os.path.abspath(sys.argv[2])
    fn = namespace.get("case_" + case)
    if not fn:
        print("unknown case " + case, file=sys.stderr)
        return 2
    with tempdir() as tmp:
        try:
            fn(tmp)
        except Failure as e:
            print("FAIL %s: %s" % (case, e), file=sys.stderr)
            return 1
    print("ok " + case)
    return 0
