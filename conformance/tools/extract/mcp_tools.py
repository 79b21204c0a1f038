"""One MCP server's tool listing as one PAS plugin manifest.

An MCP server is one plugin: scheduling wakes and puts to sleep a whole server, as a host
would connect or hide it. The mapping (docs/guides/mcp-servers.md#mapping):

- ``module_name`` from the server's name (``serverInfo.name``; for a saved listing without
  it, the file name) by :func:`~conformance.tools.extract.names.module_name_from`; ``name`` is its ``title`` or its name;
  ``version`` its ``version`` (``0.0.0`` when it has none, a guess);
- ``sleep_brief`` is the server's ``instructions`` (their first sentences when they are
  longer than :data:`BRIEF_CHARS`); a server without instructions gets one built from its
  tools' names and descriptions. A brief cut or built rather than read is listed in
  ``x-pas-guessed`` and reported as a warning (``mcp-guessed-text``). ``description`` (for
  people, not the model) is the instructions followed by a line naming the server, its
  version and its tools;
- ``allow_sleep: true``: the server opts in, so ``pas budget`` measures it asleep; set it to
  ``false`` for a server every conversation needs;
- each tool is a method of kind ``tool``: its name (made an identifier when it is not one,
  the original kept in ``x-mcp-name``), its description, its ``inputSchema`` as
  ``parameters`` unchanged, its ``annotations`` in ``x-mcp-annotations`` and its ``title``
  in ``x-mcp-title``. The server's identity is kept in ``x-mcp-server``.

Problems are reported at the listing's place (a file and JSON pointer, or the server's
command and the tool's name), never raised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.tools.extract.drafts import Draft
from conformance.tools.extract.names import method_name_from, module_name_from
from reference_impl.problems import Problem, Severity, SourceLocation

BRIEF_CHARS = 400  # a sleeping server's brief (pas validate's default brief_max_length): what the model reads to wake it
SCHEMA_CHARS = 8192  # an input schema longer than this (compact JSON, about 2,000 tokens) is worth a warning
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")


@dataclass(frozen=True, slots=True, kw_only=True)
class Listing:
    """What one MCP server says about itself and its tools, and where each part of it was read.

    ``where`` maps a JSON pointer into the listing (``/tools/3/name``, ``/instructions``,
    ``/serverInfo/name``) to its place: a line of a saved file, or the server's command.
    """

    server: Mapping[str, Any]  # serverInfo: name, version, title (each optional)
    instructions: str | None
    tools: Sequence[Any]
    fallback_name: str  # the file's stem or the command's name, when the server has no name
    origin: str  # for the manifest's header: "`pas extract mcp` from servers/fetch.json"
    where: Callable[[str], SourceLocation]
    problems: tuple[Problem, ...] = ()  # met while reading the listing
    base: str = ""  # where the listing sits in its file: "/result" in a saved JSON-RPC response


def first_sentences(text: str, limit: int) -> str:
    """The leading sentences of ``text`` that fit in ``limit`` characters (a hard cut when the first does not)."""
    text = " ".join(text.split()) if "\n" not in text.strip() else text.strip()
    if len(text) <= limit:
        return text
    kept = ""
    for sentence in _SENTENCE_END.split(text):
        candidate = f"{kept} {sentence}".strip() if kept else sentence.strip()
        if len(candidate) > limit:
            break
        kept = candidate
    return kept or text[: limit - 1].rstrip() + "…"


@dataclass(slots=True)
class _Build:
    """The manifest being built from one listing, and what was met on the way."""

    listing: Listing
    problems: list[Problem] = field(default_factory=list)
    sources: dict[str, SourceLocation] = field(default_factory=dict)
    guessed: list[str] = field(default_factory=list)

    def warn(self, code: str, message: str, pointer: str, severity: Severity = Severity.WARNING) -> None:
        """Record a problem at ``pointer`` into the listing (a warning unless ``severity`` says otherwise)."""
        self.problems.append(Problem(code=code, message=message, pointer=self.listing.base + pointer if pointer else "",
                                     severity=severity, source=self.listing.where(pointer)))


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _names(build: _Build) -> tuple[str, str] | None:
    """(display name, module name) of the server; a warning when the name had to change, None when none is usable."""
    server, listing = build.listing.server, build.listing
    raw = _text(server.get("name")) or listing.fallback_name
    pointer = "/serverInfo/name" if _text(server.get("name")) else ""
    module = module_name_from(raw, digit_prefix="mcp_")
    if module is None:
        build.warn("mcp-module-name", f"the server's name {raw!r} has no letter or digit a module name can be made of; "
                   "no manifest is written: give the listing a server name (serverInfo.name) or the file an ASCII "
                   "name", pointer, Severity.ERROR)
        return None
    if module != raw:
        build.warn("mcp-module-name", f"the server's name {raw!r} is not a module name; the plugin's module_name is "
                   f"{module!r}: the model wakes it with activate_plugin('{module}')", pointer)
    build.sources["/module_name"] = build.sources["/name"] = listing.where(pointer)
    return _text(server.get("title")) or raw, module


def _tool_entry(tool: Any) -> str:
    description = _text(tool.get("description"))
    first = first_sentences(description, 160) if description else ""
    return f"{tool.get('name')}: {first}" if first else str(tool.get("name"))


def _built_brief(display: str, tools: Sequence[Any]) -> str:
    """``<server> (MCP server, N tools): a: its first sentence; b: ...``; names alone when that is too long."""
    head = f"{display} (MCP server, {len(tools)} tools): "
    entries = "; ".join(_tool_entry(tool) for tool in tools)
    if len(head) + len(entries) <= BRIEF_CHARS:
        return head + entries
    names = [str(tool.get("name")) for tool in tools]
    for count in range(len(names), 0, -1):
        more = f" and {len(names) - count} more" if count < len(names) else ""
        text = head + ", ".join(names[:count]) + more
        if len(text) <= BRIEF_CHARS:
            return text
    return first_sentences(head + ", ".join(names), BRIEF_CHARS)


def _summary(build: _Build, tools: Sequence[Any]) -> str:
    """The line about the server itself that ends the description: name, version, how many tools and which."""
    server = build.listing.server
    name = _text(server.get("name")) or build.listing.fallback_name
    version = f" {_text(server.get('version'))}" if _text(server.get("version")) else ""
    names = first_sentences(", ".join(str(tool.get("name")) for tool in tools), 300)
    return f"MCP server {name}{version}, {len(tools)} tools: {names}."


def _texts(build: _Build, display: str, tools: Sequence[Any]) -> tuple[str, str]:
    """(description, sleep_brief): the brief from the instructions, or built from the tools (a guess, reported);
    the description is the instructions and a line about the server."""
    instructions = _text(build.listing.instructions)
    where = build.listing.where("/instructions" if instructions else "/tools")
    build.sources["/description"] = build.sources["/sleep_brief"] = where
    summary = _summary(build, tools)
    if instructions:
        brief = first_sentences(instructions, BRIEF_CHARS)
        if brief != instructions:
            build.guessed.append("sleep_brief")
            build.warn("mcp-guessed-text", f"the server's instructions are {len(instructions)} characters; the "
                       f"sleep_brief is their first sentences ({len(brief)} characters): read it, and write a better "
                       "one in the manifest if it does not say when the server is needed", "/instructions")
        return f"{instructions}\n\n{summary}", brief
    build.guessed.append("sleep_brief")
    build.warn("mcp-guessed-text", "the server gives no instructions, so the sleep_brief is built from its tools' "
               "descriptions (a guess, listed in x-pas-guessed): write one saying what the server is for and when "
               "to wake it", "/tools" if tools else "")
    return summary, _built_brief(display, tools)


def _method(build: _Build, tool: Any, pointer: str, taken: dict[str, str]) -> dict[str, Any] | None:
    """The method of one tool, or None (with a warning) when the tool cannot be one."""
    if not isinstance(tool, Mapping) or not _text(tool.get("name")):
        build.warn("mcp-tool-left-out", "a tool without a name is left out: the model could not call it", pointer)
        return None
    raw = str(tool["name"])
    schema = tool.get("inputSchema")
    if not isinstance(schema, Mapping):
        build.warn("mcp-tool-left-out", f"tool {raw!r} has no inputSchema object (MCP requires one: "
                   '{"type": "object"} for a tool without arguments); it is left out', f"{pointer}/inputSchema")
        return None
    name = method_name_from(raw)
    if name is None or name in taken:
        why = "has no letter or digit a method name can be made of" if name is None else \
            f"becomes the method name {name!r}, as tool {taken[name]!r} did"
        build.warn("mcp-tool-left-out", f"tool {raw!r} {why}; it is left out", f"{pointer}/name")
        return None
    taken[name] = raw
    if name != raw:
        build.warn("mcp-tool-name", f"tool {raw!r} is not an identifier; its method is named {name!r} (the tool's "
                   "own name is kept in x-mcp-name, which a host calls it by)", f"{pointer}/name")
    description = _text(tool.get("description"))
    if not description:
        build.warn("mcp-tool-without-description", f"tool {raw!r} has no description: the model sees only its name "
                   "and schema, and PAS leaves a method without a description out of the plugin block; ask the "
                   "server's authors for one", pointer)
    size = len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False))
    if size > SCHEMA_CHARS:
        build.warn("mcp-oversized-schema", f"tool {raw!r} has an input schema of {size} characters (compact JSON; "
                   f"over {SCHEMA_CHARS}): it costs prompt tokens in every run the server is awake", f"{pointer}/inputSchema")
    method: dict[str, Any] = {"name": name, "kind": "tool", "description": description, "parameters": dict(schema)}
    extras = {"x-mcp-name": raw if name != raw else None, "x-mcp-title": _text(tool.get("title")) or None,
              "x-mcp-annotations": tool.get("annotations") or None}
    method.update({key: value for key, value in extras.items() if value is not None})
    return method


def _methods(build: _Build) -> list[dict[str, Any]]:
    methods: list[dict[str, Any]] = []
    taken: dict[str, str] = {}
    for index, tool in enumerate(build.listing.tools):
        method = _method(build, tool, f"/tools/{index}", taken)
        if method is not None:
            build.sources[f"/methods/{len(methods)}"] = build.listing.where(f"/tools/{index}")
            methods.append(method)
    return methods


def _server_extension(server: Mapping[str, Any]) -> dict[str, Any]:
    return {key: server[key] for key in ("name", "title", "version") if isinstance(server.get(key), str)}


def draft_of(listing: Listing) -> tuple[Draft | None, list[Problem]]:
    """The manifest of one server's listing, and the problems met; no draft when the server has no usable name."""
    build = _Build(listing=listing, problems=list(listing.problems))
    build.sources[""] = listing.where("")
    names = _names(build)
    if names is None:
        return None, build.problems
    display, module = names
    tools = [tool for tool in listing.tools if isinstance(tool, Mapping)]
    description, brief = _texts(build, display, tools)
    version = _text(listing.server.get("version"))
    if not version:
        version = "0.0.0"
        build.guessed.append("version")
    doc: dict[str, Any] = {"kind": "plugin-manifest", "name": display, "module_name": module, "version": version,
                           "description": description, "allow_sleep": True, "sleep_brief": brief}
    methods = _methods(build)
    if methods:
        doc["methods"] = methods
    if listing.server:
        doc["x-mcp-server"] = _server_extension(listing.server)
    if build.guessed:
        doc["x-pas-guessed"] = build.guessed
    return Draft(doc=doc, origin=listing.origin, source=listing.where(""), sources=build.sources), build.problems
