"""Where a campaign's units run: in this process, in local worker processes that die with it, or on Ray.

Each executor takes the run's :class:`labyrinth.jobs.claims.Claims` and runs the
units it hands out (claimed in the store first, so concurrent runs of one
campaign share them), calling ``finish(result)`` in this process for each.
The first SIGINT or SIGTERM stops each of them at once
(:mod:`labyrinth.jobs.stopping`): the units running are abandoned, those
finished are stored.
"""

import contextlib
import os
import sys

from labyrinth.errors import LabyrinthError
from labyrinth.jobs.claims import drive
from labyrinth.jobs.pool import WorkerPool
from labyrinth.jobs.stopping import stop_on_signals

__all__ = ["run_local", "run_ray", "run_serial"]


def run_serial(claims, ensure_init, finish):
    """Run the units one by one in this process (``ensure_init()`` before each sets up the worker context)."""
    def run_first(pending):
        fn, fargs, _ = pending[0]
        ensure_init()
        return [fn(*fargs)], pending[1:]

    with stop_on_signals():
        drive(claims, lambda task: task, run_first, 1, finish)


def run_local(claims, init, init_args, jobs, finish):
    """Run the units on ``jobs`` forked worker processes, each set up by ``init(*init_args)``, that die with us.

    A stop (Ctrl-C, SIGTERM) or a unit's error kills the workers: the units
    running then are given up (a resume runs them).
    """
    with WorkerPool(jobs, init, init_args) as pool:
        drive(claims, lambda task: pool.submit(task[0], *task[1]), pool.wait_some, 2 * jobs, finish)


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

        submitted = []

        def submit(t):
            submitted.append(task.remote(init_args, t[0], t[1]))
            return submitted[-1]

        try:
            with stop_on_signals():
                drive(claims, submit, wait_some, window, finish)
        except BaseException:
            for ref in submitted:  # a stop or an error: the tasks still running are given up
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
