"""Run the PAS suite through `pas run` against LangGraph bigtool 0.0.3 (examples/langgraph-bigtool/adapter.py), both sets.

On each set (default: what a plain install resolves, where every tool call raises; working:
langgraph-prebuilt 1.0.1) the run exits 0 with that set's expected-failures file, and without it
exactly the listed scenarios fail, as failures (the crash is a verdict, not an adapter error). Each
set is skipped unless its venv is installed (scripts/install-bigtool.sh). A run takes seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.bigtool_venv import DEFAULT_PYTHON, EXAMPLE, NEEDS_DEFAULT, NEEDS_WORKING, WORKING_PYTHON

ADAPTER = EXAMPLE / "adapter.py"
SETS = [pytest.param(DEFAULT_PYTHON, "default", marks=NEEDS_DEFAULT, id="default"),
        pytest.param(WORKING_PYTHON, "working", marks=NEEDS_WORKING, id="working")]

pytestmark = [pytest.mark.slow]


def expected(which: str) -> Path:
    return EXAMPLE / f"expected-failures-{which}.yaml"


@pytest.mark.parametrize(("python", "which"), SETS)
def test_the_suite_exits_0_with_the_sets_expected_failures(run_suite, listed_failures, python, which) -> None:
    code, results = run_suite(python, ADAPTER, "--expected-failures", str(expected(which)))
    bad = {r["id"]: r["outcome"] for r in results if r["outcome"] in ("failed", "errored", "stale")}
    assert code == 0, f"pas run exited {code}; not as expected: {bad}"
    assert {r["id"] for r in results if r["outcome"] == "xfailed"} == listed_failures(expected(which))


@pytest.mark.parametrize(("python", "which"), SETS)
def test_without_the_file_exactly_the_listed_scenarios_fail(run_suite, listed_failures, python, which) -> None:
    code, results = run_suite(python, ADAPTER)
    outcomes = {r["id"]: r["outcome"] for r in results if r["outcome"] in ("failed", "errored")}
    listed = listed_failures(expected(which))
    assert code == 1
    assert set(outcomes) == listed, f"newly failing: {sorted(set(outcomes) - listed)}; now passing: {sorted(listed - set(outcomes))}"
    assert set(outcomes.values()) == {"failed"}, f"an adapter error hides a verdict: {outcomes}"
