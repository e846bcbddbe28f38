"""Contract tests: each interface put through the checks of the real
library's own checker, one by one, written here against our classes (the
libraries are not installed here: docs/python.md, "What was checked").
Each check's comment names the checker function that makes it:
  Gymnasium  gymnasium/utils/env_checker.py (check_env) and
             passive_env_checker.py
  PettingZoo pettingzoo/test/api_test.py (api_test)
  OpenSpiel  open_spiel/tests/basic_tests.cc (RandomSimTest,
             CheckChanceOutcomes) and the pyspiel state contract
Seven and eight players go through every interface here too."""
import copy
import importlib
import inspect
import math
import pickle
import random
import re
import sys
import types

import numpy as np
import pytest

import carcassonne
from carcassonne import _spaces
from carcassonne.gym import CarcassonneEnv
from carcassonne.pettingzoo import env as pettingzoo_env

SETUPS = [dict(players=2), dict(players=7), dict(players=8),
          dict(players=3, rules=["hand=3"], expansions=["river"])]
IDS = ["2p", "7p", "8p", "3p-hand3-river"]


def equivalent(a, b):
    """env_checker.data_equivalence: same types, dict keys, shapes, dtypes
    and values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equivalent(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(equivalent(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and np.allclose(a, b, atol=1e-5)
    return a == b


def check_space(space):
    """passive_env_checker.check_space: Box low/high shapes equal the
    shape; Discrete n > 0 and shape (); a Dict not empty, each subspace
    checked."""
    if isinstance(space, _spaces.Dict):
        assert len(space.spaces) > 0
        for sub in space.spaces.values():
            check_space(sub)
    elif isinstance(space, _spaces.Box):
        assert space.low.shape == space.shape and space.high.shape == space.shape
        assert not np.any(space.low == space.high)  # _check_box_*_space warns
        assert not np.any(space.high < space.low)
    else:
        assert isinstance(space, _spaces.Discrete)
        assert space.n > 0 and space.shape == ()


def check_obs(obs, space):
    """passive_env_checker.check_obs: a dict with the space's keys, each
    Box observation a numpy array of the space's dtype, and within it."""
    if isinstance(space, _spaces.Dict):
        assert isinstance(obs, dict) and obs.keys() == space.spaces.keys()
        for key, sub in space.spaces.items():
            check_obs(obs[key], sub)
    else:
        assert isinstance(obs, np.ndarray) and obs.dtype == space.dtype
    assert space.contains(obs)


# --- Gymnasium: check_env -----------------------------------------------------

