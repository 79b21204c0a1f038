"""The PAS side of a Python disclosure adapter: stdio protocol v1 (docs/protocol.md), profile `disclosure`.

Standard library only and no PAS import: each adapter runs in its host's own venv
(examples/agent-framework/adapter.py, examples/langgraph-bigtool/adapter.py put this folder and
their own on `sys.path`). The host's real objects are run by the scripted driver beside each adapter
(driver.py, on this folder's scripted_driver.py and driver_protocol.py); what the host decides is read off what
it did, through the `Host` the adapter supplies:

* `tokens` turns the tool names the host put in a model request into PAS's list (catalogue names
  as they are, loader tools as `@load`, `@unload`, `@search`, `@list`);
* `host_call` turns a PAS call into the driver's call (names renamed the way the host renames them),
  or says the host has no tool for it;
* `answer` reads one PAS answer off the text the host gave the model (and, for an invoke, whether
  the tool's function ran).

This module does the protocol and the bookkeeping of which thread has a request open: a request
on a thread with one open ends it first (the model answers with text), a rebuild ends them all, a
trim waits for the end of the thread's open request (it takes effect before the thread's next
request). When the host ends a request inside a step (it raised), there is no next model call; the step's `tools` then repeat the last list the host sent, each answer says what the
host did (an invoke that raised did not run), and the exception goes to stderr.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TextIO

from driver_protocol import Answer, Call, parse_call

PROTOCOL_VERSION = 1
KINDS = ("load", "unload", "search", "list", "invoke")
DISCLOSURE = ("disclosure-start", "disclosure-request", "disclosure-step", "disclosure-end",
              "disclosure-rebuild", "disclosure-trim", "disclosure-idle", "disclosure-clear")
COMMANDS = ("hello", "bye", *DISCLOSURE)
JSON = dict[str, Any]


def protocol_stdout() -> TextIO:
    """A private copy of fd 1 for protocol lines; fd 1 and `sys.stdout` then write to stderr.

    Call it before importing the host: whatever the host prints goes to stderr, never into the protocol.
    """
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def log(*parts: object) -> None:
    """One line on stderr (the runner keeps its last 4 KiB for error reports)."""
    print("[disclosure-adapter]", *parts, file=sys.stderr, flush=True)


class AdapterLimit(Exception):
    """A command the host cannot be made to do; answered with an error response coded `adapter-limit`."""


class InvalidRequest(Exception):
    """A request this adapter cannot read; answered with an error response coded `invalid-request`."""


class Host(Protocol):
    """What an adapter supplies for its host (see the module docstring)."""

    name: str
    version: str
    options: Mapping[str, Any]
    driver: Any

    async def open(self, tools: Sequence[Mapping[str, Any]]) -> None:
        """Build the host anew for this catalogue (the previous one is closed first)."""

    def tokens(self, names: Sequence[str]) -> list[str]:
        """PAS's tool list for the names the host put in a model request."""

    def host_call(self, call: Mapping[str, Any]) -> Call | None:
        """The driver call for a PAS call, or None when the host has no tool for it."""

    def answer(self, call: Mapping[str, Any], answer: Answer) -> JSON:
        """The PAS answer read off what the host answered."""

    async def rebuild(self, store: str) -> None:
        """A new host object; `store` is "kept" or "reset". No request is open."""

    async def trim(self, thread: str, keep: int) -> None:
        """Keep the last `keep` messages of the thread's history. No request is open on it."""

    async def idle(self, seconds: float) -> None:
        """Time passes with no activity."""

    async def clear(self, thread: str) -> None:
        """The host's own API clears the thread's loaded tools."""

    async def close(self) -> None:
        """Release the host."""


