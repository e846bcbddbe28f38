"""openspiel.py: the game for OpenSpiel's Python games, registered as
"python_carcassonne" when OpenSpiel (pyspiel) is installed
(docs/python.md, "OpenSpiel").

    import pyspiel, carcassonne.openspiel
    game = pyspiel.load_game("python_carcassonne", {"players": 2})
    state = game.new_initial_state()

It follows open_spiel/python/games (a pyspiel.Game and pyspiel.State in
Python): sequential, explicit stochastic (each draw a chance node), general
sum, terminal rewards (each player's score minus the best other score).
OpenSpiel is not packaged for Debian 12 nor reachable here: this module was
checked against a stand-in of pyspiel's classes (tests/python), not against
OpenSpiel itself.
"""
import numpy as np

from . import GLOBALS, MAX_PLAYERS, PLANES, Game, _checks, tile_ids

try:  # pragma: no cover - depends on what is installed
    import pyspiel
except ImportError:  # pragma: no cover
    pyspiel = None

_DEFAULTS = {"players": 2, "board_size": 31, "rules": "", "expansions": "", "seed": 0}

# pyspiel keeps an int parameter in a C++ int (GameParameter's int_value),
# so a seed of the game's parameters is at most 2**31-1 there.
_PARAMETER_INT_LIMIT = 2**31


def _game_type():
    return pyspiel.GameType(
        short_name="python_carcassonne",
        long_name="Python Carcassonne",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS))


def _classes():
    """The pyspiel.Game and pyspiel.State subclasses (pyspiel imported)."""

    class CarcassonneGame(pyspiel.Game):
        def __init__(self, params=None):
            p = dict(_DEFAULTS)
            p.update(params or {})
            p["seed"] = _checks.seed(p["seed"])  # refused here, not at the first state
            if p["seed"] >= _PARAMETER_INT_LIMIT:
                raise ValueError(
                    "seed %d is out of range for OpenSpiel: its int parameters are C++ ints, "
                    "so the game's seed is 0 .. 2**31-1 (carcassonne.Game takes any seed "
                    "up to 2**64-1)" % p["seed"])
            self._params = p
            probe = self._new_game(0)
            self.tiles = probe.tiles_left() + 2
            info = pyspiel.GameInfo(
                num_distinct_actions=probe.num_actions,
                max_chance_outcomes=len(tile_ids()),
                num_players=p["players"],
                min_utility=-500.0,
                max_utility=500.0,
                max_game_length=2 * self.tiles)
            super().__init__(_game_type(), info, p)

        def _new_game(self, seed):
            p = self._params
            return Game(p["players"], seed, p["rules"], p["expansions"], p["board_size"],
                        explicit_chance=True)

        def new_initial_state(self):
            return CarcassonneState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return CarcassonneObserver(self._params["board_size"], iig_obs_type)

    class CarcassonneState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.game_state = game._new_game(game._params["seed"])

        def current_player(self):
            g = self.game_state
            if g.finished:
                return pyspiel.PlayerId.TERMINAL
            if g.is_chance_node():
                return pyspiel.PlayerId.CHANCE
            return g.current_player

        def _legal_actions(self, player):
            # Only the player to move has legal actions (basic_tests.cc's
            # LegalActionsIsEmptyForOtherPlayers).
            if player != self.current_player():
                return []
            return self.game_state.legal_actions()

        def chance_outcomes(self):
            return self.game_state.chance_outcomes()

        def _apply_action(self, action):
            self.game_state.apply_action(action)

        def _action_to_string(self, player, action):
            return self.game_state.action_to_string(action)

        def is_terminal(self):
            return self.game_state.finished

        def returns(self):
            g = self.game_state
            return [float(r) for r in g.returns()] if g.finished else [0.0] * g.players

        def resample_from_infostate(self, player_id, probability_sampler):
            """A state `player_id` cannot tell from this one: the hidden
            hands and the pile dealt again (Game.resample), from a seed
            drawn with `probability_sampler` (a callable giving a float
            in [0, 1), as OpenSpiel's ISMCTS passes)."""
            seed = int(probability_sampler() * 2**63) % 2**63
            state = self.clone()
            state.game_state = self.game_state.resample(player_id, seed)
            return state

        def __str__(self):
            """The whole history (OpenSpiel's state string is not a
            player's view: the observer gives those); no seed header."""
            return self.game_state.record(seed=False)

    return CarcassonneGame, CarcassonneState


class CarcassonneObserver:
    """A seat's view (OpenSpiel's observer API): the flat tensor of
    Game.observation_tensor() and the string of
    Game.information_state_string(), both holding only what that seat may
    see (never another seat's hidden hand nor the pile). The same for the
    observation and the perfect-recall information state
    (iig_obs_type.perfect_recall); a public-only observer
    (iig_obs_type.private_info NONE) gives the spectator's string, an
    all-players one (ALL_PLAYERS) the whole record without the seed."""

    def __init__(self, board_size, iig_obs_type=None):
        self.tensor = np.zeros(PLANES * board_size * board_size + GLOBALS, np.float32)
        self.dict = {"observation": self.tensor}
        private = getattr(iig_obs_type, "private_info", None)
        private = "" if private is None else str(getattr(private, "name", private)).upper()
        self._public_only = private.endswith("NONE")
        self._everything = private.endswith("ALL_PLAYERS")

    def set_from(self, state, player):
        self.tensor[:] = state.game_state.information_state_tensor(player)

    def string_from(self, state, player):
        g = state.game_state
        if self._everything:
            return g.record(seed=False)
        return g.information_state_string(-1 if self._public_only else player)


def register():
    """Registers the game with pyspiel; returns the Game class (None without pyspiel)."""
    global CarcassonneState
    if pyspiel is None:
        return None
    game_class, state_class = _classes()
    # Module-level names, so that pickle finds the classes of a state (a
    # Python game's states are pickled and deep-copied).
    for cls in (game_class, state_class):
        cls.__qualname__ = cls.__name__
    CarcassonneState = state_class
    pyspiel.register_game(_game_type(), game_class)
    return game_class


CarcassonneState = None
CarcassonneGame = register()
