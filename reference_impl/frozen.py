"""Read-only JSON values: :class:`FrozenMap`, and :func:`freeze` / :func:`thaw` between them and plain JSON.

The PAS values (manifests, host configs, scheduler states, events) hold JSON made of these, so
that they are immutable all the way down and hashable: equal values are interchangeable, and
a value can be a key of a cache (``reference_impl.fast``). A frozen JSON value is made of
:class:`FrozenMap` for objects, tuples for arrays and the immutable scalars; :func:`thaw`
gives the plain ``dict`` / ``list`` form back for ``to_json`` and for JSON encoders.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
JSON = Any  # a value made of dict, list, str, int, float, bool and None (or their frozen forms)


class FrozenMap(Mapping[K, V]):
    """A read-only mapping, compared like a dict and hashable, whose values are frozen on the way in.

    Its values go through :func:`freeze` (a dict inside becomes a FrozenMap, a list a tuple),
    so nothing reachable from it can change. ``FrozenMap(m)`` is ``m`` itself when ``m`` is a
    FrozenMap already. Equal to any mapping with the same items, whatever their order. Its hash
    is computed once, when first asked; it raises TypeError when a value is not hashable (an
    object ``freeze`` does not know, such as a set).
    """

    __slots__ = ("_items", "_hash")

    _items: dict[K, V]
    _hash: int | None

    def __new__(cls, items: Mapping[K, V] | None = None) -> FrozenMap[K, V]:
        if type(items) is cls:
            return items
        if not items:
            return EMPTY if cls is FrozenMap else cls._of({})  # one empty map: most optional fields are empty
        # _kept(v), written out: a map of thousands of scalars is built without a call per value.
        kept, scalars = _KEPT, _SCALARS
        return cls._of({k: v if type(v) in kept or isinstance(v, scalars) else freeze(v) for k, v in items.items()})

    @classmethod
    def shallow(cls, items: Mapping[K, V]) -> FrozenMap[K, V]:
        """A FrozenMap of ``items`` whose values are immutable already (enum members, frozen values), kept as they are.

        For typed maps that may hold thousands of entries (the installed manifests, the
        strategies): no per-value check. A mutable value put here stays mutable, and unhashable.
        """
        if type(items) is cls:
            return items
        return cls._of(dict(items)) if items or cls is not FrozenMap else EMPTY

    @classmethod
    def _of(cls, items: dict[K, V]) -> FrozenMap[K, V]:
        made = object.__new__(cls)
        made._items = items
        made._hash = None
        return made

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def get(self, key: K, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` when it is absent."""
        return self._items.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def keys(self) -> KeysView[K]:
        """A read-only view of the keys."""
        return self._items.keys()

    def values(self) -> ValuesView[V]:
        """A read-only view of the values."""
        return self._items.values()

    def items(self) -> ItemsView[K, V]:
        """A read-only view of the items."""
        return self._items.items()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            # Not part of the value: a cache of what the items give, like str's own hash.
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        # Rebuilt from its items, so that the hash is computed again in the new process.
        return (type(self), (self._items,))


#: The empty FrozenMap, shared as a default.
EMPTY: FrozenMap[Any, Any] = FrozenMap._of({})


_KEPT = frozenset({str, int, float, bool, type(None), FrozenMap})
_SCALARS = (str, int, float)  # and their subclasses: enum members such as Strategy


def _kept(value: object) -> bool:
    """Whether ``value`` is frozen as it is: a scalar (enum members too) or a FrozenMap; cheap checks only."""
    return type(value) in _KEPT or isinstance(value, _SCALARS)


def freeze(value: JSON) -> JSON:
    """A read-only deep copy of a JSON value: mappings become FrozenMap, lists and tuples tuples.

    Other values (strings, numbers, booleans, None, enum members, frozen dataclasses) are kept
    as they are. A FrozenMap is returned as it is: it is frozen all the way down already.
    """
    if _kept(value):
        return value
    if isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: JSON) -> JSON:
    """A plain JSON copy (dicts and lists) of a value, frozen or not."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(item) for item in value]
    return value
