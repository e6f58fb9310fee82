"""Exact oracles for Hamiltonian completion, one interface and a module per backend.

>>> from labyrinth.engine import parse_compact
>>> with get_oracle("search") as oracle:
...     oracle.decide(parse_compact("5:RRRRDLLL")).witness
'LDRRRDLLLDRRR'
"""

from oracle.analysis import StateReport, analyse, first_dead_step
from oracle.base import Oracle, OracleBug, Verdict, check_witness
from oracle.registry import BACKENDS, available_backends, get_oracle

__all__ = sorted([
    "BACKENDS",
    "Oracle",
    "OracleBug",
    "StateReport",
    "Verdict",
    "analyse",
    "available_backends",
    "check_witness",
    "first_dead_step",
    "get_oracle",
])
