"""pettingzoo.py: a PettingZoo-style AEC environment: every seat an agent
(docs/python.md, "PettingZoo").

    from carcassonne.pettingzoo import env
    e = env(players=2)
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

It follows PettingZoo's AECEnv interface (possible_agents, agents,
agent_selection, rewards, terminations, truncations, infos, observe,
last, step, agent_iter, action_space, observation_space, render, close)
and subclasses pettingzoo.AECEnv when PettingZoo is installed; it needs
only numpy otherwise. The observation is a dict as in PettingZoo's classic
games: {"observation": the flat observation tensor (board planes, then
globals) from the agent's seat, "action_mask": int8 of num_actions}.
"""
import numpy as np

from . import GLOBALS, PLANES, Game
from . import _checks, _spaces

try:  # pragma: no cover - depends on what is installed
    from pettingzoo import AECEnv as _Base
except ImportError:  # pragma: no cover
    _Base = object

__all__ = ["CarcassonneAEC", "env", "raw_env"]


class CarcassonneAEC(_Base):
    """Every seat an agent, "player_0" .. "player_{n-1}".

    Rewards: each step gives every agent the change in its margin (its
    score minus the best other score), so an agent's rewards add up to its
    final margin. When the game ends every agent is terminated; when a
    legal move lies outside the action window every agent is truncated.
    """

    metadata = {"name": "carcassonne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players=2, rules=None, expansions=None, board_size=31, render_mode=None):
        if _Base is not object:  # pragma: no cover
            super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.players = players
        self.rules, self.expansions = rules, expansions
        self.board_size = board_size
        self.render_mode = render_mode
        self.possible_agents = ["player_%d" % p for p in range(players)]
        self.game = Game(players, 0, rules, expansions, board_size)
        n = self.game.num_actions
        size = PLANES * board_size * board_size + GLOBALS
        self._action_spaces = {a: _spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {a: _spaces.Dict({
            "observation": _spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": _spaces.mask_space(n)}) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.agents = []

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def action_space(self, agent):
        return self._action_spaces[agent]

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def _margins(self):
        s = self.game.scores
        return [s[p] - max(s[q] for q in range(self.players) if q != p)
                for p in range(self.players)]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(_checks.seed(seed))
        self.game = Game(self.players, int(self._rng.integers(2**63)), self.rules,
                         self.expansions, self.board_size)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last_margins = self._margins()
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = self.game.action_mask() if seat == self.game.current_player else \
            np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game.observation_tensor(seat), "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def _remove_done(self):
        """step(None) of a terminated or truncated agent: it leaves."""
        agent = self.agent_selection
        self.agents.remove(agent)
        self._cumulative_rewards.pop(agent, None)
        for table in (self.rewards, self.terminations, self.truncations, self.infos):
            table.pop(agent, None)
        if self.agents:
            self.agent_selection = self.agents[0]
        # As AECEnv._was_dead_step: this step gave nobody a reward (else
        # last() would add the final rewards again: api_test's play_test).
        for a in self.rewards:
            self.rewards[a] = 0.0

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("a terminated or truncated agent steps with None")
            self._remove_done()
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_action(action)
        margins = self._margins()
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = float(margins[p] - self._last_margins[p])
            self._cumulative_rewards[a] += self.rewards[a]
        self._last_margins = margins
        if self.game.finished:
            for a in self.agents:
                self.terminations[a] = True
        elif not self.game.action_mask().any():
            for a in self.agents:
                self.truncations[a] = True
        if self.game.finished or any(self.truncations.values()):
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]

    def render(self):
        if self.render_mode == "ansi":  # a spectator's view: no hidden hand, no seed
            return self.game.information_state_string(-1)
        return None

    def close(self):
        pass


def raw_env(**kwargs):
    return CarcassonneAEC(**kwargs)


def env(**kwargs):
    """The environment (PettingZoo's convention: env() builds it)."""
    return CarcassonneAEC(**kwargs)
