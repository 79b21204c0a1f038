"""Calling a plugin method the way the model's sandbox code calls it, through NekroAgent's own code.

In NekroAgent the model's code runs in a sandbox, where each method the chat is offered is a
proxy function (``services/sandbox/ext_caller.py``: ``METHOD_REG_TEMPLATE`` wraps a stub in
``__extension_method_proxy`` from ``services/sandbox/ext_caller_code.py``) that posts the call
to the RPC endpoint (``routers/rpc.py:rpc_exec``), which runs the method
(``services/rpc_service.py:execute_rpc_method``). The proxy then returns the result, or ends
the sandbox run: ``exit(8)`` after an agent method, ``exit(11)`` after a multimodal-agent
method, ``exit(1)`` when the method raised (the RPC answer's ``Run-Error`` header).

Here the proxy is NekroAgent's own function, compiled from the installed
``ext_caller_code.py`` (its source is read at run time, never copied), and the stub is
``METHOD_REG_TEMPLATE`` formatted as ``ext_caller.py`` formats it. Only the transport is
replaced: ``_requests.post`` calls ``rpc_exec`` in-process instead of over HTTP, ``exit``
raises ``SystemExit`` without closing the adapter's stdin (the builtin one would), and
``print`` is captured. So whether a call ends the step, and what the model is shown, is
what NekroAgent's proxy did.
"""

from __future__ import annotations

import ast
import pickle
import typing
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROXY = "__extension_method_proxy"


@dataclass
class SandboxResult:
    """What one proxied call did: its return value, or how the sandbox run ended, and what it printed."""

    returned: Any = None
    exit_code: int | None = None  # None: the call returned and the sandbox code goes on
    result: Any = None  # the method's result as the RPC answer carried it (agent methods too)
    error: str | None = None  # the RPC answer's error text when the method raised
    printed: list[str] = field(default_factory=list)


class _Response:
    """The parts of a ``requests`` response the proxy reads, from the RPC handler's Starlette response."""

    def __init__(self, response: Any) -> None:
        self.status_code = response.status_code
        self.headers = response.headers
        self.content = bytes(response.body)
        self.text = self.content.decode("utf-8", "replace")


class _Body:
    """The request object ``rpc_exec`` reads the pickled call from."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    async def body(self) -> bytes:
        return self.data


def _proxy_code(source: Path) -> Any:
    """NekroAgent's ``__extension_method_proxy`` definition, compiled from its installed source file."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == PROXY]
    if not found:
        raise RuntimeError(f"{source} defines no {PROXY}: this NekroAgent release calls methods differently")
    return compile(ast.Module(body=found, type_ignores=[]), str(source), "exec")


class Sandbox:
    """One chat's sandbox: method stubs behind NekroAgent's proxy, posting to its RPC handler in-process."""

    def __init__(self, nk: dict, run: Any) -> None:
        self.nk, self.run = nk, run
        self.code = _proxy_code(nk["package"] / "services" / "sandbox" / "ext_caller_code.py")
        self.template = nk["ext_caller"].METHOD_REG_TEMPLATE

    def _post(self, result: SandboxResult) -> Any:
        def post(url: str, data: bytes, headers: dict | None = None) -> _Response:
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            response = self.run(self.nk["rpc"].rpc_exec(container_key=query["container_key"][0],
                                                        from_chat_key=query["from_chat_key"][0], data=_Body(data)))
            answer = _Response(response)
            if answer.headers.get("Run-Error", "").lower() == "true":
                result.error = answer.text
            else:
                result.result = pickle.loads(answer.content)
            return answer

        return post

    def _namespace(self, chat_key: str, result: SandboxResult) -> dict:
        def sandbox_exit(code: int = 0) -> None:
            raise SystemExit(code)

        names = {name: getattr(typing, name) for name in ("Any", "Callable", "Dict", "Optional", "Tuple")}
        return {**names, "_pickle": pickle, "_requests": type("requests", (), {"post": staticmethod(self._post(result))}),
                "exit": sandbox_exit, "print": lambda *parts, **_: result.printed.append(" ".join(map(str, parts))),
                "CHAT_API": "http://nekro-agent.invalid/api", "CONTAINER_KEY": "pas", "FROM_CHAT_KEY": chat_key,
                "RPC_SECRET_KEY": ""}

    def call(self, chat_key: str, method_name: str, args: tuple, kwargs: dict) -> SandboxResult:
        """Call ``method_name`` as the model's code would; what NekroAgent's proxy did."""
        result = SandboxResult()
        namespace = self._namespace(chat_key, result)
        exec(self.code, namespace)  # NekroAgent's own proxy, from its installed package
        exec(self.template.format(method_name=method_name), namespace)  # ext_caller.py's stub template
        try:
            result.returned = namespace[method_name](*args, **kwargs)
        except SystemExit as ended:
            result.exit_code = ended.code if isinstance(ended.code, int) else 1
        return result
