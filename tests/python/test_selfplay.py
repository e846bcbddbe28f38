"""selfplay(): many games in C on threads, one call."""
import numpy as np
import pytest

import carcassonne
from conftest import replay, scaled


def test_selfplay_shapes_and_replay(cli, tmp_path):
    records, scores = carcassonne.selfplay(20, players=3, seed=5)
    assert scores.shape == (20, 3) and scores.dtype == np.int32
    assert len(records) == 20
    for i in (0, 7, 19):
        status, out = replay(cli, records[i], tmp_path)
        assert status == 0 and out["scores"] == list(scores[i])
        assert "seed %d" % (5 + i) in records[i]


def test_selfplay_does_not_depend_on_threads():
    n = scaled(400, 40)
    r1, s1 = carcassonne.selfplay(n, 2, seed=9, threads=1)
    r2, s2 = carcassonne.selfplay(n, 2, seed=9, threads=2)
    r4, s4 = carcassonne.selfplay(n, 2, seed=9, threads=4)
    assert r1 == r2 == r4
    assert np.array_equal(s1, s2) and np.array_equal(s1, s4)
    none, s5 = carcassonne.selfplay(n, 2, seed=9, threads=2, records=False)
    assert none is None and np.array_equal(s1, s5)


def test_selfplay_with_player_specs_and_expansions(cli, tmp_path):
    records, scores = carcassonne.selfplay(4, 2, seed=1, player=["greedy", "random"], threads=2,
                                           expansions=["inns-cathedrals"], rules=["small-city"])
    for rec, sc in zip(records, scores):
        assert "expansions inns-cathedrals" in rec and "rules small-city" in rec
        status, out = replay(cli, rec, tmp_path)
        assert status == 0 and out["scores"] == list(sc)
    # Greedy beats random over a few games.
    _, scores = carcassonne.selfplay(scaled(40, 10), 2, seed=2, player=["greedy", "random"],
                                     threads=2, records=False)
    assert scores[:, 0].mean() > scores[:, 1].mean()


def test_selfplay_refuses_bad_arguments():
    with pytest.raises(ValueError, match="player"):
        carcassonne.selfplay(1, 2, player="nobody")
    with pytest.raises(ValueError):
        carcassonne.selfplay(1, 9)
    with pytest.raises(ValueError):
        carcassonne.selfplay(-1, 2)
    with pytest.raises(ValueError):
        carcassonne.selfplay(1, 2, threads=0)
    with pytest.raises(ValueError):
        carcassonne.selfplay(1, 2, player=["random", "random", "random"])
    with pytest.raises(TypeError):
        carcassonne.selfplay(1, 2, player=[1])
    with pytest.raises(ValueError, match="rules"):
        carcassonne.selfplay(1, 2, rules=["nope"])
    records, scores = carcassonne.selfplay(0, 2)
    assert records == [] and scores.shape == (0, 2)
