"""Saved MCP ``tools/list`` results, read as :class:`~conformance.tools.extract.mcp_tools.Listing` values.

A file holds one server's listing, as JSON, in one of two forms:

- the ``tools/list`` result itself: ``{"tools": [...]}`` (what ``pas extract mcp --save``
  writes, with the server's ``serverInfo`` and ``instructions`` beside ``tools``, and what MCP
  inspectors print);
- the JSON-RPC response that carried it: ``{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}``.

``serverInfo`` (``name``, ``title``, ``version``) and ``instructions`` are read when present
(they come from the server's ``initialize`` reply, which a plain ``tools/list`` result lacks);
without a name, the file's name stands for the server's. A folder is searched for ``.json``
files, each one server. Files are read by the one loader, so every problem has its line and
JSON pointer; a listing that says more pages follow (``nextCursor``) is a warning.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.documents.walk import walk_folder
from conformance.tools.extract.mcp_tools import Listing
from reference_impl.problems import Problem, Severity, SourceLocation


def dump_files(paths: Iterable[str]) -> tuple[list[Path], list[Problem]]:
    """The ``.json`` files the paths name (a folder is walked), each once, and the problems met."""
    files: dict[str, Path] = {}
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            walk = walk_folder(path, suffixes=(".json",))
            problems += walk.problems
            if not walk.files and not walk.problems:
                problems.append(Problem(code="path-not-found", message="the folder holds no .json file (a saved "
                                        "tools/list result)", source=SourceLocation(path=raw)))
            files.update({str(f.resolve()): f for f in walk.files})
        elif path.exists():
            files.setdefault(str(path.resolve()), path)
        else:
            problems.append(Problem(code="path-not-found", message="no such file or folder", source=SourceLocation(path=raw)))
    return list(files.values()), problems


def _base(doc: YamlDocument) -> str | None:
    """The pointer of the object holding ``tools``: the root, or ``/result`` of a JSON-RPC response."""
    value = doc.value
    if isinstance(value.get("tools"), list):
        return ""
    result = value.get("result")
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        return "/result"
    return None


def _located(doc: YamlDocument, base: str):
    def where(pointer: str) -> SourceLocation:
        return doc.where(base + pointer if pointer else "")
    return where


def read_dump(path: Path) -> tuple[Listing | None, list[Problem]]:
    """The listing saved in one file, or None with the problems that prevent reading it."""
    doc, problems = load_mapping(path)
    if doc is None:
        return None, problems
    base = _base(doc)
    if base is None:
        return None, [Problem(code="mcp-not-a-tool-list", message="the file holds no MCP tools/list result: expected "
                              'an object with a "tools" list, or a JSON-RPC response whose "result" has one',
                              source=doc.where(""))]
    body: dict[str, Any] = doc.value if not base else doc.value["result"]
    where = _located(doc, base)
    found: list[Problem] = []
    if body.get("nextCursor"):
        found.append(Problem(code="mcp-incomplete-list", severity=Severity.WARNING, pointer=f"{base}/nextCursor",
                             source=where("/nextCursor"), message="the listing says more pages follow (nextCursor); "
                             "only the tools in this file are extracted: save every page's tools in one list"))
    info = body.get("serverInfo")
    server: dict[str, Any] = info if isinstance(info, dict) else {}
    instructions = body.get("instructions") if isinstance(body.get("instructions"), str) else None
    listing = Listing(server=server, instructions=instructions, tools=body["tools"], fallback_name=path.stem,
                      origin=f"`pas extract mcp` from {path.as_posix()}", where=where, problems=tuple(found), base=base)
    return listing, []
