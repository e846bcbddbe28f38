#!/usr/bin/env python3
"""minimal_agent.py: a complete agent in a few lines: it plays the move
that scores most at once (trying each on a clone), against the library's
greedy player, and prints the scores and the record's first lines.

usage: python3 examples/python/minimal_agent.py [--games N] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse

import carcassonne


def my_move(game):
    """The legal move that scores most for me now (the first of the best)."""
    me = game.current_player
    best, best_gain = None, -1
    for move in game.legal_moves():
        trial = game.clone()  # a clone is cheap and independent
        trial.play(move)
        gain = trial.scores[me] - game.scores[me]
        if gain > best_gain:
            best, best_gain = move, gain
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="one game (CI)")
    args = ap.parse_args()
    opponent = carcassonne.Player("greedy")
    wins = 0
    for seed in range(1 if args.quick else args.games):
        game = carcassonne.Game(players=2, seed=seed)
        while not game.finished:
            if game.current_player == 0:
                game.play(my_move(game))
            else:
                game.play(opponent.choose(game))
        wins += game.scores[0] > game.scores[1]
        print("game %d: me %d, greedy %d" % (seed, game.scores[0], game.scores[1]))
    print("won %d; the last game's record starts:" % wins)
    print("\n".join(game.record().splitlines()[:4]))


if __name__ == "__main__":
    main()
