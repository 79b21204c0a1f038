"""examples/disclosure-stdio/disclosure_stdio.py: the protocol side shared by the Python disclosure adapters.

It is standard library only (with driver_protocol.py beside it), so it runs here in PAS's venv over
a fake host whose driver records what it is asked and answers what the test scripts. No host venv needed.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _load() -> ModuleType:
    """disclosure_stdio with driver_protocol.py, both in examples/disclosure-stdio/."""
    sys.path[:0] = [str(EXAMPLES / "disclosure-stdio")]
    try:
        spec = importlib.util.spec_from_file_location("disclosure_stdio", EXAMPLES / "disclosure-stdio" / "disclosure_stdio.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        del sys.path[:1]


stdio = _load()
protocol = sys.modules["driver_protocol"]


class FakeDriver:
    """A driver that records the operations asked of it and answers from `steps` (a StepResult per model_step)."""

    def __init__(self) -> None:
        self.log: list[tuple[str, Any]] = []
        self.steps: list[Any] = []

    async def begin_request(self, thread: str) -> dict[str, Any]:
        self.log.append(("begin", thread))
        return {"tools": ["finder", "clock"]}

    async def model_step(self, thread: str, calls: Sequence[Any]) -> Any:
        self.log.append(("step", [c.as_json() for c in calls]))
        return self.steps.pop(0)

    async def end_request(self, thread: str) -> dict[str, Any]:
        self.log.append(("end", thread))
        return {"completed": True, "error": None}


class FakeHost:
    """A host whose search tool is `finder` and which has no tool to load."""

    name, version = "fake", "1"
    options = {"discovery": "search_loads", "unload": []}

    def __init__(self) -> None:
        self.driver = FakeDriver()
        self.events: list[tuple[str, Any]] = []

    async def open(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self.events.append(("open", [t["name"] for t in tools]))

    def tokens(self, names: Sequence[str]) -> list[str]:
        return ["@search" if n == "finder" else n for n in names]

    def host_call(self, call: Mapping[str, Any]) -> Any:
        return None if stdio.call_kind(call) == "load" else stdio.driver_call(call, {})

    def answer(self, call: Mapping[str, Any], answer: Any) -> dict[str, Any]:
        return stdio.invoke_answer(call, answer, ["clock", "weather"])

    async def rebuild(self, store: str) -> None:
        self.events.append(("rebuild", store))

    async def trim(self, thread: str, keep: int) -> None:
        self.events.append(("trim", (thread, keep)))

    async def idle(self, seconds: float) -> None:
        self.events.append(("idle", seconds))

    async def clear(self, thread: str) -> None:
        raise stdio.AdapterLimit("adapter limit: no clear here")

    async def close(self) -> None:
        self.events.append(("close", None))


def _ran(name: str, executed: bool, text: str | None = None) -> Any:
    return protocol.Answer(call={"invoke": name}, supported=True, text=text, executed=executed)


def exchange(session: Any, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    """Each request as a protocol line through the session; the responses."""
    async def run() -> list[dict[str, Any]]:
        return [await session.answer(json.dumps({"id": i, **r}).encode()) for i, r in enumerate(requests, 1)]
    return asyncio.run(run())


@pytest.fixture
def session() -> Any:
    started = stdio.Session(FakeHost())
    exchange(started, {"cmd": "hello", "protocol_version": 1},
             {"cmd": "disclosure-start", "tools": [{"name": "weather", "description": "w"}]})
    return started


def test_hello_claims_only_disclosure_and_declares_the_hosts_options() -> None:
    hello, = exchange(stdio.Session(FakeHost()), {"cmd": "hello", "protocol_version": 1})
    assert hello["result"]["profiles"] == ["disclosure"]
    assert hello["result"]["disclosure"] == {"discovery": "search_loads", "unload": []}


def test_a_request_on_a_thread_with_an_open_request_ends_it_first(session) -> None:
    first, second = exchange(session, {"cmd": "disclosure-request", "thread": "a"},
                             {"cmd": "disclosure-request", "thread": "a"})
    assert first["result"] == second["result"] == {"tools": ["@search", "clock"]}
    assert session.host.driver.log == [("begin", "a"), ("end", "a"), ("begin", "a")]


def test_a_call_the_host_has_no_tool_for_is_unsupported_and_not_sent(session) -> None:
    session.host.driver.steps.append(protocol.StepResult((_ran("clock", True, "clock ran"),), ("finder", "clock")))
    _, step = exchange(session, {"cmd": "disclosure-request", "thread": "a"},
                       {"cmd": "disclosure-step", "thread": "a", "calls": [{"load": "weather"}, {"invoke": "clock"}]})
    assert step["result"]["answers"] == [{"call": "load", "unsupported": True},
                                         {"call": "invoke", "name": "clock", "outcome": "executed", "text": "clock ran"}]
    assert session.host.driver.log[-1] == ("step", [{"invoke": "clock", "arguments": {}}])


def test_only_unsupported_calls_leave_the_host_alone_and_the_list_as_it_was(session) -> None:
    _, step = exchange(session, {"cmd": "disclosure-request", "thread": "a"},
                       {"cmd": "disclosure-step", "thread": "a", "calls": [{"load": "weather"}]})
    assert step["result"] == {"answers": [{"call": "load", "unsupported": True}], "tools": ["@search", "clock"]}
    assert [op for op, _ in session.host.driver.log] == ["begin"]


def test_a_request_the_host_ended_inside_a_step_repeats_the_last_list_and_is_closed(session) -> None:
    crashed = protocol.StepResult((_ran("weather", False),), None, ended="AttributeError: boom")
    session.host.driver.steps.append(crashed)
    _, step, after, end = exchange(
        session, {"cmd": "disclosure-request", "thread": "a"},
        {"cmd": "disclosure-step", "thread": "a", "calls": [{"invoke": "weather"}]},
        {"cmd": "disclosure-step", "thread": "a", "calls": [{"invoke": "clock"}]},
        {"cmd": "disclosure-end", "thread": "a"})
    assert step["result"] == {"answers": [{"call": "invoke", "name": "weather", "outcome": "refused"}],
                              "tools": ["@search", "clock"]}
    assert after["error"]["code"] == "adapter-limit"
    assert end["result"] == {}
    assert ("end", "a") not in session.host.driver.log


def test_an_invoke_of_a_name_the_catalogue_lacks_is_not_found(session) -> None:
    session.host.driver.steps.append(protocol.StepResult((_ran("ghost", False, "no such tool"),), ("finder", "clock")))
    _, step = exchange(session, {"cmd": "disclosure-request", "thread": "a"},
                       {"cmd": "disclosure-step", "thread": "a", "calls": [{"invoke": "ghost"}]})
    assert step["result"]["answers"][0]["outcome"] == "not_found"


def test_rebuild_ends_every_open_request_and_a_trim_waits_for_the_end_of_its_threads(session) -> None:
    exchange(session, {"cmd": "disclosure-request", "thread": "a"}, {"cmd": "disclosure-request", "thread": "b"},
             {"cmd": "disclosure-trim", "thread": "a", "keep": 4}, {"cmd": "disclosure-trim", "thread": "a", "keep": 2},
             {"cmd": "disclosure-trim", "thread": "c", "keep": 0})
    assert session.host.events[1:] == [("trim", ("c", 0))]  # a's request goes on with the tools it has
    exchange(session, {"cmd": "disclosure-rebuild", "store": "kept"}, {"cmd": "disclosure-idle", "seconds": 5})
    assert session.host.driver.log[2:] == [("end", "a"), ("end", "b")]
    assert session.host.events[2:] == [("trim", ("a", 2)), ("rebuild", "kept"), ("idle", 5.0)]


def test_a_trim_during_a_request_is_applied_before_the_threads_next_request(session) -> None:
    session.host.driver.steps.append(protocol.StepResult((_ran("clock", True, "ran"),), ("finder", "clock")))
    exchange(session, {"cmd": "disclosure-request", "thread": "a"}, {"cmd": "disclosure-trim", "thread": "a", "keep": 0},
             {"cmd": "disclosure-step", "thread": "a", "calls": [{"invoke": "clock"}]},
             {"cmd": "disclosure-request", "thread": "a"})
    assert [op for op, _ in session.host.driver.log] == ["begin", "step", "end", "begin"]
    assert session.host.events[1:] == [("trim", ("a", 0))]


@pytest.mark.parametrize(("request_doc", "code"), [
    ({"cmd": "disclosure-clear", "thread": "a"}, "adapter-limit"),
    ({"cmd": "run"}, "unknown-command"),
    ({"cmd": "disclosure-request"}, "invalid-request"),
    ({"cmd": "disclosure-rebuild", "store": "kept-ish"}, "invalid-request"),
    ({"cmd": "disclosure-step", "thread": "a", "calls": [{"invoke": "x"}]}, "adapter-limit"),
])
def test_what_cannot_be_done_is_an_error_response_with_its_code(session, request_doc, code) -> None:
    response, = exchange(session, request_doc)
    assert response["ok"] is False and response["error"]["code"] == code, response


def test_lines_that_are_not_requests_are_errors_without_an_id() -> None:
    session = stdio.Session(FakeHost())
    for line in (b"{not json", b"NaN", b'{"cmd": "hello"}'):
        response = asyncio.run(session.answer(line))
        assert response["id"] is None and response["ok"] is False


def test_nothing_but_hello_before_hello_and_nothing_but_start_before_start() -> None:
    session = stdio.Session(FakeHost())
    early, = exchange(session, {"cmd": "disclosure-request", "thread": "a"})
    _, before_start = exchange(session, {"cmd": "hello", "protocol_version": 1}, {"cmd": "disclosure-idle", "seconds": 1})
    assert "hello first" in early["error"]["message"]
    assert "disclosure-start" in before_start["error"]["message"]


def test_a_driver_host_opens_its_driver_from_the_catalogue_and_closes_the_old_one() -> None:
    opened: list[Any] = []

    class Driver:
        closed = False

        async def close(self) -> None:
            self.closed = True

    async def opener(catalogue: Any, always: Any, options: Any) -> Any:
        opened.append((catalogue, always, options))
        return Driver()

    host = stdio.DriverHost()
    with pytest.raises(stdio.AdapterLimit):
        host.live()
    tools = [{"name": "weather", "description": "w", "parameters": {"type": "object"}},
             {"name": "clock", "description": "c", "always_visible": True}]
    asyncio.run(host.open_driver(opener, tools, {"limit": 1}))
    first = host.live()
    asyncio.run(host.open_driver(opener, tools[:1], {}))
    assert first.closed and host.catalogue == ["weather"]
    assert opened[0] == ([{"name": "weather", "description": "w", "parameters": {"type": "object"}},
                          {"name": "clock", "description": "c", "parameters": None}], ["clock"], {"limit": 1})
