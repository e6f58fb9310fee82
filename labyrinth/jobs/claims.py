"""Unit claims: concurrent runs of one campaign share its units instead of each running them all.

Before a run starts a unit it claims it in the store (one ``BEGIN IMMEDIATE``
transaction, :meth:`verify.store.Store.claim`); the claim is released in the
transaction that records the unit. A run skips the units already recorded
and those claimed by another *live* run, and comes back to the latter until
they are recorded (so every run ends with the whole campaign's totals). A
claim's owner is dead, and the claim is taken over, when

* it runs on this machine (same host name and boot) and its process is gone
  (or the pid now names a process started at another time), or
* its heartbeat is older than :data:`CLAIM_TIMEOUT` seconds (owners on other
  machines, or a process that stopped beating); a live run renews the
  heartbeat of its claims every :data:`HEARTBEAT_SECONDS`.

So a killed run never blocks a resume, and a claim is never stolen from a
run that is still working on it.
"""

import collections
import os
import socket
import sqlite3
import threading
import time
import uuid

from labyrinth.jobs.stopping import held

__all__ = ["CLAIM_TIMEOUT", "HEARTBEAT_SECONDS", "Claims", "Owner", "drive", "owner_alive"]

#: seconds after which a claim whose owner stopped renewing it is taken over by another run
CLAIM_TIMEOUT = 600.0
#: how often a run renews the heartbeat of its claims
HEARTBEAT_SECONDS = 15.0
#: ``take`` ran out of units: every unit of the campaign is recorded or claimed by this run
DONE = object()


def _boot_id():
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as fh:
            return fh.read().strip()[:8]
    except OSError:
        return ""


def _process_stat(pid):
    """``(state letter, start time in clock ticks since boot)`` of process ``pid`` (Linux), or ``(None, None)``."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rpartition(")")[2].split()
        return fields[0], int(fields[19])
    except (OSError, ValueError, IndexError):
        return None, None


HOST = f"{socket.gethostname()}/{_boot_id()}"


class Owner:
    """Who holds a claim: this machine, this process (pid and start time) and a token for this run."""

    def __init__(self, host=None, pid=None, start=None, token=None):
        self.host = HOST if host is None else host
        self.pid = os.getpid() if pid is None else pid
        self.start = _process_stat(self.pid)[1] if start is None and pid is None else start
        self.token = uuid.uuid4().hex[:12] if token is None else token

    @property
    def key(self):
        return f"{self.host}:{self.pid}:{self.start}:{self.token}"


def owner_alive(host, pid, start, heartbeat, now, timeout=CLAIM_TIMEOUT):
    """Whether a claim's owner may still be running its unit (False: take the claim over)."""
    if now - heartbeat > timeout:
        return False
    if host != HOST:
        return True  # another machine: only its heartbeat tells
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process is alive
    state, started = _process_stat(pid)
    return state != "Z" and (start is None or started in (None, start))  # a zombie, or a new process on the pid


class Claims:
    """A run's view of a campaign's units: hands out the next one to run, claimed for this run.

    Parameters
    ----------
    tasks : list
        ``(fn, args, unit name)`` of the units not recorded when the run started.
    on_done : callable
        ``on_done(unit, totals)`` for a unit another run recorded meanwhile.
    poll : float
        Seconds between looks at units another live run holds, when nothing else is left.
    """

    def __init__(self, store, campaign, tasks, on_done, *, poll=0.5, timeout=CLAIM_TIMEOUT):
        self.store, self.campaign, self.on_done = store, campaign, on_done
        self.poll, self.timeout = poll, timeout
        self.owner = Owner()
        self.queue = collections.deque(tasks)
        self.busy = collections.deque()
        self._beat = None

    def take(self):
        """The next task to run, claimed; None when another live run holds every unit left; DONE at the end."""
        while self.queue:
            task = self.queue.popleft()
            state, info = self.store.claim(self.campaign, task[2], self.owner, timeout=self.timeout)
            if state == "mine":
                return task
            if state == "busy":
                self.busy.append(task)
            else:
                self.on_done(task[2], info)
        if self.busy:  # try them again next time
            self.queue, self.busy = self.busy, collections.deque()
            return None
        return DONE

    def wait_take(self):
        """The next task to run, claimed, waiting while other live runs hold every unit left; None at the end."""
        while True:
            with held():
                task = self.take()
            if task is DONE:
                return None
            if task is not None:
                return task
            time.sleep(self.poll)

    def beating(self):
        """Renew this run's claims every :data:`HEARTBEAT_SECONDS` from a thread (started once)."""
        if self._beat is None and self.store.path != ":memory:":
            self._beat = _Heartbeat(self.store.path, self.owner.key)
            self._beat.start()

    def close(self):
        """Stop the heartbeat and give back the claims of units this run did not record (an error, Ctrl-C)."""
        if self._beat is not None:
            self._beat.stop.set()
            self._beat.join()
            self._beat = None
        with held():
            self.store.release_claims(self.owner)


class _Heartbeat(threading.Thread):
    """Updates the heartbeat of an owner's claims through its own connection, until ``stop`` is set."""

    def __init__(self, path, owner):
        super().__init__(name="labyrinth-claims-heartbeat", daemon=True)
        self.path, self.owner, self.stop = path, owner, threading.Event()

    def run(self):
        con = sqlite3.connect(self.path, timeout=HEARTBEAT_SECONDS, isolation_level=None)
        try:
            while not self.stop.wait(HEARTBEAT_SECONDS):
                try:
                    con.execute("UPDATE claims SET heartbeat = ? WHERE owner = ?", (time.time(), self.owner))
                except sqlite3.Error:
                    pass  # the store was busy: the next beat comes well within the timeout
        finally:
            con.close()


def drive(claims, submit, wait_some, window, finish):
    """Run a campaign's units: keep up to ``window`` claimed units in flight and ``finish`` each result.

    ``submit(task)`` starts a task and returns a handle; ``wait_some(handles)``
    waits for at least one and returns ``(results, handles still running)``.
    When another live run holds every unit left, waits for our units in
    flight, else polls the store until those units are recorded or free.
    Claiming and finishing run :func:`~labyrinth.jobs.stopping.held`: a stop
    signal never cuts a store write in two, it takes effect right after it.
    """
    pending = []
    while True:
        last = None
        while len(pending) < window:
            with held():
                last = claims.take()
            if last is None or last is DONE:
                break
            pending.append(submit(last))
            claims.beating()
        if not pending:
            if last is DONE:
                return
            task = claims.wait_take()
            if task is None:
                return
            pending.append(submit(task))
            claims.beating()
        results, pending = wait_some(pending)
        for result in results:
            with held():
                finish(result)
