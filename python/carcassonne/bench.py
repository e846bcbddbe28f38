"""bench.py: the Python package's figures, measured side by side in one run
(docs/python.md, "Figures"):

    python3 -m carcassonne.bench [--seconds S] [--threads N] [--carcassonne PATH]

random full games a second (base game, 2 players) through the plain
interface in a Python loop, through the integer-action interface, through
selfplay() (records or not, 1 and N threads), `carcassonne bench` (when
the program is found) and the engine protocol over a subprocess; the time
of clone() and of a call into the extension; wingedsheep's engine when it
is installed. --json prints one JSON object; --callgrind adds the
instructions a game of `carcassonne bench` and of selfplay() (valgrind),
the comparison that a busy machine does not move.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

from . import Game, _core, selfplay


def per_second(play_one, seconds):
    """Games a second of `play_one(i)`: the best of three runs of about
    `seconds` / 3 each."""
    best, n = 0.0, 0
    for _ in range(3):
        start = time.perf_counter()
        done = 0
        while time.perf_counter() - start < seconds / 3:
            play_one(n)
            n += 1
            done += 1
        best = max(best, done / (time.perf_counter() - start))
    return best


def plain_game(i, rng=random.Random(1)):
    g = Game(2, seed=i)
    while not g.finished:
        g.play(rng.choice(g.legal_moves()))


def action_game(i, rng=random.Random(2)):
    g = Game(2, seed=i)
    while not g.finished:
        g.apply_action(rng.choice(g.legal_actions()))


def selfplay_rate(seconds, threads, records):
    """Games a second of selfplay(): the best of three calls of about
    `seconds` / 3 each (the best of a few runs is the machine's speed when
    other work leaves it alone)."""
    games = 1000
    while True:  # grow the batch until one call takes about a third of `seconds`
        start = time.perf_counter()
        selfplay(games, 2, seed=1, threads=threads, records=records)
        took = time.perf_counter() - start
        if took >= seconds / 4 or games >= 10**7:
            break
        games = int(games * min(10.0, max(2.0, seconds / 3 / max(took, 1e-3))))
    best = took
    for _ in range(2):
        start = time.perf_counter()
        selfplay(games, 2, seed=1, threads=threads, records=records)
        best = min(best, time.perf_counter() - start)
    return games / best


def nanoseconds(fn, arg, n=200000):
    start = time.perf_counter()
    for _ in range(n):
        fn(arg)
    return (time.perf_counter() - start) / n * 1e9


def program_path(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.environ.get("CARCASSONNE"),
                      os.path.join(here, "..", "..", "build", "carcassonne"),
                      os.path.join(os.getcwd(), "build", "carcassonne"),
                      shutil.which("carcassonne")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def run_c_bench(program, games):
    """One `carcassonne bench` of the base game: (its games a second, the
    CPU seconds the process used)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([program, "bench", "--json", "--games", str(games), "--expansions", ""],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out)["games_per_second"], cpu


def c_bench(program, seconds):
    """`carcassonne bench`'s base-game games a second: the best of three
    runs of about `seconds` / 3 each, as selfplay_rate(); and its games a
    CPU second, from the CPU time of a long run minus that of a 2,000-game
    run (which holds the same fixed part: start-up and the timing of
    legal-placement generation over 2,000 games)."""
    games = max(20000, int(15000 * seconds))
    best, cpu_long = 0.0, float("inf")
    for _ in range(3):
        rate, cpu = run_c_bench(program, games)
        best, cpu_long = max(best, rate), min(cpu_long, cpu)
    cpu_short = min(run_c_bench(program, 2000)[1] for _ in range(3))
    return best, (games - 2000) / max(cpu_long - cpu_short, 1e-9)


def selfplay_cpu_rate(seconds):
    """selfplay()'s games a CPU second on one thread (best of three)."""
    games = max(20000, int(10000 * seconds))
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        selfplay(games, 2, seed=1, threads=1, records=False)
        best = min(best, time.process_time() - start)
    return games / best


