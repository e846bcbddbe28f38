#!/usr/bin/env python3
"""serve_test.py CASE PROGRAM: `carcassonne serve` as a program: its
options, its ready line, HTTP, the WebSocket path, TLS, a clean stop on SIGTERM
and a restart on the same database. Standard library only (the WebSocket
games themselves are tests/e2e/). Every wait is bounded; none depends on
the machine's speed."""
import base64
import json
import os
import re
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

WAIT = 60.0  # seconds: an upper bound, never a timing assumption


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(program, *args):
    return subprocess.run([program, "serve", *args], capture_output=True, text=True,
                          timeout=WAIT)


class Server:
    """A server on a free port of 127.0.0.1 with the database `db`."""

    def __init__(self, program, db, *extra, scheme="http"):
        self.proc = subprocess.Popen([program, "serve", "--port", "0", "--db", db, *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.fullmatch(r"listening on %s://127\.0\.0\.1:(\d+)\n" % scheme, line)
        if not m:
            self.proc.kill()
            fail("no ready line, got %r; stderr: %s" % (line, self.proc.stderr.read()))
        self.port = int(m.group(1))

    def get(self, path):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path),
                                        timeout=WAIT) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, ""

    def upgrade(self, path):
        """The status line of a WebSocket handshake on `path` ('' when refused)."""
        key = base64.b64encode(os.urandom(16)).decode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=WAIT) as s:
            s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                       "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n" % (path, key)).encode())
            try:
                data = s.recv(4096)
            except ConnectionResetError:
                data = b""
        return data.split(b"\r\n")[0].decode()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("no exit within %d s of SIGTERM" % WAIT)


PROXY_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def proxy_v2(source, port, local=False):
    """HAProxy's send-proxy-v2 header for a TCP connection from `source`
    (IPv4 or IPv6) to 127.0.0.1:`port`; `local`: a health check's."""
    if local:
        return PROXY_SIGNATURE + b"\x20\x00\x00\x00"
    if ":" in source:
        body = (socket.inet_pton(socket.AF_INET6, source) + bytes(15) + b"\x01"
                + struct.pack(">HH", 50000, port))
        return PROXY_SIGNATURE + b"\x21\x21" + struct.pack(">H", len(body)) + body
    body = (socket.inet_aton(source) + socket.inet_aton("127.0.0.1")
            + struct.pack(">HH", 50000, port))
    return PROXY_SIGNATURE + b"\x21\x11" + struct.pack(">H", len(body)) + body


