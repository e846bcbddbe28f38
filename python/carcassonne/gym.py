"""gym.py: a Gymnasium-style environment: one seat learns, the others are
computer players (docs/python.md, "Gymnasium").

    import carcassonne.gym
    env = carcassonne.gym.CarcassonneEnv(players=2, opponents="random")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

It follows Gymnasium's Env interface (reset(seed, options) -> (obs, info);
step(action) -> (obs, reward, terminated, truncated, info); spaces;
render(); close()) and registers itself as "Carcassonne-v0" when Gymnasium
is installed; it needs only numpy otherwise.
"""
import numpy as np

from . import Game, Player
from . import _checks, _spaces

try:  # pragma: no cover - depends on what is installed
    import gymnasium as _gymnasium
    _Base = _gymnasium.Env
except ImportError:  # pragma: no cover
    _gymnasium = None

    class _Base:
        """What gymnasium.Env gives an environment, without Gymnasium."""
        spec = None

        @property
        def unwrapped(self):
            return self

        @property
        def np_random(self):
            if self._np_random is None:
                self._np_random = np.random.default_rng()
            return self._np_random

__all__ = ["CarcassonneEnv"]


class CarcassonneEnv(_Base):
    """One seat of a game against computer players.

    players: 2..8; seat: the learner's seat (0-based); opponents: a player
    spec (docs/players.md) for every other seat, or a list of them;
    rules, expansions: lists of record names; board_size: the side of the
    action window and of the observation (odd).

    Observation: {"board": (PLANES, S, S) float32, "globals": (GLOBALS,)
    float32, "action_mask": (num_actions,) int8}, from the learner's seat.
    Reward: the change in the learner's margin (its score minus the best
    other score) since its last move (the first: since the start), so an
    episode's rewards add up to the final margin. terminated: the game is over. truncated: a legal move lies
    outside the action window (the board outgrew board_size; never with
    board_size >= 2 * tiles + 1). info: {"action_mask", "legal_moves",
    "scores"}.

    illegal_action: what step() does with an action of the action space
    that is not legal now: "terminate" (the default, as PettingZoo's
    classic games and Gymnasium's check_env need: the episode ends,
    terminated, with reward illegal_reward and info["illegal_action"]
    True) or "raise" (ValueError, nothing changed). An action outside the
    action space, or not an integer, always raises.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, players=2, seat=0, opponents="random", rules=None, expansions=None,
                 board_size=31, render_mode=None, illegal_action="terminate",
                 illegal_reward=-100.0):
        players, seat = _checks.integer(players, "players"), _checks.integer(seat, "seat")
        if not 0 <= seat < players:
            raise ValueError("seat must be 0..%d" % (players - 1))
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError("illegal_action must be 'terminate' or 'raise'")
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.players, self.seat = players, seat
        specs = _checks.specs(opponents, "opponents", allow_none=True)
        specs = specs * players if isinstance(opponents, str) else specs
        if len(specs) == players - 1:
            specs.insert(seat, None)
        if len(specs) != players:
            raise ValueError("opponents: one spec, or one per other seat")
        if specs[seat] is not None and not isinstance(opponents, str):
            raise ValueError("opponents: seat %d is the learner's: None there, or one spec "
                             "per other seat" % seat)
        self._specs = specs
        self.rules, self.expansions = rules, expansions
        self.render_mode = render_mode
        self.game = Game(players, 0, rules, expansions, board_size)
        self.action_space = _spaces.Discrete(self.game.num_actions)
        self.observation_space = _spaces.Dict({
            "board": _spaces.board_space(board_size),
            "globals": _spaces.globals_space(),
            "action_mask": _spaces.mask_space(self.game.num_actions),
        })
        self._np_random = None  # Gymnasium's name: check_env reads it
        self._over = False
        self._opponents = None  # reset() seats them: step() needs a reset() first
        self._margin = 0

    def _margin_now(self):
        s = self.game.scores
        return s[self.seat] - max(s[p] for p in range(self.players) if p != self.seat)

    def _observe(self):
        board, glob = self.game.observation(self.seat)
        return {"board": board, "globals": glob, "action_mask": self.game.action_mask()}

    def _info(self, obs):
        return {"action_mask": obs["action_mask"], "legal_moves": self.game.legal_moves(),
                "scores": self.game.scores}

    def _play_opponents(self):
        g = self.game
        while not g.finished and g.current_player != self.seat:
            g.play(self._opponents[g.current_player].choose(g))

    def reset(self, seed=None, options=None):
        """Starts a new game (the deal and the opponents from `seed`)."""
        if seed is not None:
            seed = _checks.seed(seed)
        if _gymnasium is not None:  # pragma: no cover - seeds Gymnasium's np_random
            super().reset(seed=seed)
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        deal = int(self.np_random.integers(2**63))
        self.game = Game(self.players, deal, self.rules, self.expansions, self.game.board_size)
        self._opponents = [None if spec is None else Player(spec, deal + p)
                           for p, spec in enumerate(self._specs)]
        self._margin = 0  # the rewards add up to the final margin
        self._over = False
        self._play_opponents()
        obs = self._observe()
        return obs, self._info(obs)

    def step(self, action):
        """Plays the learner's action (one with a 1 in the mask), then the
        others until it is the learner's turn again or the game is over."""
        g = self.game
        if self._opponents is None:
            raise RuntimeError("call reset() before step()")
        if g.finished or self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            g.apply_action(action)
        except ValueError:
            if self.illegal_action == "raise" or not self._in_space(action):
                raise
            self._over = True  # an action of the space that is not legal now
            obs = self._observe()
            info = dict(self._info(obs), illegal_action=True)
            return obs, self.illegal_reward, True, False, info
        self._play_opponents()
        margin = self._margin_now()
        reward, self._margin = float(margin - self._margin), margin
        obs = self._observe()
        terminated = g.finished
        truncated = not terminated and not obs["action_mask"].any()
        return obs, reward, terminated, truncated, self._info(obs)

    def _in_space(self, action):
        try:
            return 0 <= _checks.integer(action, "an action") < self.game.num_actions
        except TypeError:
            return False

    def render(self):
        """The game so far as the learner saw it (render_mode "ansi"):
        Game.information_state_string(seat), no other seat's hidden tile."""
        if self.render_mode == "ansi":
            return self.game.information_state_string(self.seat)
        return None

    def close(self):
        pass


def _register():
    if _gymnasium is None:
        return
    try:  # pragma: no cover - needs gymnasium
        if "Carcassonne-v0" not in _gymnasium.registry:
            _gymnasium.register(id="Carcassonne-v0", entry_point="carcassonne.gym:CarcassonneEnv")
    except Exception:  # a Gymnasium whose registry differs: the class still works
        pass


_register()
