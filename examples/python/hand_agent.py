#!/usr/bin/env python3
"""hand_agent.py: an agent for the house rule hand=3 (each player holds
three tiles and places one a turn) that sees only what its seat may know:
its own hand and the others' hand sizes, read from the observation, never
from the game's hidden hands. It plays the move that scores most at once
(on alike gains: a follower while more than two are left, and the tile
with the fewest placements, keeping the flexible ones), against the
library's greedy player, which it seldom beats: a start to improve on.

usage: python3 examples/python/hand_agent.py [--games N] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse

import numpy as np

import carcassonne
from carcassonne import _core

IDS = carcassonne.tile_ids()


def seen_hand(game, seat):
    """The seat's hand as its observation shows it (tile ids, hand order)."""
    _, glob = game.observation(seat)
    hand = []
    for h in range(_core.MAX_HAND):
        row = glob[_core.GLOBAL_HAND + h * _core.MAX_KINDS:_core.GLOBAL_HAND + (h + 1) * _core.MAX_KINDS]
        if row.any():
            hand.append(IDS[int(np.argmax(row))])
    return hand


def others_hand_sizes(game, seat):
    """The other seats' hand sizes over N, from the observation (relative
    order)."""
    _, glob = game.observation(seat)
    return [glob[r * _core.SEAT_FEATURES + 9] for r in range(1, game.players)]


def my_move(game):
    me = game.current_player
    hand = seen_hand(game, me)
    moves = game.legal_moves()
    tile_of = {m: m.split()[1] if m.startswith("discard ") else m.split()[0] for m in moves}
    placements = {t: sum(1 for m in moves if tile_of[m] == t) for t in hand}
    followers_left = game.observation(me)[1][2] * 7  # own seat's features: supply / 7
    best, best_key = None, None
    for move in moves:
        tile = tile_of[move]
        assert tile in hand  # every move is of a tile the seat can see
        trial = game.clone()
        trial.play(move)
        gain = trial.scores[me] - game.scores[me]
        # Alike gains: put a follower down while more than two are left,
        # and play the tile with the fewest placements (keep the flexible
        # ones for later).
        follower = len(move.split()) > 4
        key = (gain, follower and followers_left > 2, -placements[tile])
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="one game (CI)")
    args = ap.parse_args()
    opponent = carcassonne.Player("greedy")
    wins = 0
    for seed in range(1 if args.quick else args.games):
        game = carcassonne.Game(players=2, seed=seed, rules=["hand=3"])
        print("game %d: my first hand %s, the other holds %s tiles"
              % (seed, " ".join(seen_hand(game, 0)),
                 " ".join("%d" % round(3 * s) for s in others_hand_sizes(game, 0))))
        while not game.finished:
            if game.current_player == 0:
                game.play(my_move(game))
            else:
                game.play(opponent.choose(game))
        wins += game.scores[0] > game.scores[1]
        print("game %d: me %d, greedy %d" % (seed, game.scores[0], game.scores[1]))
    print("won %d; the last game's record starts:" % wins)
    print("\n".join(game.record().splitlines()[:5]))


if __name__ == "__main__":
    main()
