"""VectorGame: n games stepped in C, checked against Game move by move."""
import numpy as np
import pytest

import carcassonne
from carcassonne import _core

OBS_KIND, OBS_ROTATION, OBS_SEAT, OBS_FEATURE, OBS_FIGURE, OBS_FITS, OBS_LAST = 0, 1, 2, 3, 4, 5, 8

CONFIGS = [
    dict(players=2),
    dict(players=3, expansions=["river", "inns-cathedrals", "traders-builders"]),
    dict(players=2, rules=["hand=3"]),
    dict(players=4, rules=["small-city", "bonus-turn", "reshuffle"], expansions=["traders-builders"]),
]


def margins(scores):
    scores = np.asarray(scores)
    return np.array([scores[p] - max(np.delete(scores, p)) for p in range(len(scores))])


def check_observation(board, glob, g):
    """The compact observation of a VectorGame's game against Game's own."""
    gboard, gglob = g.observation()
    assert np.array_equal(glob, gglob)
    assert np.array_equal(board[OBS_KIND] > 0, gboard[0] > 0)
    assert np.array_equal(board[OBS_LAST], gboard[_core.PLANE_LAST])
    # A figure of relative seat r on the tile: Game's planes of that seat.
    figures = gboard[_core.PLANE_FIGURES:_core.PLANE_FITS].reshape(8, 5, *gboard.shape[1:])
    for r in range(8):
        assert np.array_equal(board[OBS_SEAT] == r + 1, figures[r].sum(axis=0) > 0)
    large = figures[:, :4].max(axis=(0, 1)) == 2
    assert np.array_equal(board[OBS_FIGURE] == 1 + 1, large)
    # Fits at the canonical rotations, a subset of Game's fits (every
    # rotation), on the same squares.
    for h in range(3):
        gfits = gboard[_core.PLANE_FITS + 4 * h:_core.PLANE_FITS + 4 * h + 4]
        bits = board[OBS_FITS + h]
        assert np.array_equal(bits > 0, gfits.sum(axis=0) > 0)
        for r in range(4):
            assert not np.any((bits >> r) & 1 & (gfits[r] == 0))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(c.get("rules", []) + c.get(
    "expansions", [])) + "/%d" % c["players"])
def test_vector_game_matches_game_move_by_move(config):
    n, seed = 3, 40
    vg = carcassonne.VectorGame(n, seed=seed, **config)
    games = [carcassonne.Game(seed=seed + i, **config) for i in range(n)]
    deals = [0] * n
    sums = [np.zeros(config["players"]) for _ in range(n)]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(160):
        assert list(vg.seeds) == [seed + i + k * n for i, k in enumerate(deals)]
        assert list(vg.current_player) == [g.current_player for g in games]
        assert np.array_equal(vg.scores, [g.scores for g in games])
        indptr, actions = vg.legal_actions()
        lists = vg.legal_actions("list")
        board, glob = vg.observation()
        chosen = []
        for i, g in enumerate(games):
            mine = actions[indptr[i]:indptr[i + 1]].tolist()
            assert mine == lists[i]
            assert sorted(mine) == g.legal_actions() and len(set(mine)) == len(mine)
            check_observation(board[i], glob[i], g)
            chosen.append(mine[rng.integers(len(mine))])
        before = [margins(g.scores) for g in games]
        rewards, done = vg.step(chosen)
        assert rewards.dtype == np.float32 and rewards.shape == (n, config["players"])
        for i, g in enumerate(games):
            g.apply_action(chosen[i])
            assert np.array_equal(rewards[i], margins(g.scores) - before[i])
            sums[i] += rewards[i]
            assert done[i] == g.finished
            if done[i]:
                assert list(vg.final_scores[i]) == g.scores
                assert np.array_equal(sums[i], margins(g.scores))  # rewards add up to the margin
                deals[i] += 1
                ended += 1
                sums[i][:] = 0
                games[i] = carcassonne.Game(seed=seed + i + deals[i] * n, **config)
            assert vg.game(i).record(seed=False) == games[i].record(seed=False)
    assert not vg.truncated.any()
    if "hand=3" not in config.get("rules", []) and config["players"] == 2:
        assert ended >= 3  # 160 steps hold more than one game of each


def test_vector_game_truncates_when_the_window_is_full():
    vg = carcassonne.VectorGame(2, seed=3, board_size=5)
    games = [carcassonne.Game(seed=3 + i, board_size=5) for i in range(2)]
    rng = np.random.default_rng(1)
    truncated = 0
    for _ in range(60):
        lists = vg.legal_actions("list")
        chosen = [lst[rng.integers(len(lst))] for lst in lists]
        _, done = vg.step(chosen)
        for i, g in enumerate(games):
            g.apply_action(chosen[i])
            if vg.truncated[i]:
                # Game's own actions ran out there; the game was not over.
                assert done[i] and not g.finished and g.legal_actions() == []
                assert list(vg.final_scores[i]) == g.scores
                truncated += 1
            if done[i]:
                games[i] = carcassonne.Game(seed=int(vg.seeds[i]), board_size=5)
                assert vg.seeds[i] == 3 + i + 2 * (vg.seeds[i] - 3 - i) // 2
    assert truncated > 0


