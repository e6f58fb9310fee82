"""The walker's random numbers: splitmix64, seeded per walk from ``(seed, walk index)``.

Steele, Lea and Flood 2014, "Fast splittable pseudorandom number generators":
a walk depends only on its seed and number, whatever ran before it.
"""

import numpy as np
from numba import njit

__all__ = ["GOLDEN", "mix", "walk_seed"]

#: the generator's increment (the golden ratio in 64 bits)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def mix(z):
    """splitmix64's output function."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def walk_seed(seed, index):
    """The random state of walk ``index`` of a campaign seeded ``seed``."""
    return mix(np.uint64(seed) * GOLDEN + mix(np.uint64(index) + GOLDEN))
