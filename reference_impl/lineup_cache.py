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
#: A cache key: its kind (``"facts"``), or its kind and what else tells entries apart (``("lineup", adapter)``).
Key = str | tuple[str, Hashable]

DEFAULT_SIZE = 16


class LineupCache:
    """A least-recently-used map from (values, key) to what was computed from them.

    ``hits`` and ``misses`` count lookups by the kind of key (the key, or its first item when it
    is a tuple such as ``("lineup", adapter)``), for measuring. A cache of size 0 keeps nothing.
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[tuple[int, ...], Key], tuple[tuple[object, ...], object]] = OrderedDict()
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()

    def get(self, anchors: tuple[object, ...], key: Key, compute: Callable[[], T]) -> T:
        """``compute()``'s result for ``key`` derived from exactly the objects ``anchors``.

        Computed once while the entry lives; the least recently used entry is dropped when
        the cache is full. ``anchors`` are compared by identity: the entry keeps them alive, so
        no other object can have their ids while it exists.
        """
        slot = (tuple(id(anchor) for anchor in anchors), key)
        hit = self._entries.get(slot)
        kind = key if isinstance(key, str) else key[0]
        if hit is not None:
            self.hits[kind] += 1
            self._entries.move_to_end(slot)
            return cast(T, hit[1])
        self.misses[kind] += 1
        value = compute()
        self._entries[slot] = (anchors, value)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry (and release the values they keep alive)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def memo(cache: LineupCache | None, anchors: tuple[object, ...], key: Key, compute: Callable[[], T]) -> T:
    """``cache.get(anchors, key, compute)``, or just ``compute()`` when there is no cache."""
    return compute() if cache is None else cache.get(anchors, key, compute)
