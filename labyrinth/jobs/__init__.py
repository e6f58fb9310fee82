"""Where units of work run: in this process, in local worker processes, or on Ray.

A long computation (an audit campaign, a count, an enumeration) is split
into units; :mod:`~labyrinth.jobs.claims` lets concurrent runs of one
campaign share its units through the store, and
:mod:`~labyrinth.jobs.executors` runs the units it hands out. Nothing here
knows a puzzle: every layer above may use it.
"""

from labyrinth.jobs.claims import CLAIM_TIMEOUT, HEARTBEAT_SECONDS, Claims, Owner, drive, owner_alive
from labyrinth.jobs.executors import die_with_parent, run_local, run_ray, run_serial, stop_between_units

__all__ = [
    "CLAIM_TIMEOUT",
    "Claims",
    "HEARTBEAT_SECONDS",
    "Owner",
    "die_with_parent",
    "drive",
    "owner_alive",
    "run_local",
    "run_ray",
    "run_serial",
    "stop_between_units",
]
