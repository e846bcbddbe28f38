"""A hand of tiles (the house rule hand=N, docs/python.md "A hand of
tiles"): whole games through both interfaces, replayed by `carcassonne
replay`; the observation shows the viewer's own hand and only the sizes
of the others (same public view and own hand, different hidden hands:
identical observations); seven and eight players; chance nodes that deal
the hands."""
import random

import numpy as np
import pytest

import carcassonne
from carcassonne import FIGURE_SLOTS, rotate_action, rotate_board, rotate_mask
from conftest import replay, scaled

HAND_RULES = [["hand=3"], ["hand=1"], ["hand=2", "open-hands"],
              ["hand=2", "reshuffle", "table=7x7"], ["hand=3", "start-in-pile"]]


def block(g):
    return g.board_size * g.board_size * 4 * FIGURE_SLOTS + 1


@pytest.mark.parametrize("rules", HAND_RULES, ids=lambda r: ",".join(r))
def test_strings_play_to_the_end_and_replay(rules, cli, tmp_path):
    for seed in range(scaled(4, 2)):
        rng = random.Random(seed)
        g = carcassonne.Game(players=2, seed=seed, rules=rules)
        tiles = set()
        while not g.finished:
            moves = g.legal_moves()
            hand = g.hand(g.current_player)
            # Every move names a tile of the mover's hand, and each tile of
            # the hand has its moves (or its discard).
            named = {m.split()[1] if m.startswith("discard ") else m.split()[0] for m in moves}
            assert named <= set(hand) and named
            move = rng.choice(moves)
            tiles.add(move.split()[0])
            g.play(move)
        code, out = replay(cli, g.record(), tmp_path)
        assert code == 0, out
        assert out["scores"] == g.scores and out["finished"]
        assert "draw 1 " in g.record()


