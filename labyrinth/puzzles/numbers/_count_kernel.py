"""The path counter's numba kernels, under their old name: :mod:`labyrinth.core._count_kernel` (any move graph)."""

from labyrinth.core._count_kernel import (
    BASE,
    R_HI,
    R_LO,
    R_LVL,
    R_NODES,
    new_table,
    run,
    start,
)
from labyrinth.core._count_mirror import mirror_run, mirror_start

__all__ = ["BASE", "R_HI", "R_LO", "R_LVL", "R_NODES", "mirror_run", "mirror_start", "new_table", "run", "start"]
