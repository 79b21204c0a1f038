"""Every older NekroAgent release (2.3.0 .. 2.3.3) fails exactly the scenarios its own expected-failures file lists.

Each release runs in its own venv (scripts/install-nekroagent.sh VERSION, or all); a release that is
not installed here is skipped (CI installs all five: .ci/run; 2.4.0's own test is
tests/examples/nekroagent/test_nekroagent_adapter.py).
One suite run per release: 25-50 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.nekro_venv import OLDER_RELEASES, needs_release, release_python

ROOT = Path(__file__).resolve().parents[3]
ADAPTER = ROOT / "examples" / "nekroagent" / "adapter.py"


def _listed(version: str) -> set[str]:
    from support.bundled import bundled_suite

    from conformance.suite.expected_failures import load_expected_failures

    scenarios, _ = bundled_suite()
    path = ROOT / "examples" / "nekroagent" / f"expected-failures-{version}.yaml"
    reasons, problems = load_expected_failures(path, {s.id for s in scenarios})
    assert not problems, problems
    return set(reasons)


@pytest.mark.slow
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_release(v)) for v in OLDER_RELEASES])
def test_the_release_fails_exactly_its_listed_scenarios(version: str, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    cmd = [sys.executable, "-m", "conformance", "run", "--impl", f"cmd:{release_python(version)} {ADAPTER}",
           "--profile", "activation", "--profile", "text", "--timeout", "60", "-q", "-f", "json", "-o", str(report)]
    subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines() if line.strip()]
    summary = next(r for r in rows if r.get("type") == "summary")
    assert summary["implementation"]["version"] == version
    failing = {r["id"] for r in rows if r.get("type") == "result" and r["outcome"] in ("failed", "errored")}
    listed = _listed(version)
    assert failing == listed, f"newly failing: {sorted(failing - listed)}; now passing: {sorted(listed - failing)}"
