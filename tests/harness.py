"""harness.py: what the black-box test scripts (tests/cli, tests/tools)
share: a failed check ends the script with a message and exit status 1,
and a program runs with its output decoded."""
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def run_program(program, args, stdin=b"", timeout=120):
    """(exit status, standard output, standard error) of one run."""
    p = subprocess.run([program] + args, input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