def ws_connect(port, prefix=b"", source="127.0.0.1", tls=None):
    """A socket from `source` (any 127.0.0.0/8 address is this machine's)
    that sent `prefix`, then (over TLS with the context `tls`) a WebSocket
    handshake at /ws: (socket, the server's answer up to its blank line,
    b"" when it closed or reset the connection unanswered)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                   source_address=(source, 0))
    s = raw
    try:
        raw.sendall(prefix)
        if tls:
            s = tls.wrap_socket(raw, server_hostname="127.0.0.1")
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                   "Sec-WebSocket-Protocol: carcassonne.v1\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n" % key).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1)
            if not chunk:
                return s, b""
            head += chunk
        return s, head
    except (ConnectionError, ssl.SSLError, socket.timeout):
        return s, b""


def masked(opcode, payload):
    key = os.urandom(4)
    return (bytes([0x80 | opcode, 0x80 | len(payload)]) + key
            + bytes(b ^ key[i % 4] for i, b in enumerate(payload)))


def read_frame(s):
    """The next frame from the server: (opcode, payload), or None when the
    connection closed."""
    def exactly(n):
        data = b""
        while len(data) < n:
            try:
                chunk = s.recv(n - len(data))
            except (ConnectionError, ssl.SSLError, socket.timeout):
                return None
            if not chunk:
                return None
            data += chunk
        return data
    head = exactly(2)
    if not head:
        return None
    n = head[1] & 0x7F
    if n == 126:
        n = struct.unpack(">H", exactly(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", exactly(8))[0]
    body = exactly(n)
    return None if body is None else (head[0] & 0x0F, body)


def ping_answered(s):
    """Whether a `ping` request on the upgraded socket `s` is answered
    ping.ok (an error, e.g. too_many, or a close is not)."""
    s.sendall(masked(0x1, json.dumps({"type": "ping", "id": 7}).encode()))
    while True:
        frame = read_frame(s)
        if frame is None or frame[0] == 0x8:
            return False
        if frame[0] == 0x1:
            msg = json.loads(frame[1])
            if msg.get("re") == 7 or msg.get("type") == "error":
                return msg.get("type") == "ping.ok"


def case_options(program):
    r = run(program, "--help")
    if r.returncode != 0:
        fail("--help: exit %d" % r.returncode)
    for option in ("--host", "--port", "--db", "--static", "--workers", "--max-think-ms", "--hint-ms",
                   "--max-tables", "--max-conns-per-ip", "--max-tables-per-ip",
                   "--max-computer-tables-per-ip", "--ping-ms",
                   "--idle-close-ms", "--tls-cert",
                   "--tls-key", "--trusted-proxy", "--help"):
        if option not in r.stdout:
            fail("--help does not list " + option)
    bad = [["--bogus"], ["--port"], ["--port", "70000"], ["--port", "x"], ["--workers", "0"],
           ["--tls-cert", "a.pem"], ["--static", "/no/such/folder"], ["--max-tables", "-1"],
           ["--ping-ms", "5000", "--idle-close-ms", "5000"], ["--trusted-proxy"],
           ["--trusted-proxy", "localhost"], ["--trusted-proxy", "10.0.0.0/33"],
           ["--trusted-proxy", "::1/129"], ["--trusted-proxy", "10.0.0.1/"]]
    for args in bad:
        r = run(program, *args)
        if r.returncode != 2 or "carcassonne serve:" not in r.stderr or r.stdout:
            fail("%s: exit %d, stderr %r" % (args, r.returncode, r.stderr))
    # A PostgreSQL that cannot be reached at start: exit 1 at once, saying why.
    r = run(program, "--port", "0", "--db", "postgresql://nobody@/nodb?host=/no/such/folder")
    if r.returncode != 1 or "cannot open the database postgresql:" not in r.stderr:
        fail("an unreachable PostgreSQL: exit %d, stderr %r" % (r.returncode, r.stderr))


def case_http(program):
    with tempfile.TemporaryDirectory() as tmp:
        web = os.path.join(tmp, "web")
        os.mkdir(web)
        with open(os.path.join(web, "index.html"), "w") as f:
            f.write("<p>hello from the test</p>\n")
        s = Server(program, os.path.join(tmp, "t.db"), "--static", web)
        status, body = s.get("/")
        if status != 200 or "hello from the test" not in body:
            fail("GET /: %d %r" % (status, body))
        if s.get("/api/tables/tnosuchtable/record")[0] != 404:
            fail("a record of no table is not 404")
        if s.get("/no-such-file.html")[0] != 404:
            fail("a missing file is not 404")
        check_tiles(s)
        if "101" not in s.upgrade("/ws"):
            fail("no WebSocket at /ws")
        if "101" in s.upgrade("/elsewhere"):
            fail("a WebSocket outside /ws")
        if s.stop() != 0:
            fail("SIGTERM: exit status not 0")


def check_tiles(s):
    """GET /api/tiles: the base game's 24 kinds, The River's 10 and Inns &
    Cathedrals' 17, by id (tiles.md, river.md, inns-cathedrals.md), river
    edges and segments of kind "river", the inns' and cathedral's marks,
    Traders & Builders' 24 kinds and their goods (version 4)."""
    status, body = s.get("/api/tiles")
    if status != 200:
        fail("GET /api/tiles: %d" % status)
    cat = json.loads(body)
    tiles = {t["id"]: t for t in cat["tiles"]}
    base = [t for t in cat["tiles"] if t["set"] == "base"]
    river = [t["id"] for t in cat["tiles"] if t["set"] == "river"]
    if cat["version"] != 4 or len(base) != 24 or sum(t["count"] for t in base) != 72:
        fail("the base game's tiles: version %r, %d kinds" % (cat["version"], len(base)))
    if river != ["RA", "RB", "RC", "RD", "RE", "RG", "RH", "RI", "RK", "RL"]:
        fail("the river's kinds: %r" % river)
    if sum(tiles[i]["count"] for i in river) != 12:
        fail("not 12 river tiles")
    rk = tiles["RK"]  # river.md: I R I R; river r {N S}; road a {E W} on a bridge
    if rk["edges"] != {"N": "river", "E": "road", "S": "river", "W": "road"}:
        fail("RK's edges: %r" % rk["edges"])
    if rk["segments"][0]["kind"] != "river" or rk["segments"][0]["ports"] != ["N", "S"]:
        fail("RK's river: %r" % rk["segments"][0])
    if tiles["E"]["letter"] != "E":
        fail("the version 1 name `letter` is gone")
    # Inns & Cathedrals (version 3: each segment's marks): 17 kinds, 18
    # tiles; six inn roads, IK's cathedral city, IH's field with no ports.
    inns = [t for t in cat["tiles"] if t["set"] == "inns-cathedrals"]
    if len(inns) != 17 or sum(t["count"] for t in inns) != 18:
        fail("Inns & Cathedrals: %d kinds" % len(inns))
    marked = sorted((t["id"], s["kind"], m) for t in cat["tiles"] for s in t["segments"]
                    for m in s["marks"] if t["set"] != "traders-builders")
    if marked != sorted([(i, "road", "inn") for i in ("IA", "IB", "IC", "IL", "IM", "IN")]
                        + [("IK", "city", "cathedral")]):
        fail("the marks: %r" % marked)
    if tiles["IH"]["segments"][4] != {"kind": "field", "pennant": False, "ports": [],
                                      "borders": [0, 1, 2, 3], "marks": []}:
        fail("IH's closed field: %r" % tiles["IH"]["segments"][4])
    # Traders & Builders (traders-builders.md): 24 kinds, 24 tiles; 20 with
    # one goods city (9 wine, 6 grain, 5 cloth), always on a city segment.
    tb = [t for t in cat["tiles"] if t["set"] == "traders-builders"]
    if len(tb) != 24 or sum(t["count"] for t in tb) != 24:
        fail("Traders & Builders: %d kinds" % len(tb))
    goods = [(t["id"], s["kind"], m) for t in tb for s in t["segments"] for m in s["marks"]]
    counts = {g: sum(1 for x in goods if x[2] == g) for g in ("wine", "grain", "cloth")}
    if (len(goods) != 20 or any(k != "city" for _, k, _ in goods)
            or len({i for i, _, _ in goods}) != 20
            or counts != {"wine": 9, "grain": 6, "cloth": 5}):
        fail("the goods: %r" % goods)
    if ("TA", "city", "grain") not in goods or ("TC", "city", "cloth") not in goods:
        fail("TA's grain, TC's cloth: %r" % goods)


