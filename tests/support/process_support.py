"""Helpers for tests that run ``pas run`` as a subprocess: start it, wait for results, check processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from support.runner_support import FAKES, ROOT

PAS = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


def gone(pids, within: float = 10.0) -> list[int]:
    """The pids still alive after waiting up to ``within`` seconds (empty: all gone)."""
    deadline = time.monotonic() + within
    left = [pid for pid in pids if alive(pid)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [pid for pid in left if alive(pid)]
    return left


def start_slow_run(tmp_path: Path, *args: str, delay: float = 0.2) -> tuple[subprocess.Popen, Path, Path]:
    """``pas run`` against tests/fakes/hostile_slow.py; returns the process, the report and the pid file."""
    report, pids = tmp_path / "report", tmp_path / "pids.json"
    env = {**os.environ, "PAS_FAKE_PIDS": str(pids), "PAS_FAKE_DELAY": str(delay), "PYTHONPATH": str(ROOT)}
    impl = f"cmd:{sys.executable} {FAKES / 'hostile_slow.py'}"
    process = subprocess.Popen([*PAS, "run", "--impl", impl, "-o", str(report), *args], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return process, report, pids


def wait_for_lines(path: Path, count: int, within: float = 30.0) -> None:
    """Wait until ``path`` holds ``count`` complete lines: a file, or a report streamed while the run goes
    (into ``.NAME.PID.*.partial`` beside it, renamed to ``path`` when the run ends)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for candidate in (path, *path.parent.glob(f".{path.name}.*.partial")):
            try:
                if candidate.read_text(encoding="utf-8").count("\n") >= count:
                    return
            except OSError:  # not there (yet), or renamed meanwhile
                continue
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {count} lines")


def json_lines(path: Path) -> list[dict]:
    """The objects of a JSON-lines report."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
