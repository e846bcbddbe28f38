"""carcassonne.exact (the exact endgame solver) and Player.rank (a
player's estimates of every legal move) from Python."""
import gc
import json
import subprocess

import numpy as np
import pytest

import carcassonne
from conftest import SCALE, scaled


def endgame(seed, tiles_left, players=2, rules=None, expansions=None):
    """A game played by greedy until `tiles_left` tiles are left to draw."""
    g = carcassonne.Game(players=players, seed=seed, rules=rules, expansions=expansions)
    p = carcassonne.Player("greedy", seed=seed)
    while g.tiles_left() > tiles_left:
        g.play(p.choose(g))
    assert not g.finished
    return g


def test_the_last_tile_margins_are_the_final_margins():
    # With the drawn tile the last one, a move's exact margin is the final
    # margin the move leaves: played here, independently of the solver.
    for seed in range(scaled(6, 2)):
        g = endgame(100 + seed, 0)
        r = carcassonne.exact(g, threads=1)
        assert r["exact"] and r["tiles_left"] == 0 and r["reason"] == ""
        me = g.current_player
        assert sorted(m["move"] for m in r["moves"]) == sorted(g.legal_moves())
        for m in r["moves"]:
            trial = g.clone()
            trial.play(m["move"])
            assert trial.finished
            others = max(s for i, s in enumerate(trial.scores) if i != me)
            assert m["margin"] == trial.scores[me] - others, m
        margins = [m["margin"] for m in r["moves"]]
        assert margins == sorted(margins, reverse=True)  # best first


def test_the_same_margins_as_the_command_line(cli, tmp_path):
    for seed, left in ((11, 2), (12, 3)):
        g = endgame(seed, left)
        r = carcassonne.exact(g, threads=1)
        assert r["exact"] and r["tiles_left"] == left and r["positions"] > 0
        path = tmp_path / ("game-%d.rec" % seed)
        path.write_text(g.record())
        out = subprocess.run([cli, "analyse", "--exact", "--exact-threads", "1", "--tile", g.tile,
                              "--json", str(path)], capture_output=True, text=True, check=True)
        want = json.loads(out.stdout)
        assert want["exact"] and want["tiles_left"] == left
        got = sorted((m["move"], round(m["margin"], 4)) for m in r["moves"])
        assert got == sorted((m["move"], m["margin"]) for m in want["moves"])


def test_threads_give_the_same_margins_and_actions_match():
    g = endgame(13, 2)
    one = carcassonne.exact(g, threads=1)
    three = carcassonne.exact(g, threads=3, ms=None)
    assert one["exact"] and three["exact"]
    assert sorted((m["move"], m["margin"]) for m in one["moves"]) == \
        sorted((m["move"], m["margin"]) for m in three["moves"])
    for m in one["moves"]:
        assert m["action"] == g.string_to_action(m["move"])
        assert m["visits"] >= 1
    # The solve ran on a copy: the game is as it was.
    assert g.tiles_left() == 2 and not g.finished


def test_when_it_gives_up_it_says_why():
    start = carcassonne.exact(carcassonne.Game(seed=1))
    assert not start["exact"] and start["moves"] == []
    assert "tiles left" in start["reason"] and str(carcassonne._core.EXACT_MAX_TILES) in \
        start["reason"]
    tight = carcassonne.exact(endgame(14, 3), threads=1, max_nodes=1)
    assert not tight["exact"] and tight["moves"] == [] and tight["reason"]
    hand = carcassonne.Game(seed=3, rules=["hand=2"])
    hidden = carcassonne.exact(hand)
    assert not hidden["exact"] and hidden["reason"]


def test_bad_arguments_are_refused():
    g = endgame(15, 1)
    for bad in (0, -1, 65):
        with pytest.raises(ValueError, match="threads"):
            carcassonne.exact(g, threads=bad)
    with pytest.raises(ValueError, match="threads"):
        carcassonne.exact(g, threads=None)
    for bad in (0, -5):
        with pytest.raises(ValueError, match="ms"):
            carcassonne.exact(g, ms=bad)
    with pytest.raises(ValueError, match="max_nodes"):
        carcassonne.exact(g, max_nodes=0)
    for bad in ("100", 1.5, True):
        with pytest.raises(TypeError, match="ms"):
            carcassonne.exact(g, ms=bad)
    with pytest.raises(TypeError, match="Game"):
        carcassonne.exact("a game")
    assert carcassonne.exact(g, ms=np.int64(5000), threads=np.int32(1))["exact"]
    while not g.finished:
        g.play(g.legal_moves()[0])
    with pytest.raises(ValueError, match="finished"):
        carcassonne.exact(g)
    chance = carcassonne.Game(seed=2, explicit_chance=True)
    assert chance.is_chance_node()
    with pytest.raises(ValueError, match="chance"):
        carcassonne.exact(chance)


def test_rank_lists_every_legal_move_best_first():
    g = endgame(16, 30, expansions=["inns-cathedrals"])
    legal = sorted(g.legal_moves())
    for spec in ("greedy", "random", "mcts:iters=300,threads=1", "star25"):
        ranked = carcassonne.Player(spec, seed=4).rank(g)
        assert sorted(m["move"] for m in ranked) == legal, spec
        for m in ranked:
            assert set(m) == {"move", "action", "margin", "win", "visits"}
            assert 0.0 <= m["win"] <= 1.0
            assert m["action"] is None or m["action"] == g.string_to_action(m["move"])
    # The search's first move is the one it plays, and its visits are its
    # iterations (one thread).
    spec = "mcts:iters=400,threads=1"
    ranked = carcassonne.Player(spec, seed=9).rank(g)
    assert sum(m["visits"] for m in ranked) == 400
    chosen = carcassonne.Player(spec, seed=9).choose(g)
    assert g.string_to_action(ranked[0]["move"]) == g.string_to_action(chosen)
    # greedy ranks by its one-ply margin.
    greedy = carcassonne.Player("greedy").rank(g)
    margins = [m["margin"] for m in greedy]
    assert margins == sorted(margins, reverse=True)


def test_rank_refuses_what_choose_refuses():
    p = carcassonne.Player("greedy")
    with pytest.raises(TypeError, match="Game"):
        p.rank("a game")
    g = carcassonne.Game(seed=2, explicit_chance=True)
    with pytest.raises(ValueError, match="chance"):
        p.rank(g)


def test_rank_and_exact_leak_nothing():
    from test_robust import rss_kb
    g = endgame(17, 1)
    greedy = carcassonne.Player("greedy")
    search = carcassonne.Player("mcts:iters=50,threads=1", seed=1)

    def calls(n):
        for _ in range(n):
            assert carcassonne.exact(g, threads=1)["exact"]
            greedy.rank(g)
            search.rank(g)
    calls(scaled(300, 20))
    gc.collect()
    before, objects = rss_kb(), len(gc.get_objects())
    calls(scaled(2000, 50))
    gc.collect()
    assert len(gc.get_objects()) - objects < 100
    if SCALE >= 1:  # sanitizers keep freed memory in quarantine
        grown = rss_kb() - before
        assert grown < 2048, "RSS grew by %d KB" % grown
