"""examples/mastra/adapter.mjs: the PAS suite (profile disclosure) against @mastra/core 1.71.0's real ToolSearchProcessor.

Needs Node 22 and examples/mastra/node_modules (scripts/install-mastra.sh installs both); skipped without
them (a failure with PAS_REQUIRE_NODE_HOSTS=1, as in .ci/run). One suite run per configuration and form
takes a few seconds (README.md says how long).
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
EXAMPLE = ROOT / "examples" / "mastra"
client = SimpleNamespace(**runpy.run_path(str(ROOT / "examples" / "node-hosts" / "driver_client.py")))
suite = SimpleNamespace(**runpy.run_path(str(ROOT / "examples" / "node-hosts" / "pas_suite.py")))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(client.missing("mastra") is not None, reason=str(client.missing("mastra"))),
]

CONFIGURATIONS = ["in-memory", "context", "in-memory-no-memory", "context-no-memory"]
# What each configuration declares in hello (README.md "Declared options" gives the reasons).
COMMON = {"discovery": "search_then_load", "listing": False, "batch": True, "order": "append", "hidden_calls": "refused"}
DECLARED = {
    "in-memory": {**COMMON, "state_scope": "thread", "unload": ["host"], "expiry": "idle", "expiry_seconds": 3600},
    "context": {**COMMON, "state_scope": "messages", "unload": [], "expiry": "none"},
    "in-memory-no-memory": {**COMMON, "state_scope": "instance", "unload": ["host"], "expiry": "idle", "expiry_seconds": 3600},
    "context-no-memory": {**COMMON, "state_scope": "request", "unload": [], "expiry": "none"},
}
CATALOGUE = [
    {"name": "weather", "description": "Current weather and forecast for a city"},
    {"name": "calendar", "description": "Read and create calendar events"},
    {"name": "clock", "description": "The current date and time", "always_visible": True},
]


def expected_file(configuration: str) -> Path:
    """The expected-failures file of one configuration."""
    return EXAMPLE / f"expected-failures-{configuration}.yaml"


@functools.cache
def suite_ids() -> frozenset[str]:
    """The ids of the bundled suite's scenarios (loaded once)."""
    scenarios, _ = bundled_suite()
    return frozenset(s.id for s in scenarios)


def listed(configuration: str) -> dict[str, str]:
    """The configuration's expected failures, checked against the bundled suite's ids."""
    reasons, problems = load_expected_failures(expected_file(configuration), suite_ids())
    assert not problems, problems
    return dict(reasons)


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_the_suite_exits_0_with_the_expected_failures(configuration: str, tmp_path: Path) -> None:
    code, rows, _ = suite.run_suite("mastra", [configuration], tmp_path, expected_file(configuration))
    results = suite.outcomes(rows)
    assert code == 0, {sid: outcome for sid, outcome in results.items() if outcome in ("failed", "errored", "stale")}
    assert {sid for sid, outcome in results.items() if outcome == "xfailed"} == set(listed(configuration))


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_without_the_file_exactly_the_listed_scenarios_fail(configuration: str, tmp_path: Path) -> None:
    code, rows, _ = suite.run_suite("mastra", [configuration], tmp_path)
    failing = {sid for sid, outcome in suite.outcomes(rows).items() if outcome in ("failed", "errored")}
    want = set(listed(configuration))
    assert code == 1
    assert failing == want, f"newly failing: {sorted(failing - want)}; now passing: {sorted(want - failing)}"


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_hello_claims_only_disclosure_with_the_configurations_options(configuration: str) -> None:
    with suite.PasAdapter("mastra", [configuration]) as adapter:
        hello = adapter.send("hello", protocol_version=1, spec_version="1.0.0")["result"]
        assert hello["profiles"] == ["disclosure"]
        assert hello["version"] == "1.71.0"
        assert hello["disclosure"] == DECLARED[configuration]
        assert adapter.close() == 0


def test_an_unknown_configuration_is_refused() -> None:
    with suite.PasAdapter("mastra", ["on-disk"]) as adapter:
        assert adapter.process.wait(timeout=60) == 2


