"""Copies and pickles of a Game (docs/python.md, "Copies, pickles and the
seed"): copy.deepcopy and pickle give the same state (legal moves, actions,
observations of every seat) and the same future draws, mid-game, with every
expansion, with hands, at chance nodes; the seed header of record()."""
import copy
import pickle
import random

import numpy as np
import pytest

import carcassonne

ALL = ["river", "inns-cathedrals", "traders-builders"]
CASES = [
    dict(players=2),
    dict(players=3, expansions=["river"]),
    dict(players=4, expansions=ALL),
    dict(players=2, rules=["hand=3"]),
    dict(players=3, rules=["hand=3", "reshuffle"], expansions=ALL),
    dict(players=8, rules=["reshuffle"]),
    dict(players=2, explicit_chance=True),
    dict(players=3, explicit_chance=True, rules=["hand=3"], expansions=["river"]),
]


def step(g, rng):
    """One random move or chance outcome."""
    if g.is_chance_node():
        kinds, odds = zip(*g.chance_outcomes())
        g.apply_action(rng.choices(kinds, odds)[0])
    else:
        g.play(rng.choice(g.legal_moves()))


def position(g):
    """Everything a caller can read of the position, every seat's view."""
    seen = [g.record(), g.scores, g.current_player, g.tile, g.is_chance_node(), g.tiles_left(),
            g.events, g.seed]
    seen += [g.chance_outcomes()] if g.is_chance_node() else [g.legal_moves(), g.legal_actions()]
    for seat in range(g.players):
        board, glob = g.observation(seat)
        seen += [board.tobytes(), glob.tobytes()]
    return seen


def future(g, seed):
    """The rest of the game played with random choices from `seed`; a game
    without chance nodes draws from its own pile, so this holds its draws."""
    g, rng, seen = g.clone(), random.Random(seed), []
    while not g.finished:
        seen.append((g.tile, g.current_player, len(g.legal_actions())))
        step(g, rng)
    return seen + [g.record(), g.scores]


def mid_game(case, moves, seed=17):
    g = carcassonne.Game(seed=seed, **case)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.finished:
            break
        step(g, rng)
    return g


@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(
    ["%s=%s" % (k, v) for k, v in sorted(c.items())]))
def test_copies_and_pickles_are_the_same_game(case):
    for moves in (0, 1, 9, 30):
        g = mid_game(case, moves)
        for copied in (copy.deepcopy(g), copy.copy(g), pickle.loads(pickle.dumps(g)),
                       pickle.loads(pickle.dumps(g, protocol=0))):
            assert type(copied) is type(g)
            assert position(copied) == position(g), (case, moves)
            assert future(copied, moves) == future(g, moves), (case, moves)


def test_a_chance_node_with_draws_not_yet_named_pickles():
    """hand=3 with chance nodes: at the set-up and after a move the draws
    not yet named are no draws yet; the copy names them as the original."""
    case = dict(players=3, explicit_chance=True, rules=["hand=3"])
    g = carcassonne.Game(seed=4, **case)
    assert g.is_chance_node()  # the set-up's first draw
    rng = random.Random(1)
    tried = 0
    for _ in range(60):
        if g.is_chance_node():
            h = pickle.loads(pickle.dumps(g))
            assert h.is_chance_node() and h.chance_outcomes() == g.chance_outcomes()
            assert h.record() == g.record() and h.tiles_left() == g.tiles_left()
            assert future(h, tried) == future(g, tried)
            tried += 1
        step(g, rng)
    assert tried >= 10


def test_a_finished_game_pickles():
    g = mid_game(dict(players=2, expansions=ALL), 500)
    assert g.finished
    h = pickle.loads(pickle.dumps(g))
    assert h.finished and position(h) == position(g) and h.returns() == g.returns()


def test_a_pickle_is_the_record_the_seed_and_the_deal():
    g = mid_game(dict(players=2), 5, seed=9)
    reducer, (cls, state) = g.__reduce__()
    assert cls is carcassonne.Game
    assert state["record"] == g.record() and state["seed"] == 9
    assert len(state["pile"]) == g.tiles_left()
    assert carcassonne.tile_ids()[state["tile"]] == g.tile
    state = dict(state, pile=state["pile"][:-1])
    with pytest.raises(ValueError, match="does not fit the record"):
        reducer(cls, state)
    with pytest.raises(ValueError, match="not a pickled carcassonne.Game"):
        reducer(cls, dict(state, version=99))


def test_the_seed_is_readable_and_the_record_carries_it():
    g = mid_game(dict(players=2), 10, seed=123)
    assert g.seed == 123
    assert "\nseed 123\n" in g.record()
    back = carcassonne.Game.from_record(g.record())  # no seed given: the header's
    assert back.seed == 123
    assert future(back, 5) == future(g, 5)
    assert back.events == g.events
    # Without the header the seed given decides the tiles after the record.
    plain = g.record().replace("seed 123\n", "")
    other = carcassonne.Game.from_record(plain, seed=7)
    assert other.seed == 7 and future(other, 5) != future(g, 5)


@pytest.mark.parametrize("case", [dict(rules=["hand=3"]), dict(expansions=ALL),
                                  dict(rules=["start-in-pile"])])
def test_from_record_continues_the_deal_with_expansions_and_hands(case):
    g = mid_game(dict(players=3, **case), 12, seed=2**64 - 5)
    assert "\nseed %d\n" % (2**64 - 5) in g.record()
    back = carcassonne.Game.from_record(g.record())
    assert back.seed == g.seed and future(back, 1) == future(g, 1)


def test_no_seed_header_once_the_deal_was_changed():
    g = carcassonne.Game(seed=3)
    drawn = g.tile
    other = next(t for t in ("A", "B", "C", "E") if t != drawn)
    g.draw(other)  # a draw the seed did not deal
    assert "seed" not in g.record()
    # Chosen chance outcomes are not the seed's deal either (but for luck).
    h = carcassonne.Game(seed=3, explicit_chance=True)
    kinds = [k for k, _ in h.chance_outcomes()]
    h.apply_action(kinds[0] if carcassonne.tile_ids()[kinds[0]] != drawn else kinds[1])
    assert "seed" not in h.record()
    # A record whose seed header did not deal it: read with the seed given.
    forged = mid_game(dict(players=2), 6, seed=5).record().replace("seed 5", "seed 6")
    assert carcassonne.Game.from_record(forged, seed=1).seed == 1
