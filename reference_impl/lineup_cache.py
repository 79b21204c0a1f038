"""A bounded cache for the scheduler's derived values, owned by whoever calls ``step``.

The scheduler is pure: its result depends only on its arguments. What a run shows in what
order depends only on (catalogue, host config, adapter, semantics), so a caller that runs
many events against the same values may hand ``step`` a :class:`LineupCache` to reuse that
work; ``step`` gives the same results with or without one. The cache lives outside the
frozen values it is keyed by, so equality, hashing and copying of those stay plain.

Entries are keyed by the *identity* of the values they were derived from and hold those
values, so an identity cannot be recycled by a new object while its entry exists.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

T = TypeVar("T")

DEFAULT_SIZE = 16


class LineupCache:
    """A least-recently-used map from (values, key) to what was computed from them.

    ``hits`` and ``misses`` count lookups by the kind of key (a key's first item when it is a
    tuple, such as ``"lineup"``, else the key), for measuring. Raises ValueError when
    ``size`` is below 1.
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError(f"a LineupCache holds at least one entry, not {size}")
        self._size = size
        self._entries: OrderedDict[Hashable, tuple[tuple[object, ...], object]] = OrderedDict()
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()

    def get(self, anchors: tuple[object, ...], key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``'s result for ``key`` derived from exactly the objects ``anchors``.

        Computed once while the entry lives; the least recently used entry is dropped when
        the cache is full. ``anchors`` are compared by identity and kept alive by the entry.
        """
        slot = (tuple(id(anchor) for anchor in anchors), key)
        hit = self._entries.get(slot)
        kind = str(key[0]) if isinstance(key, tuple) and key else str(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], anchors, strict=True)):
            self.hits[kind] += 1
            self._entries.move_to_end(slot)
            return cast(T, hit[1])
        self.misses[kind] += 1
        value = compute()
        self._entries[slot] = (anchors, value)
        self._entries.move_to_end(slot)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry (and release the values they keep alive)."""
        self._entries.clear()

    def hit_rate(self, kind: str) -> float:
        """The share of lookups of ``kind`` that were hits (0.0 before any lookup)."""
        total = self.hits[kind] + self.misses[kind]
        return self.hits[kind] / total if total else 0.0

    def __len__(self) -> int:
        return len(self._entries)


def memo(cache: LineupCache | None, anchors: tuple[object, ...], key: Hashable, compute: Callable[[], T]) -> T:
    """``cache.get(anchors, key, compute)``, or just ``compute()`` when there is no cache."""
    return compute() if cache is None else cache.get(anchors, key, compute)
