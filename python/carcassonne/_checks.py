"""_checks.py: the integer arguments the pure-Python parts of the package
take (a seed, an action), checked as the C extension checks its own: an int
or a numpy integer, never a bool; a value out of range raises ValueError
with the value, never wraps round."""
import operator

import numpy as np

SEED_LIMIT = 2**64


def integer(value, what):
    """`value` as an int: an int or an integer with __index__ (numpy's);
    TypeError for a bool, a float, a string..."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__)) from None


def seed(value):
    """A seed: an integer of 0 .. 2**64-1."""
    s = integer(value, "seed")
    if not 0 <= s < SEED_LIMIT:
        raise ValueError("seed %d is out of range: a seed is 0 .. 2**64-1" % s)
    return s


def names(value, what):
    """A list of names (or one string of them) as the library's text."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    raise TypeError("%s must be a list of str (or one str), not %r" % (what, type(value).__name__))


def specs(value, what, allow_none=False):
    """Player specs: one str, or a list or tuple of them (None where
    `allow_none`, a seat that is not a computer's); TypeError otherwise,
    naming `what` (where iterating an int raised "'int' object is not
    iterable")."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(
            isinstance(v, str) or (allow_none and v is None) for v in value):
        return list(value)
    raise TypeError("%s must be a player spec (str) or a list of them, not %r"
                    % (what, type(value).__name__))
