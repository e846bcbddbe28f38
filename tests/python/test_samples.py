"""selfplay(samples=PATH): training samples written to .npz, checked by
replaying every game from its seed."""
import numpy as np
import pytest

import carcassonne

ITERS = 40
SPECS = ["mcts:iters=%d,threads=1" % ITERS, "random"]


def load(path):
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def run(tmp_path, name="s.npz", **kwargs):
    path = tmp_path / name
    records, scores = carcassonne.selfplay(samples=str(path), **kwargs)
    return records, scores, load(path)


@pytest.mark.parametrize("config", [dict(), dict(rules=["hand=3"]),
                                    dict(expansions=["river", "traders-builders"])],
                         ids=["base", "hand=3", "river,traders-builders"])
def test_samples_shapes_and_contents(tmp_path, config):
    games, seed = 2, 21
    records, scores, s = run(tmp_path, games=games, players=2, seed=seed, player=SPECS,
                             **config)
    n = len(s["action"])
    entries = s["policy_indptr"][-1]
    shapes = {"board": (n, carcassonne.OBS_PLANES, 31, 31), "globals": (n, carcassonne.GLOBALS),
              "action": (n,), "policy_indptr": (n + 1,), "player": (n,), "outcome": (n,),
              "margin": (n,), "record": (n,), "ply": (n,), "legal": (entries,),
              "visits": (entries,), "policy": (entries,)}
    types = {"board": np.uint8, "globals": np.float32, "action": np.int64,
             "policy_indptr": np.int64, "player": np.int8, "outcome": np.int8,
             "margin": np.int32, "record": np.int64, "ply": np.int32, "legal": np.int64,
             "visits": np.int32, "policy": np.float32}
    assert set(s) == set(shapes)
    for name, shape in shapes.items():
        assert s[name].shape == shape and s[name].dtype == types[name], name
    assert s["policy_indptr"][0] == 0 and np.all(np.diff(s["policy_indptr"]) > 0)
    searched = 0
    for r in range(games):
        rows = np.flatnonzero(s["record"] == r)
        assert np.array_equal(s["ply"][rows], np.arange(len(rows)))
        # The game again from its seed, each sample's action played.
        g = carcassonne.Game(players=2, seed=seed + r, **config)
        vg = carcassonne.VectorGame(1, players=2, seed=seed + r, **config)
        for k in rows:
            lo, hi = s["policy_indptr"][k], s["policy_indptr"][k + 1]
            legal, visits, policy = s["legal"][lo:hi], s["visits"][lo:hi], s["policy"][lo:hi]
            me = g.current_player
            assert s["player"][k] == me
            assert sorted(legal.tolist()) == g.legal_actions()
            # The observation is VectorGame's (and its globals Game's).
            board, glob = vg.observation()
            assert np.array_equal(s["board"][k], board[0])
            assert np.array_equal(s["globals"][k], glob[0])
            assert np.array_equal(s["globals"][k], g.observation()[1])
            assert abs(policy.sum() - 1) < 1e-5 and np.all(policy >= 0)
            played = int(s["action"][k])
            assert played in legal.tolist()
            if me == 0 and visits.sum() > 0:  # the search: its visits and their shares
                searched += 1
                assert visits.sum() == ITERS
                assert np.allclose(policy, visits / visits.sum())
                assert visits[legal.tolist().index(played)] == visits.max()
            else:  # no search (the random seat, a forced or exact endgame move)
                assert visits.sum() == 0 or me == 0
                assert np.array_equal(policy, (legal == played).astype(np.float32))
            g.apply_action(played)
            vg.step([played])
        assert g.finished and g.scores == list(scores[r])
        margins = [scores[r][p] - scores[r][1 - p] for p in range(2)]
        assert np.array_equal(s["margin"][rows], [margins[p] for p in s["player"][rows]])
        assert np.array_equal(s["outcome"][rows], np.sign(s["margin"][rows]))
    assert searched >= 10
    assert records[0].startswith("players 2")


def test_samples_are_deterministic(tmp_path):
    kwargs = dict(games=3, players=3, seed=5, player=SPECS[:1] * 2 + ["greedy"])
    r1, s1, a = run(tmp_path, "a.npz", threads=1, **kwargs)
    r2, s2, b = run(tmp_path, "b.npz", threads=2, **kwargs)
    assert r1 == r2 and np.array_equal(s1, s2)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    _, _, c = run(tmp_path, "c.npz", **dict(kwargs, seed=6))
    assert not np.array_equal(a["action"][:20], c["action"][:20])
    # The same games as without samples.
    r3, s3 = carcassonne.selfplay(**kwargs)
    assert r3 == r1 and np.array_equal(s3, s1)


def test_samples_with_a_smaller_window_and_bad_arguments(tmp_path):
    _, _, s = run(tmp_path, games=1, seed=3, board_size=9)
    assert s["board"].shape[1:] == (carcassonne.OBS_PLANES, 9, 9)
    # A move outside the window is no action: -1, and not among the legal ones.
    outside = s["action"] == -1
    assert np.all(s["policy"][s["policy_indptr"][:-1][~outside]] >= 0)
    with pytest.raises(TypeError, match="samples"):
        carcassonne.selfplay(1, samples=3)
    with pytest.raises(ValueError, match="board_size"):
        carcassonne.selfplay(1, samples=str(tmp_path / "x.npz"), board_size=4)
    assert not (tmp_path / "x.npz").exists()


def test_samples_path_is_checked_first_and_written_as_given(tmp_path):
    # Written at exactly the path given, also without ".npz" (numpy alone
    # would add it: np.load(PATH) would then not find the file).
    records, _ = carcassonne.selfplay(1, seed=4, samples=str(tmp_path / "plain"))
    assert (tmp_path / "plain").exists() and not (tmp_path / "plain.npz").exists()
    assert load(tmp_path / "plain")["record"].tolist() == [0] * len(load(tmp_path / "plain")["ply"])
    # A path as bytes, as the type check allows (numpy refused it, after
    # every game had been played).
    carcassonne.selfplay(1, seed=4, samples=str(tmp_path / "b.npz").encode())
    assert np.array_equal(load(tmp_path / "b.npz")["action"], load(tmp_path / "plain")["action"])
    # A path that cannot be written is refused before any game is played,
    # not after a run of hours (it was refused by numpy's writer, last).
    slow = dict(games=2, player="random")
    with pytest.raises(FileNotFoundError, match="no folder"):
        carcassonne.selfplay(samples=str(tmp_path / "missing" / "s.npz"), **slow)
    with pytest.raises(ValueError, match="not a file"):
        carcassonne.selfplay(samples=str(tmp_path), **slow)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.npz", "plain"]
