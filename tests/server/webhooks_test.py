#!/usr/bin/env python3
"""webhooks_test.py CASE PROGRAM: the accounts' webhooks against a real
`carcassonne serve` (accounts_test.py's helpers) and a test receiver
(http.server on 127.0.0.1, in a thread): the call when it becomes an
account's turn in a days-clock game, one a minute per account and table,
a redirect not followed; URLs refused at POST, and addresses refused at
the call (the server never connects: its log says why)."""
import http.server as httpserver
import json
import os
import random
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import accounts_test as acc  # noqa: E402
from accounts_test import expect, http, me, signup, ws  # noqa: E402
from e2e import WAIT, check, play_until, run_case, start_state  # noqa: E402

PROGRAM = None
DAY_MS = 86400 * 1000


class Receiver:
    """An HTTP server on 127.0.0.1 that keeps every request (path, JSON
    body, time); /redirect answers 302 to /followed, the rest 204."""

    def __init__(self):
        calls = self.calls = []

        class Handler(httpserver.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                calls.append((self.path, json.loads(body), time.time() * 1000,
                              self.headers.get("Content-Type")))
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/followed")
                else:
                    self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST

            def log_message(self, *args):
                pass

        self.httpd = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def wait(self, path, pred=lambda body: True):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            for call in self.calls:
                if call[0] == path and pred(call[1]):
                    return call
            time.sleep(0.05)
        raise AssertionError("no call to %s: %s" % (path, self.calls))

    def close(self):
        self.httpd.shutdown()


def set_webhook(server, cookie, url, status=200, error=None):
    return expect(http(server, "POST", "/api/account/webhook", {"url": url}, cookie=cookie),
                  status, error)


def wait_log(server, pattern):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for line in list(server.output):
            if re.search(pattern, line):
                return line
        time.sleep(0.05)
    raise AssertionError("no log line %r in: %s" % (pattern, "".join(server.output[-20:])))


DAYS = {"mode": "days", "days": 2}


def case_deliver(tmp):
    """Two accounts play a days-clock game over the WebSocket: the first
    to move is called at the start, the other when its turn comes (table,
    turn, seat, deadline); the first's next turn within the minute is not
    called again; a receiver's redirect is not followed."""
    acc.PROGRAM = PROGRAM
    receiver = Receiver()
    server = acc.start(tmp, "--allow-http-webhooks", "--allow-webhook-loopback")
    try:
        ann, bob = acc.together(lambda: signup(server, "Ann"), lambda: signup(server, "Bob"))
        got = set_webhook(server, ann, receiver.url("/ann")).json
        check(got == {"webhook": receiver.url("/ann")}, "the answer: %s" % got)
        set_webhook(server, bob, receiver.url("/bob"))
        check(expect(me(server, ann), 200).json["webhook"] == receiver.url("/ann"), "me")
        a, b = ws(server, ann), ws(server, bob)
        table = a.ok("create", name="Ann", seats=["me", "open"], clock=DAYS)["table"]
        b.ok("join", table=table, name="Bob")
        _, state = start_state(a, table)
        paths = ["/ann", "/bob"]
        first = state["to_move"]
        started = time.time() * 1000
        path, body, at, ctype = receiver.wait(paths[first])
        check(ctype == "application/json", "Content-Type: %s" % ctype)
        check(body["table"] == table and body["turn"] == 0 and body["seat"] == first,
              "the first call: %s" % body)
        check(abs(body["deadline"] - (started + 2 * DAY_MS)) < 60000, "deadline: %s" % body)
        check(set(body) == {"table", "turn", "seat", "deadline"}, "fields: %s" % body)

        rng = random.Random(5)
        play_until([a, b], table, state, stop_turn=1, rng=rng)
        path, body, at, _ = receiver.wait(paths[1 - first], lambda x: x["turn"] == 1)
        check(body["table"] == table and body["seat"] == 1 - first, "the second call: %s" % body)
        check(abs(body["deadline"] - (at + 2 * DAY_MS)) < 60000, "deadline: %s" % body)

        # Turn 2 is the first mover's again, within a minute of its call: none.
        play_until([a, b], table, state, stop_turn=2, rng=rng)
        time.sleep(1.5)
        again = [c for c in receiver.calls if c[1]["turn"] == 2]
        check(again == [], "called twice within a minute: %s" % again)
        check(len(receiver.calls) == 2, "calls: %s" % receiver.calls)

        # A redirect is not followed.
        set_webhook(server, ann, receiver.url("/redirect"))
        a.ok("create", name="Ann", seats=["me", "greedy"], clock=DAYS)
        receiver.wait("/redirect")
        wait_log(server, r"webhook of account \d+ \(table \w+, turn \d\): answered HTTP 302: "
                         r"redirects are not followed")
        time.sleep(0.5)
        check(all(c[0] != "/followed" for c in receiver.calls), "followed: %s" % receiver.calls)
        a.close()
        b.close()
    finally:
        server.stop()
        receiver.close()


def case_refused(tmp):
    """URLs refused at POST (400, nothing stored), the login and the Origin
    checked; then, with http:// allowed but not loopback, calls to
    private, loopback and link-local targets are refused before any
    connection: the log says so and the receiver hears nothing."""
    acc.PROGRAM = PROGRAM
    receiver = Receiver()
    server = acc.start(tmp)
    try:
        ann = signup(server, "Ann")
        set_webhook(server, ann, "https://example.org/hook?k=1")
        for url, why in (("ftp://example.org/x", "https://"),
                         ("http://example.org/x", "https://"),
                         ("https://" + "a" * 1995, "at most 2000 bytes"),
                         ("https://exa mple.org/", "does not parse")):
            r = set_webhook(server, ann, url, 400, "bad_url")
            check(why in r.json["message"], "%s: %s" % (url, r.text))
        set_webhook(server, ann, 12, 400, "bad_field")
        expect(http(server, "POST", "/api/account/webhook", {"url": "https://example.org/"}),
               401, "not_logged_in")
        expect(http(server, "POST", "/api/account/webhook", {"url": "https://evil.example/"},
                    cookie=ann, origin="http://evil.example"), 403, "foreign_origin")
        expect(http(server, "GET", "/api/account/webhook", cookie=ann), 405, "bad_method")
        check(expect(me(server, ann), 200).json["webhook"] == "https://example.org/hook?k=1",
              "a refused URL changed the webhook")
        check(set_webhook(server, ann, None).json == {"webhook": None}, "removed")
        check(expect(me(server, ann), 200).json["webhook"] is None, "not removed")
        server.stop()

        server = acc.start(tmp, "--allow-http-webhooks", "--max-computer-tables-per-ip", "10")
        targets = (("http://10.0.0.1:9/x", r"10\.0\.0\.1 is a private address"),
                   (receiver.url("/loop"), r"127\.0\.0\.1 is a loopback address"),
                   ("http://[::1]:%d/loop6" % receiver.port, r"::1 is a loopback address"),
                   ("http://169.254.169.254/latest", r"169\.254\.169\.254 is a link-local"),
                   ("http://192.168.1.1/", r"192\.168\.1\.1 is a private address"),
                   ("http://localhost:%d/name" % receiver.port, r"\S+ is a loopback address"))
        a = ws(server, ann)
        for url, why in targets:
            set_webhook(server, ann, url)
            table = a.ok("create", name="Ann", seats=["me", "greedy"], clock=DAYS)["table"]
            wait_log(server, r"webhook of account \d+ \(table %s, turn \d\): refused: %s"
                     % (table, why))
        time.sleep(0.5)
        check(receiver.calls == [], "the server connected: %s" % receiver.calls)
        a.close()
    finally:
        server.stop()
        receiver.close()


if __name__ == "__main__":
    sys.exit(run_case(globals(), "webhooks_test.py"))
