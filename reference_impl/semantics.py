"""spec/semantics.yaml as frozen Python values: constants and decision tables.

The tables are data so that the docs can render them and the reference can execute them;
this module only reads and freezes them (into hashable values: a Semantics can be a key). The file is part of the installed package and is
trusted, so a plain safe load is enough here (user documents go through conformance.documents.loader).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference_impl.frozen import FrozenMap


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    """One row of a decision table: when every condition holds, ``result`` applies."""

    requirement: str
    when: Mapping[str, Any]
    result: Any

    def matches(self, facts: Mapping[str, Any]) -> bool:
        """Whether every condition of this rule equals the corresponding fact."""
        return all(facts[key] == value for key, value in self.when.items())


@dataclass(frozen=True, slots=True, kw_only=True)
class MethodRules:
    """How one AI-facing method behaves: its kind and its ordered outcome checks."""

    kind: str
    ends_step: bool
    outcomes: tuple[TableRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Visibility:
    """What the model is shown of a plugin in one state."""

    shows: str
    brief_shown: bool
    methods_shown: bool
    injection_called: bool
    rounds_left: bool
    hint: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Semantics:
    """The whole of spec/semantics.yaml."""

    default_active_rounds: int
    min_active_rounds: int
    max_active_rounds: int
    scheduler_module: str
    eligibility: tuple[TableRow, ...]
    visibility: Mapping[str, Visibility]
    methods: Mapping[str, MethodRules]


def first_match(rules: tuple[TableRow, ...], facts: Mapping[str, Any]) -> TableRow:
    """The first rule whose conditions all hold; a table always ends with a catch-all."""
    for rule in rules:
        if rule.matches(facts):
            return rule
    raise LookupError(f"no rule matches {dict(facts)}; the table lacks a catch-all row")


def parse_semantics(doc: Mapping[str, Any]) -> Semantics:
    """Freeze a semantics document (already valid against semantics.schema.yaml)."""
    constants = doc["constants"]
    return Semantics(
        default_active_rounds=constants["default_active_rounds"],
        min_active_rounds=constants["min_active_rounds"],
        max_active_rounds=constants["max_active_rounds"],
        scheduler_module=constants["scheduler_module"],
        eligibility=tuple(
            TableRow(requirement=row["requirement"], when=FrozenMap(row["when"]), result=row["sleep_eligible"])
            for row in doc["eligibility"]
        ),
        visibility=FrozenMap({state: Visibility(**row) for state, row in doc["visibility"].items()}),
        methods=FrozenMap(
            {
                name: MethodRules(
                    kind=spec["kind"],
                    ends_step=spec["ends_step"],
                    outcomes=tuple(
                        TableRow(requirement=row["requirement"], when=FrozenMap(row["when"]), result=row["outcome"])
                        for row in spec["outcomes"]
                    ),
                )
                for name, spec in doc["methods"].items()
            }
        ),
    )


@functools.cache
def load_semantics() -> Semantics:
    """Load the bundled spec/semantics.yaml once per process: the one place that reads it.

    The core never calls this: the edges (``Engine``, the conformance tools) do and pass the
    result on. For other semantics, build one with :func:`parse_semantics` or
    ``dataclasses.replace``. Raises SpecFilesMissing when the spec files are not installed.
    """
    import yaml

    from reference_impl.spec_files import spec_dir

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(spec_dir() / "semantics.yaml", encoding="utf-8") as stream:
        return parse_semantics(yaml.load(stream, Loader=loader))
