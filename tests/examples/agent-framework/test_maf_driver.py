"""examples/agent-framework/driver.py drives Microsoft Agent Framework 1.23.0's real code and reports what it does.

Each test opens the driver on a small catalogue (tool_0..tool_4, tool_0 always visible) in one driver
process for the module, then plays a short sequence. The expected values are MAF's behaviour as
FACTS-CHECKED.md records it, with the source line that makes it so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.maf_venv import EXAMPLE, MAF_PYTHON, NEEDS_MAF, load_protocol

pytestmark = [NEEDS_MAF, pytest.mark.slow]
LOADERS = ["list_mcp_tools", "load_tool", "unload_tool"]
CATALOGUE = [{"name": f"tool_{i}", "description": f"Fake tool {i}",
              "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}} for i in range(5)]


@pytest.fixture(scope="module")
def process() -> Iterator[Any]:
    client = load_protocol().DriverClient(str(MAF_PYTHON), str(EXAMPLE / "driver.py"))
    yield client
    client.close()


@pytest.fixture
def maf(process: Any) -> Any:
    """The driver process, opened afresh on CATALOGUE with tool_0 always visible."""
    process.call("open", catalogue=CATALOGUE, always_visible=["tool_0"], options={})
    return process


def step(maf: Any, thread: str, *calls: dict[str, Any]) -> dict[str, Any]:
    return maf.call("model_step", thread=thread, calls=list(calls))


def test_the_first_request_lists_only_the_loaders_and_the_always_visible_tool(maf):
    assert maf.call("begin_request", thread="A")["tools"] == [*LOADERS, "tool_0"]


def test_a_load_shows_from_the_next_model_call_and_its_answer_says_so(maf):
    maf.call("begin_request", thread="A")
    result = step(maf, "A", {"load": "tool_2"})
    assert result["answers"][0]["text"] == "Loaded MCP tool 'tool_2'. It is available on the next model iteration."
    assert result["next_tools"] == [*LOADERS, "tool_0", "tool_2"]
    called = step(maf, "A", {"invoke": "tool_2", "arguments": {"x": "a"}})["answers"][0]
    assert (called["text"], called["executed"]) == ('tool_2 ran with {"x": "a"}', True)


def test_a_hidden_tool_is_refused_and_not_executed(maf):
    maf.call("begin_request", thread="A")
    answer = step(maf, "A", {"invoke": "tool_3", "arguments": {"x": "b"}})["answers"][0]
    assert answer["text"] == 'Error: Requested function "tool_3" not found.'
    assert answer["executed"] is False


def test_a_load_in_one_session_is_in_the_first_request_of_another(maf):
    # The loaded set is one set on the MCPTool instance (_mcp.py:1208), shared by every AgentSession.
    maf.call("begin_request", thread="A")
    step(maf, "A", {"load": "tool_2"})
    maf.call("end_request", thread="A")
    assert maf.call("begin_request", thread="B")["tools"] == [*LOADERS, "tool_0", "tool_2"]


def test_interleaved_requests_see_each_other_only_from_their_next_run(maf):
    maf.call("begin_request", thread="B")
    maf.call("begin_request", thread="A")
    assert step(maf, "A", {"load": "tool_1"})["next_tools"] == [*LOADERS, "tool_0", "tool_1"]
    listed = step(maf, "B", {"list": True})
    assert listed["next_tools"] == [*LOADERS, "tool_0"]  # B's run list was built before A's load
    assert '"name": "tool_1"' in listed["answers"][0]["text"]
    maf.call("end_request", thread="B")
    assert maf.call("begin_request", thread="B")["tools"] == [*LOADERS, "tool_0", "tool_1"]


def test_the_order_changes_between_the_end_of_one_run_and_the_start_of_the_next(maf):
    # In a run loads are appended (_middleware.py:576-577); a new run lists them in server order (_mcp.py:1641-1653).
    maf.call("begin_request", thread="A")
    step(maf, "A", {"load": "tool_2"})
    end_of_run = step(maf, "A", {"load": ["tool_4", "tool_1"]})["next_tools"]
    maf.call("end_request", thread="A")
    next_run = maf.call("begin_request", thread="A")["tools"]
    assert end_of_run == [*LOADERS, "tool_0", "tool_2", "tool_4", "tool_1"]
    assert next_run == [*LOADERS, "tool_0", "tool_1", "tool_2", "tool_4"]


def test_a_new_mcp_tool_instance_starts_empty_and_the_same_one_keeps_its_loads(maf):
    maf.call("begin_request", thread="A")
    step(maf, "A", {"load": "tool_2"})
    maf.call("end_request", thread="A")
    maf.call("rebuild", store="kept")
    assert maf.call("begin_request", thread="A")["tools"] == [*LOADERS, "tool_0", "tool_2"]
    maf.call("end_request", thread="A")
    maf.call("rebuild", store="reset")
    assert maf.call("begin_request", thread="A")["tools"] == [*LOADERS, "tool_0"]


def test_a_search_is_answered_unsupported_by_the_driver_and_not_sent(maf):
    first = maf.call("begin_request", thread="A")
    result = step(maf, "A", {"search": "tool"})
    assert result["answers"][0]["supported"] is False
    assert result["answers"][0]["text"] == "unsupported: agent-framework-core 1.23.0 has no tool to search"
    assert result["next_tools"] == first["tools"]


def test_a_restart_makes_a_new_mcp_tool_and_keeps_or_drops_the_sessions(maf):
    # The PAS adapter's rebuild: the loaded set lived on the old MCPTool (_mcp.py:1208); the history is the store.
    first = maf.call("begin_request", thread="A")
    step(maf, "A", {"load": "tool_2"})
    maf.call("end_request", thread="A")
    maf.call("restart", store="kept")
    kept = maf.call("begin_request", thread="A")
    maf.call("end_request", thread="A")
    maf.call("restart", store="reset")
    reset = maf.call("begin_request", thread="A")
    assert kept["tools"] == reset["tools"] == [*LOADERS, "tool_0"]
    assert kept["messages"] > first["messages"] == reset["messages"] == 1
