"""carcassonne.openspiel against a stand-in of pyspiel's Python game
classes (OpenSpiel itself is not installed here): registration, the
state's players, chance nodes, actions, returns and the observer."""
import importlib
import random
import sys
import types

import numpy as np
import pytest

import carcassonne


def fake_pyspiel():
    """The parts of pyspiel a Python game uses, as plain classes."""
    m = types.ModuleType("pyspiel")
    ns = types.SimpleNamespace

    class GameType:
        Dynamics = ns(SEQUENTIAL="sequential")
        ChanceMode = ns(EXPLICIT_STOCHASTIC="explicit")
        Information = ns(IMPERFECT_INFORMATION="imperfect")
        Utility = ns(GENERAL_SUM="general")
        RewardModel = ns(TERMINAL="terminal")

        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)

    class GameInfo:
        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)

    class Game:
        def __init__(self, game_type, info, params):
            # pybind11 converts each parameter to a GameParameter, whose
            # int is a C++ int: a larger Python int is a TypeError there.
            for value in params.values():
                if isinstance(value, int) and not -2**31 <= value < 2**31:
                    raise TypeError("incompatible constructor arguments")
            self.game_type, self.info, self.params = game_type, info, params

    class State:
        def __init__(self, game):
            self.game = game

        def legal_actions(self):
            return self._legal_actions(self.current_player())

        def apply_action(self, action):
            assert action in self.legal_actions()
            self._apply_action(action)

    m.GameType, m.GameInfo, m.Game, m.State = GameType, GameInfo, Game, State
    m.PlayerId = ns(CHANCE=-1, TERMINAL=-4)
    m.registered = {}
    m.register_game = lambda game_type, cls: m.registered.__setitem__(game_type.short_name, cls)
    return m


@pytest.fixture
def openspiel(monkeypatch):
    fake = fake_pyspiel()
    monkeypatch.setitem(sys.modules, "pyspiel", fake)
    sys.modules.pop("carcassonne.openspiel", None)
    module = importlib.import_module("carcassonne.openspiel")
    yield fake, module
    sys.modules.pop("carcassonne.openspiel", None)


def test_registers_and_plays_a_game(openspiel, cli, tmp_path):
    from conftest import replay
    fake, module = openspiel
    cls = fake.registered["python_carcassonne"]
    assert module.CarcassonneGame is cls
    game = cls({"players": 3, "expansions": "river", "seed": 4})
    assert game.game_type.chance_mode == "explicit" and game.info.num_players == 3
    assert game.info.max_chance_outcomes == len(carcassonne.tile_ids())
    state = game.new_initial_state()
    observer = game.make_py_observer()
    rng = random.Random(2)
    chance_nodes = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == fake.PlayerId.CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            action = rng.choices([k for k, _ in outcomes], [p for _, p in outcomes])[0]
            chance_nodes += 1
        else:
            assert 0 <= player < 3
            observer.set_from(state, player)
            assert observer.tensor.shape == (len(state.game_state.observation_tensor(player)),)
            action = rng.choice(state.legal_actions())
            assert state._action_to_string(player, action) in state.game_state.legal_moves()
        state.apply_action(action)
    assert state.current_player() == fake.PlayerId.TERMINAL
    assert chance_nodes >= 82
    s = state.game_state.scores
    assert state.returns() == [float(s[p] - max(s[q] for q in range(3) if q != p))
                               for p in range(3)]
    status, out = replay(cli, str(state), tmp_path)
    assert status == 0 and out["scores"] == s
    assert np.isfinite(observer.tensor).all()


def test_seeds_and_actions_out_of_range_are_refused(openspiel):
    fake, _ = openspiel
    cls = fake.registered["python_carcassonne"]
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed %d is out of range" % seed):
            cls({"seed": seed})
    # OpenSpiel keeps an int parameter in a C++ int: the largest seed it
    # can carry plays, the next is refused by name (not pybind11's error)
    assert cls({"seed": 2**31 - 1}).new_initial_state().game_state.seed == 2**31 - 1
    with pytest.raises(ValueError, match="seed 2147483648 is out of range for OpenSpiel"):
        cls({"seed": 2**31})
    state = cls({"seed": 2}).new_initial_state()
    kind = state.legal_actions()[0]  # a chance node: the first draw
    with pytest.raises(ValueError, match=str(kind + 2**64)):
        state._apply_action(kind + 2**64)
    with pytest.raises(TypeError):
        state._action_to_string(fake.PlayerId.CHANCE, float(kind))  # not int()'d
    state._apply_action(np.int64(kind))
    action = state.legal_actions()[0]
    with pytest.raises(ValueError, match="action %d is out of range" % (action + 2**64)):
        state._apply_action(action + 2**64)
    with pytest.raises(TypeError):
        state._apply_action(float(action))
    state._apply_action(np.uint64(action))
    assert state.game_state.record(seed=False).count("\n") == 2


def test_without_pyspiel_nothing_registers(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import fails
    sys.modules.pop("carcassonne.openspiel", None)
    module = importlib.import_module("carcassonne.openspiel")
    assert module.CarcassonneGame is None
    sys.modules.pop("carcassonne.openspiel", None)