@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_gymnasium_check_env(setup):
    env = CarcassonneEnv(render_mode="ansi", **setup)
    # check_env: "The environment must inherit from the gymnasium.Env
    # class" (only with Gymnasium installed: the class then subclasses it).
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:  # pragma: no cover
        assert isinstance(env, gymnasium.Env)
    # check_env: env.unwrapped is env (else it warns of a wrapper).
    assert env.unwrapped is env
    # check_env: has action_space; check_action_space; check_space_limit
    # (it warns of a Box bound at infinity: only the globals' upper bound,
    # the scores having no fixed maximum).
    check_space(env.action_space)
    check_space(env.observation_space)
    for key, sub in env.observation_space.spaces.items():
        assert not np.any(np.isinf(sub.low)) and (key == "globals" or np.all(np.isfinite(sub.high)))
    # check_seed_deprecation: no callable `seed` on the environment.
    assert not callable(getattr(env, "seed", None))
    # check_reset_return_info_deprecation: no `return_info` argument.
    signature = inspect.signature(env.reset)
    assert "return_info" not in signature.parameters
    # check_reset_return_type: reset() gives (obs, info), obs in the space,
    # info a dict.
    result = env.reset()
    assert isinstance(result, tuple) and len(result) == 2
    assert env.observation_space.contains(result[0]) and isinstance(result[1], dict)
    # check_reset_seed: reset(seed=123) seeds env.unwrapped._np_random;
    # again with 123 the same observation and generator state; with 456
    # another generator state; the seed's default is None.
    assert "seed" in signature.parameters and signature.parameters["seed"].default is None
    obs_1, _ = env.reset(seed=123)
    assert env.observation_space.contains(obs_1)
    assert env.unwrapped._np_random is not None
    rng_123 = copy.deepcopy(env.unwrapped._np_random)
    obs_2, _ = env.reset(seed=123)
    assert env.observation_space.contains(obs_2) and equivalent(obs_1, obs_2)
    assert env.unwrapped._np_random.bit_generator.state == rng_123.bit_generator.state
    obs_3, _ = env.reset(seed=456)
    assert env.observation_space.contains(obs_3)
    assert env.unwrapped._np_random.bit_generator.state != rng_123.bit_generator.state
    # check_reset_options: reset(options={}) is accepted.
    assert "options" in signature.parameters
    env.reset(options={})
    # env_reset_passive_checker: check_obs of reset's observation, info a dict.
    obs, info = env.reset()
    check_obs(obs, env.observation_space)
    assert isinstance(info, dict)
    # env_step_passive_checker(env, env.action_space.sample()): an
    # unmasked sample (almost never legal here) steps without an error;
    # a 5-tuple, bool flags, check_obs, a finite int/float reward, info a dict.
    result = env.step(env.action_space.sample())
    assert isinstance(result, tuple) and len(result) == 5
    obs, reward, terminated, truncated, info = result
    assert isinstance(terminated, (bool, np.bool_)) and isinstance(truncated, (bool, np.bool_))
    check_obs(obs, env.observation_space)
    assert np.issubdtype(type(reward), np.integer) or np.issubdtype(type(reward), np.floating)
    assert math.isfinite(reward)
    assert isinstance(info, dict)
    # check_step_determinism: the same seed and action give the same
    # observation, reward, flags and info.
    steps = []
    for _ in range(2):
        obs, _ = env.reset(seed=7)
        action = np.flatnonzero(obs["action_mask"])[0]
        steps.append(env.step(action))
    assert all(equivalent(x, y) for x, y in zip(*steps))
    # env_render_passive_checker: render_modes a list of str, render_fps
    # a positive number, ansi rendering a str.
    modes = env.metadata["render_modes"]
    assert isinstance(modes, (list, tuple)) and all(isinstance(m, str) for m in modes)
    fps = env.metadata["render_fps"]
    assert (np.issubdtype(type(fps), np.integer) or np.issubdtype(type(fps), np.floating)) and fps > 0
    assert isinstance(env.render(), str)
    # check_env: close() twice is allowed.
    env.close()
    env.close()
    # Discrete.sample(mask): the mask must be int8 (Gymnasium asserts it).
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].dtype == np.int8
    assert obs["action_mask"][env.action_space.sample(obs["action_mask"])] == 1
    with pytest.raises(AssertionError):
        env.action_space.sample(obs["action_mask"].astype(np.uint8))
    # And a whole episode with masked samples ends terminated.
    while True:
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample(obs["action_mask"]))
        check_obs(obs, env.observation_space)
        if terminated or truncated:
            break
    assert terminated and env.game.finished and len(env.game.scores) == setup["players"]


# --- PettingZoo: api_test -----------------------------------------------------

def check_observation(observation):
    """api_test.test_observation: a numpy array, finite, at most 3
    dimensions, not empty, numeric, not all zeros."""
    assert isinstance(observation, np.ndarray)
    assert np.isfinite(observation).all() and observation.ndim <= 3
    assert observation.shape != (0,) and np.can_cast(observation.dtype, np.float64)
    assert observation.any()


