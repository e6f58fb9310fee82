"""Where units of work run: in this process, in local worker processes, or on Ray.

A long computation (an audit campaign, a count, an enumeration) is split
into units; :mod:`~labyrinth.jobs.claims` lets concurrent runs of one
campaign share its units through the store,
:mod:`~labyrinth.jobs.executors` runs the units it hands out,
:mod:`~labyrinth.jobs.pool` holds the local worker processes every command
uses (they die with their parent) and :mod:`~labyrinth.jobs.stopping` makes
the first Ctrl-C or SIGTERM stop a run at once. Nothing here
knows a puzzle: every layer above may use it.
"""

from labyrinth.jobs.claims import CLAIM_TIMEOUT, HEARTBEAT_SECONDS, Claims, Owner, drive, owner_alive
from labyrinth.jobs.executors import run_local, run_ray, run_serial
from labyrinth.jobs.pool import WorkerLost, WorkerPool, die_with_parent
from labyrinth.jobs.stopping import held, stop_on_signals, stop_requested

__all__ = [
    "CLAIM_TIMEOUT",
    "Claims",
    "HEARTBEAT_SECONDS",
    "Owner",
    "WorkerLost",
    "WorkerPool",
    "die_with_parent",
    "drive",
    "held",
    "owner_alive",
    "run_local",
    "run_ray",
    "run_serial",
    "stop_on_signals",
    "stop_requested",
]