def test_observations_are_read_off_the_host() -> None:
    with suite.PasAdapter("mastra", ["in-memory"]) as adapter:
        adapter.send("hello", protocol_version=1, spec_version="1.0.0")
        assert adapter.send("disclosure-start", tools=CATALOGUE)["ok"]
        assert adapter.send("disclosure-request", thread="a")["result"] == {"tools": ["@search", "@load", "clock"]}
        step = adapter.send("disclosure-step", thread="a", calls=[
            {"load": ["weather", "nope", "@search"]}, {"unload": "weather"}, {"list": None}, {"invoke": "calendar"}])["result"]
        load, unload, listing, invoke = step["answers"]
        # Each name's outcome is the one load_tool's own answer gives it; the loader token reaches Mastra as search_tools.
        assert load["results"] == [{"name": "weather", "outcome": "loaded"}, {"name": "nope", "outcome": "not_found"},
                                   {"name": "@search", "outcome": "not_found"}]
        assert '"notFound":["nope","search_tools"]' in load["text"]
        assert unload == {"call": "unload", "unsupported": True}
        assert listing == {"call": "list", "unsupported": True}
        assert invoke["outcome"] == "refused" and invoke["text"].startswith('Tool "calendar" not found.')
        assert step["tools"] == ["@search", "@load", "clock", "weather"]
        assert adapter.close() == 0


def test_bad_input_is_answered_and_the_adapter_carries_on() -> None:
    with suite.PasAdapter("mastra", ["context"]) as adapter:
        assert adapter.line("{not json")["error"]["code"] == "invalid-json"
        assert adapter.send("disclosure-start", tools=CATALOGUE)["error"]["code"] == "out-of-order"
        adapter.send("hello", protocol_version=1, spec_version="1.0.0")
        assert adapter.send("run", conversation="c")["error"]["code"] == "unknown-command"
        assert adapter.send("disclosure-step", thread="a", calls=[{"load": "weather"}])["error"]["code"] == "out-of-order"
        assert adapter.send("disclosure-start", tools=CATALOGUE)["ok"]
        assert adapter.send("disclosure-step", thread="a", calls=[{"load": "weather"}])["error"]["code"] == "out-of-order"
        assert adapter.send("disclosure-start", tools=[{"name": "load_tool", "description": "x"}])["error"]["code"] == "adapter-limit"
        assert adapter.send("disclosure-start", tools=[{"name": "two words", "description": "x"}])["error"]["code"] == "adapter-limit"
        assert adapter.close() == 0


# Every line a reason cites, and a piece of what it holds there (a package update that moves the code fails here).
SNIPPETS = {
    ("@mastra/core/dist/agent-BOxKOk3n.js", 16652): "function extractActivatedNames(result)",
    ("@mastra/core/dist/agent-BOxKOk3n.js", 16778): 'clearState(threadId = "default") {',
    ("@mastra/core/dist/agent-BOxKOk3n.js", 16908): 'this.store = storage === "context" ? new ContextLoadedToolStore()',
    ("@mastra/core/dist/agent-BOxKOk3n.js", 16909): "this.staticCatalog = buildToolCatalog(options.tools);",
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17050): 'clearState(threadId = "default") {',
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17167): "Use load_tool with an exact toolName or a toolNames array to make them available.",
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17207): "const matchingTool = this.findToolForDynamicName(catalog, name);",
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17228): 'let message = `Tool "${name}" not found.`;',
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17266): "...this.includeResolvedTools ? unsearchableResolvedTools(tools) : tools ?? {},",
    ("@mastra/core/dist/agent-BOxKOk3n.js", 17525): 'return args.requestContext?.get("mastra__threadId") || parseMemoryRequestContext',
    ("@mastra/core/dist/processors/processors/tool-search-stores.d.ts", 78): "State is lost on process restart.",
    ("@mastra/core/dist/processors/processors/tool-search.d.ts", 89): "Lost on restart;",
}


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_every_expected_failure_links_a_divergence_and_cites_the_installed_package(configuration: str) -> None:
    problems = {sid: suite.reason_problems("mastra", reason, SNIPPETS) for sid, reason in listed(configuration).items()}
    assert not {sid: found for sid, found in problems.items() if found}