def case_restart(program):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "t.db")
        s = Server(program, db)
        if s.stop() != 0:
            fail("first stop")
        s = Server(program, db)
        if s.stop() != 0:
            fail("second stop")
        r = subprocess.run([program, "serve", "--port", "0", "--db",
                            os.path.join(tmp, "no", "such", "dir.db")],
                           capture_output=True, text=True, timeout=WAIT)
        if r.returncode != 1 or "database" not in r.stderr:
            fail("an unopenable database: exit %d %r" % (r.returncode, r.stderr))


def case_tls(program):
    """--tls-cert/--tls-key: HTTPS and a WebSocket handshake over TLS with a
    self-signed certificate made for the test; plain HTTP is refused. An
    unmasked client frame over TLS closes the connection with 1002,
    unanswered, as on a plain one (RFC 6455 5.1; hostile_test.py's
    `unmasked`). Behind a trusted proxy (--trusted-proxy), TLS begins after
    the PROXY header."""
    with tempfile.TemporaryDirectory() as tmp:
        cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                            "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1"],
                           capture_output=True, text=True, timeout=WAIT)
        if r.returncode != 0:
            fail("openssl could not make a certificate: " + r.stderr)
        s = Server(program, os.path.join(tmp, "t.db"), "--tls-cert", cert, "--tls-key", key,
                   scheme="https")
        try:
            ctx = ssl.create_default_context(cafile=cert)
            ctx.check_hostname = False
            with urllib.request.urlopen("https://127.0.0.1:%d/" % s.port, timeout=WAIT,
                                        context=ctx) as resp:
                if resp.status != 200:
                    fail("GET / over TLS: %d" % resp.status)
            key64 = base64.b64encode(os.urandom(16)).decode()
            with socket.create_connection(("127.0.0.1", s.port), timeout=WAIT) as raw:
                with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as t:
                    t.sendall(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                               "Sec-WebSocket-Version: 13\r\n\r\n" % key64).encode())
                    if b"101" not in t.recv(4096).split(b"\r\n")[0]:
                        fail("no WebSocket over TLS at /ws")
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/" % s.port, timeout=WAIT)
                fail("plain HTTP answered on a TLS port")
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            check_unmasked_tls(s.port, ctx)
        finally:
            if s.stop() != 0:
                fail("SIGTERM: exit status not 0")
        s = Server(program, os.path.join(tmp, "t.db"), "--tls-cert", cert, "--tls-key", key,
                   "--trusted-proxy", "127.0.0.1", scheme="https")
        try:
            t, head = ws_connect(s.port, proxy_v2("203.0.113.8", s.port), tls=ctx)
            if b" 101 " not in head or not ping_answered(t):
                fail("no WebSocket over TLS behind the PROXY header: %r" % head)
            t.close()
        finally:
            if s.stop() != 0:
                fail("SIGTERM: exit status not 0")


