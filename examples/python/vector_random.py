"""vector_random.py: random steps a second through carcassonne.VectorGame
(docs/python.md, "VectorGame"): n games, each step a uniformly random legal
action per game, chosen in numpy from the CSR legal actions.

    python3 examples/python/vector_random.py [--n 256] [--seconds 3] [--observe] [--quick]

It prints the steps a second (one step = one move in one game), the best
of three runs, with and without the compact observation each step.
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
    """The best of three runs of about seconds / 3 each."""
    vg = carcassonne.VectorGame(n, players=2, seed=1, expansions=expansions)
    rng = np.random.default_rng(1)
    out = None
    if observe:
        out = vg.observation()
    best, games = 0.0, 0
    for _ in range(3):
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            _, done = vg.step(random_actions(vg, rng))
            if observe:
                vg.observation(out)
            steps += n
            games += int(done.sum())
        best = max(best, steps / (time.perf_counter() - start))
    return best, games


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=256, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a figure")
    parser.add_argument("--quick", action="store_true", help="a short run (the tests')")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else args.seconds
    for observe in (False, True):
        for expansions in ([], ["river", "inns-cathedrals", "traders-builders"]):
            rate, games = steps_per_second(args.n, seconds, observe, expansions)
            print("%-9s %-40s %9.0f random steps a second (%d games ended)"
                  % ("observe" if observe else "no obs", ",".join(expansions) or "base game",
                     rate, games))


if __name__ == "__main__":
    main()
