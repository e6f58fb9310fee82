"""Stopping a long run on a signal: the first Ctrl-C or SIGTERM stops it at once, and what it stored stays.

Inside :func:`stop_on_signals` the first SIGINT (Ctrl-C) or SIGTERM raises
:class:`~labyrinth.errors.Interrupted` in the main thread at once: the units
running are abandoned, not awaited (their workers are killed by
:class:`~labyrinth.jobs.pool.WorkerPool`), and the caller says what was stored
and how to go on. Code that must not be cut in two (writing a unit to a store)
runs inside :func:`held`: a signal arriving there takes effect when the block
ends. A second signal while the first one's stop runs gives that stop
:data:`AGAIN_SECONDS` more, a third none: then the process ends at once (its
workers killed first), so no stop ever hangs. A pool worker
(:func:`in_worker`) ignores both signals: its parent alone decides, and kills it.

A signal is handled by Python between two bytecodes of the main thread, so a
compiled kernel or a solver call delays it until it returns: long kernels run
in slices (or in workers) to stop within a second or two.
"""

import contextlib
import os
import signal
import sys
import threading

from labyrinth.errors import Interrupted

__all__ = ["STOP_SIGNALS", "held", "in_worker", "stop_on_signals", "stop_requested", "watch_pool"]

#: the signals that stop a run: Ctrl-C on a terminal, and ``kill``'s default
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: seconds a stop may still take after a second signal before the process ends at once
AGAIN_SECONDS = 1.0


class _State:
    """The process's stop state (one per process: signal handlers are process-wide)."""

    def __init__(self):
        self.depth = 0  # nested stop_on_signals blocks
        self.held = 0  # nested held blocks
        self.signum = None  # the first stop signal received
        self.urgent = None  # the timer a second signal starts
        self.raised = False  # the first signal was raised as Interrupted
        self.worker = False  # this process is a pool worker: its parent handles signals
        self.pools = []  # live worker pools, killed before a hard exit


_STATE = _State()


def in_worker():
    """Mark this process as a pool worker: it ignores SIGINT and SIGTERM (its parent stops and kills it).

    python-sat would catch SIGINT itself during a solve (it does in a main
    thread) and leave its solver broken ("cadical: fatal error ... solver in
    invalid state" on the terminal): it is told not to.
    """
    _STATE.worker = True
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    solvers = sys.modules.get("pysat.solvers") or _import_pysat()
    if getattr(solvers, "MainThread", None) is not None:
        solvers.MainThread = _NotMainThread


def stop_requested():
    """The stop signal received inside :func:`stop_on_signals` (its number), or None."""
    return _STATE.signum


def watch_pool(pool):
    """Have ``pool.kill()`` called before a hard exit; returns a function that forgets the pool again."""
    _STATE.pools.append(pool)
    return lambda: _STATE.pools.remove(pool) if pool in _STATE.pools else None


def _handler(signum, frame):
    st = _STATE
    if st.signum is not None:  # a second signal while the first one's stop runs: it may end the stop
        if st.urgent is None:  # a stop takes moments; if this one takes longer, it is ended from a timer
            st.urgent = threading.Timer(AGAIN_SECONDS, _hard_exit, (st.signum,))
            st.urgent.daemon = True
            st.urgent.start()
            return
        _hard_exit(st.signum)  # a third: now
    st.signum = signum
    if st.held:
        return  # raised when the held block ends
    st.raised = True
    raise Interrupted(signum=signum)


def _exit_now(signum, frame):
    _hard_exit(signum)


def _hard_exit(signum):
    """End the process now: kill the workers, flush what was printed, say so, and exit 128 + signum."""
    for pool in list(_STATE.pools):
        with contextlib.suppress(Exception):
            pool.kill(wait=False)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    with contextlib.suppress(OSError):
        os.write(2, b"labyrinth: stopped at once (signalled again; what was stored before stays)\n")
    os._exit(128 + signum)


@contextlib.contextmanager
def held():
    """Hold a stop signal while the block runs (a store write): it raises when the block ends.

    Outside :func:`stop_on_signals` (and in workers) it changes nothing.
    """
    st = _STATE
    st.held += 1
    try:
        yield
    finally:
        st.held -= 1
    if not st.held and st.signum is not None and not st.raised and st.depth:
        st.raised = True
        raise Interrupted(signum=st.signum)


@contextlib.contextmanager
def stop_on_signals(*, last=False):
    """Let SIGINT and SIGTERM stop the block at once (raising :class:`Interrupted`); nests.

    ``last``: the process ends after the block (the command line's own
    block): once stopped, a further signal ends it at once, even while the
    interpreter winds down; otherwise the handlers found are put back.

    Only the main thread of a process that is not a pool worker installs the
    handlers, and only for a signal left at its default (a background job that
    ignores SIGINT keeps ignoring it). While on, python-sat does not catch
    SIGINT itself: asked from the main thread it would jump out of CaDiCaL on
    Ctrl-C and leave the solver broken ("cadical: fatal error: ... solver in
    invalid state"); every solver call of a run is bounded, so the signal is
    seen as soon as the call returns.
    """
    st = _STATE
    if st.depth:
        st.depth += 1
        try:
            yield
        finally:
            st.depth -= 1
        return
    if st.worker or threading.current_thread() is not threading.main_thread():
        yield
        return
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    saved = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    mine = [s for s in STOP_SIGNALS if saved[s] is defaults[s]]
    solvers = sys.modules.get("pysat.solvers") or _import_pysat()
    main_thread = getattr(solvers, "MainThread", None)
    st.depth, st.signum, st.raised, st.urgent = 1, None, False, None
    for s in mine:
        signal.signal(s, _handler)
    if main_thread is not None:
        solvers.MainThread = _NotMainThread
    try:
        yield
    finally:
        ending = last and st.signum is not None
        for s in mine:  # a stopped command is on its way out: another signal ends it at once
            signal.signal(s, _exit_now if ending else saved[s])
        if main_thread is not None:
            solvers.MainThread = main_thread
        # a timer a second signal started keeps running: if leaving the process hangs, it still ends it
        st.depth, st.signum, st.raised, st.urgent = 0, None, False, None


class _NotMainThread:
    """Tells python-sat to leave SIGINT to Python (see :func:`stop_on_signals`)."""

    @staticmethod
    def check():
        return False


def _import_pysat():
    try:
        import pysat.solvers

        return pysat.solvers
    except ImportError:
        return None
