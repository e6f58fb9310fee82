"""labyrinth: a constraint-backed rule verifier and oracle for the one-way labyrinth."""

from labyrinth import _jitcache

__version__ = "0.1.0"

_jitcache.refresh()
