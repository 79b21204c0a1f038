"""The source map ``pas extract`` writes beside generated manifests, so that problems point at the code.

``pas extract nekro --out DIR`` writes ``DIR/.pas-sources.json``: for every manifest it wrote,
the SHA-256 of the file and, for JSON pointers into the manifest, the place in the plugin's
Python source the value came from (``""`` is the ``NekroPlugin(...)`` call). ``pas validate``
reads it (:mod:`conformance.validate.source_map`) and reports a problem in such a manifest at
that place. The file is hidden, so folder walks never take it for a document. A manifest whose
hash no longer matches was edited since: its entry is not used.

Format (JSON)::

    {"kind": "pas-source-map", "version": 1,
     "manifests": {"draw.yaml": {"sha256": "...",
                                 "sources": {"": {"path": "plugins/draw/__init__.py", "line": 9, "column": 10},
                                             "/methods/0": {...}}}}}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reference_impl.problems import SourceLocation

NAME = ".pas-sources.json"
KIND = "pas-source-map"
VERSION = 1


def digest(data: bytes) -> str:
    """The SHA-256 a map records for a manifest file's bytes."""
    return hashlib.sha256(data).hexdigest()


def _location(value: Any) -> SourceLocation | None:
    if not isinstance(value, dict) or not isinstance(value.get("path"), str):
        return None
    line, column = value.get("line"), value.get("column")
    return SourceLocation(path=value["path"], line=line if isinstance(line, int) else None,
                          column=column if isinstance(column, int) else None)


def origin(sources: Mapping[str, SourceLocation], pointer: str) -> SourceLocation | None:
    """The place of the longest pointer in ``sources`` that ``pointer`` starts with (``""`` last)."""
    parts = pointer.split("/") if pointer else [""]
    for size in range(len(parts), 0, -1):
        found = sources.get("/".join(parts[:size]))
        if found is not None:
            return found
    return sources.get("")


def read(directory: Path) -> dict[str, tuple[str, dict[str, SourceLocation]]]:
    """File name -> (sha256, pointer -> location) of the map in ``directory``; empty when there is none or it is unreadable."""
    try:
        doc = json.loads((directory / NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("kind") != KIND or doc.get("version") != VERSION:
        return {}
    found = {}
    for name, entry in (doc.get("manifests") or {}).items():
        if isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("sources"), dict):
            sources = {pointer: loc for pointer, value in entry["sources"].items() if (loc := _location(value))}
            found[name] = (entry["sha256"], sources)
    return found


def write(directory: Path, entries: Mapping[str, tuple[str, Mapping[str, SourceLocation]]]) -> Path:
    """Add (or replace) ``entries`` in the map of ``directory`` and write it; raises OSError when it cannot."""
    merged = {name: (sha, dict(sources)) for name, (sha, sources) in read(directory).items()}
    merged.update({name: (sha, dict(sources)) for name, (sha, sources) in entries.items()})
    doc = {"kind": KIND, "version": VERSION, "manifests": {
        name: {"sha256": sha, "sources": {p: loc.to_json() for p, loc in sorted(sources.items())}}
        for name, (sha, sources) in sorted(merged.items())}}
    path = directory / NAME
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