def check_action_mask(mask):
    """api_test.test_action_mask: a 1-dimensional numeric numpy array of
    0 and 1, not empty (our own: int8, as Discrete.sample(mask) needs)."""
    assert isinstance(mask, np.ndarray) and mask.ndim == 1 and mask.shape != (0,)
    assert np.isfinite(mask).all() and np.array_equal(mask, mask.astype(bool))
    assert mask.dtype == np.int8


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_pettingzoo_api_test(setup):
    env = pettingzoo_env(render_mode="ansi", **setup)
    # api_test: possible_agents is defined.
    assert env.possible_agents == ["player_%d" % p for p in range(setup["players"])]
    # api_test: reset takes `seed` and `options`.
    env.reset(seed=0, options={"options": 1})
    # api_test: an AECEnv (only with PettingZoo installed).
    pettingzoo = sys.modules.get("pettingzoo")
    if pettingzoo is not None:  # pragma: no cover
        assert isinstance(env, pettingzoo.AECEnv)
    # api_test: no termination nor truncation after reset.
    env.reset()
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    # api_test: num_agents is a positive int.
    assert isinstance(env.num_agents, int) and env.num_agents > 0
    # api_test: test_observation of the first observation (its
    # "observation" entry), and last(observe=False) gives None.
    env.reset()
    observation_0 = env.last()[0]["observation"]
    check_observation(observation_0)
    assert env.last(observe=False)[0] is None
    # test_observation_action_spaces: the same space object on every call;
    # Box or Discrete; agent names <descriptor>_<number>; the same spaces
    # for every agent; Box bounds ordered, of the space's shape.
    agent_0 = env.agent_selection
    for agent in env.agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert isinstance(env.action_space(agent), _spaces.Discrete)
        assert re.match("[a-z]+_[0-9]+", agent)
        assert type(env.observation_space(agent)) is type(env.observation_space(agent_0))
        assert env.action_space(agent).n == env.action_space(agent_0).n
        check_space(env.observation_space(agent))
    # play_test: a whole game (num_cycles large enough).
    play_test(env, observation_0, num_cycles=1000)
    # api_test: rewards, terminations, truncations, infos dicts as long as
    # agents; test_rewards_terminations_truncations: bool flags, float rewards.
    for table in (env.rewards, env.terminations, env.truncations, env.infos):
        assert isinstance(table, dict) and len(table) == len(env.agents)
    for agent in env.agents:
        assert isinstance(env.terminations[agent], bool)
        assert isinstance(env.truncations[agent], bool)
        float(env.rewards[agent])
    # test_action_flexibility: reset(seed=0), a masked sample steps; again
    # after reset(seed=0) as np.int32.
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.last()[0]
    action = env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
    env.reset(seed=0)
    env.step(np.int32(action))
    # api_test: env.unwrapped is the environment itself (no wrapper).
    assert env.unwrapped is env
    # api_test: render() defined, so close() is too; ansi gives a str.
    assert isinstance(env.render(), str)
    env.close()


def play_test(env, observation_0, num_cycles):
    """api_test.play_test, check by check."""
    env.reset()
    live, finished, generated = set(env.agents), set(), set()
    accumulated = {a: 0 for a in env.possible_agents}
    for agent in env.agent_iter(env.num_agents * num_cycles):
        generated.add(agent)
        # "agents cannot resurect"; infos are dicts.
        assert agent not in finished and isinstance(env.infos[agent], dict)
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            check_action_mask(obs["action_mask"])
            action = env.action_space(agent).sample(obs["action_mask"])
        # "environment must delete agents as the game continues".
        assert live.issubset(set(env.agents))
        if terminated or truncated:
            live.remove(agent)
            finished.add(agent)
        # "reward returned by last is the accumulated rewards".
        assert accumulated[agent] == reward
        accumulated[agent] = 0
        env.step(action)
        for a, r in env.rewards.items():
            accumulated[a] += r
        # num_agents == len(agents); the tables' keys are the agents; agents
        # a subset of possible_agents.
        assert env.num_agents == len(env.agents)
        for table in (env.rewards, env.terminations, env.truncations, env.infos):
            assert set(table) == set(env.agents)
        assert set(env.agents).issubset(env.possible_agents)
        if not env.agents:
            break
        # The observation within its space, of the space's dtype.
        assert env.observation_space(agent).contains(obs)
        assert env.observation_space(agent)["observation"].dtype == obs["observation"].dtype
        check_observation(obs["observation"])
        assert obs["observation"].shape == observation_0.shape
    # "not all agents finished, some were skipped over".
    assert not env.agents and finished == generated == set(env.possible_agents)
    # The second loop: last()'s flags are bools matching the tables, its
    # info the table's, the reward a float, step() returns None.
    env.reset()
    for agent in env.agent_iter(env.num_agents * 2):
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else \
            env.action_space(agent).sample(obs["action_mask"])
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        assert terminated == env.terminations[agent] and truncated == env.truncations[agent]
        assert info == env.infos[agent]
        float(env.rewards[agent])
        assert env.step(action) is None


