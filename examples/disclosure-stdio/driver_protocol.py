"""The host-neutral half of a disclosure driver: the model's calls, the answers, and a JSON-lines loop.

Each host's driver (examples/agent-framework/, examples/langgraph-bigtool/) runs in its own host
venv, which has no PAS: it puts this folder on its path and imports this file and scripted_driver.py.

A call the scripted model makes in one step is a JSON object, one of:
    {"load": "name"} or {"load": ["a", "b"]}    load by name
    {"unload": "name"} or {"unload": [...]}     unload by name
    {"search": "query"}                          search the catalogue
    {"list": true}                               list the catalogue
    {"invoke": "tool", "arguments": {...}}       call a tool
The JSON-lines loop (`serve`) reads one command per line on stdin and writes one reply per line on
stdout: {"op": "<method>", ...keyword arguments} -> {"ok": true, "result": ...} or
{"ok": false, "error": "..."}; the first command must be {"op": "open", "catalogue": [...],
"always_visible": [...], "options": {...}} (another open replaces the driver, closing the old one), and
the loop ends at {"op": "close"} or end of input. `DriverClient` runs a driver that way from any
Python (it needs only the standard library), e.g. PAS's tests in PAS's venv.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import select
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("load", "unload", "search", "list", "invoke")
OPS = ("begin_request", "model_step", "end_request", "rebuild", "restart", "trim", "reset", "state")  # restart: MAF only


@dataclass(frozen=True)
class Call:
    """One tool call of the scripted model, host-neutral (see the module docstring for the JSON forms)."""

    kind: str
    names: str | tuple[str, ...] | None = None
    query: str | None = None
    tool: str | None = None
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def name_list(self) -> list[str]:
        """The names of a load or unload, as a list (one name given as a string is a list of one)."""
        if self.names is None:
            return []
        return [self.names] if isinstance(self.names, str) else list(self.names)

    def as_json(self) -> dict[str, Any]:
        """The call in its JSON form."""
        if self.kind in ("load", "unload"):
            return {self.kind: self.names if isinstance(self.names, str) else list(self.names or ())}
        if self.kind == "search":
            return {"search": self.query}
        if self.kind == "list":
            return {"list": True}
        return {"invoke": self.tool, "arguments": dict(self.arguments)}


def parse_call(raw: Mapping[str, Any]) -> Call:
    """A call from its JSON form. Raises ValueError naming what is wrong and what is allowed."""
    kinds = [k for k in KINDS if k in raw]
    if len(kinds) != 1:
        raise ValueError(f"a call has exactly one of {', '.join(KINDS)}; got keys {sorted(raw)}")
    kind = kinds[0]
    value = raw[kind]
    if kind in ("load", "unload"):
        if isinstance(value, str):
            return Call(kind, names=value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return Call(kind, names=tuple(value))
        raise ValueError(f"{kind} takes a name or a list of names, got {value!r}")
    if kind == "search":
        if not isinstance(value, str):
            raise ValueError(f"search takes a query string, got {value!r}")
        return Call(kind, query=value)
    if kind == "list":
        return Call(kind)
    arguments = raw.get("arguments", {})
    if not isinstance(value, str) or not isinstance(arguments, Mapping):
        raise ValueError(f"invoke takes a tool name and an arguments object, got {value!r}, {arguments!r}")
    return Call(kind, tool=value, arguments=dict(arguments))


@dataclass(frozen=True)
class HostCall:
    """One call of a host tool the driver made for a model call, and what the model reads back."""

    tool: str
    arguments: Mapping[str, Any]
    text: str | None


@dataclass(frozen=True)
class Answer:
    """What one model call got: the text the model reads, or why there is none.

    `supported` is False when the host has no tool for this kind of call (nothing was sent to it);
    `executed` says, for an invoke, whether the tool's function really ran (None for other kinds).
    `error` is exception text the host raised for this call instead of answering it.
    """

    call: Mapping[str, Any]
    supported: bool
    text: str | None
    host_calls: tuple[HostCall, ...] = ()
    executed: bool | None = None
    error: str | None = None


@dataclass(frozen=True)
class StepResult:
    """The answers of one model step and the next model call's tool list (None when the request ended).

    `ended` is None while the request goes on, "completed" when the host finished it without another
    model call, or the exception that ended it as "Type: message".
    """

    answers: tuple[Answer, ...]
    next_tools: tuple[str, ...] | None
    tool_choice: str | None = None
    messages: int | None = None
    ended: str | None = None

    def brief(self) -> dict[str, Any]:
        """The step in short: the answers' texts and executed flags, the next tool list, the ending, errors if any."""
        out: dict[str, Any] = {"texts": [a.text for a in self.answers], "executed": [a.executed for a in self.answers],
                               "next": self.next_tools, "ended": self.ended}
        if any(a.error for a in self.answers):
            out["errors"] = [a.error for a in self.answers]
        return out


