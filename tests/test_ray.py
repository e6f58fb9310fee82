"""The Ray backend: a campaign on a local Ray cluster started here lands the same findings in the store."""

import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

RAY = str(Path(sys.executable).with_name("ray"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_cluster():
    """A local cluster with token authentication (Ray's default for new clusters), its token given here.

    Every process started while the fixture is active (``ray start``, the CLI under test) sees the
    same ``RAY_AUTH_MODE=token`` and ``RAY_AUTH_TOKEN``, so the tests neither read nor depend on a
    ``~/.ray/auth_token`` left by an earlier cluster on this machine.
    """
    import ray  # noqa: F401  (installed with the test extras: the test must run, not skip)

    with pytest.MonkeyPatch.context() as env:
        env.setenv("RAY_AUTH_MODE", "token")
        env.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
        env.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
        env.delenv("RAY_ADDRESS", raising=False)
        port = _free_port()
        start = subprocess.run([RAY, "start", "--head", f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
                                "--disable-usage-stats"], capture_output=True, text=True, timeout=300)
        assert start.returncode == 0, start.stderr[-2000:]
        try:
            yield f"127.0.0.1:{port}"
        finally:
            subprocess.run([RAY, "stop", "--force"], capture_output=True, timeout=300)


def _audit(db, *extra):
    args = [sys.executable, "-m", "labyrinth.cli", "audit", "-n", "7", "--rules", "universal", "--walks", "16",
            "--seed", "1", "--db", str(db), "--no-progress", *extra]
    return subprocess.run(args, capture_output=True, text=True, timeout=900)


def _rows(db):
    with sqlite3.connect(db) as con:
        findings = set(con.execute("SELECT kind, state, move, pattern IS NOT NULL FROM findings"))
        units = con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    return findings, units


def test_a_ray_campaign_matches_the_local_one(tmp_path, ray_cluster):
    assert shutil.which(RAY)
    ray_db, local_db = tmp_path / "ray.db", tmp_path / "local.db"
    proc = _audit(ray_db, "--executor", "ray", "--address", ray_cluster)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _audit(local_db, "--jobs", "2").returncode == 0
    ray_rows, ray_units = _rows(ray_db)
    local_rows, local_units = _rows(local_db)
    assert ray_units == local_units == 16
    assert ray_rows == local_rows and ray_rows  # universal misses dead moves on 7x7: there is something to compare
    # resuming a finished campaign on Ray runs nothing again and keeps everything
    again = _audit(ray_db, "--executor", "ray", "--address", ray_cluster, "--resume")
    assert again.returncode == 0 and _rows(ray_db) == (ray_rows, ray_units)


def test_an_unreachable_cluster_is_a_one_line_error(tmp_path):
    proc = _audit(tmp_path / "x.db", "--executor", "ray", "--address", f"127.0.0.1:{_free_port()}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Ray" in proc.stderr


def test_a_cluster_that_wants_a_token_is_a_one_line_error_that_says_so(tmp_path, ray_cluster):
    """Without the cluster's token the client cannot join: one line that names the address and the way out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env["HOME"] = str(tmp_path)  # no ~/.ray/auth_token to fall back on
    args = [sys.executable, "-m", "labyrinth.cli", "audit", "-n", "5", "--walks", "1", "--db", str(tmp_path / "x.db"),
            "--no-progress", "--executor", "ray", "--address", ray_cluster]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr[-2000:]
    assert ray_cluster in lines[0] and "RAY_AUTH_MODE=token" in lines[0]


def _count(*extra):
    args = [sys.executable, "-m", "labyrinth.cli", "numbers", "count", "-n", "6", "--json", "--no-progress", *extra]
    return subprocess.run(args, capture_output=True, text=True, timeout=900)


def test_a_count_on_ray_matches_the_local_one(ray_cluster):
    """The number puzzle's count units run on the cluster and add up to the local count."""
    on_ray = _count("--executor", "ray", "--address", ray_cluster, "--jobs", "2")
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    local = _count()
    assert local.returncode == 0, local.stderr[-2000:]
    ray_counts, local_counts = json.loads(on_ray.stdout), json.loads(local.stdout)
    for key in ("paths", "per_start", "cycles", "closed", "classes"):
        assert ray_counts[key] == local_counts[key], key
    assert ray_counts["paths"] > 0 and ray_counts["cycles"] > 0


def test_an_engine_campaign_on_ray_matches_the_local_one(tmp_path, ray_cluster):
    """An external engine (Node) on the cluster: each Ray worker starts its own engine process."""
    node = shutil.which("node")
    assert node, "no 'node' on PATH: run `make test` (it installs nodejs)"
    engine = f"{node} {Path(__file__).resolve().parent.parent / 'examples' / 'engines' / 'corners.js'} --wrong"
    ray_db, local_db = tmp_path / "ray.db", tmp_path / "local.db"
    args = [sys.executable, "-m", "labyrinth.cli", "audit", "-n", "7", "--engine", engine, "--walks", "24",
            "--seed", "3", "--no-progress", "--no-patterns"]
    on_ray = subprocess.run([*args, "--db", str(ray_db), "--executor", "ray", "--address", ray_cluster],
                            capture_output=True, text=True, timeout=900)
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    local = subprocess.run([*args, "--db", str(local_db), "--jobs", "2"], capture_output=True, text=True, timeout=900)
    assert local.returncode == 0, local.stderr[-2000:]
    assert _rows(ray_db) == _rows(local_db) and _rows(ray_db)[1] == 3  # three units of eight walks
    assert "engine: " in on_ray.stdout and _rows(ray_db)[0]


def test_a_knight_magic_campaign_on_ray_matches_the_local_one(tmp_path, ray_cluster):
    """A part of the semi-magic enumeration (Beverley's first and last 4 cells) on the cluster: the same classes."""
    scope = "a1-c8 c2.b4.d3 a7.b5.d6"
    args = [sys.executable, "-m", "labyrinth.cli", "knight", "magic", "--all", "--scope", scope, "--depth", "1",
            "--no-progress", "--json"]
    on_ray = subprocess.run([*args, "--db", str(tmp_path / "ray.db"), "--executor", "ray", "--address", ray_cluster],
                            capture_output=True, text=True, timeout=900)
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    local = subprocess.run([*args, "--db", str(tmp_path / "local.db")], capture_output=True, text=True, timeout=900)
    assert local.returncode == 0, local.stderr[-2000:]
    ray_out, local_out = json.loads(on_ray.stdout), json.loads(local.stdout)
    assert ray_out["grids"] == local_out["grids"] and ray_out["classes"] >= 1
    assert ray_out["units_done"] == ray_out["units_total"] == local_out["units_total"]


def test_a_stats_campaign_on_ray_gives_the_rows_of_a_plain_run(tmp_path, ray_cluster):
    """Issue 40 (3): the walk statistic's blocks of runs as Ray tasks; the rows of a run without a store."""
    args = [sys.executable, "-m", "labyrinth.cli", "stats", "-n", "7,9", "--rules", "fast", "--runs", "40",
            "--cap", "50", "--seed", "2", "--json", "--no-progress"]
    on_ray = subprocess.run([*args, "--db", str(tmp_path / "s.db"), "--executor", "ray", "--address", ray_cluster],
                            capture_output=True, text=True, timeout=900)
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    plain = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert plain.returncode == 0, plain.stderr[-2000:]

    def rows(text):
        out = [json.loads(line) for line in text.splitlines() if line.strip()]
        return [{k: v for k, v in r.items() if k != "seconds"} for r in out]

    assert rows(on_ray.stdout) == rows(plain.stdout) and len(rows(plain.stdout)) == 2
    assert "estimate: " in on_ray.stderr and "of one core of this machine" in on_ray.stderr
