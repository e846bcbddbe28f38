#!/usr/bin/env python3
"""accounts_test.py CASE PROGRAM: the accounts' HTTP API and the WebSocket
connections their cookie authenticates, against a real `carcassonne serve`
over sockets (tests/e2e/e2e.py's server and client). Each case starts its
own server; every password is hashed for real (argon2id, at the
interactive limits: about 0.15 s each; the server's default, moderate,
in the password_cost case), so the cases keep their logins few."""
import http.client as httpclient
import json
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e import WAIT, Client, Server, check, run_case  # noqa: E402
import websocket  # noqa: E402

PROGRAM = None


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.text = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    def cookie(self):
        """The session cookie's value set by this reply, or None."""
        for name, value in self.headers:
            if name.lower() == "set-cookie" and value.startswith("carc_session="):
                return value.split(";")[0].split("=", 1)[1]
        return None

    def set_cookie(self):
        return [v for n, v in self.headers if n.lower() == "set-cookie"]

    def hint(self):
        """The attributes of the hint cookie carc_account this reply set
        (its value first), or None."""
        for v in self.set_cookie():
            if v.startswith("carc_account="):
                return [a.strip() for a in v.split(";")]
        return None


def http(server, method, path, body=None, cookie=None, origin=None, source="127.0.0.1",
         raw=None):
    """One HTTP request from address `source` (127.0.0.x); `body` is sent
    as JSON, `raw` as it is."""
    c = httpclient.HTTPConnection("127.0.0.1", server.port, timeout=WAIT,
                                   source_address=(source, 0))
    headers = {}
    if cookie:
        headers["Cookie"] = "carc_session=" + cookie
    if origin:
        headers["Origin"] = origin
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    if data is not None:
        headers["Content-Type"] = "application/json"
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    reply = Reply(r.status, r.getheaders(), r.read().decode())
    c.close()
    return reply


def expect(reply, status, error=None):
    check(reply.status == status, "expected %d, got %d %s" % (status, reply.status, reply.text))
    if error:
        check(reply.json and reply.json.get("error") == error,
              "expected error %s: %s" % (error, reply.text))
    return reply


def signup(server, name, password="correct horse", source="127.0.0.1"):
    r = expect(http(server, "POST", "/api/signup", {"name": name, "password": password},
                    source=source), 201)
    check(r.cookie(), "no session cookie after sign-up")
    return r.cookie()


def login(server, name, password="correct horse", source="127.0.0.1"):
    return http(server, "POST", "/api/login", {"name": name, "password": password},
                source=source)


def me(server, cookie):
    return http(server, "GET", "/api/me", cookie=cookie)


def ws(server, cookie=None, origin=None):
    """A scripted client whose WebSocket upgrade carries `cookie`."""
    client = Client.__new__(Client)
    options = {}
    if cookie:
        options["cookie"] = "carc_session=" + cookie
    if origin:
        options["origin"] = origin
    client.ws = websocket.create_connection(server.url, subprotocols=["carcassonne.v1"],
                                            timeout=WAIT, **options)
    client.events = []
    client.next_id = 0
    client.closed_code = None
    from collections import deque
    client.sent_at = deque()
    return client


