#!/usr/bin/env python3
"""selfplay_dataset.py: a self-play dataset in one call: games played in C
on threads (records and scores), then (observation, action, final margin)
samples rebuilt from the records for a learner, saved as .npz. (The
package writes richer samples itself, in C: selfplay(..., samples=PATH)
saves every position's compact observation, the search's visit-count
policy and the outcome; docs/python.md. This example shows how to rebuild
samples of your own from records.)

usage: python3 examples/python/selfplay_dataset.py [--games N] [--out FILE] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse
import os
import tempfile
import time

import numpy as np

import carcassonne

HEADERS = ("players", "rules", "expansions")


def samples(record, margins, every=4, board_size=31):
    """(observation, action, the mover's final margin) every `every` plies."""
    lines = record.splitlines()
    game = carcassonne.Game.from_record(
        "\n".join(line for line in lines if line.startswith(HEADERS)) + "\n",
        board_size=board_size)
    moves = [line for line in lines if line and not line.startswith(HEADERS + ("seed", "#"))]
    out = []
    for ply, line in enumerate(moves):
        if line == "end":
            break
        words = line.split()
        game.draw(words[1] if words[0] == "discard" else words[0])  # the record names the draw
        action = game.string_to_action(line)
        if ply % every == 0:
            out.append((game.observation_tensor(), action, margins[game.current_player]))
        game.apply_action(action)  # the move as an action: any rotation of it is fine
    assert game.finished
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "carcassonne.npz"))
    ap.add_argument("--quick", action="store_true", help="a small run (CI)")
    args = ap.parse_args()
    games = 200 if args.quick else args.games
    start = time.perf_counter()
    records, scores = carcassonne.selfplay(games, players=2, seed=1, player="random",
                                           threads=os.cpu_count() or 1)
    took = time.perf_counter() - start
    print("%d games in %.2f s (%.0f a second); mean score %.1f"
          % (games, took, games / took, scores.mean()))
    margins = scores - scores[:, ::-1]  # 2 players: mine minus the other's
    data = []
    for record, margin in zip(records[:10 if args.quick else 200], margins):
        data += samples(record, margin)
    obs, actions, outcomes = zip(*data)
    np.savez_compressed(args.out, observations=np.array(obs), actions=np.array(actions),
                        margins=np.array(outcomes), scores=scores)
    print("%d samples of %d floats -> %s" % (len(obs), len(obs[0]), args.out))


if __name__ == "__main__":
    main()
