"""Reporting problems of extracted manifests at the Python line they came from.

A manifest written by ``pas extract nekro`` has a source map beside it
(:mod:`conformance.documents.source_map`). :func:`map_to_sources` moves each problem found in
such a manifest to the place in the plugin's source its JSON pointer came from (the longest
pointer the map knows: ``/methods/2/description`` falls back to ``/methods/2``, then to the
``NekroPlugin(...)`` call), and names the manifest's own line in the message. Text, GitHub
annotations and SARIF then all point at the ``.py`` line. A manifest edited since extraction
(its SHA-256 differs) is left as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from conformance.documents import source_map
from reference_impl.problems import Problem, SourceLocation


class _Maps:
    """The source maps of the folders met so far, and which manifest files still match theirs."""

    def __init__(self) -> None:
        self.by_folder: dict[Path, dict[str, tuple[str, dict[str, SourceLocation]]]] = {}
        self.current: dict[Path, bool] = {}

    def sources(self, manifest: Path) -> dict[str, SourceLocation] | None:
        folder = manifest.parent
        if folder not in self.by_folder:
            self.by_folder[folder] = source_map.read(folder)
        entry = self.by_folder[folder].get(manifest.name)
        if entry is None:
            return None
        if manifest not in self.current:
            try:
                self.current[manifest] = source_map.digest(manifest.read_bytes()) == entry[0]
            except OSError:
                self.current[manifest] = False
        return entry[1] if self.current[manifest] else None


def map_to_sources(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    """The problems, each one found in an extracted manifest moved to its Python source."""
    maps, moved = _Maps(), []
    for problem in problems:
        sources = maps.sources(Path(problem.source.path)) if problem.source and problem.source.path else None
        origin = source_map.origin(sources, problem.pointer or "") if sources else None
        if origin is None:
            moved.append(problem)
            continue
        moved.append(dataclasses.replace(problem, source=origin, message=f"{problem.message} (in {problem.source})"))
    return tuple(moved)
