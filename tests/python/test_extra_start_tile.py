"""The house rule extra-start-tile (Big Box 5's separate starter tile,
docs/record-extensions.md) through the package: an extra D starts, all
72 base tiles are in the pile, so a game is 72 moves; the record says the
rule and replays to the same scores; the River and start-in-pile are
refused with the library's words; VectorGame steps such games too."""
import random

import pytest

import carcassonne
from conftest import replay


def test_a_game_of_72_moves_replays(cli, tmp_path):
    for seed in range(3):
        rng = random.Random(seed)
        g = carcassonne.Game(players=2, seed=seed, rules=["extra-start-tile"])
        plain = carcassonne.Game(players=2, seed=seed)
        assert g.tiles_left() == plain.tiles_left() + 1
        moves = 0
        while not g.finished:
            g.play(rng.choice(g.legal_moves()))
            moves += 1
        assert moves == 72
        assert "rules extra-start-tile\n" in g.record()
        code, out = replay(cli, g.record(), tmp_path)
        assert code == 0, out
        assert out["scores"] == g.scores and out["finished"]


@pytest.mark.parametrize("other", [dict(expansions=["river"]), dict(rules=["start-in-pile"])],
                         ids=["river", "start-in-pile"])
def test_refused_with_another_start(other):
    rules = ["extra-start-tile"] + other.get("rules", [])
    with pytest.raises(ValueError, match="extra-start-tile"):
        carcassonne.Game(players=2, rules=rules, expansions=other.get("expansions"))


def test_vector_games_play_it():
    vg = carcassonne.VectorGame(4, players=2, seed=3, rules=["extra-start-tile"])
    rng = random.Random(3)
    moves = [0] * 4
    ended = [None] * 4
    while any(e is None for e in ended):
        _, done = vg.step([rng.choice(a) for a in vg.legal_actions("list")])
        for i in range(4):
            moves[i] += 1
            if done[i] and ended[i] is None:
                ended[i] = moves[i]
    assert ended == [72] * 4  # no game was truncated: 72 tiles to play each