def check_unmasked_tls(port, ctx):
    """On a WSS connection: a masked ping is answered, then an unmasked one
    (a text frame, then on another connection a control frame) closes the
    connection with 1002 and is not answered; another connection lives."""
    ping = json.dumps({"type": "ping", "id": 1}).encode()
    other, head = ws_connect(port, tls=ctx)
    for control in (False, True):
        t, head = ws_connect(port, tls=ctx)
        if b" 101 " not in head:
            fail("no WebSocket over TLS: %r" % head)
        t.sendall(masked(0x1, ping))
        t.sendall(bytes([0x89, 4]) + b"ping" if control else bytes([0x81, len(ping)]) + ping)
        answers, code = 0, None
        while True:
            frame = read_frame(t)
            if frame is None:
                break
            if frame[0] == 0x1 and json.loads(frame[1]).get("type") == "ping.ok":
                answers += 1
            if frame[0] == 0x8:
                code = int.from_bytes(frame[1][:2], "big")
                break
        if answers > 1 or code != 1002:
            fail("an unmasked %s frame over TLS: %d answers, close code %s"
                 % ("control" if control else "text", answers, code))
        t.close()
    if not ping_answered(other):
        fail("another TLS connection died")
    other.close()


def case_proxy(program):
    """--trusted-proxy: a balancer's PROXY protocol v2 header carries the
    client's address, which the per-address limits count (here one
    connection an address): two clients through one trusted proxy are two
    addresses, and the same client twice is refused `too_many`; an IPv6
    client too; a LOCAL header (a health check) stands for the proxy
    itself. Refused unanswered: the trusted proxy without a header, or
    with version 1's; a header from any other address (127.0.0.2 and
    127.0.0.3 are this machine's too, and not trusted); a header when no
    proxy is trusted. Any other address without a header is served."""
    with tempfile.TemporaryDirectory() as tmp:
        s = Server(program, os.path.join(tmp, "t.db"), "--trusted-proxy", "127.0.0.1",
                   "--trusted-proxy", "10.9.0.0/16", "--max-conns-per-ip", "1")
        try:
            ann, head = ws_connect(s.port, proxy_v2("203.0.113.1", s.port))
            if b" 101 " not in head or not ping_answered(ann):
                fail("a client through the trusted proxy: %r" % head)
            bob, head = ws_connect(s.port, proxy_v2("203.0.113.2", s.port))
            if b" 101 " not in head or not ping_answered(bob):
                fail("a second client through the proxy shares the first's address")
            again, head = ws_connect(s.port, proxy_v2("203.0.113.1", s.port))
            if b" 101 " not in head or ping_answered(again):
                fail("the first client's address twice was not refused (one connection each)")
            six, head = ws_connect(s.port, proxy_v2("2001:db8::5", s.port))
            if b" 101 " not in head or not ping_answered(six):
                fail("an IPv6 client through the proxy: %r" % head)
            local, head = ws_connect(s.port, proxy_v2("", s.port, local=True))
            if b" 101 " not in head or not ping_answered(local):
                fail("a LOCAL header (the proxy's own connection): %r" % head)
            plain = ws_connect(s.port, source="127.0.0.2")[1]
            if b" 101 " not in plain:
                fail("an untrusted address without a header: %r" % plain)
            refused = {
                "the trusted proxy without a header": ws_connect(s.port),
                "the trusted proxy with a version 1 header": ws_connect(
                    s.port, b"PROXY TCP4 203.0.113.9 127.0.0.1 50000 80\r\n"),
                "a header from an untrusted address": ws_connect(
                    s.port, proxy_v2("203.0.113.3", s.port), source="127.0.0.3"),
                "a broken header from the proxy": ws_connect(
                    s.port, PROXY_SIGNATURE + b"\x21\x11\x00\x04abcd"),
            }
            for what, (sock, head) in refused.items():
                if head:
                    fail("%s was answered: %r" % (what, head))
                sock.close()
            for c in (ann, bob, again, six, local):
                c.close()
        finally:
            if s.stop() != 0:
                fail("SIGTERM: exit status not 0")
        s = Server(program, os.path.join(tmp, "t.db"))
        try:
            sock, head = ws_connect(s.port, proxy_v2("203.0.113.1", s.port))
            if head:
                fail("a header with no --trusted-proxy was answered: %r" % head)
            sock.close()
        finally:
            if s.stop() != 0:
                fail("SIGTERM: exit status not 0")
        err = s.proc.stderr.read()
        if "refused a connection from 127.0.0.1" not in err:
            fail("the refusal is not in the log: %r" % err)


