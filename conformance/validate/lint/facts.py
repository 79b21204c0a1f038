"""What the cross-file rules need to know about each document, small and picklable.

The set rules (dependencies, duplicates, strategies) run after every file was read, maybe
in other processes, so they see these summaries instead of whole documents.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.documents.loader import YamlDocument
from conformance.documents.yamldoc import Place, located
from conformance.validate.lint.registry import RULES
from reference_impl.problems import Problem, SourceLocation, pointer_join


@dataclass(frozen=True, slots=True, kw_only=True)
class Reference:
    """A module name written somewhere in a document, with its pointer and location.

    ``at`` is the location, or for a document the fast path read a :class:`Place` that finds
    it when a problem needs it (reading the file again): most references are never reported.
    """

    name: str
    pointer: str
    at: SourceLocation | Place

    @property
    def source(self) -> SourceLocation:
        """The file, line and column of the reference."""
        return located(self.at)


@dataclass(frozen=True, slots=True, kw_only=True)
class ManifestFacts:
    """One manifest as the set rules see it."""

    module: Reference
    dependencies: tuple[Reference, ...] = ()
    allow_sleep: bool | None = None
    has_brief: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategyEntry:
    """One entry of a host config's ``strategies`` mapping."""

    module: Reference
    strategy: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostFacts:
    """One host config as the set rules see it."""

    path: str
    strategies: tuple[StrategyEntry, ...] = ()


def make_problem(code: str, message: str, pointer: str, source: SourceLocation | None) -> Problem:
    """A Problem for a registered ``code`` with that code's default severity."""
    return Problem(code=code, message=message, pointer=pointer, source=source, severity=RULES[code].severity)


def doc_problem(code: str, message: str, doc: YamlDocument, pointer: str, *, key: bool = False) -> Problem:
    """A Problem located at ``pointer`` (its key when ``key``) inside ``doc``."""
    return make_problem(code, message, pointer, doc.where(pointer, key=key))


def _reference(doc: YamlDocument, pointer: str, name: str) -> Reference:
    return Reference(name=name, pointer=pointer, at=doc.place(pointer))


def manifest_facts(doc: YamlDocument) -> ManifestFacts | None:
    """The summary of a manifest document, or None when it has no usable module_name."""
    value = doc.value
    module = value.get("module_name")
    if not isinstance(module, str) or not module:
        return None
    deps = value.get("dependencies")
    dependencies = tuple(
        _reference(doc, pointer_join("/dependencies", i), dep)
        for i, dep in enumerate(deps if isinstance(deps, list) else ())
        if isinstance(dep, str)
    )
    brief = value.get("sleep_brief")
    allow = value.get("allow_sleep")
    return ManifestFacts(
        module=_reference(doc, "/module_name", module),
        dependencies=dependencies,
        allow_sleep=allow if isinstance(allow, bool) else None,
        has_brief=isinstance(brief, str) and bool(brief.strip()),
    )


def host_facts(doc: YamlDocument) -> HostFacts:
    """The summary of a host-config document (entries of the wrong type are left out)."""
    strategies = doc.value.get("strategies")
    entries = []
    if isinstance(strategies, dict):
        for module, strategy in strategies.items():
            pointer = pointer_join("/strategies", module)
            if isinstance(strategy, str):
                reference = Reference(name=module, pointer=pointer, at=doc.place(pointer, key=True))
                entries.append(StrategyEntry(module=reference, strategy=strategy))
    return HostFacts(path=doc.path, strategies=tuple(entries))
