"""spec/attribution.yaml as values: which requirements each kind of failed expectation may blame.

:mod:`conformance.suite.attribution` applies the table to a failed step's mismatches.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from reference_impl.spec_files import spec_dir

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class AttributionRule:
    """One rule of the table: candidates, covered-only extras, computed ones, and refinements."""

    candidates: tuple[str, ...] = ()
    if_covered: tuple[str, ...] = ()
    compute: tuple[str, ...] = ()
    by: str = ""
    cases: Mapping[str, AttributionRule] = field(default_factory=dict)
    otherwise: AttributionRule | None = None
    history: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    derived_from: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], history: Mapping[str, Mapping[str, Any]]) -> AttributionRule:
        """A rule from its table entry (already valid against attribution.schema.yaml); ``history``
        is the table's named history refinements, which a rule's ``history`` picks from.
        """
        otherwise = doc.get("otherwise")
        return cls(candidates=tuple(doc.get("candidates", ())), if_covered=tuple(doc.get("if_covered", ())),
                   compute=tuple(doc.get("compute", ())), by=doc.get("by", ""),
                   cases=MappingProxyType({str(k): cls.from_json(v, history) for k, v in doc.get("cases", {}).items()}),
                   otherwise=cls.from_json(otherwise, history) if otherwise is not None else None,
                   history=MappingProxyType({k: tuple(v) for k, v in history[doc["history"]].items()})
                   if "history" in doc else MappingProxyType({}),
                   derived_from=frozenset(doc.get("derived_from", ())))

    def walk(self) -> Iterator[AttributionRule]:
        """This rule and every rule below it."""
        yield self
        for case in (*self.cases.values(), *([self.otherwise] if self.otherwise else [])):
            yield from case.walk()


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """spec/attribution.yaml: rules per (action, field), and a fallback per action."""

    fields: Mapping[str, Mapping[str, AttributionRule]]
    fallbacks: Mapping[str, tuple[str, ...]]

    def rule(self, action: str, field_name: str) -> AttributionRule | None:
        """The rule of a field of an action's steps; None when the table does not list it."""
        return self.fields.get(action, _EMPTY).get(field_name)

    def fallback(self, action: str) -> tuple[str, ...]:
        """What a step of ``action`` blames when no field says more (an errored step, an unlisted field)."""
        return self.fallbacks.get(action, ())

    def history_ids(self, happened: Iterable[str]) -> frozenset[str]:
        """Every requirement some rule's history refinement names for what ``happened`` (``rebuilt``, ``threads`` ...)."""
        happened = set(happened)
        return frozenset(i for rules in self.fields.values() for top in rules.values() for rule in top.walk()
                         for name, ids in rule.history.items() if name in happened for i in ids)

    def requirement_ids(self) -> frozenset[str]:
        """Every requirement ID the table names."""
        ids = {i for ids in self.fallbacks.values() for i in ids}
        for rules in self.fields.values():
            for top in rules.values():
                for rule in top.walk():
                    ids.update((*rule.candidates, *rule.if_covered, *(i for h in rule.history.values() for i in h)))
        return frozenset(ids)


def parse_table(doc: Mapping[str, Any], host_actions: Iterable[str] = ()) -> Table:
    """Freeze an attribution document; the host fields apply to every action in ``host_actions``."""
    history = doc["history"]
    fields = {action: {f: AttributionRule.from_json(r, history) for f, r in entry["fields"].items()}
              for action, entry in doc["actions"].items()}
    fallbacks = {action: tuple(entry["fallback"]) for action, entry in doc["actions"].items()}
    host_fields = {f: AttributionRule.from_json(r, history) for f, r in doc["host"]["fields"].items()}
    for action in {*host_actions, *doc["host"]["fallback"]}:
        fields[action] = host_fields
        fallbacks[action] = tuple(doc["host"]["fallback"].get(action, ()))
    return Table(fields=MappingProxyType(fields), fallbacks=MappingProxyType(fallbacks))


@functools.cache
def load_table(path: Path | None = None) -> Table:
    """spec/attribution.yaml (or ``path``), read once. A trusted file of the package: a plain safe load.

    Raises OSError when the file is missing, KeyError when it is malformed (its schema test catches that).
    """
    import yaml

    from conformance.documents.step_table import HOST_KEYS

    with open(path or spec_dir() / "attribution.yaml", encoding="utf-8") as stream:
        return parse_table(yaml.safe_load(stream), HOST_KEYS)