class DriverHost:
    """What every driver-backed host shares: the driver (None before disclosure-start), the catalogue's names,
    building the driver from a catalogue, trimming through it, closing it."""

    driver: Any = None
    catalogue: Sequence[str] = ()

    async def open_driver(self, opener: Any, tools: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> None:
        """Close the driver, then `await opener(catalogue, always_visible, options)` for this catalogue."""
        await self.close()
        catalogue = [{"name": t["name"], "description": t["description"], "parameters": t.get("parameters")}
                     for t in tools]
        always = [str(t["name"]) for t in tools if t.get("always_visible")]
        self.driver = await opener(catalogue, always, options)
        self.catalogue = [str(t["name"]) for t in tools]

    def live(self) -> Any:
        """The driver. Raises AdapterLimit before disclosure-start."""
        if self.driver is None:
            raise AdapterLimit("send disclosure-start first")
        return self.driver

    async def trim(self, thread: str, keep: int) -> None:
        """Keep the last `keep` messages of the thread's history, the host's way (the driver's `trim`)."""
        await self.live().trim(thread, keep)

    async def close(self) -> None:
        """Close the driver (its open requests and whatever it holds)."""
        if self.driver is not None:
            await self.driver.close()
            self.driver = None


def call_kind(call: Mapping[str, Any]) -> str:
    """Which of load, unload, search, list, invoke a PAS call is. Raises InvalidRequest."""
    kinds = [kind for kind in KINDS if kind in call]
    if len(kinds) != 1:
        raise InvalidRequest(f"a call has exactly one of {', '.join(KINDS)}; got {dict(call)!r}")
    return kinds[0]


def driver_call(call: Mapping[str, Any], rename: Mapping[str, str]) -> Call:
    """The driver's call for a PAS call, each tool name replaced by `rename`'s entry when it has one."""
    doc = dict(call)
    kind = call_kind(call)
    if kind in ("load", "unload"):
        names = call[kind]
        doc[kind] = rename.get(names, names) if isinstance(names, str) else [rename.get(n, n) for n in names]
    elif kind == "invoke":
        doc["invoke"] = rename.get(call["invoke"], call["invoke"])
    return parse_call(doc)


def asked_names(call: Mapping[str, Any]) -> list[str]:
    """The distinct names a load or unload asks for, in the order first asked."""
    names = call[call_kind(call)]
    return list(dict.fromkeys([names] if isinstance(names, str) else names))


def invoke_answer(call: Mapping[str, Any], answer: Answer, catalogue: Sequence[str]) -> JSON:
    """An invoke's answer: `executed` when the tool's function ran (the driver saw it run), else the host
    answered without running it: `refused`, or `not_found` for a name the catalogue lacks."""
    name = str(call["invoke"])
    outcome = "executed" if answer.executed else "refused" if name in catalogue else "not_found"
    return with_text({"call": "invoke", "name": name, "outcome": outcome}, answer)


def with_text(doc: JSON, answer: Answer) -> JSON:
    """`doc` with the text the model read, when the host gave it one."""
    return {**doc, "text": answer.text} if answer.text is not None else doc


class Session:
    """One protocol session over one host: the handshake, then the disclosure commands."""

    def __init__(self, host: Host) -> None:
        """No greeting yet, no catalogue, no open request."""
        self.host = host
        self.greeted = False
        self.started = False
        self.done = False
        self.open: dict[str, list[str]] = {}  # thread -> the PAS tool list of its open request's current call
        self.trims: dict[str, int] = {}  # thread -> messages to keep, applied when its open request has ended

    async def answer(self, line: bytes) -> JSON:
        """The response to one request line (never raises)."""
        try:
            doc = json.loads(line.decode("utf-8"), parse_constant=_no_constants)
        except ValueError as error:
            return _error(None, "invalid-json", f"request is not JSON: {error}")
        rid = doc.get("id") if isinstance(doc, dict) else None
        rid = rid if type(rid) is int and rid > 0 else None
        if rid is None:
            return _error(None, "invalid-request", "a request is a JSON object with a positive integer id")
        cmd = doc.get("cmd")
        if cmd not in COMMANDS:
            return _error(rid, "unknown-command", f"unknown command {cmd!r}; this adapter speaks {', '.join(COMMANDS)}")
        try:
            return {"id": rid, "ok": True, "result": await self.dispatch(cmd, doc)}
        except AdapterLimit as error:
            return _error(rid, "adapter-limit", str(error))
        except (InvalidRequest, KeyError, TypeError) as error:
            return _error(rid, "invalid-request", f"{cmd}: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - the host's own exception is an error response, not a dead adapter
            log(traceback.format_exc())
            return _error(rid, "internal-error", f"{cmd}: {type(error).__name__}: {error}"[:500])

    async def dispatch(self, cmd: str, req: JSON) -> JSON:
        """The result of one command. Raises AdapterLimit, InvalidRequest, or the host's exception."""
        if cmd == "hello":
            return self._hello(req)
        if cmd == "bye":
            self.done = True
            return {}
        if not self.greeted:
            raise AdapterLimit("send hello first")
        if cmd == "disclosure-start":
            self.open.clear()
            self.trims.clear()
            await self.host.open(list(req["tools"]))
            self.started = True
            return {}
        if not self.started:
            raise AdapterLimit(f"send disclosure-start before {cmd}")
        return await self._event(cmd, req)

    def _hello(self, req: JSON) -> JSON:
        if req.get("protocol_version") != PROTOCOL_VERSION:
            raise AdapterLimit(f"this adapter speaks protocol version {PROTOCOL_VERSION}")
        self.greeted = True
        return {"name": self.host.name, "version": self.host.version, "language": "python",
                "profiles": ["disclosure"], "protocol_version": PROTOCOL_VERSION, "disclosure": dict(self.host.options)}

    async def _event(self, cmd: str, req: JSON) -> JSON:
        if cmd == "disclosure-request":
            return await self._request(_thread(req))
        if cmd == "disclosure-step":
            return await self._step(_thread(req), req["calls"])
        if cmd == "disclosure-end":
            await self._end(_thread(req))
        elif cmd == "disclosure-rebuild":
            for thread in list(self.open):
                await self._end(thread)
            await self.host.rebuild(_choice(req, "store", ("kept", "reset")))
        elif cmd == "disclosure-trim":
            await self._trim(_thread(req), int(req["keep"]))
        elif cmd == "disclosure-idle":
            await self.host.idle(float(req["seconds"]))
        else:
            await self.host.clear(_thread(req))
        return {}

    async def _request(self, thread: str) -> JSON:
        await self._end(thread)
        first = await self.host.driver.begin_request(thread)
        if first["tools"] is None:
            raise RuntimeError(f"the host ended the request before its first model call: {first['ended']}")
        self.open[thread] = self.host.tokens(first["tools"])
        return {"tools": self.open[thread]}

    async def _step(self, thread: str, calls: Sequence[Mapping[str, Any]]) -> JSON:
        if thread not in self.open:
            raise AdapterLimit(f"thread {thread!r} has no open request (the host ended it earlier, or none began)")
        if not isinstance(calls, list) or not calls:
            raise InvalidRequest("calls is a non-empty list of calls")
        planned = [(call, self.host.host_call(call)) for call in calls]
        sent = [host_call for _, host_call in planned if host_call is not None]
        result = await self.host.driver.model_step(thread, sent) if sent else None
        answers = iter(result.answers if result is not None else ())
        observed = [self.host.answer(call, next(answers)) if host_call is not None
                    else {"call": call_kind(call), "unsupported": True} for call, host_call in planned]
        if result is not None and result.next_tools is None:
            log(f"thread {thread!r}: the host ended the request inside the step: {result.ended}")
            return {"answers": observed, "tools": self.open.pop(thread)}
        if result is not None:
            self.open[thread] = self.host.tokens(result.next_tools)
        return {"answers": observed, "tools": self.open[thread]}

    async def _trim(self, thread: str, keep: int) -> None:
        """Trim the thread's history now, or, while a request is open on it, once that request has ended.

        A trim takes effect before the thread's next request; the open request goes on with the tools it has.
        """
        self.trims[thread] = min(keep, self.trims.get(thread, keep))
        if thread not in self.open:
            await self.host.trim(thread, self.trims.pop(thread))

    async def _end(self, thread: str) -> None:
        """The model answers the thread's open request with text (nothing when none is open); a trim waiting
        for that request's end is applied."""
        if self.open.pop(thread, None) is not None:
            ended = await self.host.driver.end_request(thread)
            if not ended["completed"] or ended["error"]:
                log(f"thread {thread!r}: the request did not end cleanly: {ended['error']}")
        if thread in self.trims:
            await self.host.trim(thread, self.trims.pop(thread))


def _thread(req: JSON) -> str:
    thread = req["thread"]
    if not isinstance(thread, str) or not thread:
        raise InvalidRequest("thread is a non-empty string")
    return thread


def _choice(req: JSON, key: str, allowed: Sequence[str]) -> str:
    if req[key] not in allowed:
        raise InvalidRequest(f"{key} is one of {', '.join(allowed)}")
    return str(req[key])


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not strict JSON")


def _error(rid: int | None, code: str, message: str) -> JSON:
    return {"id": rid, "ok": False, "error": {"message": message, "code": code}}


def run(host: Host, out: TextIO) -> None:
    """Serve the protocol until bye or end of input, then leave at once (exit status 0).

    `os._exit` skips interpreter shutdown: the hosts' task groups and loggers have nothing left to say.
    """
    asyncio.run(serve(host, out))
    out.flush()
    os._exit(0)


async def serve(host: Host, out: TextIO) -> None:
    """Answer requests from stdin on `out` until bye or end of input, then close the host."""
    session = Session(host)
    reader = asyncio.StreamReader(limit=2**24)
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while not session.done and (line := await reader.readline()):
            if not line.strip():
                continue
            response = await session.answer(line.rstrip(b"\r\n"))
            out.write(json.dumps(response, ensure_ascii=False, allow_nan=False) + "\n")
            out.flush()
    finally:
        await host.close()
