"""Hidden information through every interface (docs/python.md, "What a
player may see"): with hand=3, nothing that any interface shows player 0
(the observation tensor and its parts, the information state string and
tensor, the observation string, OpenSpiel's observer, PettingZoo's
observe() and render(), the Gymnasium environment's observation, info and
render()) changes when only player 1's hidden hand differs."""
import random

import numpy as np

import carcassonne
from carcassonne.gym import CarcassonneEnv
from carcassonne.openspiel import CarcassonneObserver
from carcassonne.pettingzoo import env as pettingzoo_env


def twin_games(seed, rng):
    """Two 2-player hand=3 games in the same public position, player 0's
    hand the same, player 1's different; yields them at each turn of a few
    rounds (player 1's hand keeps differing: it plays a tile both hold,
    else the game pair ends)."""
    a, b = (carcassonne.Game(players=2, seed=seed, rules=["hand=3"], explicit_chance=True)
            for _ in range(2))
    draws, mover = 0, None
    for _ in range(12):
        while a.is_chance_node():
            # The set-up draws 3 for player 0, then 3 for player 1; then
            # the mover draws up.
            p1_draw = 3 <= draws < 6 if mover is None else mover == 1
            draws += 1
            kind_a = a.chance_outcomes()[0][0] if p1_draw else rng.choice(a.legal_actions())
            kind_b = b.chance_outcomes()[-1][0] if p1_draw else kind_a
            a.apply_action(kind_a)
            b.apply_action(kind_b)
        yield a, b
        common = [m for m in a.legal_moves() if m in b.legal_moves()]
        if not common or a.finished:
            return
        move = rng.choice(common)
        mover = a.current_player
        a.play(move)
        b.play(move)


def views_of_seat_0(game):
    """Everything every interface shows seat 0 in this position."""
    board, glob = game.observation(0)
    seen = [board.tobytes(), glob.tobytes(), game.observation_tensor(0).tobytes(),
            game.information_state_string(0), game.information_state_tensor(0).tobytes(),
            game.observation_string(0)]

    class State:  # what carcassonne.openspiel's observer reads of a state
        game_state = game
    for obs_type in (None, type("T", (), {"private_info": "SINGLE_PLAYER"})()):
        observer = CarcassonneObserver(game.board_size, obs_type)
        observer.set_from(State, 0)
        seen += [observer.tensor.tobytes(), observer.string_from(State, 0)]
    e = pettingzoo_env(players=2, rules=["hand=3"])
    e.reset(seed=0)
    e.game = game
    seen += [{k: v.tobytes() for k, v in e.observe("player_0").items()}]
    if game.current_player == 0:  # the Gymnasium learner is always to move
        env = CarcassonneEnv(players=2, seat=0, rules=["hand=3"], render_mode="ansi")
        env.reset(seed=0)
        env.game = game
        obs = env._observe()
        info = env._info(obs)
        seen += [{k: v.tobytes() for k, v in obs.items()}, info["legal_moves"],
                 info["scores"], info["action_mask"].tobytes(), env.render()]
    return seen


def test_player_1s_hidden_hand_changes_nothing_player_0_sees():
    rng = random.Random(5)
    compared = turns_of_1 = 0
    for seed in range(4):
        for a, b in twin_games(seed, rng):
            assert a.hand(0) == b.hand(0) and sorted(a.hand(1)) != sorted(b.hand(1))
            assert views_of_seat_0(a) == views_of_seat_0(b)
            # Player 1 does see its own hand: the comparison can fail.
            assert a.information_state_string(1) != b.information_state_string(1)
            assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
            compared += 1
            turns_of_1 += a.current_player == 1
    assert compared >= 8 and turns_of_1 >= 3


def test_information_state_string_is_the_record_as_the_seat_saw_it():
    g = carcassonne.Game(players=3, seed=8, rules=["hand=3"])
    for _ in range(4):
        g.play(g.legal_moves()[0])
    full = g.record(seed=False)
    for seat in range(3):
        seen = g.information_state_string(seat)
        assert "seed" not in seen and seen.count("\n") == full.count("\n")
        for line, truth in zip(seen.split("\n"), full.split("\n")):
            if truth.startswith("draw %d " % (seat + 1)) or not truth.startswith("draw "):
                assert line == truth  # its own draws and every move, as played
            else:
                assert line.split()[:2] == truth.split()[:2]
                assert set(line.split()[2:]) == {"?"}
                assert len(line.split()) == len(truth.split())
    spectator = g.information_state_string(-1)
    assert all(set(l.split()[2:]) == {"?"} for l in spectator.split("\n") if l.startswith("draw"))
    # Open hands and the base game hide nothing of the record.
    g = carcassonne.Game(players=2, seed=8, rules=["hand=2", "open-hands"])
    g.play(g.legal_moves()[0])
    assert g.information_state_string(0) == g.record(seed=False)
    g = carcassonne.Game(players=2, seed=8)
    g.play(g.legal_moves()[0])
    assert g.information_state_string(1) == g.record(seed=False) + "# drawn %s\n" % g.tile
    for bad in (2, -2):
        try:
            g.information_state_string(bad)
        except ValueError as e:
            assert "seat %d is out of range" % bad in str(e)
        else:
            raise AssertionError("seat %d was accepted" % bad)


def test_the_seed_never_shows():
    g = carcassonne.Game(players=2, seed=99)
    g.play(g.legal_moves()[0])
    assert "seed 99" in g.record()  # the referee's record has it
    for seat in (0, 1, -1):
        assert "seed" not in g.information_state_string(seat)
    env = CarcassonneEnv(render_mode="ansi")
    env.reset(seed=4)
    assert "seed" not in env.render()
    e = pettingzoo_env(players=2, render_mode="ansi")
    e.reset(seed=4)
    assert "seed" not in e.render()


def test_resample_keeps_what_the_seat_saw():
    g = carcassonne.Game(players=3, seed=12, rules=["hand=3"], expansions=["river"])
    rng = random.Random(2)
    for _ in range(7):
        g.play(rng.choice(g.legal_moves()))
    differed = 0
    for seed in range(5):
        h = g.resample(1, seed)
        assert h.hand(1) == g.hand(1) and h.scores == g.scores
        assert h.information_state_string(1) == g.information_state_string(1)
        assert np.array_equal(h.observation_tensor(1), g.observation_tensor(1))
        differed += h.hand(0) != g.hand(0) or h.hand(2) != g.hand(2)
        while not h.finished:  # a deal that plays on to the end
            h.play(rng.choice(h.legal_moves()))
    assert differed >= 4
    # The same seed, two games differing only in what seat 1 cannot see:
    # the same copy.
    other = g.resample(1, 99)
    assert g.resample(1, 7).record() == other.resample(1, 7).record()
