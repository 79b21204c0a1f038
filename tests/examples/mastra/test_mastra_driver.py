"""examples/mastra/: the driver of @mastra/core 1.71.0's real Agent + ToolSearchProcessor, through its CLI.

Needs Node 22 and examples/mastra/node_modules (scripts/install-mastra.sh installs both); skipped without
them. Each test starts its own driver process (about 1.5 s: Mastra's import).
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
    pytest.mark.skipif(client.missing("mastra") is not None, reason=str(client.missing("mastra"))),
]

META = ["search_tools", "load_tool", "always_tool"]


def driver(**options: Any) -> Any:
    """A driver process over the facts' catalogue with these host options."""
    return client.NodeDriver("mastra", client.FACTS_CATALOGUE, options)


def load(names: str | list[str]) -> dict[str, Any]:
    return {"kind": "load", "names": names}


def first_tools(d: Any, thread: str) -> list[str]:
    """The first tool list of a new, immediately ended request on ``thread``."""
    tools = d.begin_request(thread)
    d.end_request(thread)
    return list(tools)


@pytest.mark.parametrize("storage", ["in-memory", "context"])
def test_first_request_lists_only_the_meta_tools_and_the_agents_own(storage: str) -> None:
    with driver(storage=storage) as d:
        assert d.begin_request("A") == META


@pytest.mark.parametrize("storage", ["in-memory", "context"])
def test_a_load_shows_from_the_next_step_and_the_tool_then_runs(storage: str) -> None:
    with driver(storage=storage, memory=True) as d:
        d.begin_request("A")
        step = d.model_step("A", [load("tool_2")])
        assert step["answers"][0]["answer"]["value"]["success"] is True
        assert step["nextTools"] == [*META, "tool_2"]
        ran = d.model_step("A", [{"kind": "invoke", "tool": "tool_2", "arguments": {}}])
        assert ran["answers"][0]["executed"] is True
        assert ran["answers"][0]["answer"] == {"type": "json", "value": {"tool": "tool_2", "ran": True, "arguments": {}}}


def test_a_hidden_tool_is_refused_and_never_runs() -> None:
    with driver() as d:
        d.begin_request("A")
        answer = d.model_step("A", [{"kind": "invoke", "tool": "tool_0", "arguments": {}}])["answers"][0]
        assert answer["executed"] is False
        assert answer["answer"]["type"] == "error-text"
        assert answer["answer"]["value"].startswith('Tool "tool_0" not found. Available tools: search_tools, load_tool, always_tool.')


def test_context_mode_counts_a_plain_search_as_a_load() -> None:
    with driver(storage="context", memory=True) as d:
        d.begin_request("A")
        step = d.model_step("A", [{"kind": "search", "query": "delta"}])
        assert "Use load_tool" in step["answers"][0]["answer"]["value"]["message"]
        assert step["nextTools"] == [*META, "tool_3"]
        again = d.model_step("A", [load("tool_3")])
        assert again["answers"][0]["answer"]["value"]["message"] == 'Tool "tool_3" is already loaded and available.'


def test_in_memory_mode_keeps_a_plain_search_a_search() -> None:
    with driver(memory=True) as d:
        d.begin_request("A")
        assert d.model_step("A", [{"kind": "search", "query": "delta"}])["nextTools"] == META


def test_in_memory_without_memory_shares_loads_across_threads() -> None:
    with driver() as d:
        d.begin_request("X")
        d.model_step("X", [load("tool_4")])
        d.end_request("X")
        assert first_tools(d, "Y") == [*META, "tool_4"]


def test_in_memory_with_memory_keeps_threads_apart() -> None:
    with driver(memory=True) as d:
        d.begin_request("X")
        d.model_step("X", [load("tool_4")])
        d.end_request("X")
        assert first_tools(d, "Y") == META
        assert first_tools(d, "X") == [*META, "tool_4"]


def test_interleaved_requests_pause_between_steps() -> None:
    with driver(memory=True) as d:
        assert d.begin_request("A") == META
        assert d.begin_request("B") == META
        assert d.model_step("A", [load("tool_1")])["nextTools"] == [*META, "tool_1"]
        assert d.model_step("B", [load("tool_3")])["nextTools"] == [*META, "tool_3"]
        assert d.model_step("A", [load("tool_0")])["nextTools"] == [*META, "tool_1", "tool_0"]
        d.end_request("B")
        d.end_request("A")


def test_context_mode_de_loads_when_trimming_drops_the_result() -> None:
    with driver(storage="context", memory=True) as d:
        d.begin_request("A")
        d.model_step("A", [load("tool_2")])
        d.end_request("A")
        assert d.send("trim", thread="A", keepLast=2)["applied"] is True
        assert first_tools(d, "A") == [*META, "tool_2"]
        assert first_tools(d, "A") == META


@pytest.mark.parametrize(("store", "expected"), [("kept", [*META, "tool_2"]), ("reset", META)])
def test_context_mode_survives_a_rebuild_while_the_store_is_kept(store: str, expected: list[str]) -> None:
    with driver(storage="context", memory=True) as d:
        d.begin_request("A")
        d.model_step("A", [load("tool_2")])
        d.end_request("A")
        d.send("rebuild", store=store)
        assert first_tools(d, "A") == expected


def test_in_memory_state_expires_after_the_idle_ttl() -> None:
    with driver(memory=True) as d:
        d.begin_request("A")
        d.model_step("A", [load("tool_2")])
        d.end_request("A")
        assert d.send("idle", ms=3_599_000)["expired"] == 0
        assert first_tools(d, "A") == [*META, "tool_2"]
        assert d.send("idle", ms=3_600_001)["expired"] == 1
        assert first_tools(d, "A") == META


def test_calls_without_a_host_tool_are_answered_unsupported_by_the_driver() -> None:
    with driver() as d:
        d.begin_request("A")
        before = d.send("inspect", thread="A")["messages"]
        step = d.model_step("A", [{"kind": "unload", "names": "tool_2"}, {"kind": "list"}])
        assert [a["answer"]["type"] for a in step["answers"]] == ["unsupported", "unsupported"]
        assert step["nextTools"] == META
        # Nothing reached the host: the model call it waits on is the same one, no tool exchange added.
        assert d.send("inspect", thread="A")["messages"] == before


def test_bad_input_is_an_error_with_a_code_not_a_crash() -> None:
    with driver() as d:
        with pytest.raises(client.DriverFailure) as no_request:
            d.model_step("A", [load("tool_2")])
        assert no_request.value.code == "no-request"
        d.begin_request("A")
        with pytest.raises(client.DriverFailure) as bad_call:
            d.model_step("A", [{"kind": "teleport"}])
        assert bad_call.value.code == "bad-call"
        assert d.model_step("A", [load("tool_2")])["nextTools"] == [*META, "tool_2"]
    with pytest.raises(client.DriverFailure) as bad_option:
        client.NodeDriver("mastra", client.FACTS_CATALOGUE, {"storage": "disk"})
    assert bad_option.value.code == "bad-option"


def test_facts_checked_md_matches_a_fresh_probe_run() -> None:
    """Every check id in FACTS-CHECKED.md says held/differs exactly as facts-probe.mjs finds it now."""
    assert client.facts_table_mismatches("mastra") == []