def test_vector_game_is_deterministic():
    a = carcassonne.VectorGame(8, players=3, seed=2**64 - 3, expansions=["river"])
    b = carcassonne.VectorGame(8, players=3, seed=2**64 - 3, expansions=["river"])
    assert list(a.seeds) == [(2**64 - 3 + i) % 2**64 for i in range(8)]
    rng = np.random.default_rng(3)
    for _ in range(100):
        ia, aa = a.legal_actions()
        ib, ab = b.legal_actions()
        assert np.array_equal(ia, ib) and np.array_equal(aa, ab)
        counts = np.diff(ia)
        chosen = aa[ia[:-1] + rng.integers(0, counts)]
        ra, da = a.step(chosen)
        rb, db = b.step(chosen.astype(np.int32))
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
    for x, y in zip(a.observation(), b.observation()):
        assert np.array_equal(x, y)


def test_vector_game_refuses_bad_input_and_changes_nothing():
    for n in (0, -1, 2**40):
        with pytest.raises((ValueError, OverflowError)):
            carcassonne.VectorGame(n)
    with pytest.raises(TypeError):
        carcassonne.VectorGame(2.0)
    with pytest.raises(ValueError, match="players"):
        carcassonne.VectorGame(2, players=1)
    with pytest.raises(ValueError, match="rules"):
        carcassonne.VectorGame(2, rules=["nope"])
    with pytest.raises(ValueError, match="board_size"):
        carcassonne.VectorGame(2, board_size=4)
    with pytest.raises(ValueError, match="seed"):
        carcassonne.VectorGame(2, seed=-1)
    vg = carcassonne.VectorGame(3, seed=8)
    indptr, actions = vg.legal_actions()
    good = actions[indptr[:-1]].copy()
    board, glob = vg.observation()
    scores = vg.scores.copy()
    bad_inputs = [
        (ValueError, good[:2]),                           # a wrong shape
        (ValueError, np.stack([good, good])),
        (TypeError, good.astype(np.float64)),             # not integers
        (TypeError, np.ones(3, dtype=bool)),
        (TypeError, ["a", "b", "c"]),
        (ValueError, np.array([good[0], -1, good[2]])),   # out of range
        (ValueError, np.array([good[0], vg.num_actions, good[2]])),
        (ValueError, np.array([good[0], good[1], 2**64 - 1], dtype=np.uint64)),
        (ValueError, [int(good[0]), int(good[1]), 2**70]),
        (TypeError, [int(good[0]), int(good[1]), None]),
        (ValueError, np.array([good[0], good[0] + 1 if good[0] + 1 not in actions[indptr[1]:indptr[2]]
                               else good[0] + 2, good[2]])),  # not legal in game 1
    ]
    for error, bad in bad_inputs:
        with pytest.raises(error):
            vg.step(bad)
        # Nothing moved: not game 0 either, whose action was good.
        i2, a2 = vg.legal_actions()
        assert np.array_equal(i2, indptr) and np.array_equal(a2, actions)
        assert np.array_equal(vg.scores, scores)
        b2, g2 = vg.observation()
        assert np.array_equal(b2, board) and np.array_equal(g2, glob)
    # The error names the game whose action is out of range (docs/python.md).
    with pytest.raises(ValueError, match=r"^game 1: action -1 is out of range"):
        vg.step(np.array([good[0], -1, good[2]]))
    with pytest.raises(ValueError, match=r"^game 2: action %d is out of range" % 2**70):
        vg.step([int(good[0]), int(good[1]), 2**70])
    with pytest.raises(ValueError, match="form"):
        vg.legal_actions("dense")
    with pytest.raises(TypeError):
        vg.observation((np.zeros(3), np.zeros(3)))
    with pytest.raises(ValueError):
        vg.observation((np.zeros((3, 9, 30, 31), np.uint8), np.zeros((3, 564), np.float32)))
    with pytest.raises(ValueError, match="out of range"):
        vg.game(3)
    vg.step(good)  # and it still plays
    out = vg.observation()
    again = vg.observation(out)
    assert again[0] is out[0] and again[1] is out[1]


def test_vector_games_step_in_threads():
    """step() and observation() run without the GIL: two VectorGames
    stepped from two threads at once play what they play one after the
    other."""
    import threading

    def play(vg, out):
        rng = np.random.default_rng(int(vg.seed))
        total = np.zeros((vg.n, vg.players), dtype=np.float32)
        for _ in range(300):
            indptr, actions = vg.legal_actions()
            rewards, _ = vg.step(actions[indptr[:-1] + rng.integers(0, np.diff(indptr))])
            total += rewards
            vg.observation()
        out.append((total, vg.scores.copy(), vg.seeds.copy()))

    alone = []
    for seed in (1, 2):
        play(carcassonne.VectorGame(16, seed=seed), alone)
    together = [[], []]
    threads = [threading.Thread(target=play, args=(carcassonne.VectorGame(16, seed=seed), out))
               for seed, out in zip((1, 2), together)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, (b,) in zip(alone, together):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
