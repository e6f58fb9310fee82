"""labyrinth: a constraint-backed rule verifier and oracle for the one-way labyrinth.

Its version and :func:`source_digest` (a hash of the kernels' sources) name the code a result came from.
"""

from labyrinth import _jitcache
from labyrinth._jitcache import source_digest

__version__ = "0.1.0"

__all__ = ["source_digest"]

_jitcache.refresh()