def together(*calls):
    """Runs the calls at once (at most 4: an address's password checks at
    once) and returns their results in order: the hashing runs on both
    workers."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(call) for call in calls]
        return [f.result() for f in futures]


def start(tmp, *extra):
    return Server(PROGRAM, tmp, extra).start()


def case_api(tmp):
    """Sign-up, the cookie's attributes, /api/me, login, logout, the
    password changed, the account deleted; bad input answered 4xx with
    nothing changed; SQL metacharacters harmless."""
    server = start(tmp)
    try:
        r = expect(http(server, "POST", "/api/signup", {"name": "Ann_1", "password": "pass word"}),
                   201)
        check(r.json == {"id": r.json["id"], "name": "Ann_1"}, "sign-up answer: %s" % r.text)
        attrs = [a.strip() for a in r.set_cookie()[0].split(";")]
        for want in ("HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"):
            check(want in attrs, "the cookie lacks %s: %s" % (want, attrs))
        check("Secure" not in attrs, "Secure without TLS: %s" % attrs)
        check(len(r.cookie()) == 64, "a 256-bit token: %s" % r.cookie())
        check("pass word" not in r.text, "the password came back")
        ann = r.cookie()
        # The hint a page reads (docs/web.md, "Accounts"): set with the
        # session, readable (not HttpOnly), set again by /api/me for a
        # session and cleared by its 401, so a guest's page asks nothing.
        hint = r.hint()
        check(hint and hint[0] == "carc_account=1" and "HttpOnly" not in hint and
              "Max-Age=2592000" in hint and "Path=/" in hint, "the hint cookie: %s" % hint)
        mine = expect(me(server, ann), 200)
        got = mine.json
        check(got["name"] == "Ann_1" and got["tables"] == [], "me: %s" % got)
        check(mine.hint() and mine.hint()[0] == "carc_account=1", "me's hint: %s" % mine.hint())
        for cookie in (None, "0" * 64):
            nobody = expect(me(server, cookie), 401, "not_logged_in")
            check(nobody.hint() and nobody.hint()[0] == "carc_account=" and
                  "Max-Age=0" in nobody.hint(), "the hint not cleared: %s" % nobody.hint())

        # Names unique without regard to case; the rules of names and passwords.
        expect(http(server, "POST", "/api/signup", {"name": "ann_1", "password": "whatever1"}),
               409, "name_taken")
        for bad in ("ab", "a" * 21, "a b", "Zoë", "x');DROP TABLE x;--", ""):
            expect(http(server, "POST", "/api/signup", {"name": bad, "password": "whatever1"}),
                   400, "bad_name")
        for bad in ("short", "x" * 201):
            expect(http(server, "POST", "/api/signup", {"name": "Bob", "password": bad}), 400,
                   "bad_password")
        expect(http(server, "POST", "/api/signup", raw=b"{not json"), 400, "bad_json")
        expect(http(server, "POST", "/api/signup", raw=b"[1,2]"), 400, "bad_json")
        expect(http(server, "POST", "/api/signup", {"name": 5, "password": "whatever1"}), 400,
               "bad_field")
        expect(http(server, "POST", "/api/signup", {"name": "Bob"}), 400, "bad_field")
        expect(http(server, "POST", "/api/signup", raw=b"{\"name\":\"Bob\",\"password\":"
                    + b"\"" + b"x" * 100000 + b"\"}"), 413, "too_big")
        expect(http(server, "GET", "/api/signup"), 405)
        expect(http(server, "POST", "/api/me"), 405)
        # Login: the same answer for a wrong password and a wrong name (and
        # none of the refused sign-ups made Bob).
        bob, wrong, nobody, injected = together(
            lambda: login(server, "Bob", "whatever1"),
            lambda: login(server, "Ann_1", "not the one"),
            lambda: login(server, "Nobody", "not the one"),
            lambda: login(server, "x' OR '1'='1", "' OR '1'='1"))
        for r in (bob, wrong, nobody, injected):
            expect(r, 401, "bad_login")
        check(wrong.text == nobody.text, "two answers: %s %s" % (wrong.text, nobody.text))
        check(injected.text == wrong.text, "metacharacters answered otherwise")
        other = expect(login(server, "ANN_1", "pass word"), 200).cookie()
        check(other and other != ann, "a second session")
        check(expect(me(server, other), 200).json["name"] == "Ann_1", "the name as signed up")

        # A new password: the session that changed it stays, the others end.
        expect(http(server, "POST", "/api/password", {"old": "nope nope", "new": "new secret"},
                    cookie=ann), 401, "bad_password")
        expect(http(server, "POST", "/api/password", {"old": "pass word", "new": "tiny"},
                    cookie=ann), 400, "bad_password")
        expect(http(server, "POST", "/api/password", {"old": "pass word", "new": "new secret"}),
               401, "not_logged_in")
        expect(http(server, "POST", "/api/password", {"old": "pass word", "new": "new secret"},
                    cookie=ann), 200)
        expect(me(server, ann), 200)
        expect(me(server, other), 401)
        old, new = together(lambda: login(server, "Ann_1", "pass word"),
                            lambda: login(server, "Ann_1", "new secret"))
        expect(old, 401, "bad_login")
        third = expect(new, 200).cookie()

        # Logout ends the session at once; the cookie is cleared.
        out = expect(http(server, "POST", "/api/logout", cookie=third), 200)
        check(any("Max-Age=0" in v for v in out.set_cookie()), "the cookie is not cleared")
        check(out.hint() and "Max-Age=0" in out.hint(), "the hint not cleared: %s" % out.hint())
        expect(me(server, third), 401)
        expect(http(server, "POST", "/api/logout"), 200)  # without a session: nothing to do

        # Deletion needs the password; then the name, sessions and password are gone.
        expect(http(server, "POST", "/api/account/delete", {"password": "pass word"},
                    cookie=ann), 401, "bad_password")
        expect(http(server, "POST", "/api/account/delete", {"password": "new secret"}), 401,
               "not_logged_in")
        expect(http(server, "POST", "/api/account/delete", {"password": "new secret"},
                    cookie=ann), 200)
        expect(me(server, ann), 401)
        gone, again = together(lambda: login(server, "Ann_1", "new secret"),
                               lambda: signup(server, "ann_1", "another one"))  # free again
        expect(gone, 401, "bad_login")
        check(expect(me(server, again), 200).json["id"] != got["id"], "an id given again")
        logged = "".join(server.output)
        for secret in ("pass word", "new secret", ann):
            check(secret not in logged, "the server printed a secret")
    finally:
        server.stop()


def case_origin(tmp):
    """A POST from another site's page is refused (403) and changes
    nothing; this server's own Origin and no Origin are served; a WebSocket
    upgrade from another site's page is a guest."""
    server = start(tmp)
    try:
        own = "http://127.0.0.1:%d" % server.port
        for path, body in (("/api/signup", {"name": "Eve", "password": "password1"}),
                           ("/api/login", {"name": "Eve", "password": "password1"}),
                           ("/api/logout", None)):
            expect(http(server, "POST", path, body, origin="http://evil.example"), 403,
                   "foreign_origin")
            expect(http(server, "POST", path, body, origin="null"), 403, "foreign_origin")
        expect(login(server, "Eve", "password1"), 401)  # the refused sign-up made nothing
        r = expect(http(server, "POST", "/api/signup", {"name": "Eve", "password": "password1"},
                        origin=own), 201)
        eve = r.cookie()
        expect(http(server, "POST", "/api/logout", cookie=eve, origin="http://127.0.0.1:1"), 403)
        expect(me(server, eve), 200)  # the refused logout ended nothing
        foreign = ws(server, eve, origin="http://evil.example")
        table = foreign.ok("create", name="Eve", seats=["me", "open"])["table"]
        foreign.close()
        back = ws(server, eve, origin=own)
        expect_code(back.request("resume", table=table), "bad_token")  # the seat is a guest's
        back.close()
    finally:
        server.stop()


