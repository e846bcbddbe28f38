#!/usr/bin/env python3
"""ismcts.py: information-set Monte Carlo tree search with chance nodes,
the kind of search OpenSpiel runs on this game (its AlphaZero does not:
it refuses a game that is not DETERMINISTIC, and this one is
EXPLICIT_STOCHASTIC; docs/python.md, "OpenSpiel").

The search sees the game only as its seat may: each iteration plays on a
copy in which everything the seat cannot see (the other hands, the pile)
is dealt again (Game.resample, what OpenSpiel's resample_from_infostate
does here), and each draw is a chance node sampled by its odds
(chance_outcomes). Below the root a node's children are the actions, and
an iteration chooses among those legal in its own deal (UCB1 over them).
Leaves are valued by a short random rollout and the mover's margin.

In a hand=3 game it plays seat 0 against a random player. It also checks
that its choice does not depend on the other seat's hidden hand: the same
search on a game that differs only there chooses the same action.

usage: python3 examples/python/ismcts.py [--iterations N] [--games K] [--quick]
(needs the package: pip install --no-build-isolation ./python; docs/python.md)
"""
import argparse
import math
import random

import carcassonne


class Node:
    """Statistics of an action from its parent's information set."""
    __slots__ = ("children", "visits", "value")

    def __init__(self):
        self.children, self.visits, self.value = {}, 0, 0.0


def sample_chance(game, rng):
    kinds, odds = zip(*game.chance_outcomes())
    game.apply_action(rng.choices(kinds, odds)[0])


def ucb(parent_visits, child, c=1.4):
    return child.value / child.visits + c * math.sqrt(math.log(parent_visits) / child.visits)


def rollout(game, rng, plies):
    """Random moves (and draws) for a few plies; each player's margin then."""
    for _ in range(plies):
        if game.finished:
            break
        if game.is_chance_node():
            sample_chance(game, rng)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    return game.returns()


def ismcts(game, iterations, rng, depth=6, plies=8, scale=20.0):
    """The action for the player to move, from its information set."""
    seat, root = game.current_player, Node()
    for _ in range(iterations):
        world = game.resample(seat, rng.randrange(2**63))  # a deal seat cannot tell apart
        node, path = root, []
        while not world.finished and len(path) < depth:
            if world.is_chance_node():
                sample_chance(world, rng)
                continue
            mover, legal = world.current_player, world.legal_actions()
            untried = [a for a in legal if a not in node.children]
            if untried:  # expand one action, then roll out
                action = rng.choice(untried)
                node.children[action] = Node()
            else:
                visits = sum(node.children[a].visits for a in legal)
                action = max(legal, key=lambda a: ucb(visits, node.children[a]))
            node = node.children[action]
            path.append((node, mover))
            world.apply_action(action)
            if untried:
                break
        margins = rollout(world, rng, plies)
        for child, mover in path:
            child.visits += 1
            child.value += margins[mover] / scale
    return max(root.children, key=lambda a: root.children[a].visits)


def play(iterations, seed, turns=None):
    """One hand=3 game, the search at seat 0, random at seat 1."""
    rng, other = random.Random(seed), random.Random(seed + 1)
    g = carcassonne.Game(players=2, seed=seed, rules=["hand=3"], explicit_chance=True)
    moves = 0
    while not g.finished and (turns is None or moves < turns):
        if g.is_chance_node():
            sample_chance(g, other)
        elif g.current_player == 0:
            g.apply_action(ismcts(g, iterations, rng))
            moves += 1
        else:
            g.apply_action(other.choice(g.legal_actions()))
    return g


def choice_ignores_hidden_hand(iterations, seed):
    """The search's action in a position and in one that differs only in
    seat 1's hidden hand (and the pile): the same, from the same seed."""
    g = play(iterations=4, seed=seed, turns=2)
    while g.is_chance_node() or g.current_player != 0:
        if g.is_chance_node():
            sample_chance(g, random.Random(1))
        else:
            g.apply_action(g.legal_actions()[0])
    poisoned = g.resample(0, 12345)  # seat 1's hand dealt again
    assert poisoned.hand(0) == g.hand(0)
    a = ismcts(g, iterations, random.Random(7))
    b = ismcts(poisoned, iterations, random.Random(7))
    return a == b, g.hand(1) != poisoned.hand(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--games", type=int, default=1,
                        help="games against random, deals 5, 6, ... (default 1)")
    parser.add_argument("--quick", action="store_true", help="a few turns only (the tests)")
    args = parser.parse_args()
    iterations = 12 if args.quick else args.iterations
    same, differed = choice_ignores_hidden_hand(iterations, seed=3)
    assert same, "the search's choice depended on a hidden hand"
    print("the choice ignores seat 1's hidden hand: same action (hands differed: %s)" % differed)
    wins = 0
    for game in range(1 if args.quick else max(1, args.games)):
        g = play(iterations, seed=5 + game, turns=6 if args.quick else None)
        state = "finished" if g.finished else "after %d turns of the search" % 6
        print("ISMCTS (seat 0) against random (seat 1), %d iterations a move, deal %d, %s: "
              "scores %s" % (iterations, 5 + game, state, g.scores))
        wins += g.finished and g.scores[0] > g.scores[1]
    if not args.quick:
        print("ISMCTS won %d of %d" % (wins, max(1, args.games)))


if __name__ == "__main__":
    main()