# --- OpenSpiel: basic_tests.cc and the pyspiel state contract ------------------

def pyspiel_like():
    """pyspiel's Python-game classes as the C++ side behaves for them:
    apply_action() checks the action and records the history; clone() is
    copy.deepcopy (as pyspiel clones a Python state); legal_actions(player)
    and legal_actions_mask(player); serialize() is the history, and
    deserialize_state() replays it on a new initial state."""
    m = types.ModuleType("pyspiel")
    ns = types.SimpleNamespace

    class GameType:
        Dynamics = ns(SEQUENTIAL="SEQUENTIAL")
        ChanceMode = ns(EXPLICIT_STOCHASTIC="EXPLICIT_STOCHASTIC")
        Information = ns(IMPERFECT_INFORMATION="IMPERFECT_INFORMATION")
        Utility = ns(GENERAL_SUM="GENERAL_SUM")
        RewardModel = ns(TERMINAL="TERMINAL")

        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)

    class GameInfo:
        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)

    class Game:
        def __init__(self, game_type, info, params):
            self.game_type, self.info, self.params = game_type, info, params

        def get_type(self):
            return self.game_type

        def num_players(self):
            return self.info.num_players

        def deserialize_state(self, text):
            state = self.new_initial_state()
            for line in text.split("\n"):
                if line:
                    state.apply_action(int(line))
            return state

    class State:
        def __init__(self, game):
            self._game, self._history = game, []

        def get_game(self):
            return self._game

        def is_chance_node(self):
            return self.current_player() == m.PlayerId.CHANCE

        def legal_actions(self, player=None):
            if player is None:
                player = self.current_player()
            if self.is_terminal():
                return []
            if player == m.PlayerId.CHANCE:
                return [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else []
            return self._legal_actions(player)

        def legal_actions_mask(self, player=None):
            size = self._game.info.max_chance_outcomes if self.is_chance_node() else \
                self._game.info.num_distinct_actions
            mask = [0] * size
            for a in self.legal_actions(player):
                mask[a] = 1
            return mask

        def apply_action(self, action):
            if action not in self.legal_actions():
                raise RuntimeError("illegal action %d" % action)
            self._apply_action(action)
            self._history.append(action)

        def history(self):
            return list(self._history)

        def clone(self):
            return copy.deepcopy(self)

        def serialize(self):
            return "".join("%d\n" % a for a in self._history)

        def rewards(self):
            return self.returns() if self.is_terminal() else [0.0] * self._game.num_players()

        def player_return(self, player):
            return self.returns()[player]

    for cls in (GameType, GameInfo, Game, State):  # found by pickle as pyspiel's
        cls.__module__, cls.__qualname__ = "pyspiel", cls.__name__
        setattr(m, cls.__name__, cls)
    m.PlayerId = ns(CHANCE=-1, TERMINAL=-4)
    m.registered = {}
    m.register_game = lambda game_type, cls: m.registered.__setitem__(game_type.short_name, cls)
    return m


@pytest.fixture
def spiel(monkeypatch):
    fake = pyspiel_like()
    monkeypatch.setitem(sys.modules, "pyspiel", fake)
    sys.modules.pop("carcassonne.openspiel", None)
    importlib.import_module("carcassonne.openspiel")
    yield fake
    sys.modules.pop("carcassonne.openspiel", None)


def check_chance_outcomes(state):
    """basic_tests.cc CheckChanceOutcomes: each outcome a legal chance
    action, its probability in (0, 1], their sum 1 within 1e-5."""
    legal = set(state.legal_actions())
    total = 0.0
    for action, p in state.chance_outcomes():
        assert action in legal and 0.0 < p <= 1.0
        total += p
    assert abs(total - 1.0) <= 1e-5


@pytest.mark.parametrize("setup", SETUPS, ids=IDS)
def test_openspiel_random_simulation(spiel, setup):
    params = {"players": setup["players"], "seed": 3,
              "rules": ",".join(setup.get("rules", [])),
              "expansions": ",".join(setup.get("expansions", []))}
    game = spiel.registered["python_carcassonne"](params)
    game_type, info = game.game_type, game.info
    # The game's type: up to 8 players, explicit chance, the information
    # state and observation both provided; ChanceOutcomesTest: max
    # chance outcomes > 0; RandomSimulation: min utility < max utility.
    assert game_type.max_num_players == 8 and game_type.min_num_players == 2
    assert game_type.min_num_players <= info.num_players <= game_type.max_num_players
    assert game_type.chance_mode == "EXPLICIT_STOCHASTIC"
    assert game_type.provides_information_state_string and game_type.provides_information_state_tensor
    assert game_type.provides_observation_string and game_type.provides_observation_tensor
    assert info.max_chance_outcomes > 0 and info.min_utility < info.max_utility
    observer = game.make_py_observer()
    rng = random.Random(4)
    state = game.new_initial_state()
    history, game_length = [], 0
    returns = [0.0] * info.num_players
    while not state.is_terminal():
        player = state.current_player()
        # LegalActionsIsEmptyForOtherPlayers.
        for p in range(info.num_players):
            if p != player:
                assert state.legal_actions(p) == []
        # LegalActionsAreSorted (and distinct).
        actions = state.legal_actions()
        assert actions == sorted(set(actions))
        # Clone: the same string and history.
        twin = state.clone()
        assert str(twin) == str(state) and twin.history() == state.history()
        # TestSerializeDeserialize, at the first 10 steps and powers of two.
        if len(history) < 10 or len(history) & (len(history) - 1) == 0:
            assert str(game.deserialize_state(state.serialize())) == str(state)
        if state.is_chance_node():
            check_chance_outcomes(state)
            kinds, odds = zip(*state.chance_outcomes())
            action = rng.choices(kinds, odds)[0]
        else:
            assert 0 <= player < info.num_players
            # The information state and observation of the mover: the
            # tensor of the observer's size, finite; the strings.
            observer.set_from(state, player)
            assert observer.tensor.shape == (len(state.game_state.information_state_tensor(player)),)
            assert np.isfinite(observer.tensor).all()
            assert isinstance(observer.string_from(state, player), str)
            # resample_from_infostate (ISMCTS): a state the player cannot
            # tell from this one.
            if game_length % 16 == 0:
                other = state.resample_from_infostate(player, rng.random)
                assert observer.string_from(other, player) == observer.string_from(state, player)
                assert other.legal_actions() == actions
            for p, r in enumerate(state.rewards()):
                returns[p] += r
            # LegalActionsMaskTest; a decision node has legal actions.
            mask = state.legal_actions_mask()
            assert len(mask) == info.num_distinct_actions
            assert [a for a, bit in enumerate(mask) if bit] == actions and actions
            action = rng.choice(actions)
            game_length += 1
        history.append((state.clone(), action))
        # ApplyActionTestClone: the action on a clone gives the same state.
        twin = state.clone()
        twin.apply_action(action)
        state.apply_action(action)
        assert str(twin) == str(state)
    # MaxGameLength bounds the decisions; the terminal player id.
    assert game_length <= info.max_game_length
    assert state.current_player() == spiel.PlayerId.TERMINAL
    # TestHistoryContainsActions: each saved state's history is the
    # actions before it.
    for i, (saved, _) in enumerate(history):
        assert saved.history() == [a for _, a in history[:i]]
    # Returns: each within the utilities, PlayerReturn the same, and the
    # rewards along the way add up to them.
    for p, r in enumerate(state.returns()):
        assert info.min_utility <= r <= info.max_utility
        assert state.player_return(p) == r
        assert math.isclose(returns[p] + state.rewards()[p], r)
    assert len(state.returns()) == info.num_players
    # A Python game's state is cloned by deep copy and serialized by pickle.
    assert str(pickle.loads(pickle.dumps(history[5][0]))) == str(history[5][0])
