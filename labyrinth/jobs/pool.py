"""Local worker processes that end with the run: killed, not awaited, when it stops; never left behind.

Every command that runs work in local processes (audits, counts, walk
statistics, learning, warm-up, the knight's searches) does it through
:class:`WorkerPool`, so all of them behave alike:

* a worker dies with its parent, even when the parent is killed by SIGKILL
  (``prctl(PR_SET_PDEATHSIG)`` on Linux, and everywhere a thread that ends the
  worker once it has been re-parented): no orphan holds memory or a pipe;
* a worker ignores SIGINT and SIGTERM (:func:`~labyrinth.jobs.stopping.in_worker`):
  a Ctrl-C on the terminal reaches the whole process group, but the parent
  alone decides; it stops at once (:mod:`labyrinth.jobs.stopping`) and
* leaving the pool by an exception (the stop, an error) kills the workers
  with SIGKILL instead of waiting for their units: they hold no store, the
  parent alone writes it, so nothing stored is lost.
"""

import concurrent.futures
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time

from labyrinth.errors import Interrupted
from labyrinth.jobs.stopping import in_worker, stop_on_signals, watch_pool

__all__ = ["PARENT_POLL_SECONDS", "WorkerLost", "WorkerPool", "die_with_parent"]

#: seconds between a worker's looks at its parent (where the kernel does not end it with its parent)
PARENT_POLL_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


class WorkerLost(Interrupted):
    """A worker process died under the run (killed by a user or the out-of-memory killer): the run stops."""

    def __init__(self):
        super().__init__("a worker process was killed")


def die_with_parent(parent, *, kernel=True):
    """End this worker process when its ``parent`` ends, even by SIGKILL: no orphan holds memory on.

    On Linux the kernel kills the worker (``prctl(PR_SET_PDEATHSIG, SIGKILL)``;
    ``kernel=False`` skips it); everywhere, a daemon thread exits the worker
    once it has been re-parented (within :data:`PARENT_POLL_SECONDS`).
    """
    if kernel and sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: the thread below still watches
    if os.getppid() != parent:  # the parent died before the kernel was told to watch it
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="labyrinth-parent-watch", daemon=True).start()


def _watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _worker_init(parent, init, init_args):
    in_worker()
    die_with_parent(parent)
    if init is not None:
        init(*init_args)


class WorkerPool:
    """``jobs`` local worker processes, each set up by ``init(*init_args)``, that die with this process.

    A context manager: leaving it normally waits for the units submitted;
    leaving it by an exception (a stop signal, a unit's error, the caller
    giving up) kills the workers at once. While it is open, SIGINT and SIGTERM
    stop the run (:func:`~labyrinth.jobs.stopping.stop_on_signals`).

    Parameters
    ----------
    jobs : int
        Worker processes.
    init : callable, optional
        Run once in each worker before its first unit (module level, for ``spawn``).
    start : str
        ``fork`` (the workers share what this process loaded: compiled kernels)
        or ``spawn`` (fresh interpreters: for a parent holding solver threads).
    """

    def __init__(self, jobs, init=None, init_args=(), *, start="fork"):
        self.jobs = jobs
        self._executor = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context(start), initializer=_worker_init,
            initargs=(os.getpid(), init, init_args))
        self._stack = contextlib.ExitStack()
        self._killed = False

    def __enter__(self):
        self._stack.enter_context(stop_on_signals())
        self._stack.callback(watch_pool(self))
        return self

    def __exit__(self, kind, err, tb):
        try:
            if err is None and not self._killed:
                self._executor.shutdown(wait=True)
            else:
                self.kill()
        finally:
            self._stack.close()

    @property
    def workers(self):
        """The pids of the worker processes started so far (the executor starts them as units arrive)."""
        procs = getattr(self._executor, "_processes", None) or {}
        return sorted(proc.pid for proc in procs.values() if proc.pid is not None)

    def submit(self, fn, *args):
        """Start ``fn(*args)`` in a worker: a :class:`concurrent.futures.Future`."""
        return self._executor.submit(fn, *args)

    def wait_some(self, pending):
        """Wait for at least one of ``pending``: ``(their results, the futures still running)``.

        A unit's error is raised here; a worker that died raises :class:`WorkerLost`.
        """
        done, rest = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        try:
            return [f.result() for f in done], list(rest)
        except concurrent.futures.process.BrokenProcessPool:
            raise WorkerLost() from None

    def call(self, fn, *args):
        """``fn(*args)`` in a worker, its result here: a long compiled call this process can still stop at once."""
        (result,), _ = self.wait_some([self.submit(fn, *args)])
        return result

    def map_unordered(self, fn, arg_tuples, window=None):
        """``fn(*args)`` for each of ``arg_tuples``, yielded as they finish, at most ``window`` in flight.

        ``window`` defaults to twice the workers. Closing the generator early
        (the caller has what it wanted) kills the units still running.
        """
        window = 2 * self.jobs if window is None else max(1, window)
        todo = iter(arg_tuples)
        pending = []
        try:
            while True:
                for args in todo:
                    pending.append(self.submit(fn, *args))
                    if len(pending) >= window:
                        break
                if not pending:
                    return
                results, pending = self.wait_some(pending)
                yield from results
        except GeneratorExit:
            self.kill()
            raise

    def kill(self, wait=True):
        """End the workers now (SIGKILL) and drop the units not started; ``wait``: reap them (bounded)."""
        if self._killed:
            return
        self._killed = True
        procs = list((getattr(self._executor, "_processes", None) or {}).values())
        for proc in procs:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                proc.kill()
        if not wait:
            return
        manager = getattr(self._executor, "_executor_manager_thread", None)  # shutdown forgets it
        self._executor.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
                proc.join(1.0)
        # the executor's manager thread closes its wake-up pipe when it sees the workers gone; if it did so while
        # the interpreter's exit hook wrote to that pipe, Python 3.11 prints "Exception ignored ... Bad file
        # descriptor" (the race CPython 3.12 closed with a lock): let it finish first (bounded)
        if manager is not None and manager is not threading.current_thread():
            manager.join(1.0)
