"""The research interface: integer actions, the mask, chance nodes, the
observation tensor and its rotations."""
import random

import numpy as np
import pytest

import carcassonne
from carcassonne import FIGURE_SLOTS, rotate_action, rotate_board, rotate_mask
from conftest import EXPANSIONS, scaled


def positions(seed, count, expansions=None, players=2):
    """`count` positions along random games (clones)."""
    rng = random.Random(seed)
    out = []
    g = carcassonne.Game(players=players, seed=seed, expansions=expansions)
    while len(out) < count:
        if g.finished:
            seed += 1
            g = carcassonne.Game(players=players, seed=seed, expansions=expansions)
        out.append(g.clone())
        g.play(rng.choice(g.legal_moves()))
    return out


@pytest.mark.parametrize("expansions", EXPANSIONS, ids=lambda e: "+".join(e) or "base")
def test_actions_match_the_move_strings(expansions):
    for g in positions(1, scaled(150, 20), expansions):
        actions = g.legal_actions()
        moves = g.legal_moves()
        assert actions == sorted(actions) and len(set(actions)) == len(actions)
        assert all(0 <= a < g.num_actions for a in actions)
        assert len(actions) == len(moves)  # the window holds the whole board here
        strings = [g.action_to_string(a) for a in actions]
        assert sorted(strings) == sorted(moves)  # the fast formatter = the library's
        for a, s in zip(actions, strings):
            assert g.string_to_action(s) == a
        mask = g.action_mask()
        assert mask.dtype == np.int8 and mask.shape == (g.num_actions,)
        assert list(np.flatnonzero(mask)) == actions
        assert not g.window_overflow()


def test_action_space_layout():
    g = carcassonne.Game(board_size=9)
    assert g.num_actions == 9 * 9 * 4 * FIGURE_SLOTS + 1
    assert FIGURE_SLOTS == 1 + 9 * 4


def test_integer_games_replay(cli, tmp_path):
    from conftest import replay
    rng = random.Random(4)
    for seed in range(scaled(5)):
        g = carcassonne.Game(seed=seed, expansions=["river"] if seed % 2 else None)
        while not g.finished:
            g.apply_action(rng.choice(g.legal_actions()))
        status, out = replay(cli, g.record(), tmp_path)
        assert status == 0 and out["scores"] == g.scores


def test_apply_action_refuses_illegal_actions():
    g = carcassonne.Game(seed=2)
    legal = set(g.legal_actions())
    before = g.record()
    for a in (-1, g.num_actions, 2**70, next(a for a in range(g.num_actions) if a not in legal)):
        with pytest.raises(ValueError):
            g.apply_action(a)
    for bad in ("1", 1.0, None, True):
        with pytest.raises(TypeError):
            g.apply_action(bad)
    with pytest.raises(ValueError):
        g.action_to_string(-5)
    assert g.record() == before


def test_a_non_canonical_rotation_is_the_same_action():
    # Tile C (all city) fits at every rotation: rotations 1..3 are rotation 0.
    for g in positions(3, 400):
        if g.tile != "C":
            continue
        a = g.legal_actions()[0]
        slot, rest = a % FIGURE_SLOTS, a // FIGURE_SLOTS
        assert rest % 4 == 0
        other = (rest + 1) * FIGURE_SLOTS + slot
        h = g.clone()
        h.apply_action(other)
        g.apply_action(a)
        assert h.record() == g.record()
        return
    pytest.skip("no tile C drawn")  # pragma: no cover


def test_chance_nodes():
    rng = random.Random(6)
    g = carcassonne.Game(seed=5, explicit_chance=True, expansions=["river"])
    draws = 0
    while not g.finished:
        if g.is_chance_node():
            outcomes = g.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert [k for k, _ in outcomes] == g.legal_actions()
            assert g.tile is None and g.legal_moves() == []
            with pytest.raises(ValueError, match="chance"):
                g.play("E 0 -1 0")
            kinds = [k for k, _ in outcomes]
            probs = [p for _, p in outcomes]
            kind = rng.choices(kinds, probs)[0]
            assert g.action_to_string(kind) == "draw " + carcassonne.tile_ids()[kind]
            g.apply_action(kind)
            assert g.tile == carcassonne.tile_ids()[kind]
            draws += 1
        else:
            assert g.chance_outcomes() == []
            g.apply_action(rng.choice(g.legal_actions()))
    assert draws >= 80
    assert carcassonne.Game.from_record(g.record()).scores == g.scores


def test_the_first_river_draw_is_the_spring_side():
    g = carcassonne.Game(seed=1, explicit_chance=True, expansions=["river"])
    outcomes = g.chance_outcomes()
    ids = carcassonne.tile_ids()
    assert all(ids[k].startswith("R") for k, _ in outcomes)
    with pytest.raises(ValueError):
        g.apply_action(ids.index("A"))  # a main-pile tile while the river is laid


