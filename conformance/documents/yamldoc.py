"""One loaded YAML or JSON document: its value, and where each part of it was written.

The event loader (:mod:`conformance.documents.loader`) records every location as it builds the
value. A document the fast path read (:mod:`conformance.documents.fastyaml`) keeps its text
instead, and its locations are found when first asked for (:meth:`YamlDocument.where`, ``line``,
``locations``): the text is parsed again then, by the event loader, so a document nobody reports
a problem in never pays for line marks. :meth:`YamlDocument.place` names a location that may be
asked for later, in another process (:class:`Place`: picklable, holds no text).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reference_impl.problems import SourceLocation

if TYPE_CHECKING:
    from conformance.documents.loader import Limits

Marks = dict[str, tuple[int, int]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ambiguous:
    """A plain scalar that YAML 1.1 and YAML 1.2 tools read differently."""

    pointer: str
    text: str
    line: int
    column: int
    reason: str


class YamlDocument:
    """One loaded document: its value and where each part of it was written.

    ``text`` and ``limits`` (the fast path's) mean the locations are not known yet: they are
    found in ``text`` at the first question about them.
    """

    __slots__ = ("value", "path", "index", "ambiguous", "_line", "_locations", "_key_locations", "_pending")

    def __init__(self, *, value: Any, path: str, index: int = 0, line: int = 1, locations: Marks | None = None,
                 key_locations: Marks | None = None, ambiguous: list[Ambiguous] | None = None,
                 text: str | None = None, limits: Limits | None = None) -> None:
        self.value, self.path, self.index = value, path, index
        self.ambiguous: list[Ambiguous] = [] if ambiguous is None else ambiguous
        self._line = line
        self._locations: Marks = {} if locations is None else locations
        self._key_locations: Marks = {} if key_locations is None else key_locations
        self._pending = None if text is None else (text, limits)

    def __repr__(self) -> str:
        return f"YamlDocument(path={self.path!r}, index={self.index}, value={self.value!r})"

    @property
    def line(self) -> int:
        """The line the document starts on."""
        self._resolve()
        return self._line

    @property
    def locations(self) -> Marks:
        """(line, column) of every value by JSON pointer."""
        self._resolve()
        return self._locations

    @property
    def key_locations(self) -> Marks:
        """(line, column) of every mapping key by the JSON pointer of its value."""
        self._resolve()
        return self._key_locations

    @property
    def marked(self) -> bool:
        """Whether the locations are known already (asking for them costs nothing)."""
        return self._pending is None

    def where(self, pointer: str, *, key: bool = False) -> SourceLocation:
        """The location of ``pointer`` (of its key when ``key``), or of its nearest parent."""
        self._resolve()
        table = self._key_locations if key and pointer in self._key_locations else self._locations
        probe = pointer
        while probe not in table and probe:
            probe = probe.rsplit("/", 1)[0]
        line, column = table.get(probe, (self._line, 1))
        return SourceLocation(path=self.path, line=line, column=column)

    def with_value(self, value: Any) -> YamlDocument:
        """A copy holding ``value`` instead, with the same locations (still to be found, if they are)."""
        copy = YamlDocument(value=value, path=self.path, index=self.index, line=self._line, locations=self._locations,
                            key_locations=self._key_locations, ambiguous=self.ambiguous)
        copy._pending = self._pending
        return copy

    def place(self, pointer: str, *, key: bool = False) -> SourceLocation | Place:
        """The location of ``pointer`` now if it is known, else a :class:`Place` that finds it when asked."""
        if self._pending is None:
            return self.where(pointer, key=key)
        return Place(path=self.path, index=self.index, pointer=pointer, key=key)

    def _resolve(self) -> None:
        if self._pending is None:
            return
        from conformance.documents.events import parse_events
        from conformance.documents.loader import Limits

        (text, limits), self._pending = self._pending, None
        documents, _ = parse_events(text, self.path, limits or Limits())
        if self.index < len(documents):
            found = documents[self.index]
            self._line, self._locations, self._key_locations = found.line, found.locations, found.key_locations


@dataclass(frozen=True, slots=True)
class Place:
    """Where a part of a document was written, found when first asked for by reading its file again.

    What the cross-file rules keep for a document the fast path read: its file, the document's
    index in it and the JSON pointer. A file that cannot be read again (or no longer holds the
    document) gives the path without a line.
    """

    path: str
    index: int
    pointer: str
    key: bool = False

    def locate(self) -> SourceLocation:
        """The file, line and column of this place."""
        try:
            found = os.stat(self.path)
        except OSError:
            return SourceLocation(path=self.path)
        documents = _marked_documents(self.path, found.st_mtime_ns, found.st_size)
        if self.index >= len(documents):
            return SourceLocation(path=self.path)
        return documents[self.index].where(self.pointer, key=self.key)


@functools.lru_cache(maxsize=32)
def _marked_documents(path: str, mtime_ns: int, size: int) -> list[YamlDocument]:
    """The documents of the file at ``path`` with their locations (cached while its time and size stay)."""
    from conformance.documents.events import parse_events
    from conformance.documents.loader import read_text

    del mtime_ns, size  # the cache key only
    text, _ = read_text(path)
    return [] if text is None else parse_events(text, path)[0]


def located(where: SourceLocation | Place) -> SourceLocation:
    """``where`` as a SourceLocation (a :class:`Place` is found now)."""
    return where.locate() if isinstance(where, Place) else where
