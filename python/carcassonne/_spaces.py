"""_spaces.py: the action and observation spaces of the environments.

Gymnasium's own spaces when it is installed; otherwise small stand-ins with
the same names and the parts the environments' users reach for (n, shape,
dtype, sample(), contains(), seed()), so the package depends on numpy only.
A seed is one of the package's: 0 .. 2**64-1 (ValueError outside).
"""
import numpy as np

from . import _checks

try:  # pragma: no cover - depends on what is installed
    from gymnasium import spaces as _gym_spaces
except ImportError:  # pragma: no cover
    _gym_spaces = None


def _rng(seed):
    """numpy's generator from a seed (None: from the system)."""
    return np.random.default_rng(None if seed is None else _checks.seed(seed))


class Discrete:
    """Integers 0 .. n-1."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self.np_random = _rng(seed)

    def seed(self, seed=None):
        self.np_random = _rng(seed)
        return [seed]

    def sample(self, mask=None):
        """A uniform action; with `mask` (an int8 array of n, 0 or 1 each, as
        Gymnasium's Discrete requires it) one of those with a 1, or 0 when
        none has."""
        if mask is not None:
            if not isinstance(mask, np.ndarray) or mask.dtype != np.int8:
                raise AssertionError("the mask must be a numpy int8 array, not %s"
                                     % getattr(mask, "dtype", type(mask).__name__))
            if mask.shape != (self.n,):
                raise AssertionError("the mask's shape must be (%d,), not %s"
                                     % (self.n, mask.shape))
            if not np.all((mask == 0) | (mask == 1)):
                raise AssertionError("the mask must hold 0 and 1 only")
            legal = np.flatnonzero(mask)
            if len(legal) == 0:
                return np.int64(0)
            return np.int64(self.np_random.choice(legal))
        return np.int64(self.np_random.integers(self.n))

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < self.n

    __contains__ = contains

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Box:
    """Arrays of one shape and dtype with bounds."""

    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)
        self.np_random = _rng(seed)

    def seed(self, seed=None):
        self.np_random = _rng(seed)
        return [seed]

    def sample(self):
        low = np.where(np.isfinite(self.low), self.low, -1.0)
        high = np.where(np.isfinite(self.high), self.high, low + 1.0)
        if self.dtype.kind in "iu":
            return self.np_random.integers(low, high + 1, size=self.shape).astype(self.dtype)
        return self.np_random.uniform(low, high, size=self.shape).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))

    __contains__ = contains

    def __repr__(self):
        return "Box(%s, %s)" % (self.shape, self.dtype)


class Dict:
    """A dict of named spaces."""

    def __init__(self, spaces, seed=None):
        self.spaces = dict(spaces)
        self.shape = None
        self.dtype = None

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def seed(self, seed=None):
        if seed is not None:
            seed = _checks.seed(seed)
        for i, space in enumerate(self.spaces.values()):
            space.seed(None if seed is None else (seed + i) % _checks.SEED_LIMIT)
        return [seed]

    def sample(self):
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(s.contains(x[k]) for k, s in self.spaces.items()))

    __contains__ = contains

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%s: %r" % kv for kv in self.spaces.items())


if _gym_spaces is not None:  # pragma: no cover
    Discrete = _gym_spaces.Discrete  # noqa: F811
    Box = _gym_spaces.Box  # noqa: F811
    Dict = _gym_spaces.Dict  # noqa: F811


def board_space(board_size):
    """The board planes of an observation: values 0..2."""
    from . import PLANES
    return Box(0.0, 2.0, (PLANES, board_size, board_size), np.float32)


def globals_space():
    from . import GLOBALS
    return Box(0.0, np.inf, (GLOBALS,), np.float32)


def mask_space(num_actions):
    return Box(0, 1, (num_actions,), np.int8)