def expect_code(reply, code):
    check(reply.get("type") == "error" and reply.get("code") == code,
          "expected %s: %s" % (code, reply))


def case_limits(tmp):
    """Ten failed logins for one account from one address: that address
    gets 429 for that account (the right password too); another account
    and another address are served. Sign-ups: five an hour per address."""
    server = start(tmp)
    try:
        together(lambda: signup(server, "Ann"), lambda: signup(server, "Bob"))
        for batch in (range(0, 4), range(4, 8), range(8, 10)):
            for r in together(*[lambda i=i: login(server, "Ann", "wrong %d!" % i) for i in batch]):
                expect(r, 401, "bad_login")
        r = expect(login(server, "Ann"), 429, "rate_limited")
        check(r.json["retry_after"] >= 60, "blocked for less than a minute: %s" % r.text)
        check(dict((k.lower(), v) for k, v in r.headers).get("retry-after"), "no Retry-After")
        expect(login(server, "ann", "wrong again"), 429)  # the same account by its other case
        bob, elsewhere, _ = together(lambda: login(server, "Bob"),
                                     lambda: login(server, "Ann", source="127.0.0.2"),
                                     lambda: signup(server, "Other", source="127.0.0.4"))
        expect(bob, 200)
        expect(elsewhere, 200)
        together(*[lambda i=i: signup(server, "New%d" % i, source="127.0.0.3") for i in range(4)])
        signup(server, "New4", source="127.0.0.3")
        expect(http(server, "POST", "/api/signup", {"name": "New5", "password": "whatever1"},
                    source="127.0.0.3"), 429, "rate_limited")
    finally:
        server.stop()