def unsupported(call: Call, host: str) -> Answer:
    """The answer to a call `host` has no tool for; nothing is sent to the host."""
    return Answer(call=call.as_json(), supported=False, text=f"unsupported: {host} has no tool to {call.kind}")


def jsonable(value: Any) -> Any:
    """Dataclasses, tuples and mappings as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


Opener = Callable[..., Awaitable[Any]]


async def serve(open_driver: Opener) -> None:
    """Run the JSON-lines loop on stdin/stdout; `open_driver(catalogue, always_visible, options)` makes the driver."""
    driver: Any = None
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if not line.strip():
            continue
        try:
            command = json.loads(line)
            op = command.pop("op")
            if op == "open":
                if driver is not None:
                    await driver.close()
                    driver = None
                driver = await open_driver(command.get("catalogue", []), command.get("always_visible", []),
                                           command.get("options", {}))
                result: Any = driver.describe()
            elif driver is None:
                raise ValueError("the first command must be open")
            elif op == "close":
                await driver.close()
                _reply({"ok": True, "result": None})
                return
            elif op not in OPS:
                raise ValueError(f"unknown op {op!r}; the ops are open, close, {', '.join(OPS)}")
            else:
                if op == "model_step":
                    command["calls"] = [parse_call(c) for c in command.get("calls", [])]
                result = await getattr(driver, op)(**command)
            _reply({"ok": True, "result": jsonable(result)})
        except Exception as error:  # noqa: BLE001 - every failure becomes a reply; the loop goes on
            _reply({"ok": False, "error": f"{type(error).__name__}: {error}",
                    "traceback": traceback.format_exc(limit=6)})
    if driver is not None:
        await driver.close()


def _reply(message: Mapping[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class DriverError(Exception):
    """A driver answered a command with {"ok": false}; the message is its error text."""


class DriverClient:
    """A driver running in its host's Python, commanded over the JSON-lines loop (standard library only)."""

    def __init__(self, python: str, script: str, timeout: float = 60.0) -> None:
        """Start `python script`; stderr goes to a temporary file (read it with `stderr()`)."""
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([python, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self._stderr, text=True)

    def call(self, op: str, **arguments: Any) -> Any:
        """Send one command and return its result. Raises DriverError on {"ok": false}, TimeoutError, EOFError."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"op": op, **arguments}) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            raise TimeoutError(f"the driver did not answer {op} within {self.timeout} s")
        line = self.process.stdout.readline()
        if not line:
            raise EOFError(f"the driver exited while answering {op}: {self.stderr()[-2000:]}")
        reply = json.loads(line)
        if not reply["ok"]:
            raise DriverError(reply["error"])
        return reply["result"]

    def stderr(self) -> str:
        """What the driver wrote to stderr so far."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        """Send close, wait for the process to end (kill it after the timeout)."""
        try:
            if self.process.poll() is None:
                self.call("close")
        finally:
            try:
                self.process.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
            self._stderr.close()
