"""Where a campaign's units run: in this process, in local worker processes that die with it, or on Ray.

Each executor takes the run's :class:`labyrinth.jobs.claims.Claims` and runs the
units it hands out (claimed in the store first, so concurrent runs of one
campaign share them), calling ``finish(result)`` in this process for each.
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

from labyrinth.errors import LabyrinthError
from labyrinth.jobs.claims import drive

__all__ = ["die_with_parent", "run_local", "run_ray", "run_serial", "stop_between_units"]

#: seconds between a local worker's looks at its parent (where the kernel does not end it with its parent)
PARENT_POLL_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


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
    die_with_parent(parent)
    try:
        os.setpgid(0, 0)  # a Ctrl-C on the terminal reaches the run, which stops its workers itself
    except OSError:
        pass
    init(*init_args)


@contextlib.contextmanager
def stop_between_units(on_first=None):
    """Ctrl-C stops a run between units, never inside a SAT solver; pressed again, it stops at once.

    Yields ``check()``, which raises :class:`KeyboardInterrupt` once Ctrl-C was
    pressed: call it when a unit is stored. The first Ctrl-C only calls
    ``on_first()`` (to say so). While this is on, python-sat does not catch
    SIGINT itself: asked from the main thread it would jump out of CaDiCaL on
    Ctrl-C and leave the solver broken ("cadical: fatal error: ... solver in
    invalid state"). Every solver call of a campaign is bounded, so the second
    Ctrl-C is seen within moments, between two calls. Off the main thread, or
    where SIGINT is ignored (a background job), nothing changes.
    """
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield lambda: None
        return
    asked = []

    def handler(signum, frame):
        asked.append(signum)
        if len(asked) > 1:
            raise KeyboardInterrupt
        if on_first is not None:
            on_first()

    def check():
        if asked:
            raise KeyboardInterrupt

    solvers = sys.modules.get("pysat.solvers") or _import_pysat()
    main_thread = getattr(solvers, "MainThread", None)
    signal.signal(signal.SIGINT, handler)
    if main_thread is not None:
        solvers.MainThread = _NotMainThread
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if main_thread is not None:
            solvers.MainThread = main_thread


class _NotMainThread:
    """Tells python-sat to leave SIGINT to Python (see :func:`stop_between_units`)."""

    @staticmethod
    def check():
        return False


def _import_pysat():
    try:
        import pysat.solvers

        return pysat.solvers
    except ImportError:
        return None


def run_serial(claims, ensure_init, finish):
    """Run the units one by one in this process (``ensure_init()`` before each sets up the worker context)."""
    def run_first(pending):
        fn, fargs, _ = pending[0]
        ensure_init()
        return [fn(*fargs)], pending[1:]

    drive(claims, lambda task: task, run_first, 1, finish)


def run_local(claims, init, init_args, jobs, finish):
    """Run the units on ``jobs`` forked worker processes, each set up by ``init(*init_args)``, that die with us."""
    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init,
                                                initargs=(os.getpid(), init, init_args)) as pool:
        def wait_some(pending):
            done, rest = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            return [f.result() for f in done], list(rest)

        try:
            drive(claims, lambda task: pool.submit(task[0], *task[1]), wait_some, 2 * jobs, finish)
        except KeyboardInterrupt:
            _stop_workers(pool)  # Ctrl-C: the units running now are given up (a resume runs them)
            raise
        except concurrent.futures.process.BrokenProcessPool:
            _stop_workers(pool)
            raise KeyboardInterrupt("a worker process was killed") from None
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)  # a unit failed: start no more (the running ones end)
            raise


def _stop_workers(pool):
    """End a pool's workers now (SIGKILL: they hold no store; the driver alone writes it)."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            proc.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def _unreachable(address, timeout=5.0):
    """True when ``HOST:PORT`` refuses a TCP connection (Ray itself would wait for it a long time)."""
    import socket

    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return False  # "auto", a ray:// client address or a name Ray resolves itself: let Ray try
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return False
    except OSError:
        return True


@contextlib.contextmanager
def _stderr_kept_on_success():
    """Hold what is written to file descriptor 2 meanwhile; pass it on unless the block raises."""
    import tempfile

    sys.stderr.flush()
    with tempfile.TemporaryFile() as held:
        saved = os.dup(2)
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            raise
        else:
            os.dup2(saved, 2)
            held.seek(0)
            os.write(2, held.read())
        finally:
            os.close(saved)


def _token_hint(address):
    """What to try when joining ``address`` failed: Ray never sends a token to an explicit address unasked."""
    if not address or os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (" (a cluster started with token authentication, Ray's default, needs RAY_AUTH_MODE=token here"
            " and its token in RAY_AUTH_TOKEN or ~/.ray/auth_token)")


def run_ray(claims, ray_task, init_args, jobs, address, finish):
    """Run units as Ray tasks ``ray_task(init_args, fn, args)``, a bounded window in flight; commit each here."""
    try:
        import ray
    except ImportError:
        raise LabyrinthError("the ray backend needs the 'ray' package: pip install 'labyrinth[ray]'",
                             token="ray") from None
    started = not ray.is_initialized()
    if started and address and _unreachable(address):
        raise LabyrinthError("cannot reach the Ray cluster (nothing listens there)", source=address)
    if started:
        try:
            with _stderr_kept_on_success():  # Ray's core logs each failed retry to fd 2; a failure is one line
                ray.init(address=address, num_cpus=None if address else jobs, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise LabyrinthError(f"cannot reach the Ray cluster: {err}".splitlines()[0] + _token_hint(address),
                                 source=address or "local Ray") from None
    try:
        task = ray.remote(ray_task)
        window = 4 * max(1, int(ray.cluster_resources().get("CPU", jobs)))

        def wait_some(pending):
            ready, rest = ray.wait(pending, num_returns=1)
            try:
                return [ray.get(ref) for ref in ready], rest
            except ray.exceptions.RayTaskError as err:  # our own error, raised in a task: as if raised here
                if isinstance(err.cause, LabyrinthError):
                    for ref in rest:
                        ray.cancel(ref)
                    raise err.cause from None
                raise

        drive(claims, lambda t: task.remote(init_args, t[0], t[1]), wait_some, window, finish)
    finally:
        if started:
            ray.shutdown()
