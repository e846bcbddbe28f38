#!/usr/bin/env python3
"""admin_test.py CASE PROGRAM: `carcassonne admin` on the database of a
running `carcassonne serve`, with accounts made through its HTTP API and
games over its WebSocket (accounts_test.py's helpers). With CARC_E2E_DB
set (a PostgreSQL URI, tests/server/with_postgres.sh), the same on
PostgreSQL, where `backup` gives pg_dump's advice instead."""
import os
import re
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import accounts_test as acc  # noqa: E402
from accounts_test import expect, expect_code, http, login, me, signup, ws  # noqa: E402
from e2e import check, run_case  # noqa: E402

PROGRAM = None


def admin(db, *args):
    """Runs `carcassonne admin --db DB ARGS`: (exit status, stdout, stderr)."""
    p = subprocess.run([PROGRAM, "admin", "--db", db] + list(args), capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def admin_ok(db, *args):
    status, out, err = admin(db, *args)
    check(status == 0, "admin %s: exit %d: %s%s" % (" ".join(args), status, out, err))
    return out


def account_row(db, name):
    """The `accounts` line of account `name`, split in columns."""
    out = admin_ok(db, "accounts")
    check(out.splitlines()[0].split()[:3] == ["ID", "NAME", "CREATED"], "header: %s" % out)
    for line in out.splitlines()[1:]:
        if line.split()[1] == name:
            return line.split()
    raise AssertionError("no line of %s in: %s" % (name, out))


def case_admin(tmp):
    """Accounts listed with their tables; a password reset (the old one
    and the old session refused, the temporary one works); an account
    disabled (its session ends, a login is 403 account_disabled) and
    enabled; a table deleted (a waiting one only with --force and the
    server stopped); an online backup while the server runs, opened; bad
    input refused with nothing changed."""
    acc.PROGRAM = PROGRAM
    server = acc.start(tmp)
    db = server.db
    postgres = db.startswith("postgres")
    try:
        ann, bob = acc.together(lambda: signup(server, "Ann"), lambda: signup(server, "Bob"))
        a = ws(server, ann)
        finished = a.ok("create", name="Ann", seats=["me", "open"])["table"]
        b = ws(server, bob)
        b.ok("join", table=finished, name="Bob")
        a.ok("resign", table=finished)
        waiting = a.ok("create", name="Ann", seats=["me", "open"])["table"]
        a.close()
        b.close()

        # The list: name, date, tables, state.
        row = account_row(db, "Ann")
        check(row[4] == "2" and row[5] == "active", "Ann's line: %s" % row)
        check(re.match(r"\d{4}-\d\d-\d\d$", row[2]), "the date: %s" % row)
        row = account_row(db, "Bob")
        check(row[4] == "1" and row[5] == "active", "Bob's line: %s" % row)

        # A password reset: printed once, the old password and session refused.
        out = admin_ok(db, "reset-password", "ann")
        m = re.search(r"temporary password of Ann: (\S+)", out)
        check(m and len(m.group(1)) == 16, "no temporary password: %s" % out)
        temporary = m.group(1)
        expect(me(server, ann), 401, "not_logged_in")
        expect(login(server, "Ann"), 401, "bad_login")
        ann = expect(login(server, "Ann", temporary), 200).cookie()
        expect(me(server, ann), 200)

        # Disabled: the session ends at once, a login is refused; enabled again.
        out = admin_ok(db, "disable", "Bob")
        check("Bob is disabled" in out, out)
        expect(me(server, bob), 401, "not_logged_in")
        expect(login(server, "Bob"), 403, "account_disabled")
        expect(login(server, "Bob", "wrong password"), 401, "bad_login")  # no hint without it
        check(account_row(db, "Bob")[5] == "disabled", "Bob is not listed disabled")
        admin_ok(db, "enable", "Bob")
        bob = expect(login(server, "Bob"), 200).cookie()
        expect(me(server, bob), 200)

        # A finished table deleted; a waiting one refused without --force.
        status, out, err = admin(db, "delete-table", waiting)
        check(status == 1 and "stop the server and use --force" in err, "%d %s" % (status, err))
        out = admin_ok(db, "delete-table", finished)
        check("table %s deleted" % finished in out, out)
        c = ws(server)
        expect_code(c.request("watch", table=finished), "no_table")
        c.ok("watch", table=waiting)
        c.close()
        check(account_row(db, "Bob")[4] == "0", "Bob's table is still counted")
        status, out, err = admin(db, "delete-table", finished)
        check(status == 1 and "no table" in err, "deleted twice: %d %s" % (status, err))

        # The online backup while the server runs.
        copy = os.path.join(tmp, "backup.db")
        status, out, err = admin(db, "backup", copy)
        if postgres:
            check(status == 1 and "pg_dump" in out, "PostgreSQL's advice: %d %s" % (status, out))
            check(not os.path.exists(copy), "a file was made")
        else:
            check(status == 0 and "backed up to" in out, "backup: %d %s %s" % (status, out, err))
            with sqlite3.connect(copy) as backup:
                names = sorted(r[0] for r in backup.execute("SELECT name FROM accounts"))
                ids = [r[0] for r in backup.execute("SELECT id FROM tables")]
            check(names == ["Ann", "Bob"], "the backup's accounts: %s" % names)
            check(ids == [waiting], "the backup's tables: %s" % ids)
            size = os.path.getsize(copy)
            status, out, err = admin(db, "backup", copy)
            check(status == 1 and "exists already" in err, "overwritten: %s" % err)
            check(os.path.getsize(copy) == size, "the existing file changed")

        # Bad input: refused, nothing changed.
        status, out, err = admin(db, "reset-password", "nobody")
        check(status == 1 and "no account named 'nobody'" in err, err)
        status, out, err = admin(db, "disable", "a';DROP")
        check(status == 2 and "not a user name" in err, err)
        for args in (["frobnicate"], ["disable"], ["accounts", "extra"], ["disable", "--force", "Ann"],
                     [], ["delete-table", "abc"]):
            status, out, err = admin(db, *args)
            check(status == 2 and err.endswith("\nTry 'carcassonne admin --help'.\n"),
                  "%s: %d %s" % (args, status, err))
        missing = os.path.join(tmp, "missing.db")
        status, out, err = admin(missing, "accounts")
        check(status == 1 and "no such database" in err and not os.path.exists(missing), err)
        expect(me(server, ann), 200)

        # --force, with the server stopped: the waiting table goes.
        server.stop()
        out = admin_ok(db, "delete-table", "--force", waiting)
        check("deleted" in out, out)
        server.start()
        c = ws(server)
        expect_code(c.request("watch", table=waiting), "no_table")
        c.close()
        expect(http(server, "GET", "/api/me", cookie=bob), 200)
    finally:
        server.stop()


# Bad arguments of `admin`, each with the one line that names the problem.
USAGE_ERRORS = [
    ([], "no command (accounts, reset-password, disable, enable, delete-table or backup)"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["--bogus", "accounts"], "unknown option '--bogus'"),
    (["accounts", "extra"], "accounts takes no argument, not 'extra'"),
    (["disable"], "disable needs the account's name"),
    (["enable", "Ann", "Bob"], "enable takes one argument, not 'Bob'"),
    (["disable", "--force", "Ann"], "--force goes with delete-table only"),
    (["reset-password", "a';DROP"], "'a';DROP' is not a user name (3 to 20 of A-Z a-z 0-9 _ -)"),
    (["disable", "x"], "'x' is not a user name (3 to 20 of A-Z a-z 0-9 _ -)"),
    (["enable", ""], "'' is not a user name (3 to 20 of A-Z a-z 0-9 _ -)"),
    (["delete-table"], "delete-table needs the table's id"),
    (["delete-table", "abc"], "'abc' is not a table id ('t' and 10 of a-z 0-9)"),
    (["delete-table", "--force", "tABCDEFGHIJ"],
     "'tABCDEFGHIJ' is not a table id ('t' and 10 of a-z 0-9)"),
    (["delete-table", "t0123456789x"], "'t0123456789x' is not a table id ('t' and 10 of a-z 0-9)"),
    (["backup"], "backup needs the file to write"),
    (["backup", ""], "backup needs the file to write"),
]


def case_args(tmp):
    """Bad arguments of `admin` (no server needed): exit 2, nothing on
    stdout, one line naming the problem and "Try 'carcassonne admin
    --help'.", found before any database is opened or made: none in a
    folder without one (the default --db too), and an existing one left
    as it was (an empty file: opening it would write the schema). A
    backup to a file that exists or in a folder that does not: exit 1,
    the database not opened either."""
    db = os.path.join(tmp, "t.db")
    open(db, "wb").close()
    work = os.path.join(tmp, "work")
    os.mkdir(work)
    before = sorted(os.listdir(tmp))

    def refused(args, status, message):
        for command in ([PROGRAM, "admin"] + args, [PROGRAM, "admin", "--db", db] + args):
            p = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=work)
            want = "carcassonne admin: %s\n" % message
            if status == 2:
                want += "Try 'carcassonne admin --help'.\n"
            check(p.returncode == status and p.stdout == "" and p.stderr == want,
                  "%s: exit %d, stdout %r, stderr %r (wanted %r)"
                  % (command[1:], p.returncode, p.stdout, p.stderr, want))
            check(os.listdir(work) == [], "%s: made %s" % (command[1:], os.listdir(work)))
            check(sorted(os.listdir(tmp)) == before and os.path.getsize(db) == 0,
                  "%s: the database was opened: %s" % (command[1:], os.listdir(tmp)))

    for args, message in USAGE_ERRORS:
        refused(args, 2, message)
    check(admin(db, "--db")[0] == 2, "--db without a value")
    # backup: the file must be new, its folder there (else exit 1).
    taken = os.path.join(tmp, "taken.db")
    open(taken, "wb").close()
    before = sorted(os.listdir(tmp))
    p = subprocess.run([PROGRAM, "admin", "--db", db, "backup", taken], capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 1 and p.stderr == "carcassonne admin: backup failed: %s: exists "
          "already (not overwritten)\n" % taken, "backup to a file that exists: %d %r"
          % (p.returncode, p.stderr))
    nowhere = os.path.join(tmp, "no", "such.db")
    p = subprocess.run([PROGRAM, "admin", "--db", db, "backup", nowhere], capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 1 and p.stderr == "carcassonne admin: backup failed: %s: no such "
          "folder\n" % nowhere, "backup into no folder: %d %r" % (p.returncode, p.stderr))
    check(sorted(os.listdir(tmp)) == before and os.path.getsize(db) == 0,
          "backup: the database was opened: %s" % os.listdir(tmp))


if __name__ == "__main__":
    sys.exit(run_case(globals(), "admin_test.py"))
