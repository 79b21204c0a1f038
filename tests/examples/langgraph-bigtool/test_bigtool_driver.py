"""examples/langgraph-bigtool/driver.py drives bigtool 0.0.3's real graph, in both installed sets.

One driver process per set for the module; each test opens it afresh on tool_0..tool_4 (described
by Greek letters). The expected values are bigtool's behaviour as FACTS-CHECKED.md records it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.bigtool_venv import DEFAULT_PYTHON, EXAMPLE, NEEDS_DEFAULT, NEEDS_WORKING, WORKING_PYTHON, load_protocol

pytestmark = pytest.mark.slow
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon"]
CATALOGUE = [{"name": f"tool_{i}", "description": f"Fake tool number {i} ({word})",
              "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}
             for i, word in enumerate(WORDS)]
CRASH = "AttributeError: 'ToolNode' object has no attribute 'inject_tool_args'"
PROTOCOL = load_protocol()


def _client(python: Any) -> Any:
    return PROTOCOL.DriverClient(str(python), str(EXAMPLE / "driver.py"))


@pytest.fixture(scope="module")
def working_process() -> Iterator[Any]:
    client = _client(WORKING_PYTHON)
    yield client
    client.close()


@pytest.fixture(scope="module")
def default_process() -> Iterator[Any]:
    client = _client(DEFAULT_PYTHON)
    yield client
    client.close()


def opened(process: Any, always_visible: list[str] | None = None, **options: Any) -> Any:
    process.call("open", catalogue=CATALOGUE, always_visible=always_visible or [], options=options)
    return process


def step(driver: Any, thread: str, *calls: dict[str, Any]) -> dict[str, Any]:
    return driver.call("model_step", thread=thread, calls=list(calls))


@NEEDS_WORKING
def test_the_first_request_lists_only_retrieve_tools_and_the_seeded_ids(working_process):
    assert opened(working_process).call("begin_request", thread="A")["tools"] == ["retrieve_tools"]
    seeded = opened(working_process, ["tool_4"])
    assert seeded.call("begin_request", thread="A")["tools"] == ["retrieve_tools", "tool_4"]


@NEEDS_WORKING
def test_a_load_by_exact_name_shows_from_the_next_model_call(working_process):
    driver = opened(working_process, retrieval="names")
    driver.call("begin_request", thread="A")
    result = step(driver, "A", {"load": "tool_2"})
    assert result["answers"][0]["text"] == "Available tools: ['tool_2']"
    assert result["next_tools"] == ["retrieve_tools", "tool_2"]


@NEEDS_WORKING
def test_a_store_search_by_exact_name_ranks_that_tool_first_and_selects_limit_tools(working_process):
    driver = opened(working_process)
    driver.call("begin_request", thread="A")
    assert step(driver, "A", {"load": "tool_3"})["next_tools"] == ["retrieve_tools", "tool_3", "tool_0"]


@NEEDS_WORKING
def test_a_never_selected_tool_executes(working_process):
    # The ToolNode holds the whole registry (graph.py:99): being hidden does not stop a call.
    driver = opened(working_process)
    driver.call("begin_request", thread="A")
    result = step(driver, "A", {"invoke": "tool_3", "arguments": {"x": "b"}})
    assert result["answers"][0]["text"] == 'tool_3 ran with {"x": "b"}'
    assert result["answers"][0]["executed"] is True
    assert result["next_tools"] == ["retrieve_tools"]


@NEEDS_WORKING
def test_the_selection_is_per_thread_and_kept_by_the_next_request(working_process):
    driver = opened(working_process, retrieval="names")
    driver.call("begin_request", thread="A")
    driver.call("begin_request", thread="B")
    step(driver, "A", {"load": "tool_1"})
    assert step(driver, "B", {"search": "tool_2"})["next_tools"] == ["retrieve_tools", "tool_2"]
    driver.call("end_request", thread="A")
    driver.call("end_request", thread="B")
    assert driver.call("begin_request", thread="A")["tools"] == ["retrieve_tools", "tool_1"]


@NEEDS_WORKING
def test_unload_and_list_are_answered_unsupported_by_the_driver(working_process):
    driver = opened(working_process)
    driver.call("begin_request", thread="A")
    answers = step(driver, "A", {"unload": "tool_1"}, {"list": True})["answers"]
    assert [a["supported"] for a in answers] == [False, False]
    assert answers[0]["text"] == "unsupported: langgraph-bigtool 0.0.3 has no tool to unload"


@NEEDS_DEFAULT
def test_on_the_default_install_calling_a_found_tool_crashes_the_request(default_process):
    driver = opened(default_process, retrieval="names")
    driver.call("begin_request", thread="A")
    found = step(driver, "A", {"load": "tool_2"})
    assert found["next_tools"] == ["retrieve_tools", "tool_2"]  # discovery works (graph.py:137-138)
    crashed = step(driver, "A", {"invoke": "tool_2", "arguments": {"x": "a"}})
    assert crashed["ended"] == CRASH
    assert crashed["next_tools"] is None
    assert crashed["answers"][0]["executed"] is False
    assert CRASH in crashed["answers"][0]["error"]
    with pytest.raises(PROTOCOL.DriverError, match="no open request"):
        step(driver, "A", {"search": "tool_1"})
