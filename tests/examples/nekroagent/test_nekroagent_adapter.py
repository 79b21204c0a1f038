"""Run the PAS suite against NekroAgent 2.4.0's real code (examples/nekroagent/adapter.py).

Skipped unless a Python with nekro-agent 2.4.0 is available: $PAS_NEKRO_PYTHON, or the venv made
by scripts/install-nekroagent.sh (${PAS_NEKRO_VENV:-~/.cache/pas/nekroagent-venv}/bin/python).
One suite run takes about 25-40 s (NekroAgent's import alone is ~6 s per process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.nekro_venv import NEEDS_NEKRO, NEKRO_PYTHON

ROOT = Path(__file__).resolve().parents[3]
ADAPTER = ROOT / "examples" / "nekroagent" / "adapter.py"
EXPECTED = ROOT / "examples" / "nekroagent" / "expected-failures.yaml"
PROFILES = ["--profile", "activation", "--profile", "text"]



pytestmark = [
    NEEDS_NEKRO,
    pytest.mark.slow,
]


def _pas_run(*extra: str, tmp_path: Path) -> tuple[int, list[dict]]:
    report = tmp_path / "report.jsonl"
    impl = f"cmd:{NEKRO_PYTHON} {ADAPTER}"
    cmd = [sys.executable, "-m", "conformance", "run", "--impl", impl, *PROFILES, "--timeout", "60",
           "--format", "json", "--output", str(report), *extra]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    assert report.exists(), f"no report written; stderr:\n{done.stderr[-3000:]}"
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines() if line.strip()]
    return done.returncode, rows


def _listed_ids() -> set[str]:
    from support.bundled import bundled_suite

    from conformance.suite.expected_failures import load_expected_failures

    scenarios, _ = bundled_suite()
    reasons, problems = load_expected_failures(EXPECTED, {s.id for s in scenarios})
    assert not problems, problems
    return set(reasons)


@pytest.fixture(scope="module")
def listed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[dict]]:
    """One suite run with the expected-failures file, shared by both tests (a run takes 20-40 s)."""
    return _pas_run("--expected-failures", str(EXPECTED), tmp_path=tmp_path_factory.mktemp("nekro-run"))


def test_suite_passes_with_expected_failures(listed_run: tuple[int, list[dict]]) -> None:
    code, rows = listed_run
    results = [r for r in rows if r.get("type") == "result"]
    bad = {r["id"]: r["outcome"] for r in results if r["outcome"] in ("failed", "errored", "stale")}
    assert code == 0, f"pas run exited {code}; not as expected: {bad}"


def test_failing_scenarios_are_exactly_the_listed_ones(listed_run: tuple[int, list[dict]]) -> None:
    # With the file a listed scenario that fails is `xfailed` (one that passes is `stale`), so the
    # scenarios that fail are the failed, errored and xfailed ones: without the file, those fail.
    _, rows = listed_run
    failing = {r["id"] for r in rows if r.get("type") == "result" and r["outcome"] in ("failed", "errored", "xfailed")}
    listed = _listed_ids()
    assert failing, "NekroAgent 2.4.0 fails some scenarios: without the file pas run exits 1"
    assert failing == listed, f"newly failing: {sorted(failing - listed)}; now passing: {sorted(listed - failing)}"