def case_checks(program):
    """Options checked before the server starts, each refused with one line
    naming the problem (exit 2, no libwebsockets log, no database made):
    --hint-ms more than --max-think-ms (the default hint time follows a
    smaller --max-think-ms instead); --tls-cert and --tls-key files that
    are missing, folders, not PEM, a key protected by a passphrase, a key
    that is not the certificate's."""
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "t.db")

        def refused(args, message, db=db):
            r = subprocess.run([program, "serve", "--port", "0", "--db", db, *args],
                               capture_output=True, text=True, timeout=WAIT,
                               stdin=subprocess.DEVNULL)
            want = "carcassonne serve: %s\nTry 'carcassonne serve --help'.\n" % message
            if r.returncode != 2 or r.stdout or r.stderr != want:
                fail("%s: exit %d, stdout %r, stderr %r (wanted %r)"
                     % (args, r.returncode, r.stdout, r.stderr, want))
            if os.path.exists(db):
                fail("%s: the database was made" % args)

        # (A database that cannot be opened: a server that took these would
        # stop at once, not run.)
        nowhere = os.path.join(tmp, "no", "such", "folder.db")
        refused(["--hint-ms", "5000", "--max-think-ms", "1000"],
                "--hint-ms (5000) must be at most --max-think-ms (1000)", nowhere)
        refused(["--hint-ms", "3001"], "--hint-ms (3001) must be at most --max-think-ms (3000)",
                nowhere)

        def make_pair(name):
            cert, key = os.path.join(tmp, name + "-cert.pem"), os.path.join(tmp, name + "-key.pem")
            r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                "-keyout", key, "-out", cert, "-days", "2", "-subj",
                                "/CN=127.0.0.1"], capture_output=True, text=True, timeout=WAIT)
            if r.returncode != 0:
                fail("openssl could not make a certificate: " + r.stderr)
            return cert, key

        cert, key = make_pair("a")
        other_cert, other_key = make_pair("b")
        locked = os.path.join(tmp, "locked-key.pem")
        r = subprocess.run(["openssl", "pkey", "-in", key, "-aes128", "-passout", "pass:secret",
                            "-out", locked], capture_output=True, text=True, timeout=WAIT)
        if r.returncode != 0:
            fail("openssl could not encrypt the key: " + r.stderr)
        empty = os.path.join(tmp, "empty.pem")
        open(empty, "w").close()
        missing = os.path.join(tmp, "nosuch.pem")
        refused(["--tls-cert", missing, "--tls-key", missing],
                "--tls-cert %s: no such file" % missing)
        refused(["--tls-cert", tmp, "--tls-key", key], "--tls-cert %s: a folder, not a file" % tmp)
        refused(["--tls-cert", empty, "--tls-key", key],
                "--tls-cert %s: not a PEM certificate" % empty)
        refused(["--tls-cert", key, "--tls-key", key], "--tls-cert %s: not a PEM certificate" % key)
        refused(["--tls-cert", cert, "--tls-key", missing], "--tls-key %s: no such file" % missing)
        not_key = "not a PEM private key (or one protected by a passphrase)"
        refused(["--tls-cert", cert, "--tls-key", cert], "--tls-key %s: %s" % (cert, not_key))
        refused(["--tls-cert", cert, "--tls-key", locked], "--tls-key %s: %s" % (locked, not_key))
        refused(["--tls-cert", cert, "--tls-key", other_key],
                "--tls-key %s: not the private key of the certificate of --tls-cert" % other_key)
        if os.geteuid() != 0:  # root reads any file
            os.chmod(key, 0)
            refused(["--tls-cert", cert, "--tls-key", key], "--tls-key %s: Permission denied" % key)
            os.chmod(key, 0o600)

        # Accepted: the hint time at most the cap (and by default cut to a smaller cap).
        for args in (["--max-think-ms", "500"], ["--hint-ms", "800", "--max-think-ms", "800"],
                     ["--tls-cert", other_cert, "--tls-key", other_key]):
            s = Server(program, db, *args, scheme="https" if "--tls-cert" in args else "http")
            if s.stop() != 0:
                fail("%s: SIGTERM: exit status not 0" % args)


CASES = {"options": case_options, "http": case_http, "restart": case_restart, "tls": case_tls,
         "proxy": case_proxy, "checks": case_checks}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        print("usage: serve_test.py %s PROGRAM" % "|".join(CASES))
        sys.exit(2)
    CASES[sys.argv[1]](sys.argv[2])
    print("ok " + sys.argv[1])
