"""carcassonne: the Carcassonne rules engine (a C library) for Python.

    import carcassonne
    g = carcassonne.Game(players=2, seed=7, rules=["small-city"], expansions=["river"])
    while not g.finished:
        g.play(g.legal_moves()[0])
    print(g.scores, g.record())

The plain interface plays moves as record strings (docs/record.md); the
research interface as integer actions in a fixed action space, with chance
nodes, an action mask and an observation tensor (docs/python.md).
carcassonne.gym and carcassonne.pettingzoo hold the environments.
"""
import operator
import os

import numpy as np

from . import _checks, _core
from .vector import OBS_PLANES, VectorGame

__all__ = ["Game", "Player", "VectorGame", "selfplay", "exact", "tile_ids", "rule_names", "expansion_names", "PLANES", "GLOBALS", "FIGURE_SLOTS",
           "rotate_board", "rotate_action", "rotate_mask", "net_inputs", "net_forward",
           "NET_POSITION_INPUTS", "NET_MOVE_INPUTS"]

PLANES = _core.PLANES
GLOBALS = _core.GLOBALS
FIGURE_SLOTS = _core.FIGURE_SLOTS
MAX_PLAYERS = _core.MAX_PLAYERS
MAX_HAND = _core.MAX_HAND
NET_POSITION_INPUTS = _core.NET_POSITION_INPUTS
NET_MOVE_INPUTS = _core.NET_MOVE_INPUTS


_names = _checks.names