def case_seats(tmp):
    """The WebSocket upgrade's cookie authenticates the connection: a seat
    taken logged in is the account's, resumed without a token from another
    connection of the account; not by a guest, not by another account, not
    after logout. Guests' seats work as before. A deleted account's
    finished game stays, its seat 'deleted player'."""
    server = start(tmp)
    try:
        ann, carol = signup(server, "Ann"), signup(server, "Carol")
        a1 = ws(server, ann)
        created = a1.ok("create", name="Ann", seats=["me", "open"])
        table = created["table"]
        bob = Client(server)  # a guest, as today
        bob_token = bob.ok("join", table=table, name="Bob")["token"]
        seats = expect(me(server, ann), 200).json["tables"]
        check(seats == [{"table": table, "seat": 0}], "me's tables: %s" % seats)

        a2 = ws(server, ann)  # the same account on another device
        r = a2.ok("resume", table=table)
        check(r["seat"] == 0, "resumed %s" % r)
        check(a2.event("state")["you"] == 0, "the state is not seat 0's")
        expect_code(Client(server).request("resume", table=table), "bad_token")  # a guest
        c = ws(server, carol)
        expect_code(c.request("resume", table=table), "bad_token")  # another account
        check(c.ok("resume", table=table, token=bob_token)["seat"] == 1, "the token still works")
        c.close()
        b2 = Client(server)
        check(b2.ok("resume", table=table, token=created["token"])["seat"] == 0,
              "the account's seat's token still works")

        # Logged out elsewhere: this open connection is a guest at once.
        a3 = ws(server, ann)
        expect(http(server, "POST", "/api/logout", cookie=ann), 200)
        expect_code(a3.request("resume", table=table), "bad_token")

        # A finished game of a deleted account.
        ann = expect(login(server, "Ann"), 200).cookie()
        a1.ok("resign", table=table)
        a4 = ws(server, ann)
        a4.ok("watch", table=table)
        check(a4.event("state")["status"] == "finished", "the game did not end")
        expect(http(server, "POST", "/api/account/delete", {"password": "correct horse"},
                    cookie=ann), 200)
        for client in (a1, a2, a3, a4, bob, b2):
            client.close()
        server.stop()
        server.start()
        watcher = Client(server)
        watcher.ok("watch", table=table)
        state = watcher.event("state")
        names = [s["name"] for s in state["seats"]]
        check(names == ["deleted player", "Bob"], "the seats after the deletion: %s" % names)
        watcher.close()
    finally:
        server.stop()


