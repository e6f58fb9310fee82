"""Keep numba's on-disk caches honest across modules.

numba's ``cache=True`` re-checks only the file a function lives in, yet a
cached kernel embeds the kernels it calls from other files: after an edit to
a callee (or a ``git pull``) the caller would run stale code. So the sources
of every package holding kernels are hashed; when the hash changes, their
cache files are deleted before any kernel loads.
"""

import hashlib
import pathlib

__all__ = ["refresh", "source_digest"]

_ROOT = pathlib.Path(__file__).resolve().parent.parent
#: every folder holding kernels (a kernel embeds the constants and kernels it reaches in other files): every
#: puzzle's package is one, found on disk, so that a new puzzle needs no line here
_PACKAGES = ("labyrinth/core", "labyrinth/engine", "labyrinth/rules", "oracle", "verify",
             *sorted(f"labyrinth/puzzles/{p.name}" for p in (_ROOT / "labyrinth" / "puzzles").iterdir()
                     if (p / "__init__.py").exists()))


def source_digest(root=_ROOT, packages=_PACKAGES):
    """The sha256 (hex) of the packages' Python sources: names the code a result came from."""
    sources = sorted(p for pkg in packages for p in (root / pkg).glob("*.py"))
    digest = hashlib.sha256()
    for p in sources:
        digest.update(p.name.encode())
        digest.update(p.read_bytes())
    return digest.hexdigest()


def refresh(root=_ROOT, packages=_PACKAGES):
    """Delete the packages' numba cache files if any of their sources changed; True if it did."""
    wanted = source_digest(root, packages)
    stamp_dir = root / "labyrinth" / "__pycache__"
    stamp = stamp_dir / "kernels.sha256"
    try:
        if stamp.read_text() == wanted:
            return False
    except OSError:
        pass
    for pkg in packages:
        for f in (root / pkg / "__pycache__").glob("*.nb[ic]"):
            try:
                f.unlink()
            except OSError:
                pass
    try:
        stamp_dir.mkdir(exist_ok=True)
        stamp.write_text(wanted)
    except OSError:
        pass  # a read-only install: numba falls back to compiling in memory
    return True
