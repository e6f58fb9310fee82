"""Exact oracles for Hamiltonian completion, one interface and a module per backend.

>>> from labyrinth.engine import parse_compact
>>> state = parse_compact("5:RRRRDLLL")
>>> with get_oracle("search") as oracle:
...     verdict = oracle.decide(state)
>>> verdict.feasible, verdict.witness[0], check_witness(state, verdict.witness)
(True, 'L', True)
>>> get_oracle("auto").decide(parse_compact("5:RRRRDDLLLUL")).status
'dead'
"""

from oracle.analysis import StateReport, analyse, dead_step_bounds, first_dead_step
from oracle.base import Oracle, OracleBug, Verdict, check_witness
from oracle.count import CompletionCounter, count_completions, count_paths
from oracle.rank import sample_walkthrough, walkthrough_rank, walkthrough_unrank
from oracle.registry import BACKENDS, available_backends, backend_names, get_oracle

__all__ = [
    "BACKENDS",
    "CompletionCounter",
    "Oracle",
    "OracleBug",
    "StateReport",
    "Verdict",
    "analyse",
    "available_backends",
    "backend_names",
    "check_witness",
    "dead_step_bounds",
    "count_completions",
    "count_paths",
    "first_dead_step",
    "get_oracle",
    "sample_walkthrough",
    "walkthrough_rank",
    "walkthrough_unrank",
]
