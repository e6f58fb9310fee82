"""numba cache files are dropped when any kernel source changes (cross-module staleness)."""

from labyrinth._jitcache import refresh


def test_cache_files_go_when_a_source_changes(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "__pycache__").mkdir(parents=True)
    (tmp_path / "labyrinth").mkdir()
    src = pkg / "kernel.py"
    src.write_text("x = 1\n")
    cached = pkg / "__pycache__" / "kernel.f-1.py311.nbi"
    cached.write_text("stale")
    assert refresh(tmp_path, ("pkg",)) is True  # first run: no stamp yet
    assert not cached.exists()
    cached.write_text("fresh")
    assert refresh(tmp_path, ("pkg",)) is False and cached.exists()  # unchanged sources keep the cache
    src.write_text("x = 2\n")
    assert refresh(tmp_path, ("pkg",)) is True and not cached.exists()


def test_every_folder_with_kernels_is_watched():
    """A kernel in a folder the digest does not cover would run stale after an edit to it."""
    from labyrinth._jitcache import _PACKAGES, _ROOT

    folders = {p.parent.relative_to(_ROOT).as_posix() for top in ("labyrinth", "oracle", "verify")
               for p in (_ROOT / top).rglob("*.py") if "njit" in p.read_text(encoding="utf-8")}
    assert folders and folders <= set(_PACKAGES), folders - set(_PACKAGES)