def case_ratings(tmp):
    """A rated game between two accounts over real sockets (issue 36): a
    guest cannot make one; Bob resigns; GET /api/players/NAME gives each
    one's rating in the duel category, moved as Glicko-2 says for two new
    players (the winner up, the loser down by as much) and the game with
    its change; the leaderboard leaves out ratings still uncertain (RD
    over 110); unknown names and categories are 404 and 400."""
    server = start(tmp)
    try:
        ann, bob = together(lambda: signup(server, "Ann"), lambda: signup(server, "Bob"))
        guest = Client(server)
        expect_code(guest.request("create", seats=["me", "open"], rated=True), "bad_field")
        guest.close()
        a = ws(server, ann)
        # A rated game has no hints and no computer playing a timed-out seat.
        expect_code(a.request("create", seats=["me", "open"], rated=True, estimates=True),
                    "bad_field")
        expect_code(a.request("create", seats=["me", "open"], rated=True,
                              clock={"mode": "move", "seconds": 60, "on_timeout": "computer"}),
                    "bad_field")
        r = a.ok("create", name="Ann", seats=["me", "open"], rated=True)
        table = r["table"]
        state = a.event("state")
        check(state["rated"] and state["estimates"] is False, "a rated table's state: %s" % state)
        b = ws(server, bob)
        b.ok("join", table=table, name="Bob")
        b.ok("resign", table=table)
        a.event("end")
        page = expect(http(server, "GET", "/api/players/ann"), 200).json
        check(page["name"] == "Ann", "the page's name: %s" % page)
        (duel,) = page["ratings"]
        check(duel["category"] == "duel" and duel["games"] == 1, "Ann's ratings: %s" % page)
        # Two new players (1500, RD 350), one win: Glicko-2 gives the winner
        # about +162 (the paper's formulas; the exact figure is unit-tested).
        check(1650 < duel["rating"] < 1675 and 280 < duel["rd"] < 300, "Ann's rating: %s" % duel)
        bobs = expect(http(server, "GET", "/api/players/Bob"), 200).json
        loss = bobs["ratings"][0]["rating"]
        check(abs((duel["rating"] - 1500) - (1500 - loss)) < 1e-6,
              "not symmetric: %s against %s" % (duel["rating"], loss))
        (game,) = page["games"]
        check(game["table"] == table and game["rated"] and game["category"] == "duel",
              "Ann's game: %s" % game)
        check(game["rating_change"]["before"] == 1500 and
              abs(game["rating_change"]["after"] - duel["rating"]) < 1e-9, "change: %s" % game)
        check([s["name"] for s in game["seats"]] == ["Ann", "Bob"], "seats: %s" % game)
        board = expect(http(server, "GET", "/api/leaderboard?category=duel"), 200).json
        check(board["players"] == [], "RD 290 is listed: %s" % board)
        expect(http(server, "GET", "/api/players/nobody"), 404, "no_player")
        expect(http(server, "GET", "/api/players/a%27%3BDROP"), 404, "no_player")
        expect(http(server, "GET", "/api/leaderboard?category=chess"), 400, "bad_category")
        # Against the computer too: no hint at a rated table. Each seat
        # shows its rating in the table's category: Ann's as stored (still
        # provisional), greedy's fixed one; so do the lobby's entries.
        vs = a.ok("create", name="Ann", seats=["me", "greedy"], rated=True)["table"]
        expect_code(a.request("hint", table=vs), "bad_field")
        seats = a.event("state", lambda e: e["table"] == vs)["seats"]
        check(seats[0]["rating"] == round(duel["rating"]) and seats[0]["provisional"] and
              seats[1]["rating"] == 1200 and seats[1]["provisional"] is False,
              "the seats' ratings: %s" % seats)
        (entry,) = [e for e in a.ok("lobby")["tables"] if e["table"] == vs]
        check([s.get("rating") for s in entry["seats"]] == [round(duel["rating"]), 1200],
              "the lobby's ratings: %s" % entry)
        guest = Client(server)
        g = guest.ok("create", name="Gus", seats=["me", "open"])["table"]
        check("rating" not in guest.event("state")["seats"][0], "a guest has a rating")
        guest.close()
        del g
        a.close()
        b.close()
    finally:
        server.stop()