def test_observation_shapes_and_seats():
    g = carcassonne.Game(players=3, seed=7)
    for _ in range(12):
        moves = g.legal_moves()
        g.play(moves[-1])  # the last move has a figure when one may go down
    for seat in range(3):
        board, glob = g.observation(seat)
        assert board.shape == (carcassonne.PLANES, 31, 31) and board.dtype == np.float32
        assert glob.shape == (carcassonne.GLOBALS,) and glob.dtype == np.float32
        assert board.min() >= 0 and board.max() <= 2 and glob.min() >= 0
        assert board[0].sum() == 13  # the start tile and 12 placed
        # The seat's own scores come first in the globals.
        assert glob[1] * 100 == pytest.approx(g.scores[seat])
        f = carcassonne._core.SEAT_FEATURES
        assert glob[0] == 1 and glob[f] == 1 and glob[2 * f] == 1 and glob[3 * f] == 0
    # The figures planes: seat 0's followers are "its own" (planes 18..22)
    # from seat 0 and "the next but one" from seat 1.
    b0, _ = g.observation(0)
    b1, _ = g.observation(1)
    assert np.array_equal(b0[18:23], b1[28:33])
    assert len(g.observation_tensor(0)) == carcassonne.PLANES * 31 * 31 + carcassonne.GLOBALS
    with pytest.raises(ValueError):
        g.observation(3)


def test_observation_leaves_the_pile_order_out():
    g = carcassonne.Game(seed=9)
    rng = random.Random(1)
    for _ in range(20):
        g.play(rng.choice(g.legal_moves()))
    text = g.record()
    # The same public position dealt on from other seeds: the hidden order
    # of the pile differs, the observation must not.
    a = carcassonne.Game.from_record(text, seed=1)
    same = [b for b in (carcassonne.Game.from_record(text, seed=s) for s in range(2, 60))
            if b.tile == a.tile]
    assert same, "no other deal drew the same tile"
    for b in same[:3]:
        for seat in range(2):
            assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    # At a chance node the drawn tile is not shown.
    c = carcassonne.Game(seed=3, explicit_chance=True)
    board, glob = c.observation(0)
    fits, drawn = carcassonne._core.PLANE_FITS, carcassonne._core.GLOBAL_DRAWN
    assert board[fits:fits + 4].sum() == 0 and glob[drawn:drawn + 96].sum() == 0


def test_rotations():
    for g in positions(2, scaled(40, 10), ["inns-cathedrals"]):
        s = g.board_size
        board, _ = g.observation()
        mask = g.action_mask()
        assert np.array_equal(rotate_board(board, 4), board)
        assert np.array_equal(rotate_mask(mask, s, 4), mask)
        for k in range(1, 4):
            rb, rm = rotate_board(board, k), rotate_mask(mask, s, k)
            # The mask and the actions turn alike.
            assert sorted(rotate_action(a, s, k) for a in np.flatnonzero(mask)) == \
                list(np.flatnonzero(rm))
            # The turned "fits" planes are the turned mask's placements.
            fits = set()
            for a in np.flatnonzero(rm)[:-1] if rm[-1] else np.flatnonzero(rm):
                rest = a // FIGURE_SLOTS
                rot, square = rest % 4, rest // 4
                fits.add((rot, square // s, square % s))
            f0 = carcassonne._core.PLANE_FITS
            planes = {(r, row, col) for r, row, col in zip(*np.nonzero(rb[f0:f0 + 4]))}
            assert fits <= planes  # canonical rotations are among all fitting ones
            # The tile plane turns as squares do; edges follow: a city on the
            # north edge of a square is on the east edge once turned.
            assert rb[0].sum() == board[0].sum()
            assert np.array_equal(np.rot90(board[1], -k), rb[1 + 3 * (k % 4)])
        # A batch turns alike.
        batch = np.stack([board, board])
        assert np.array_equal(rotate_board(batch, 1)[1], rotate_board(board, 1))


def test_draw_sets_the_drawn_tile():
    g = carcassonne.Game(seed=1)
    g.draw("C")
    assert g.tile == "C"
    assert all(m.startswith("C ") for m in g.legal_moves())
    with pytest.raises(ValueError, match="no tile"):
        g.draw("ZZ")
    with pytest.raises(ValueError, match="cannot draw"):
        g.draw("RA")  # not in a base game's pile
    with pytest.raises(TypeError):
        g.draw(3)
    # At a chance node draw() is the chance outcome.
    h = carcassonne.Game(seed=1, explicit_chance=True)
    h.draw("D")
    assert not h.is_chance_node() and h.tile == "D"


def test_a_small_window_leaves_moves_out_and_says_so():
    # A 5-square window holds a board of 3 squares a side: random games
    # outgrow it soon, which exercises the overflow paths.
    rng = random.Random(8)
    overflowed = 0
    for seed in range(scaled(10, 3)):
        g = carcassonne.Game(seed=seed, board_size=5)
        while not g.finished:
            actions, moves = g.legal_actions(), g.legal_moves()
            assert len(actions) <= len(moves)
            assert g.window_overflow() == (len(actions) < len(moves))
            assert all(0 <= a < g.num_actions for a in actions)
            assert set(g.action_to_string(a) for a in actions) <= set(moves)
            assert list(np.flatnonzero(g.action_mask())) == actions
            board, _ = g.observation()
            assert board.shape == (carcassonne.PLANES, 5, 5)
            overflowed += g.window_overflow()
            g.play(rng.choice(moves))  # the plain interface plays any of them
    assert overflowed > 0
