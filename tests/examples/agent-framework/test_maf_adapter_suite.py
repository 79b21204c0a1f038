"""Run the PAS suite through `pas run` against Microsoft Agent Framework 1.23.0 (examples/agent-framework/adapter.py).

With the expected-failures file the run exits 0; without it exactly the listed scenarios fail (the
divergences of examples/agent-framework/README.md), as failures, not adapter errors. Skipped unless
the MAF venv is installed (scripts/install-agent-framework.sh, or $PAS_MAF_PYTHON). A run takes seconds.
"""

from __future__ import annotations

import pytest
from support.maf_venv import EXAMPLE, MAF_PYTHON, NEEDS_MAF

ADAPTER = EXAMPLE / "adapter.py"
EXPECTED = EXAMPLE / "expected-failures.yaml"

pytestmark = [NEEDS_MAF, pytest.mark.slow]


def test_the_suite_exits_0_with_the_expected_failures(run_suite, listed_failures) -> None:
    code, results = run_suite(MAF_PYTHON, ADAPTER, "--expected-failures", str(EXPECTED))
    bad = {r["id"]: r["outcome"] for r in results if r["outcome"] in ("failed", "errored", "stale")}
    assert code == 0, f"pas run exited {code}; not as expected: {bad}"
    assert {r["id"] for r in results if r["outcome"] == "xfailed"} == listed_failures(EXPECTED)


def test_without_the_file_exactly_the_listed_scenarios_fail(run_suite, listed_failures) -> None:
    code, results = run_suite(MAF_PYTHON, ADAPTER)
    outcomes = {r["id"]: r["outcome"] for r in results if r["outcome"] in ("failed", "errored")}
    listed = listed_failures(EXPECTED)
    assert code == 1
    assert set(outcomes) == listed, f"newly failing: {sorted(set(outcomes) - listed)}; now passing: {sorted(listed - set(outcomes))}"
    assert set(outcomes.values()) == {"failed"}, f"an adapter error hides a verdict: {outcomes}"
