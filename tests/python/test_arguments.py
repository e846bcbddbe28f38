"""Arguments of the wrong shape refused with a message, never reshaped
into something else (found by following docs/python.md)."""
import numpy as np
import pytest

import carcassonne
import carcassonne.gym
import carcassonne.pettingzoo
from conftest import ROOT

NET = ROOT + "/data/nets/default.carcnet"


def test_net_forward_refuses_inputs_of_the_wrong_shape():
    g = carcassonne.Game(seed=3)
    pos, moves, _ = carcassonne.net_inputs(g)
    value, logits = carcassonne.net_forward(NET, pos, moves)
    assert logits.shape == (len(moves),)
    # The moves transposed, (138, n): they were reshaped to (n, 138) and
    # gave n logits of nothing.
    with pytest.raises(ValueError, match=r"moves must have shape \(n, 138\)"):
        carcassonne.net_forward(NET, pos, np.ascontiguousarray(moves.T))
    with pytest.raises(ValueError, match="moves must have shape"):
        carcassonne.net_forward(NET, pos, moves.ravel())
    with pytest.raises(ValueError, match="moves must have shape"):
        carcassonne.net_forward(NET, pos, moves[:, :100])
    with pytest.raises(ValueError, match=r"position must have shape \(32,\)"):
        carcassonne.net_forward(NET, np.concatenate([pos, pos]), moves)
    # No move at all is a shape too: the value alone.
    v2, none = carcassonne.net_forward(NET, pos, moves[:0])
    assert v2 == value and none.shape == (0,)


def test_rotate_mask_turns_a_batch_as_rotate_board_does():
    # A batch (..., actions) of masks or policies, as rotate_board takes
    # (..., PLANES, S, S): it raised "a mask of 2 actions is no whole
    # number of blocks".
    s = 11
    games = [carcassonne.Game(seed=seed, board_size=s, rules=rules)
             for seed, rules in ((1, []), (2, []), (3, ["hand=3"]), (4, ["hand=3"]))]
    for pair in (games[:2], games[2:]):
        masks = np.stack([g.action_mask() for g in pair])
        policies = masks / masks.sum(axis=1, keepdims=True)
        for k in range(4):
            turned = carcassonne.rotate_mask(masks, s, k)
            assert turned.shape == masks.shape and turned.dtype == np.int8
            for i, g in enumerate(pair):
                assert np.array_equal(turned[i], carcassonne.rotate_mask(masks[i], s, k))
                assert sorted(np.flatnonzero(turned[i])) == \
                    sorted(carcassonne.rotate_action(a, s, k) for a in g.legal_actions())
            assert np.allclose(carcassonne.rotate_mask(policies[None], s, k)[0],
                               carcassonne.rotate_mask(policies, s, k))
    with pytest.raises(ValueError, match="a mask of 100 actions"):
        carcassonne.rotate_mask(np.zeros((4, 100)), s)


def test_player_specs_of_the_wrong_type_are_named():
    # A number where a spec goes raised "'int' object is not iterable".
    with pytest.raises(TypeError, match="player must be a player spec"):
        carcassonne.selfplay(1, player=5)
    with pytest.raises(TypeError, match="opponents must be a player spec"):
        carcassonne.gym.CarcassonneEnv(opponents=5)
    with pytest.raises(TypeError, match="opponents must be a player spec"):
        carcassonne.gym.CarcassonneEnv(opponents=["random", 3])


def test_gym_refuses_a_spec_at_the_learners_seat():
    # One spec per seat with one at the learner's: it was taken and
    # ignored without a word.
    with pytest.raises(ValueError, match="seat 1 is the learner's"):
        carcassonne.gym.CarcassonneEnv(players=3, seat=1, opponents=["random", "greedy", "random"])
    env = carcassonne.gym.CarcassonneEnv(players=3, seat=1, opponents=["random", None, "greedy"])
    env.reset(seed=2)
    assert env.game.current_player == 1


def test_pettingzoo_refuses_a_render_mode_it_lacks():
    # Gymnasium's env refused "human"; PettingZoo's took it without a word.
    with pytest.raises(ValueError, match="render_mode"):
        carcassonne.pettingzoo.env(render_mode="human")