class Game(_core.Game):
    """A game: Game(players=2, seed=0, rules=[...], expansions=[...]).

    board_size (odd, 5..127) is the side of the action window and of the
    observation; explicit_chance=True makes each draw a chance node
    (is_chance_node(), chance_outcomes(), apply_action(tile kind)).
    """

    def __init__(self, players=2, seed=0, rules=None, expansions=None, board_size=31,
                 explicit_chance=False):
        players = _checks.integer(players, "players")
        seed = _checks.seed(seed)
        super().__init__(players, seed, _names(rules, "rules"), _names(expansions, "expansions"),
                         board_size, bool(explicit_chance))

    @staticmethod
    def playable(rules=None, expansions=None):
        """Whether a game with these rules and expansions can be made."""
        try:
            _core.Game(2, 0, _names(rules, "rules"), _names(expansions, "expansions"))
        except ValueError:
            return False
        return True

    @classmethod
    def from_record(cls, text, seed=0, board_size=31):
        """The game a record (its text) describes, at its last position.
        Raises ValueError("line N: ...") for a record that breaks the notation."""
        if not isinstance(text, (str, bytes)):
            raise TypeError("from_record() takes the record's text (str or bytes)")
        return super().from_record(text, _checks.seed(seed), board_size)

    def __repr__(self):
        try:
            state = "finished" if self.finished else "tile %s, player %d" % (
                self.tile, self.current_player)
            return "<carcassonne.Game %d players, scores %s, %s>" % (self.players, self.scores,
                                                                    state)
        except RuntimeError:  # not initialised
            return "<carcassonne.Game>"

    # --- copies and pickling ----------------------------------------------

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        """An independent copy (clone(): the whole state, hidden deal included)."""
        return self.clone()

    def __reduce__(self):
        """Pickles as the record, the seed and the hidden deal (the drawn
        tile, the pile's order, the generator): it unpickles to the same
        state, the same future draws included (docs/python.md)."""
        tile, pile, generator, due = self._deal()
        record = self.record()
        if due:  # a chance node's draws not yet named: not in the record
            record, pile = _without_last_draws(record, due), None
        state = {"version": _PICKLE_VERSION, "record": record, "seed": self.seed,
                 "board_size": self.board_size, "explicit_chance": self.explicit_chance,
                 "chance_pending": self.is_chance_node(), "tile": tile, "pile": pile,
                 "generator": generator}
        return (_unpickle_game, (type(self), state))

    # --- research interface ------------------------------------------------

    def action_mask(self):
        """numpy int8 array of num_actions: 1 at each legal action (int8:
        what Gymnasium's Discrete.sample(mask) and PettingZoo's
        action_mask require)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        self._fill_mask(mask)
        return mask

    def observation(self, seat=None):
        """(board, globals) from `seat`'s point of view (default: the player
        to move): float32 arrays of (PLANES, board_size, board_size) and
        (GLOBALS,); docs/python.md lists them plane by plane."""
        seat = self._seat(seat)
        board = np.zeros((PLANES, self.board_size, self.board_size), dtype=np.float32)
        glob = np.zeros(GLOBALS, dtype=np.float32)
        self._observe(seat, board, glob)
        return board, glob

    def observation_tensor(self, seat=None):
        """The observation as one flat float32 vector (board planes, then globals)."""
        board, glob = self.observation(seat)
        return np.concatenate([board.ravel(), glob])

    # --- what a player may see: information state and observation strings ---

    def hides_hands(self):
        """Whether each seat's hand is hidden from the others (hand=N
        without open-hands)."""
        rules = self.rules.split(",") if self.rules else []
        return any(r.startswith("hand=") for r in rules) and "open-hands" not in rules

    def _seat(self, seat, spectator=False):
        if seat is None:
            return self.current_player
        seat = _checks.integer(seat, "seat")
        if not (-1 if spectator else 0) <= seat < self.players:
            raise ValueError("seat %d is out of range: this game's seats are 0 .. %d%s"
                             % (seat, self.players - 1, " (-1: a spectator)" if spectator else ""))
        return seat

    def information_state_string(self, seat=None):
        """The record as `seat` (default: the player to move; -1: a
        spectator) saw it: the moves and the draws it may see, the other
        seats' hidden draws as `draw N ?` (one ? a tile), no `seed` header
        (it would tell the pile), the draws a chance node has not named
        yet left out, and a last comment line `# drawn T` with the drawn
        tile when every seat sees it (no hand). What it holds decides the
        legal actions on the seat's turn (OpenSpiel's perfect-recall
        information state)."""
        seat = self._seat(seat, spectator=True)
        text = self.record(seed=False)
        due = self._deal()[3]
        if due:
            text = _without_last_draws(text, due)
        if self.hides_hands():
            lines = text.split("\n")
            for i, line in enumerate(lines):
                words = line.split()
                if len(words) > 2 and words[0] == "draw" and words[1] != str(seat + 1):
                    lines[i] = " ".join(words[:2] + ["?"] * (len(words) - 2))
            text = "\n".join(lines)
        elif not self.finished and not self.is_chance_node() and "hand=" not in self.rules:
            text += "# drawn %s\n" % self.tile
        return text

    def information_state_tensor(self, seat=None):
        """The flat observation tensor of `seat` (observation_tensor()):
        the board, the figures, the scores and supplies, the seat's own
        hand and the tiles it has not seen sum up what it saw; the order of
        past moves is the one thing left out (information_state_string()
        keeps it)."""
        return self.observation_tensor(self._seat(seat))

    def observation_string(self, seat=None):
        """What `seat` may see, as text: information_state_string()."""
        return self.information_state_string(seat)

    def resample(self, seat, seed=0):
        """A copy of the game in which everything `seat` (-1: a spectator)
        cannot see is dealt again from `seed`, consistently with what it
        saw: the other seats' hidden hands and the pile's order (the
        library's carc_game_seat_view). Its information_state_string(seat)
        and observation of `seat` are this game's; a search over hidden
        information (ISMCTS, OpenSpiel's resample_from_infostate) plays on
        such copies."""
        return self._resample(self._seat(seat, spectator=True), _checks.seed(seed))

    def is_terminal(self):
        return self.finished

    def returns(self):
        """Each player's score minus the best other score (final once finished)."""
        s = self.scores
        return [s[p] - max(s[q] for q in range(len(s)) if q != p) for p in range(len(s))]


_PICKLE_VERSION = 1


def _without_last_draws(record, n):
    """The record without its last n drawn tiles (the `draw` lines end it)."""
    lines = record.rstrip("\n").split("\n")
    while n > 0:
        words = lines[-1].split()
        if words[0] != "draw":
            raise ValueError("the record does not end with %d draws" % n)
        take = min(n, len(words) - 2)
        n -= take
        if take == len(words) - 2:
            lines.pop()
        else:
            lines[-1] = " ".join(words[:-take])
    return "\n".join(lines) + "\n"


def _unpickle_game(cls, state):
    """The Game that Game.__reduce__ saved."""
    if not isinstance(state, dict) or state.get("version") != _PICKLE_VERSION:
        raise ValueError("not a pickled carcassonne.Game of this version (%d)" % _PICKLE_VERSION)
    g = cls.from_record(state["record"], state["seed"], state["board_size"])
    g._set_deal(state["seed"], state["tile"], state["pile"], state["generator"],
                state["explicit_chance"], state["chance_pending"])
    return g


Player = _core.Player


def _budget(value, name, most):
    """`value` as an int of 1 .. most, or 0 for None (no limit)."""
    if value is None:
        return 0
    if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
        raise TypeError("%s must be an int or None, not %s" % (name, type(value).__name__))
    value = operator.index(value)
    if not 1 <= value <= most:
        raise ValueError("%s must be 1..%d or None (no limit), not %d" % (name, most, value))
    return value


def exact(game, ms=10000, threads=2, max_nodes=None):
    """The exact endgame solver on `game`'s position (docs/python.md,
    "The exact endgame"): every legal move of the player to move with its
    exact expected final margin (the mover's final score minus the best
    other's), the tiles still to come each equally likely, best first.

    Returns a dict: "exact" (bool), "tiles_left", "moves" (a list of dicts
    "move", "action" (None outside the window), "margin", "visits": the
    positions searched under it; empty when not exact), "positions",
    "seconds" and "reason" (why it gave up; "" when exact). It gives up
    when the pile holds too many tiles, when the rules hide tiles or change
    the draws (hand=N, reshuffle), or when the solve needs more than `ms`
    milliseconds or `max_nodes` positions (None: no limit). `threads`
    (1..64) share the root moves; the margins do not depend on them. The
    solve runs on a copy without the GIL. A finished game, or one at a
    chance node, raises ValueError."""
    if not isinstance(game, _core.Game):
        raise TypeError("exact() takes a Game, not %s" % type(game).__name__)
    ms = _budget(ms, "ms", 2**31 - 1)
    threads = _budget(threads, "threads", _core.EXACT_MAX_THREADS)
    if threads == 0:
        raise ValueError("threads must be 1..%d, not None" % _core.EXACT_MAX_THREADS)
    max_nodes = _budget(max_nodes, "max_nodes", 2**64 - 1)
    done, tiles_left, moves, positions, seconds, reason = _core._exact(game, ms, threads, max_nodes)
    return {"exact": done, "tiles_left": tiles_left, "moves": moves, "positions": positions,
            "seconds": seconds, "reason": reason}


def tile_ids():
    """The tile ids of the catalogue; a chance outcome k is tile_ids()[k]."""
    return _core.tile_ids()


def rule_names():
    """The record names of the rule variants this library knows
    (docs/record-extensions.md); valued ones are written NAME=VALUE."""
    return _core.rule_names()


def expansion_names():
    """The record names of the expansions."""
    return _core.expansion_names()


def selfplay(games, players=2, seed=0, player="random", threads=1, rules=None, expansions=None,
             records=True, samples=None, board_size=31):
    """Plays `games` games in C, on `threads` threads, and returns
    (records, scores): a list of record strings (None with records=False)
    and a numpy int32 array of shape (games, players). Game i is dealt from
    seed + i, as `carcassonne selfplay`; the results do not depend on the
    number of threads. `player` is one spec for every seat or a list with
    one per seat ("random" is the library's fast random player).

    samples=PATH also writes a training sample of every position to PATH
    (.npz): the compact observation from the mover's view (VectorGame's,
    over a window of board_size), the legal actions with the search's
    visit counts and policy, the action played, and the game's outcome for
    the mover; docs/python.md lists the arrays. The games are the same
    with or without samples."""
    specs = _checks.specs(player, "player")
    board_size = _checks.integer(board_size, "board_size")
    if samples is not None:
        samples = _samples_path(samples)
    out = _core.selfplay(games, players, _checks.seed(seed), specs, threads, _names(rules, "rules"),
                         _names(expansions, "expansions"), bool(records), samples is not None,
                         board_size)
    (recs, raw), arrays = (out, None) if samples is None else out
    scores = np.frombuffer(raw, dtype=np.int32).reshape(games, players).copy()
    if samples is not None:
        # A file object: numpy would add ".npz" to a path without it.
        with open(samples, "wb") as f:
            np.savez_compressed(f, **_sample_arrays(arrays, board_size))
    return recs, scores


def _samples_path(samples):
    """selfplay's samples=PATH, checked before any game is played (a run
    can be long): a str, bytes or os.PathLike naming a file that can be
    written, in a folder that exists. The file is written at exactly
    that path."""
    if not isinstance(samples, (str, bytes, os.PathLike)):
        raise TypeError("samples must be a path (str or os.PathLike), not %s"
                        % type(samples).__name__)
    path = os.fsdecode(samples)
    folder = os.path.dirname(path) or "."
    if not path or os.path.isdir(path):
        raise ValueError("samples=%r is not a file's path" % path)
    if not os.path.isdir(folder):
        raise FileNotFoundError("samples=%r: no folder %r" % (path, folder))
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise PermissionError("samples=%r cannot be written" % path)
    return path


def _sample_arrays(raw, board_size):
    """The samples' numpy arrays from the extension's bytearrays."""
    types = {"board": np.uint8, "globals": np.float32, "action": np.int64,
             "policy_indptr": np.int64, "player": np.int8, "outcome": np.int8,
             "margin": np.int32, "record": np.int64, "ply": np.int32, "legal": np.int64,
             "visits": np.int32, "policy": np.float32}
    arrays = {name: np.frombuffer(raw[name], dtype=dtype) for name, dtype in types.items()}
    arrays["board"] = arrays["board"].reshape(-1, OBS_PLANES, board_size, board_size)
    arrays["globals"] = arrays["globals"].reshape(-1, GLOBALS)
    return arrays


# --- rotations for data augmentation ------------------------------------------

_EDGE_PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def _plane_permutation(k):
    """Where each board plane goes when the board turns k quarter turns clockwise."""
    perm = list(range(PLANES))
    for e in range(4):
        for off in range(3):
            perm[1 + 3 * e + off] = 1 + 3 * ((e + k) % 4) + off
    for h in range(_core.MAX_HAND):
        for r in range(4):
            perm[_core.PLANE_FITS + 4 * h + r] = _core.PLANE_FITS + 4 * h + (r + k) % 4
    for i, (a, b) in enumerate(_EDGE_PAIRS):
        turned = tuple(sorted(((a + k) % 4, (b + k) % 4)))
        perm[_core.PLANE_JOINED + i] = _core.PLANE_JOINED + _EDGE_PAIRS.index(turned)
    return perm


def rotate_board(board, k=1):
    """The board planes of an observation (PLANES, S, S), or a batch of them
    (..., PLANES, S, S), turned k quarter turns clockwise: squares move,
    and the planes that name an edge or a rotation follow."""
    k %= 4
    turned = np.rot90(board, -k, axes=(-2, -1))
    out = np.empty_like(turned)
    for src, dst in enumerate(_plane_permutation(k)):
        out[..., dst, :, :] = turned[..., src, :, :]
    return out


def rotate_action(action, board_size, k=1):
    """The action that does on the turned board what `action` does
    (k quarter turns clockwise), in the same hand tile's block; the
    discard stays itself. ValueError for an action no game of this
    board_size has."""
    k %= 4
    places = board_size * board_size * 4
    action = _checks.integer(action, "an action")
    if not 0 <= action < MAX_HAND * (places * FIGURE_SLOTS + 1):
        raise ValueError("action %d is out of range 0 .. %d (board_size %d, a hand of up to %d)"
                         % (action, MAX_HAND * (places * FIGURE_SLOTS + 1) - 1, board_size,
                            MAX_HAND))
    block, action = divmod(action, places * FIGURE_SLOTS + 1)
    base = block * (places * FIGURE_SLOTS + 1)
    if action == places * FIGURE_SLOTS:
        return base + action
    slot = action % FIGURE_SLOTS
    rest = action // FIGURE_SLOTS
    rot, rest = rest % 4, rest // 4
    col, row = rest % board_size, rest // board_size
    for _ in range(k):  # (col, row) -> (S-1-row, col): clockwise on screen
        col, row = board_size - 1 - row, col
    return base + (((row * board_size + col) * 4 + (rot + k) % 4) * FIGURE_SLOTS) + slot


def rotate_mask(mask, board_size, k=1):
    """An action mask (or policy vector), or a batch of them (..., actions),
    turned k quarter turns clockwise, each hand tile's block (hand=N) on
    its own."""
    k %= 4
    s = board_size
    size = s * s * 4 * FIGURE_SLOTS + 1
    mask = np.asarray(mask)
    if mask.ndim == 0 or mask.shape[-1] % size:
        raise ValueError("a mask of %s actions is no whole number of blocks of %d"
                         % (mask.shape[-1] if mask.ndim else "no", size))
    lead = mask.shape[:-1]
    blocks = mask.reshape(lead + (-1, size))
    body = blocks[..., :-1].reshape(blocks.shape[:-1] + (s, s, 4, FIGURE_SLOTS))
    body = np.rot90(body, -k, axes=(-4, -3))
    body = np.roll(body, k, axis=-2)
    out = np.concatenate([body.reshape(blocks.shape[:-1] + (size - 1,)), blocks[..., -1:]],
                         axis=-1)
    return out.reshape(mask.shape)


def net_inputs(game):
    """The learned network's inputs of `game`'s position, from the side of
    the player to move (docs/learning.md): (position float32
    (NET_POSITION_INPUTS,), moves float32 (n, NET_MOVE_INPUTS), actions
    int64 (n,)), one row per legal move in the window, the library's order.
    The C player ("mcts:net=FILE") computes the same numbers."""
    position, moves, actions = game._net_inputs()
    return (np.frombuffer(position, dtype=np.float32).copy(),
            np.frombuffer(moves, dtype=np.float32).reshape(-1, NET_MOVE_INPUTS).copy(),
            np.frombuffer(actions, dtype=np.int64).copy())


def net_forward(net, position, moves):
    """Runs a .carcnet network (a path or its bytes) in C on a position's
    inputs and rows of move inputs: (value in points, logits float32 (n,)).
    Raises ValueError with the reader's message when the file is refused."""
    if isinstance(net, (str, os.PathLike)):
        with open(net, "rb") as f:
            net = f.read()
    position = np.ascontiguousarray(position, dtype=np.float32)
    if position.shape != (NET_POSITION_INPUTS,):
        raise ValueError("position must have shape (%d,), not %s"
                         % (NET_POSITION_INPUTS, position.shape))
    moves = np.ascontiguousarray(moves, dtype=np.float32)
    if moves.ndim != 2 or moves.shape[1] != NET_MOVE_INPUTS:
        # Never reshaped: a transposed (138, n) array would give n wrong logits.
        raise ValueError("moves must have shape (n, %d), one row a move, not %s"
                         % (NET_MOVE_INPUTS, moves.shape))
    value, logits = _core._net_forward(bytes(net), position.tobytes(), moves.tobytes())
    return value, np.frombuffer(logits, dtype=np.float32).copy()
