"""Asking a running MCP server for its tools: the official MCP Python SDK over stdio.

``pas extract mcp -- CMD ARGS`` starts ``CMD ARGS`` as a stdio MCP server with the SDK's
``stdio_client`` (a new process group), connects the SDK's ``Client`` to it (which negotiates
the protocol version: ``server/discover``, else ``initialize``), pages through ``tools/list``
and stops the server. No protocol code is written here; the SDK is the ``mcp`` extra
(``pip install 'mcp>=2.3'``, PAS's ``mcp`` extra).

Whatever goes wrong is one :class:`ServerFailed` with the reason: the command does not start,
the server exits or closes its output, it does not answer within the timeout, it writes
something that is not a JSON-RPC message, or it answers as something other than an MCP server.
The server's standard error is kept aside and its last lines end the reason. Nothing is left
running: the SDK closes the server's input, then signals its process group; after that, on
systems with ``/proc``, the group is killed outright, so a child the server left behind goes too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import signal
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from conformance.tools.extract.mcp_tools import Listing
from reference_impl.errors import PasError
from reference_impl.problems import SourceLocation

DEFAULT_TIMEOUT = 30.0  # seconds for the whole exchange: start, handshake and every page
PAGE_CAP = 100  # tools/list pages read at most, so that a server paging forever cannot hang extraction
INSTALL_HINT = "pip install 'mcp>=2.3' (the official MCP Python SDK; PAS's mcp extra)"


class ServerFailed(PasError, RuntimeError):
    """The MCP server could not be asked for its tools; ``reason`` says why, ``command`` what was run."""

    def __init__(self, *, command: Sequence[str], reason: str) -> None:
        self.command = tuple(command)
        self.reason = reason
        super().__init__(f"{shlex.join(self.command)}: {reason}")


class _Opened:
    """An already-open pair of SDK streams, handed to ``mcp.Client`` as its transport."""

    def __init__(self, streams: Any) -> None:
        self.streams = streams

    async def __aenter__(self) -> Any:
        return self.streams

    async def __aexit__(self, *exc_info: object) -> None:
        return None


def _own_groups() -> set[int]:
    """Process groups led by a child of this process (Linux ``/proc``; empty elsewhere)."""
    me, found = os.getpid(), set()
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == me and int(fields[2]) == int(entry.name):
                found.add(int(entry.name))
    return found


def _kill_groups(groups: set[int]) -> None:
    for group in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


@contextlib.contextmanager
def _quiet_sdk() -> Iterator[None]:
    """Keep the SDK's log records (a traceback per unparsable line) off the terminal: the reason says it once."""
    logger, handler = logging.getLogger("mcp"), logging.NullHandler()
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def _reason(error: BaseException) -> str:
    """One sentence for what went wrong, from the SDK's exception (groups unwrapped)."""
    from mcp.shared.exceptions import MCPError

    leaf = _leaves(error)[0]
    if isinstance(leaf, MCPError) and "closed" in str(leaf.error.message).lower():
        return "the server closed its output before answering (it exited, or writes nothing on standard output)"
    if isinstance(leaf, MCPError):
        return f"it answered, but not as an MCP server: error {leaf.error.code} {leaf.error.message!r}"
    return f"{type(leaf).__name__}: {leaf}"


def _not_json_rpc(error: Exception) -> str:
    """The reason for a line that is not a JSON-RPC message, quoting what the server wrote when the SDK says."""
    details = getattr(error, "errors", None)
    wrote = None
    with contextlib.suppress(Exception):
        wrote = details()[0].get("input") if callable(details) else None
    shown = f": {str(wrote)[:120]!r}" if wrote is not None else f" ({type(error).__name__})"
    return f"it wrote something that is not an MCP (JSON-RPC) message on its standard output{shown}"


def _stderr_tail(stream: Any) -> str:
    with contextlib.suppress(OSError, ValueError):
        stream.seek(0)
        lines = [line.rstrip() for line in stream.read().splitlines() if line.strip()]
        if lines:
            return "; its standard error ends: " + " | ".join(lines[-3:])[-400:]
    return ""


async def _tools(client: Any) -> list[dict[str, Any]]:
    """Every tool of every ``tools/list`` page, as the server sent it (JSON, wire names)."""
    tools: list[dict[str, Any]] = []
    cursor = None
    for _ in range(PAGE_CAP):
        page = await client.list_tools(cursor=cursor)
        tools += [tool.model_dump(by_alias=True, exclude_unset=True, mode="json") for tool in page.tools]
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


async def _exchange(command: Sequence[str], timeout: float, errlog: Any, groups: set[int]) -> dict[str, Any]:
    """Start the server, ask it, stop it; the saved form of its listing. Raises ServerFailed."""
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=command[0], args=list(command[1:]), env=dict(os.environ))
    garbage: list[Exception] = []
    with anyio.fail_after(timeout), anyio.CancelScope() as scope:
        async def on_message(message: Any) -> None:
            if isinstance(message, Exception):  # a line the SDK could not read as JSON-RPC
                garbage.append(message)
                scope.cancel()

        before = _own_groups()
        async with stdio_client(params, errlog=errlog) as streams:
            groups |= _own_groups() - before  # no await since the spawn: the group is the server's
            async with Client(_Opened(streams), message_handler=on_message) as client:
                info = client.server_info
                saved: dict[str, Any] = {"serverInfo": info.model_dump(by_alias=True, exclude_none=True, mode="json")
                                         if info is not None else {}}
                if client.instructions:
                    saved["instructions"] = client.instructions
                saved["tools"] = await _tools(client)
                return saved
    raise ServerFailed(command=command, reason=_not_json_rpc(garbage[0]) if garbage else "the exchange was cut short")


def ask_server(command: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """The saved form of a stdio MCP server's listing: ``{"serverInfo", "instructions", "tools"}``.

    Raises ServerFailed when the SDK is not installed, or the server does not start, exits,
    does not answer within ``timeout`` seconds, or does not speak MCP; the server's process
    group is gone when this returns or raises.
    """
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        raise ServerFailed(command=command, reason=f"the MCP Python SDK is not installed; {INSTALL_HINT}")
    import anyio

    groups: set[int] = set()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog, _quiet_sdk():
        try:
            return anyio.run(_exchange, command, timeout, errlog, groups)
        except ServerFailed as failed:
            raise ServerFailed(command=command, reason=failed.reason + _stderr_tail(errlog)) from None
        except TimeoutError:
            reason = f"no answer within {timeout:g} s (use --timeout to wait longer)"
        except OSError as error:
            reason = f"the command did not start: {error.strerror or error}"
        except Exception as error:  # noqa: BLE001 - any failure of a foreign program is a reason, never a traceback
            reason = _reason(error)
        finally:
            _kill_groups(groups)
        raise ServerFailed(command=command, reason=reason + _stderr_tail(errlog))


def _command_name(command: Sequence[str]) -> str:
    """The server's name when it gives none: the command's last word that is not an option (``srv.py`` -> ``srv``)."""
    words = [word for word in command if not word.startswith("-")]
    return Path(words[-1]).stem if words else "server"


def listing_of(saved: dict[str, Any], command: Sequence[str]) -> Listing:
    """The listing of a live server's saved form; problems are placed at the command, naming the tool."""
    where = SourceLocation(path=shlex.join(command))
    return Listing(server=saved.get("serverInfo") or {}, instructions=saved.get("instructions"), tools=saved["tools"],
                   fallback_name=_command_name(command),
                   origin=f"`pas extract mcp` from the server `{shlex.join(command)}`", where=lambda _pointer: where)
