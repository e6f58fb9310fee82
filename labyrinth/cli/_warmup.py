"""``labyrinth warmup``: compile every numba kernel once, with a progress bar (``make demo`` runs it)."""

import sys

from labyrinth.cli._common import EXIT_BAD_INPUT, EXIT_OK, note, progress_bar
from labyrinth.cli._limits import positive_int


def register(sub):
    """Add ``warmup`` to the ``labyrinth`` parser."""
    w = sub.add_parser("warmup", help="compile every numba kernel once, so that no later command waits for it",
                       description="Run one small command per kernel family (labyrinth/warmup.py lists them), "
                                   "so that numba compiles each kernel once and keeps it in __pycache__. Later "
                                   "commands load them in well under a second. 'make demo' runs this; it takes "
                                   "a few minutes the first time and after an edit to a kernel's source, and "
                                   "seconds when everything is cached.")
    w.add_argument("--jobs", type=positive_int(64), default=1, metavar="J",
                   help="compile in J processes at once (default 1)")
    w.add_argument("--list", action="store_true", help="list the steps and their commands, run nothing")
    w.add_argument("--no-progress", action="store_true")
    w.set_defaults(run=_warmup)


def _warmup(args):
    import time

    from labyrinth import warmup

    steps = warmup.steps()
    if args.list:
        width = max(len(s.label) for s in steps)
        for s in steps:
            print(f"{s.label:<{width}}  labyrinth {s.command}")
        return EXIT_OK
    t0 = time.perf_counter()
    failed, compiled = [], []
    bar = progress_bar(len(steps), unit="step", disable=args.no_progress, desc="compiling kernels")
    try:
        with warmup.scratch() as tmp:
            for step, (status, _, kernels) in _results(steps, tmp, args.jobs):
                compiled.extend(kernels)
                if status not in (0, 1, 3):  # 1: a finding, 3: a time limit, as asked
                    failed.append(step)
                    note(f"labyrinth: warmup: step {step.label!r} failed (exit {status}): "
                         f"labyrinth {step.command}")
                bar.set_postfix_str(step.label, refresh=False)
                bar.update(1)
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    print(f"kernels ready: {len(steps)} steps in {seconds:.0f} s, {len(compiled)} kernels compiled "
          f"({sum(s for _, s, _ in compiled):.0f} s), the others loaded from the cache")
    sys.stdout.flush()
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _results(steps, tmp, jobs):
    """(step, run_step's result) for every step, in this process or in ``jobs`` forked ones."""
    from labyrinth import warmup

    if jobs <= 1:
        for step in steps:
            yield step, warmup.run_step(step, tmp)
        return
    import concurrent.futures
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
        futures = {pool.submit(warmup.run_step, step, tmp): step for step in steps}
        for done in concurrent.futures.as_completed(futures):
            yield futures[done], done.result()
