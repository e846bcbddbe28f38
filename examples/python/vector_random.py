"""vector_random.py: random steps a second through carcassonne.VectorGame
(docs/python.md, "VectorGame"): n games, each step a uniformly random legal
action per game, chosen in numpy from the CSR legal actions.

    python3 examples/python/vector_random.py [--n 256] [--seconds 3] [--observe] [--quick]

It prints the steps a second (one step = one move in one game), the best
of three runs, with and without the compact observation each step: by the
wall clock and by this process's CPU time (on a machine shared with other
work the CPU time moves less: it counts only the seconds this process ran).
"""
import argparse
import time

import numpy as np

import carcassonne


def random_actions(vg, rng):
    """One uniformly random legal action per game, from the CSR lists."""
    indptr, actions = vg.legal_actions()
    counts = np.diff(indptr)
    pick = indptr[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)
    return actions[pick]


def steps_per_second(n, seconds, observe, expansions=None):
    """(wall, cpu): the best of three runs of about seconds / 3 each, in
    steps a wall-clock second and a CPU second; and the games ended."""
    vg = carcassonne.VectorGame(n, players=2, seed=1, expansions=expansions)
    rng = np.random.default_rng(1)
    out = None
    if observe:
        out = vg.observation()
    best, best_cpu, games = 0.0, 0.0, 0
    for _ in range(3):
        steps, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds / 3:
            _, done = vg.step(random_actions(vg, rng))
            if observe:
                vg.observation(out)
            steps += n
            games += int(done.sum())
        best = max(best, steps / (time.perf_counter() - start))
        best_cpu = max(best_cpu, steps / max(time.process_time() - cpu, 1e-9))
    return best, best_cpu, games


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=256, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a figure")
    parser.add_argument("--quick", action="store_true", help="a short run (the tests')")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else args.seconds
    for observe in (False, True):
        for expansions in ([], ["river", "inns-cathedrals", "traders-builders"]):
            wall, cpu, games = steps_per_second(args.n, seconds, observe, expansions)
            print("%-9s %-40s %9.0f random steps a second, %9.0f a CPU second (%d games ended)"
                  % ("observe" if observe else "no obs", ",".join(expansions) or "base game",
                     wall, cpu, games))


if __name__ == "__main__":
    main()
