"""examples/ai-sdk/adapter.mjs: the PAS suite (profile disclosure) against the AI SDK 7.0.173's real toolSearch().

Needs Node 22 and examples/ai-sdk/node_modules (scripts/install-ai-sdk.sh installs both); skipped without
them (a failure with PAS_REQUIRE_NODE_HOSTS=1, as in .ci/run).
"""

from __future__ import annotations

import functools
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
from support.bundled import bundled_suite

from conformance.suite.expected_failures import load_expected_failures

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "ai-sdk"
EXPECTED = EXAMPLE / "expected-failures.yaml"
client = SimpleNamespace(**runpy.run_path(str(ROOT / "examples" / "node-hosts" / "driver_client.py")))
suite = SimpleNamespace(**runpy.run_path(str(ROOT / "examples" / "node-hosts" / "pas_suite.py")))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(client.missing("ai-sdk") is not None, reason=str(client.missing("ai-sdk"))),
]

# What the adapter declares in hello (README.md "Declared options" gives the reasons).
DECLARED = {"state_scope": "request", "discovery": "search_loads", "listing": False, "unload": [],
            "order": "catalogue", "hidden_calls": "refused", "expiry": "none"}
CATALOGUE = [
    {"name": "weather", "description": "Current weather and forecast for a city"},
    {"name": "calendar", "description": "Read and create calendar events"},
    {"name": "clock", "description": "The current date and time", "always_visible": True},
]
# Every line a reason cites, and a piece of what it holds there (a package update that moves the code fails here).
SNIPPETS = {
    ("ai/src/tool-search/prepare-tool-search.ts", 86): "const candidates = entries.filter(",
    ("ai/src/tool-search/prepare-tool-search.ts", 143): "discovered.add(name);",
    ("ai/src/tool-search/tool-search.ts", 54): "Matches become available on the next model step",
}


@functools.cache
def suite_ids() -> frozenset[str]:
    """The ids of the bundled suite's scenarios (loaded once)."""
    scenarios, _ = bundled_suite()
    return frozenset(s.id for s in scenarios)


def listed() -> dict[str, str]:
    """The expected failures, checked against the bundled suite's ids."""
    reasons, problems = load_expected_failures(EXPECTED, suite_ids())
    assert not problems, problems
    return dict(reasons)


def test_the_suite_exits_0_with_the_expected_failures(tmp_path: Path) -> None:
    code, rows, _ = suite.run_suite("ai-sdk", [], tmp_path, EXPECTED)
    results = suite.outcomes(rows)
    assert code == 0, {sid: outcome for sid, outcome in results.items() if outcome in ("failed", "errored", "stale")}
    assert {sid for sid, outcome in results.items() if outcome == "xfailed"} == set(listed())


def test_without_the_file_exactly_the_listed_scenarios_fail(tmp_path: Path) -> None:
    code, rows, _ = suite.run_suite("ai-sdk", [], tmp_path)
    failing = {sid for sid, outcome in suite.outcomes(rows).items() if outcome in ("failed", "errored")}
    want = set(listed())
    assert code == 1
    assert failing == want, f"newly failing: {sorted(failing - want)}; now passing: {sorted(want - failing)}"


def test_hello_claims_only_disclosure_with_the_sdks_options() -> None:
    with suite.PasAdapter("ai-sdk", []) as adapter:
        hello = adapter.send("hello", protocol_version=1, spec_version="1.0.0")["result"]
        assert (hello["profiles"], hello["version"], hello["disclosure"]) == (["disclosure"], "7.0.173", DECLARED)
        assert adapter.close() == 0


def test_observations_are_read_off_the_host() -> None:
    with suite.PasAdapter("ai-sdk", []) as adapter:
        adapter.send("hello", protocol_version=1, spec_version="1.0.0")
        assert adapter.send("disclosure-start", tools=CATALOGUE)["ok"]
        assert adapter.send("disclosure-request", thread="a")["result"] == {"tools": ["@search", "clock"]}
        step = adapter.send("disclosure-step", thread="a", calls=[
            {"search": "calendar events"}, {"load": "weather"}, {"invoke": "calendar"}])["result"]
        search, load, invoke = step["answers"]
        # The SDK's answer lists what it found; by its own tool description they become available next step.
        assert (search["found"], search["loaded"]) == (["calendar"], ["calendar"])
        assert search["text"] == '{"tools":[{"name":"calendar","description":"Read and create calendar events"}]}'
        # No load tool: the adapter does not turn a load into a search.
        assert load == {"call": "load", "unsupported": True}
        assert invoke["outcome"] == "refused" and invoke["text"].startswith("AI_NoSuchToolError")
        # Registration (catalogue) order: calendar comes before clock.
        assert step["tools"] == ["@search", "calendar", "clock"]
        assert adapter.send("disclosure-clear", thread="a")["error"]["code"] == "adapter-limit"
        assert adapter.close() == 0


def test_every_expected_failure_links_a_divergence_and_cites_the_installed_package() -> None:
    problems = {sid: suite.reason_problems("ai-sdk", reason, SNIPPETS) for sid, reason in listed().items()}
    assert not {sid: found for sid, found in problems.items() if found}
