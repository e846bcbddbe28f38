#!/usr/bin/env python3
"""training_loop.py: a training loop sketch with numpy only: a linear value
function of the observation, learnt from the final margin of each game
(Monte Carlo targets), and an agent that plays the move whose position
after it the function likes best (after-states, on clones), exploring at
random now and then. The Gymnasium-style environment runs the games
against a random opponent; a PyTorch network would take the board planes
as they are (PLANES x S x S) instead of the sums used here.

usage: python3 examples/python/training_loop.py [--episodes N] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse

import numpy as np

import carcassonne
from carcassonne.gym import CarcassonneEnv


def features(game, seat):
    """A small feature vector: each board plane summed, and the globals."""
    board, glob = game.observation(seat)
    return np.concatenate([board.sum(axis=(1, 2)) / 10.0, glob, [1.0]])


def choose(env, weights, rng, epsilon):
    """The legal action with the best after-state value (or a random one)."""
    game = env.game
    actions = game.legal_actions()
    if rng.random() < epsilon:
        return actions[rng.integers(len(actions))]
    values = []
    for a in actions:
        after = game.clone()
        after.apply_action(a)
        values.append(features(after, env.seat) @ weights)
    return actions[int(np.argmax(values))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="two episodes (CI)")
    args = ap.parse_args()
    episodes = 2 if args.quick else args.episodes
    env = CarcassonneEnv(players=2, opponents="random", board_size=31)
    rng = np.random.default_rng(0)
    size = len(features(env.game, 0))
    weights = np.zeros(size)
    margins = []
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        visited = []
        while True:
            action = choose(env, weights, rng, epsilon=0.1)
            obs, reward, terminated, truncated, info = env.step(action)
            visited.append(features(env.game, env.seat))
            if terminated or truncated:
                break
        s = env.game.scores
        margin = s[0] - s[1]
        margins.append(margin)
        # Monte Carlo regression of every visited after-state to the margin.
        x = np.array(visited)
        weights += 1e-3 * x.T @ (margin / 50.0 - x @ weights) / len(x)
        if (episode + 1) % 20 == 0 or args.quick:
            print("episode %d: mean margin of the last 20: %+.1f"
                  % (episode + 1, np.mean(margins[-20:])))


if __name__ == "__main__":
    main()