def case_lessons(tmp):
    """The tutorial's progress in an account: none at first; lessons
    finished are kept once, oldest first, apart from other accounts', and
    survive a restart; a guest is refused; bad input (not a list, too many,
    ids with other characters, too long) is 400 and changes nothing; a
    foreign page cannot post; a deleted account's lessons go with it."""
    server = start(tmp)
    try:
        ann, bob = signup(server, "Ann"), signup(server, "Bob")
        check(expect(http(server, "GET", "/api/lessons", cookie=ann), 200).json == {"done": []},
              "a new account has lessons done")
        expect(http(server, "GET", "/api/lessons"), 401, "not_logged_in")
        expect(http(server, "POST", "/api/lessons/done", {"lessons": ["place"]}), 401,
               "not_logged_in")
        r = expect(http(server, "POST", "/api/lessons/done", {"lessons": ["place", "road"]},
                        cookie=ann), 200)
        check(r.json == {"done": ["place", "road"]}, "after two lessons: %s" % r.text)
        r = expect(http(server, "POST", "/api/lessons/done", {"lessons": ["road", "farm-1"]},
                        cookie=ann), 200)
        # Oldest first, those of the same millisecond by id: two posts may
        # share one (the server reads its clock once a pass).
        done = r.json["done"]
        check(sorted(done) == ["farm-1", "place", "road"] and len(done) == 3 and
              done.index("place") < done.index("road"), "a lesson twice: %s" % r.text)
        check(expect(http(server, "GET", "/api/lessons", cookie=bob), 200).json == {"done": []},
              "another account's lessons leaked")
        for bad in ({"lessons": "place"}, {"lessons": []}, {"lessons": ["x"] * 65},
                    {"lessons": ["Place"]}, {"lessons": ["a b"]}, {"lessons": ["'; DROP"]},
                    {"lessons": ["a" * 33]}, {"lessons": [3]}, {"lessons": ["ok", ""]}, {}):
            expect(http(server, "POST", "/api/lessons/done", bad, cookie=ann), 400, "bad_field")
        expect(http(server, "POST", "/api/lessons/done", raw=b"{", cookie=ann), 400)
        expect(http(server, "POST", "/api/lessons/done", {"lessons": ["cloister"]}, cookie=ann,
                    origin="http://evil.example"), 403, "foreign_origin")
        expect(http(server, "GET", "/api/lessons/done", cookie=ann), 405, "bad_method")
        expect(http(server, "POST", "/api/lessons", {"lessons": ["x"]}, cookie=ann), 405,
               "bad_method")
        server.stop()
        server = start(tmp)
        check(expect(http(server, "GET", "/api/lessons", cookie=ann), 200).json["done"] == done,
              "lessons lost by a restart")
        expect(http(server, "POST", "/api/account/delete", {"password": "correct horse"},
                    cookie=ann), 200)
        ann = signup(server, "Ann")  # the name is free again: a new account
        check(expect(http(server, "GET", "/api/lessons", cookie=ann), 200).json == {"done": []},
              "a new account named as a deleted one has its lessons")
    finally:
        server.stop()


def stored_hash(db, name):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT hash FROM accounts WHERE name = ?", (name,)).fetchone()[0]


def case_password_cost(tmp):
    """--password-cost: the default (moderate) hashes at 256 MiB, t=3; a
    server started at other limits stores an account's hash again at its
    own on the first right login (not on a wrong one, not twice), and the
    password still logs in; bad values are refused before the start."""
    db = os.path.join(tmp, "cost.db")
    server = Server(PROGRAM, tmp, ["--password-cost", "moderate"])
    server.db = db  # read below with sqlite3, whatever CARC_E2E_DB says
    default = Server(PROGRAM, tmp, ["--password-cost", "moderate"])
    try:
        server.start()
        signup(server, "Ann")
        check(stored_hash(db, "Ann").startswith("$argon2id$v=19$m=262144,t=3,p=1$"),
              "not at the moderate limits: %s" % stored_hash(db, "Ann"))
        server.stop()
        # Started without the option: the same limits, nothing rehashed.
        default.db = db
        default.extra = []
        default.start()
        before = stored_hash(db, "Ann")
        expect(login(default, "Ann"), 200)
        check(stored_hash(db, "Ann") == before, "rehashed at the default limits")
        default.stop()
        server = Server(PROGRAM, tmp, ["--password-cost", "interactive"])
        server.db = db
        server.start()
        expect(login(server, "Ann", "correct hors"), 401, "bad_login")
        check(stored_hash(db, "Ann") == before, "a wrong password rehashed the account")
        expect(login(server, "Ann"), 200)
        after = stored_hash(db, "Ann")
        check(after.startswith("$argon2id$v=19$m=65536,t=2,p=1$"),
              "not stored again at the interactive limits: %s" % after)
        expect(login(server, "Ann"), 200)
        check(stored_hash(db, "Ann") == after, "rehashed twice")
        expect(login(server, "Ann", "correct hors"), 401, "bad_login")
    finally:
        server.stop()
        default.stop()
    for bad in ("low", "", "Moderate", "interactive,moderate"):
        p = subprocess.run([PROGRAM, "serve", "--port", "0", "--db", db, "--password-cost", bad],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "--password-cost must be interactive, moderate or sensitive"
              in p.stderr, "--password-cost %r: %d %s" % (bad, p.returncode, p.stderr))
    p = subprocess.run([PROGRAM, "serve", "--password-cost"], capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 2 and "needs a value" in p.stderr, "no value: %s" % p.stderr)


if __name__ == "__main__":
    sys.exit(run_case(globals(), "accounts_test.py"))