def engine_rate(program, seconds):
    """Random games a second over `carcassonne engine` (the engine protocol)."""
    proc = subprocess.Popen([program, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    rng = random.Random(3)

    def ask(request):
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    def one(i):
        ask({"type": "new", "players": 2, "seed": i})
        while ask({"type": "draw"}).get("type") == "tile":
            ask({"type": "move", "move": rng.choice(ask({"type": "legal"})["moves"])["move"]})

    try:
        return per_second(one, seconds)
    finally:
        proc.stdin.close()
        proc.wait()


def instructions(argv):
    """Instructions a command runs (valgrind's callgrind), or None."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].replace(",", ""))
    return None


def instructions_per_game(program, games=20000):
    """Instructions a game of `carcassonne bench` and of selfplay() (with
    and without records), each the difference of two runs 20,000 games
    apart, so start-up and fixed costs drop out: a comparison that the
    machine's load does not move."""
    def python(n, records):
        return [sys.executable, "-c", "import carcassonne; carcassonne.selfplay(%d, 2, seed=1, "
                "records=%s)" % (n, records)]

    def bench(n):
        return [program, "bench", "--games", str(n), "--expansions", ""]

    out = {}
    for name, make in (("c_bench", bench), ("selfplay", lambda n: python(n, False)),
                       ("selfplay_records", lambda n: python(n, True))):
        small, large = instructions(make(2000)), instructions(make(2000 + games))
        out[name + "_instructions_per_game"] = (large - small) / games if small and large else None
    return out


def wingedsheep_rate(seconds):
    """wingedsheep's carcassonne (pip name wingedsheep-carcassonne), if installed."""
    try:
        from wingedsheep.carcassonne.carcassonne_game import CarcassonneGame
        from wingedsheep.carcassonne.utils.action_util import ActionUtil  # noqa: F401
    except ImportError:
        return None
    rng = random.Random(4)

    def one(i):
        game = CarcassonneGame(players=2)
        while not game.is_finished():
            game.step(game.get_current_player(), rng.choice(game.get_possible_actions()))

    return per_second(one, seconds)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m carcassonne.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="per figure (default 3)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--carcassonne", help="the carcassonne program (default: build/carcassonne)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions a game under valgrind (about 5 minutes)")
    args = ap.parse_args(argv)
    s = args.seconds
    program = program_path(args.carcassonne)
    g = Game(2, seed=1)
    for _ in range(30):
        g.play(g.legal_moves()[0])
    c_rate, c_cpu_rate = c_bench(program, s) if program else (None, None)
    fig = {
        "plain_games_per_second": per_second(plain_game, s),
        "action_games_per_second": per_second(action_game, s),
        "selfplay_games_per_second": selfplay_rate(s, 1, False),
        "selfplay_records_games_per_second": selfplay_rate(s, 1, True),
        "selfplay_threads": args.threads,
        "selfplay_threads_games_per_second": selfplay_rate(s, args.threads, False),
        "c_bench_games_per_second": c_rate,
        "selfplay_games_per_cpu_second": selfplay_cpu_rate(s),
        "c_bench_games_per_cpu_second": c_cpu_rate,
        "engine_protocol_games_per_second": engine_rate(program, s) if program else None,
        "wingedsheep_games_per_second": wingedsheep_rate(s),
        "clone_ns": nanoseconds(Game.clone, g),
        "call_ns": nanoseconds(_core._noop, None, 1000000),
    }
    if args.callgrind and program and shutil.which("valgrind"):
        fig.update(instructions_per_game(program))
        if fig["c_bench_instructions_per_game"] and fig["selfplay_instructions_per_game"]:
            fig["selfplay_vs_c_bench_instructions"] = (fig["c_bench_instructions_per_game"]
                                                       / fig["selfplay_instructions_per_game"])
    if c_rate:
        fig["selfplay_vs_c_bench"] = fig["selfplay_games_per_second"] / c_rate
        fig["selfplay_vs_c_bench_cpu"] = fig["selfplay_games_per_cpu_second"] / c_cpu_rate
    if args.json:
        print(json.dumps(fig))
        return 0
    for key, value in fig.items():
        text = "not measured" if value is None else (
            "%.3f" % value if key.startswith("selfplay_vs") else "{:,.0f}".format(value))
        print("%-36s %s" % (key.replace("_", " "), text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
