#!/usr/bin/env python3
"""endgame.py: what a player's choices in the last turns cost it, measured
with the exact endgame solver (carcassonne.exact) as the oracle.

For each number of tiles left T (--tiles, default "1 2 3 4") it plays
--positions base games to T tiles left (both seats `mcts:iters=500`, so
that the positions are the kind a game reaches), lets the player (--player,
default the default player, "mcts") choose a move there, and solves the
position exactly: every legal move's exact expected final margin. The
player's loss at a position is the best move's margin minus the margin of
the move it chose (0 when it chose a best move). It prints, per T, the
mean loss in points with its standard error, how often the choice was a
best move, the largest loss, and the exact solve's mean time.

usage: python3 examples/python/endgame.py [--positions N] [--tiles "1 2 3 4"]
                                          [--player SPEC] [--seed S] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse
import math
import time

import carcassonne


def position(seed, tiles_left):
    """A base game played by the search to `tiles_left` tiles left."""
    g = carcassonne.Game(seed=seed)
    players = [carcassonne.Player("mcts:iters=500,threads=1", seed=seed + k) for k in range(2)]
    while g.tiles_left() > tiles_left:
        g.play(players[g.current_player].choose(g))
    return g


def measure(tiles_left, positions, spec, seed):
    """(losses, best choices, largest loss, solve seconds) over `positions`."""
    losses, solve = [], 0.0
    for k in range(positions):
        g = position(seed + 1000 * tiles_left + k, tiles_left)
        chosen = carcassonne.Player(spec, seed=seed + k).choose(g)
        start = time.monotonic()
        r = carcassonne.exact(g, ms=None, threads=2)
        solve += time.monotonic() - start
        assert r["exact"], r["reason"]
        # A symmetric tile's rotations are one move: compare by action.
        margin = {g.string_to_action(m["move"]): m["margin"] for m in r["moves"]}
        best = r["moves"][0]["margin"]
        losses.append(best - margin[g.string_to_action(chosen)])
    return losses, solve / positions


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--tiles", default="1 2 3 4")
    ap.add_argument("--player", default="mcts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true",
                    help="two positions with 1 and 2 tiles left, a short search (a test)")
    args = ap.parse_args()
    tiles = [int(t) for t in args.tiles.split()]
    if args.quick:
        args.positions, tiles, args.player = 2, [1, 2], "mcts:iters=300,threads=1"
    print("player %s, %d positions per row, seed %d" % (args.player, args.positions, args.seed))
    print("tiles left  mean loss (se)   best chosen  largest loss  exact solve")
    for t in tiles:
        losses, solve = measure(t, args.positions, args.player, args.seed)
        n = len(losses)
        mean = sum(losses) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in losses) / (n - 1) / n) if n > 1 else 0.0
        best = sum(1 for x in losses if x < 1e-9)
        assert min(losses) > -1e-9, "a move better than the exact best"
        print("%10d  %6.3f (%5.3f)   %5d / %-4d  %12.3f  %9.3f s" % (t, mean, se, best, n,
                                                                   max(losses), solve))


if __name__ == "__main__":
    main()
