"""The verifier: audits of rule sets against the oracle, minimal counterexamples, a findings store.

* :mod:`~verify.audit`: audit a walk or a state (over-pruned, missed dead,
  wrong force), confirm findings with a second backend;
* :mod:`~verify.minimize`: minimal stuck patterns (SAT cores, then deletion);
* :mod:`~verify.campaign`: campaigns split into units, local processes;
  :mod:`~verify.settings`: a campaign's settings (:class:`~verify.settings.AuditSettings`);
* :mod:`~verify.store`: the SQLite findings store;
* :mod:`~verify.stats_campaign`: the walk statistic (``labyrinth stats --db``) as a resumable campaign;
* :mod:`~verify.learn`: rules that get stronger by themselves (``labyrinth rules learn``);
  :mod:`~verify.learn_units`: its store of finished units, checked and locked for a run.
"""

from verify._exhaustive import count_subtree
from verify.audit import CLASSES, AuditTotals, Finding, audit_state, audit_walk, confirm
from verify.campaign import code_version, rules_fingerprint, rules_fingerprints, run_campaign
from verify.learn import Learned, learn
from verify.minimize import Pattern, PatternError, minimal_pattern, verify_pattern
from verify.settings import AuditSettings, RunSettings
from verify.store import Store, StoreError

__all__ = [
    "AuditSettings",
    "AuditTotals",
    "CLASSES",
    "Finding",
    "Learned",
    "Pattern",
    "PatternError",
    "RunSettings",
    "Store",
    "StoreError",
    "audit_state",
    "audit_walk",
    "code_version",
    "confirm",
    "count_subtree",
    "learn",
    "minimal_pattern",
    "rules_fingerprint",
    "rules_fingerprints",
    "run_campaign",
    "verify_pattern",
]
