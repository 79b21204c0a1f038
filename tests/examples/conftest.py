"""Fixtures for the tests that run the PAS suite through `pas run` against a real host's adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SuiteRun = Callable[..., tuple[int, list[dict]]]


@pytest.fixture
def run_suite(tmp_path: Path) -> SuiteRun:
    """`run_suite(python, adapter, *extra)`: `pas run --impl 'cmd:python adapter' --timeout 30 *extra` with a
    JSON report; its exit status and the report's result rows."""

    def run(python: Path, adapter: Path, *extra: str) -> tuple[int, list[dict]]:
        report = tmp_path / f"report-{len(list(tmp_path.glob('report-*')))}.jsonl"
        cmd = [sys.executable, "-m", "conformance", "run", "--impl", f"cmd:{python} {adapter}", "--timeout", "30",
               "--format", "json", "--output", str(report), *extra]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
        assert report.exists(), f"no report written; stderr:\n{done.stderr[-3000:]}"
        rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines() if line.strip()]
        return done.returncode, [row for row in rows if row.get("type") == "result"]

    return run


@pytest.fixture
def listed_failures() -> Callable[[Path], set[str]]:
    """`listed_failures(path)`: the scenario ids of an expected-failures file (which must load without problems)."""
    from support.bundled import bundled_suite

    from conformance.suite.expected_failures import load_expected_failures

    scenarios, _ = bundled_suite()
    known = {s.id for s in scenarios}

    def ids(path: Path) -> set[str]:
        reasons, problems = load_expected_failures(path, known)
        assert not problems, problems
        return set(reasons)

    return ids