@pytest.mark.parametrize("rules", HAND_RULES, ids=lambda r: ",".join(r))
def test_actions_play_to_the_end_and_replay(rules, cli, tmp_path):
    n = carcassonne.Game(rules=rules).num_actions
    hand = int(rules[0].split("=")[1])
    assert n == hand * block(carcassonne.Game(rules=rules))
    for seed in range(scaled(3, 1)):
        rng = random.Random(seed)
        g = carcassonne.Game(players=2, seed=seed, rules=rules)
        while not g.finished:
            actions = g.legal_actions()
            moves = g.legal_moves()
            assert len(actions) == len(moves)
            assert sorted(g.action_to_string(a) for a in actions) == sorted(moves)
            mask = g.action_mask()
            assert mask.shape == (n,) and list(np.flatnonzero(mask)) == actions
            a = rng.choice(actions)
            # The block of an action is the hand tile it places.
            tile = g.hand(g.current_player)[a // block(g)]
            text = g.action_to_string(a)
            assert tile == (text.split()[1] if text.startswith("discard ") else text.split()[0])
            assert g.string_to_action(text) == a
            g.apply_action(a)
        code, out = replay(cli, g.record(), tmp_path)
        assert code == 0 and out["scores"] == g.scores, out


def test_observation_shows_the_own_hand_and_the_other_sizes():
    g = carcassonne.Game(players=3, seed=5, rules=["hand=3"])
    rng = random.Random(5)
    core = carcassonne._core
    for _ in range(10):
        g.play(rng.choice(g.legal_moves()))
    for seat in range(3):
        board, glob = g.observation(seat)
        own = g.hand(seat)
        ids = carcassonne.tile_ids()
        for h, tile in enumerate(own):
            row = glob[core.GLOBAL_HAND + h * core.MAX_KINDS:core.GLOBAL_HAND + (h + 1) * core.MAX_KINDS]
            assert row.sum() == 1 and ids[int(np.argmax(row))] == tile
        for rel in range(3):
            p = (seat + rel) % 3
            assert glob[rel * core.SEAT_FEATURES + 9] == pytest.approx(len(g.hand(p)) / 3)
        # The fit planes: each tile of the own hand on the own turn, none else.
        fits = board[core.PLANE_FITS:core.PLANE_FITS + 12]
        if seat == g.current_player:
            for h in range(len(own)):
                assert fits[4 * h:4 * h + 4].sum() > 0 or any(
                    m == "discard " + own[h] for m in g.legal_moves())
        else:
            assert fits.sum() == 0
            assert glob[core.GLOBAL_DRAWN:core.GLOBAL_DRAWN + core.MAX_KINDS].sum() == 0


def test_hidden_hands_do_not_change_the_observation():
    """Two games in the same public position, with the viewer's hand the
    same and the other hands different: identical observations (the pile's
    per-kind counts would tell the other hands: the observation counts the
    tiles the viewer has not seen)."""
    rng = random.Random(11)
    tried = 0
    for seed in range(400):
        a = carcassonne.Game(players=2, seed=seed, rules=["hand=3"])
        moves = []
        for _ in range(rng.randrange(0, 12)):
            m = rng.choice(a.legal_moves())
            moves.append(m)
            a.play(m)
        viewer = a.current_player
        other = 1 - viewer
        # Another deal with the same hand for the viewer and the same moves.
        for seed2 in range(seed + 1, seed + 400):
            b = carcassonne.Game(players=2, seed=seed2, rules=["hand=3"])
            ok = True
            for m in moves:
                if m not in b.legal_moves():
                    ok = False
                    break
                b.play(m)
            if not ok or b.hand(viewer) != a.hand(viewer) or b.scores != a.scores:
                continue
            if sorted(b.hand(other)) == sorted(a.hand(other)):
                continue
            tried += 1
            for seat in (viewer,):
                assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
            # The other seat sees its own (different) hand.
            assert not np.array_equal(a.observation_tensor(other), b.observation_tensor(other))
            break
        if tried >= scaled(3, 1):
            break
    assert tried >= 1, "no pair of deals with the same viewer hand was found"


@pytest.mark.parametrize("players", [7, 8])
def test_seven_and_eight_players(players, cli, tmp_path):
    core = carcassonne._core
    g = carcassonne.Game(players=players, seed=3, rules=["hand=2"])
    rng = random.Random(3)
    seen_last = False
    while not g.finished:
        board, glob = g.observation()
        assert board.shape == (carcassonne.PLANES, 31, 31)
        # Each seat's block of globals is its own: seated, from the viewer.
        assert all(glob[r * core.SEAT_FEATURES] == 1 for r in range(players))
        assert all(glob[r * core.SEAT_FEATURES] == 0 for r in range(players, 8))
        # Figures of seats 6 and 7 have planes of their own below the fits.
        seen_last |= board[core.PLANE_FIGURES + 5 * (players - 1):core.PLANE_FITS].sum() > 0
        g.play(rng.choice(g.legal_moves()))
    assert seen_last, "the last seat never had a figure on the board"
    code, out = replay(cli, g.record(), tmp_path)
    assert code == 0 and out["scores"] == g.scores
    g = carcassonne.Game(players=players, seed=4)
    while not g.finished:
        g.apply_action(rng.choice(g.legal_actions()))
    assert len(g.scores) == players


@pytest.mark.parametrize("rules", [["hand=3"], ["hand=2", "reshuffle", "table=7x7"]],
                         ids=lambda r: ",".join(r))
def test_chance_nodes_deal_the_hands(rules, cli, tmp_path):
    """With explicit_chance=True each draw into a hand is a chance node: the
    set-up's N per player first, then the draw-up after each move. The
    outcome chosen is the tile drawn; a draw not yet made is in no
    observation; the record replays to the same scores."""
    core = carcassonne._core
    n = int(rules[0].split("=")[1])
    rng = random.Random(7)
    g = carcassonne.Game(players=2, seed=7, rules=rules, explicit_chance=True)
    # The set-up: N chance nodes per player, no hand seen before its draws.
    for i in range(2 * n):
        assert g.is_chance_node() and g.legal_moves() == [] and g.tile is None
        outcomes = g.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        _, glob = g.observation(0)
        seen = glob[core.GLOBAL_HAND:core.GLOBAL_HAND + n * core.MAX_KINDS].sum()
        assert seen == min(i, n)  # player 1 draws first, then player 2
        kind = max(outcomes, key=lambda o: (o[1], -o[0]))[0]
        g.apply_action(kind)
        assert carcassonne.tile_ids()[kind] in g.hand(0 if i < n else 1)
    chance = 0
    while not g.finished:
        if g.is_chance_node():
            kinds = [k for k, _ in g.chance_outcomes()]
            assert kinds == g.legal_actions()
            g.apply_action(rng.choice(kinds))
            chance += 1
        else:
            g.play(rng.choice(g.legal_moves()))
    assert chance > 20
    code, out = replay(cli, g.record(), tmp_path)
    assert code == 0 and out["scores"] == g.scores, out
    # draw() names a chance node's draw too; outside one it is refused.
    h = carcassonne.Game(seed=1, rules=["hand=1"], explicit_chance=True)
    h.draw("U")
    assert h.hand(0) == ["U"]
    with pytest.raises(ValueError):
        carcassonne.Game(seed=1, rules=["hand=1"]).draw("U")


def test_hand_rotations():
    g = carcassonne.Game(seed=2, rules=["hand=3"])
    rng = random.Random(2)
    for _ in range(scaled(15, 5)):
        s = g.board_size
        board, _ = g.observation()
        mask = g.action_mask()
        for k in range(1, 4):
            rm = rotate_mask(mask, s, k)
            assert sorted(rotate_action(a, s, k) for a in np.flatnonzero(mask)) == \
                list(np.flatnonzero(rm))
            rb = rotate_board(board, k)
            assert rb[carcassonne._core.PLANE_FITS:carcassonne._core.PLANE_LAST].sum() == \
                board[carcassonne._core.PLANE_FITS:carcassonne._core.PLANE_LAST].sum()
        g.play(rng.choice(g.legal_moves()))


def test_hand_accessor():
    g = carcassonne.Game(seed=1, rules=["hand=3"])
    assert len(g.hand(0)) == 3 and len(g.hand(1)) == 3
    assert carcassonne.Game(seed=1).hand(0) == []
    with pytest.raises(ValueError):
        g.hand(2)
