"""examples/ai-sdk/: the driver of ai 7.0.173's real generateText with toolSearch() and deferLoading tools.

Runs the Node driver through its CLI (examples/ai-sdk/cli.mjs) with the Python client in
examples/mastra/driver_client.py. Needs Node 22 and examples/ai-sdk/node_modules
(scripts/install-ai-sdk.sh installs both); skipped without them.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The Python side of the drivers' line protocol; examples/ is not a package, so it is loaded by path.
client = SimpleNamespace(**runpy.run_path(str(ROOT / "examples" / "node-hosts" / "driver_client.py")))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(client.missing("ai-sdk") is not None, reason=str(client.missing("ai-sdk"))),
]

FIRST = ["tool_search", "always_tool"]


def driver(**options: Any) -> Any:
    """A driver process over the facts' catalogue with these host options."""
    return client.NodeDriver("ai-sdk", client.FACTS_CATALOGUE, options)


def search(query: str) -> dict[str, Any]:
    return {"kind": "search", "query": query}


def invoke(tool: str) -> dict[str, Any]:
    return {"kind": "invoke", "tool": tool, "arguments": {}}


def found(step: dict[str, Any], index: int = 0) -> list[str]:
    return [entry["name"] for entry in step["answers"][index]["answer"]["value"]["tools"]]


def test_first_request_lists_only_the_search_tool_and_the_non_deferred() -> None:
    with driver() as d:
        assert d.begin_request("A") == FIRST


def test_a_search_shows_the_tool_from_the_next_step_and_it_then_runs() -> None:
    with driver() as d:
        d.begin_request("A")
        step = d.model_step("A", [search("delta")])
        assert found(step) == ["tool_3"]
        assert step["nextTools"] == ["tool_search", "tool_3", "always_tool"]
        assert d.model_step("A", [invoke("tool_3")])["answers"][0]["executed"] is True


def test_load_by_name_is_a_search_with_the_name() -> None:
    with driver() as d:
        d.begin_request("A")
        answer = d.model_step("A", [{"kind": "load", "names": "tool_2"}])["answers"][0]
        assert answer["hostCall"]["toolName"] == "tool_search"
        assert answer["hostCall"]["input"] == {"query": "tool_2"}
        # "tool_2" is the terms "tool" and "2": every deferred tool matches "tool"; tool_2 ranks first.
        assert answer["answer"]["value"]["tools"][0]["name"] == "tool_2"
        assert len(answer["answer"]["value"]["tools"]) == 5
    with driver(search="exact-names") as d:
        d.begin_request("A")
        assert found(d.model_step("A", [{"kind": "load", "names": ["tool_2", "nope"]}])) == ["tool_2"]


def test_discoveries_are_lost_at_the_next_request() -> None:
    with driver() as d:
        d.begin_request("A")
        d.model_step("A", [search("delta")])
        d.end_request("A")
        assert d.begin_request("A") == FIRST
        answer = d.model_step("A", [invoke("tool_3")])["answers"][0]
        assert answer["executed"] is False
        assert answer["answer"] == {
            "type": "error-text",
            "value": "AI_NoSuchToolError: Model tried to call unavailable tool 'tool_3'. Available tools: tool_search, always_tool.",
        }


def test_a_discovered_tool_is_inserted_at_its_registration_position() -> None:
    with driver() as d:
        d.begin_request("A")
        assert d.model_step("A", [search("epsilon")])["nextTools"] == ["tool_search", "tool_4", "always_tool"]
        assert d.model_step("A", [search("beta")])["nextTools"] == ["tool_search", "tool_1", "tool_4", "always_tool"]


def test_tool_order_sorts_but_still_inserts() -> None:
    with driver(toolOrder=["tool_search", "always_tool"]) as d:
        d.begin_request("A")
        assert d.model_step("A", [search("epsilon")])["nextTools"] == ["tool_search", "always_tool", "tool_4"]
        assert d.model_step("A", [search("beta")])["nextTools"] == ["tool_search", "always_tool", "tool_1", "tool_4"]


def test_interleaved_generations_are_isolated() -> None:
    with driver() as d:
        assert d.begin_request("A") == FIRST
        assert d.begin_request("B") == FIRST
        assert d.model_step("A", [search("delta")])["nextTools"] == ["tool_search", "tool_3", "always_tool"]
        assert d.model_step("B", [search("alpha")])["nextTools"] == ["tool_search", "tool_0", "always_tool"]
        d.end_request("A")
        d.end_request("B")


def test_trim_and_rebuild_leave_a_new_request_as_bare_as_ever() -> None:
    with driver() as d:
        d.begin_request("A")
        d.model_step("A", [search("delta")])
        d.end_request("A")
        assert d.send("trim", thread="A", keepLast=1)["applied"] is True
        assert d.send("rebuild", store="kept")["rebuilt"] is True
        assert d.begin_request("A") == FIRST


def test_unload_and_list_have_no_sdk_tool() -> None:
    # The host-neutral half (no call reaches the host) is tested through Mastra; here the mapping.
    with driver() as d:
        assert d.description["calls"]["unload"] == d.description["calls"]["list"] == "unsupported"
        d.begin_request("A")
        assert d.model_step("A", [{"kind": "unload", "names": "tool_3"}])["answers"][0]["hostCall"] is None


def test_a_catalogue_tool_may_not_take_the_search_tools_name() -> None:
    with pytest.raises(client.DriverFailure) as refused:
        client.NodeDriver("ai-sdk", {"tools": [{"name": "tool_search", "description": "x"}]})
    assert refused.value.code == "bad-catalogue"


def test_facts_checked_md_matches_a_fresh_probe_run() -> None:
    """Every check id in FACTS-CHECKED.md says held/differs exactly as facts-probe.mjs finds it now."""
    assert client.facts_table_mismatches("ai-sdk") == []
