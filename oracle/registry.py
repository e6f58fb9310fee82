"""Backends by name: ``auto`` (default portfolio), ``search``, ``sat``, ``cpsat``."""

import importlib

from labyrinth.errors import BackendError

__all__ = ["BACKENDS", "available_backends", "backend_names", "get_oracle"]

#: name -> (module, class); imported on demand so a missing solver only affects its backend.
#: **A new backend registers here** (one line); the CLI's help texts and errors list these names.
BACKENDS = {
    "auto": ("oracle.auto", "AutoOracle"),
    "search": ("oracle.search", "SearchOracle"),
    "sat": ("oracle.sat", "SatOracle"),
    "cpsat": ("oracle.cpsat", "CpSatOracle"),
}


def get_oracle(name="auto", **options):
    """A new oracle of backend ``name``; options such as ``time_limit`` go to its constructor."""
    if name not in BACKENDS:
        raise BackendError(f"unknown backend (choose from {', '.join(BACKENDS)})", token=name)
    module, cls = BACKENDS[name]
    try:
        factory = getattr(importlib.import_module(module), cls)
    except ImportError as err:
        raise BackendError(f"backend cannot run here: {err}", token=name) from None
    return factory(**options)


def available_backends():
    """Names of the backends whose solvers import on this machine."""
    out = []
    for name, (module, _) in BACKENDS.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        out.append(name)
    return out


def backend_names():
    """The backends in words, the default first, for help texts.

    >>> backend_names()
    'auto (default), search, sat or cpsat'
    """
    first, *rest = BACKENDS
    return f"{first} (default)" + "".join(f", {b}" for b in rest[:-1]) + (f" or {rest[-1]}" if rest else "")
