"""vector.py: VectorGame, n games stepped at once in C (docs/python.md,
"VectorGame").

    vg = carcassonne.VectorGame(256, players=2, seed=1)
    indptr, actions = vg.legal_actions()           # CSR: game i's are actions[indptr[i]:indptr[i+1]]
    rewards, done = vg.step(chosen)                # one action per game
    board, glob = vg.observation()                 # (n, OBS_PLANES, S, S) uint8, (n, GLOBALS) float32

A game that ends starts over at once with its next deal: game i's k-th
deal is dealt from seed + i + k * n (modulo 2**64).
"""
import numpy as np

from . import _checks, _core

OBS_PLANES = _core.OBS_PLANES


class VectorGame(_core.VectorGame):
    """VectorGame(n, players=2, seed=0, rules=None, expansions=None, board_size=31):
    n games of the same rules, stepped together; the actions are Game's
    (the same window of board_size squares)."""

    def __init__(self, n, players=2, seed=0, rules=None, expansions=None, board_size=31):
        n = _checks.integer(n, "n")
        players = _checks.integer(players, "players")
        board_size = _checks.integer(board_size, "board_size")
        rules_text, expansions_text = _checks.names(rules, "rules"), _checks.names(expansions, "expansions")
        super().__init__(n, players, _checks.seed(seed), rules_text, expansions_text, board_size)
        self.n, self.players, self.board_size = n, players, board_size
        self.seed = _checks.seed(seed)
        self.rules, self.expansions = rules_text, expansions_text
        blocks = 1
        for name in rules_text.replace(",", " ").split():
            if name.startswith("hand="):
                blocks = int(name[5:])
        self.num_actions = blocks * (board_size * board_size * 4 * _core.FIGURE_SLOTS + 1)
        self._rewards = np.zeros((n, players), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)

    def __len__(self):
        return self.n

    def __repr__(self):
        return "<carcassonne.VectorGame %d games, %d players>" % (self.n, self.players)

    def legal_actions(self, form="csr"):
        """The legal actions of every game: form="csr" gives (indptr, actions),
        int64 arrays of n + 1 and of the total count (game i's actions are
        actions[indptr[i]:indptr[i + 1]], in the library's move order);
        form="list" a list of n lists of ints. Never empty: a game whose
        every legal move lies outside the window is truncated (started over)."""
        raw_indptr, raw_actions = self._legal()
        indptr = np.frombuffer(raw_indptr, dtype=np.int64)
        actions = np.frombuffer(raw_actions, dtype=np.int64)
        if form == "csr":
            return indptr, actions
        if form == "list":
            bounds = indptr.tolist()
            flat = actions.tolist()
            return [flat[bounds[i]:bounds[i + 1]] for i in range(self.n)]
        raise ValueError("form must be 'csr' or 'list', not %r" % (form,))

    def step(self, actions):
        """Plays actions[i] in game i, for every game at once: an array-like
        of n integers, each one of that game's legal_actions(). Returns
        (rewards, done): float32 (n, players), each seat's change in margin
        (its score minus the best other score), and bool (n,), the games
        that ended (finished, or truncated: see `truncated`) and started
        over with their next deal. Bad actions raise (TypeError for a
        non-integer array, ValueError for a wrong shape or an action that is
        not legal) and no game moves."""
        arr = np.asarray(actions)
        if arr.dtype == object:  # Python ints too big for int64, or not ints at all
            arr = np.array([_checks.integer(a, "an action") for a in arr.ravel()],
                           dtype=object).reshape(arr.shape)
        elif arr.dtype.kind not in "iu":
            raise TypeError("actions must be integers, not %s" % arr.dtype)
        if arr.shape != (self.n,):
            raise ValueError("actions must have shape (%d,), not %s" % (self.n, arr.shape))
        outside = np.flatnonzero((arr < 0) | (arr >= self.num_actions))
        if len(outside):
            i = int(outside[0])
            raise ValueError("game %d: action %d is out of range: this game's actions are "
                             "0 .. %d; no game moved" % (i, arr[i], self.num_actions - 1))
        if arr.dtype != np.int64:
            arr = arr.astype(np.int64)
        rewards = np.empty((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=np.bool_)
        self._step(np.ascontiguousarray(arr), rewards, done.view(np.uint8))
        return rewards, done

    def observation(self, out=None):
        """The compact observation of every game from its mover's view:
        (board, globals), uint8 (n, OBS_PLANES, S, S) and float32 (n,
        GLOBALS); docs/python.md lists the planes. `out` (a pair of such
        arrays, C-contiguous) is filled and returned instead of new ones."""
        if out is None:
            s = self.board_size
            out = (np.empty((self.n, OBS_PLANES, s, s), dtype=np.uint8),
                   np.empty((self.n, _core.GLOBALS), dtype=np.float32))
        board, glob = out
        for array, dtype in ((board, np.uint8), (glob, np.float32)):
            if not isinstance(array, np.ndarray) or array.dtype != dtype or \
                    not array.flags.c_contiguous or not array.flags.writeable:
                raise TypeError("out must be a pair of C-contiguous writable arrays (uint8, float32)")
        self._observe(board, glob)
        return board, glob

    def _arrays(self):
        current, scores, finals, seeds, truncated = self._state()
        p = self.players
        return (np.frombuffer(current, dtype=np.int32), np.frombuffer(scores, dtype=np.int32).reshape(-1, p),
                np.frombuffer(finals, dtype=np.int32).reshape(-1, p),
                np.frombuffer(seeds, dtype=np.uint64), np.frombuffer(truncated, dtype=np.bool_))

    @property
    def current_player(self):
        """int32 (n,): the seat to move in each game."""
        return self._arrays()[0]

    @property
    def scores(self):
        """int32 (n, players): each game's scores now."""
        return self._arrays()[1]

    @property
    def final_scores(self):
        """int32 (n, players): the final scores of the last game each one
        ended (valid where step() returned done)."""
        return self._arrays()[2]

    @property
    def seeds(self):
        """uint64 (n,): the seed each game's current deal was dealt from."""
        return self._arrays()[3]

    @property
    def truncated(self):
        """bool (n,): the games the last step ended because no legal move
        was left inside the window (their final_scores are not final)."""
        return self._arrays()[4]

    def game(self, i):
        """A copy of game i as a carcassonne.Game (its seed the deal's)."""
        from . import Game
        return self._game(_checks.integer(i, "i"), Game)
