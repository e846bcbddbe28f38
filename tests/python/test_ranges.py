"""Seeds and actions out of range are refused everywhere in the package,
with the value in the message (ValueError; TypeError for what is no
integer), never wrapped round into another value; numpy's integers are
taken wherever an int is."""
import re

import numpy as np
import pytest

import carcassonne
from carcassonne import _spaces, rotate_action
from carcassonne.gym import CarcassonneEnv
from carcassonne.pettingzoo import env as aec_env

RECORD = "players 2\n"
# Out of 0 .. 2**64-1; each would have wrapped round to a seed in range
# (2**65 to 0, -1 to 2**64-1).
BAD_SEEDS = [-1, 2**64, 2**65, -(2**64), np.int64(-3)]


def says(value):
    """pytest.raises' match for a message that names `value`."""
    return r"(^|\D)" + re.escape(str(int(value))) + r"(\D|$)"


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_seeds_out_of_range_are_refused(seed):
    makers = [
        lambda: carcassonne.Game(seed=seed),
        lambda: carcassonne.Game.from_record(RECORD, seed=seed),
        lambda: carcassonne.Game.from_record(RECORD.encode(), seed),
        lambda: carcassonne.Player("random", seed=seed),
        lambda: carcassonne.selfplay(1, seed=seed),
        lambda: CarcassonneEnv().reset(seed=seed),
        lambda: aec_env().reset(seed=seed),
        lambda: _spaces.Discrete(3, seed=seed),
        lambda: _spaces.Discrete(3).seed(seed),
        lambda: _spaces.Box(0, 1, (2,), seed=seed),
        lambda: _spaces.Dict({"a": _spaces.Discrete(2)}).seed(seed),
    ]
    for make in makers:
        with pytest.raises(ValueError, match=says(seed)):
            make()


def test_the_largest_seed_is_its_own():
    top = 2**64 - 1
    g = carcassonne.Game.from_record(RECORD, seed=top)
    assert g.tile == carcassonne.Game(seed=top).tile
    tiles = {carcassonne.Game.from_record(RECORD, seed=s).tile for s in range(8)}
    assert len(tiles) > 1  # the seed decides the deal, so a wrapped one would show
    _spaces.Dict({"a": _spaces.Discrete(2), "b": _spaces.Discrete(2)}).seed(top)


def test_seeds_that_are_no_integers_are_type_errors():
    for seed in (1.0, "1", None, True, np.bool_(True), np.float64(2)):
        with pytest.raises(TypeError):
            carcassonne.Game(seed=seed)
        with pytest.raises(TypeError):
            carcassonne.Game.from_record(RECORD, seed=seed)
        with pytest.raises(TypeError):
            carcassonne.Player("random", seed=seed)


@pytest.mark.parametrize("kind", [np.int64, np.uint64, np.int32, np.uint8])
def test_numpy_seeds_deal_as_ints(kind):
    a, b = carcassonne.Game(seed=kind(7)), carcassonne.Game(seed=7)
    assert a.record() == b.record() and a.tile == b.tile
    c = carcassonne.Game.from_record(RECORD, seed=kind(7))
    assert c.tile == b.tile
    recs_np, scores_np = carcassonne.selfplay(2, seed=kind(9))
    recs, scores = carcassonne.selfplay(2, seed=9)
    assert recs_np == recs and (scores_np == scores).all()
    g = carcassonne.Game(seed=3)
    assert carcassonne.Player("greedy", seed=kind(1)).choose(g) == \
        carcassonne.Player("greedy", seed=1).choose(g)
    e1, e2 = CarcassonneEnv(), CarcassonneEnv()
    assert e1.reset(seed=kind(4))[1]["legal_moves"] == e2.reset(seed=4)[1]["legal_moves"]
    assert e1.game.record() == e2.game.record()


def test_actions_out_of_range_are_refused_with_their_value():
    g = carcassonne.Game(seed=2)
    a = g.legal_actions()[0]
    before = g.record()
    # a + 2**64 said "action -1 is not legal here"
    for bad in (a + 2**64, a - 2**64, 2**70, -1, g.num_actions, np.int64(-2)):
        with pytest.raises(ValueError, match="action " + re.escape(str(int(bad))) + r"(\D|$)"):
            g.apply_action(bad)
        with pytest.raises(ValueError, match=says(bad)):
            g.action_to_string(bad)
    assert g.record() == before
    with pytest.raises(ValueError, match=re.escape(str(g.num_actions - 1))):
        g.apply_action(g.num_actions)  # the message gives the range


def test_chance_outcomes_out_of_range_are_refused_with_their_value():
    g = carcassonne.Game(seed=3, explicit_chance=True)
    assert g.is_chance_node()
    kind = g.legal_actions()[0]
    for bad in (kind + 2**64, -1, len(carcassonne.tile_ids()), 2**64 - 1):
        with pytest.raises(ValueError, match=says(bad)):
            g.apply_action(bad)
        with pytest.raises(ValueError, match=says(bad)):
            g.action_to_string(bad)
    g.apply_action(np.int16(kind))
    assert not g.is_chance_node()


@pytest.mark.parametrize("kind", [np.int64, np.uint64, np.int32, np.uint32])
def test_numpy_actions_play_as_ints(kind):
    g, h = carcassonne.Game(seed=5), carcassonne.Game(seed=5)
    for _ in range(6):
        a = g.legal_actions()[-1]
        assert g.action_to_string(kind(a)) == g.action_to_string(a)
        g.apply_action(kind(a))
        h.apply_action(a)
    assert g.record() == h.record()


def test_actions_that_are_no_integers_are_type_errors():
    g = carcassonne.Game(seed=2)
    a = g.legal_actions()[0]
    for bad in (float(a), np.float64(a), str(a), np.bool_(False), None):
        with pytest.raises(TypeError):
            g.apply_action(bad)


def test_the_environments_refuse_actions_out_of_range():
    env = CarcassonneEnv()
    obs, _ = env.reset(seed=3)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    for bad in (legal + 2**64, -1):
        with pytest.raises(ValueError, match=says(bad)):
            env.step(bad)
    with pytest.raises(TypeError):
        env.step(float(legal))  # int() would have played it
    env.step(np.int64(legal))
    e = aec_env()
    e.reset(seed=3)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    with pytest.raises(ValueError, match=says(legal + 2**64)):
        e.step(legal + 2**64)
    with pytest.raises(TypeError):
        e.step(float(legal))
    e.step(np.uint64(legal))
    assert e.game.record(seed=False).count("\n") == 2


def test_rotate_action_refuses_actions_no_game_has():
    size = 9
    block = size * size * 4 * carcassonne.FIGURE_SLOTS + 1
    assert rotate_action(np.int64(5), size, 1) == rotate_action(5, size, 1)
    for bad in (-1, carcassonne.MAX_HAND * block, 2**64 + 5):
        with pytest.raises(ValueError, match=says(bad)):
            rotate_action(bad, size)
    with pytest.raises(TypeError):
        rotate_action(5.0, size)
