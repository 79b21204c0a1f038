"""A compatibility matrix: several implementations' results side by side, grouped by requirement.

Input is what ``pas run --format json`` writes (see :mod:`conformance.report.jsonl`): one
``"type": "result"`` line per scenario and a final ``"type": "summary"`` line. Each file is
one implementation. Pure: :func:`parse_results` reads text, :func:`build_matrix` lines the runs
up; the renderers (:mod:`conformance.report.matrix_md`, :mod:`conformance.report.matrix_html`)
turn the :class:`Matrix` into text. A scenario is listed under every requirement it covers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from conformance.documents.excerpt import excerpt_json
from conformance.suite.results import Requirement
from reference_impl.problems import Problem, Severity, SourceLocation

NO_REQUIREMENT = "(none)"
OUTCOMES = ("passed", "failed", "errored", "skipped", "xfailed", "stale")


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One scenario's result for one implementation: the outcome and a one-line why."""

    outcome: str
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ImplementationRun:
    """One implementation's results, as read from one JSON-lines report."""

    label: str  # unique within a matrix: the implementation's name (and version)
    source: str
    name: str = ""
    version: str = ""
    language: str = ""
    profiles: tuple[str, ...] = ()
    cells: Mapping[str, Cell] = field(default_factory=dict)  # scenario id -> cell, in run order
    titles: Mapping[str, str] = field(default_factory=dict)  # scenario id -> title
    covers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # scenario id -> requirements
    needs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # scenario id -> profiles it needs
    verdicts: Mapping[str, str] = field(default_factory=dict)  # requirement id -> status
    requirements: Mapping[str, Requirement] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)
    said_hello: bool = True  # False when the summary names no implementation (hello failed)
    interrupted: bool = False
    spec_version: str = ""  # the spec version run ('' in a report written before versions were recorded)


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """One requirement and the scenarios that cover it."""

    requirement: Requirement
    scenarios: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Matrix:
    """Implementations (columns), requirement groups of scenarios (rows), and scenario titles."""

    runs: tuple[ImplementationRun, ...]
    groups: tuple[Group, ...]
    titles: Mapping[str, str]

    def verdict(self, run: ImplementationRun, requirement: str) -> str:
        """The run's verdict on a requirement, or '' when its report has none."""
        return run.verdicts.get(requirement, "")


def _detail(doc: Mapping[str, Any]) -> str:
    failure, error = doc.get("failure"), doc.get("error")
    if isinstance(failure, Mapping):
        mismatches = failure.get("mismatches") or []
        first = mismatches[0] if mismatches and isinstance(mismatches[0], Mapping) else {}
        where = f"step {failure.get('step')}"
        if first:
            about = f" ({first['subject']})" if first.get("subject") else ""
            return (f"{where}: {first.get('pointer') or '/'}{about} expected {excerpt_json(first.get('expected'), 80)}, "
                    f"got {excerpt_json(first.get('actual'), 80)}")
        return where
    if isinstance(error, Mapping):
        return str(error.get("reason", ""))
    return str(doc.get("reason") or "")


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _problem(path: str, line: int, column: int | None, code: str, message: str,
             severity: Severity = Severity.ERROR) -> Problem:
    return Problem(code=code, message=message, source=SourceLocation(path=path, line=line, column=column),
                   severity=severity)


def _lines(text: str, path: str) -> tuple[list[tuple[int, dict[str, Any]]], list[Problem]]:
    """The JSON objects of a JSON-lines text with their line numbers, and a problem per bad line."""
    docs, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(_problem(path, number, error.colno, "invalid-json", f"not JSON: {error.msg}"))
            continue
        if not isinstance(doc, dict) or doc.get("type") not in ("result", "summary"):
            problems.append(_problem(path, number, 1, "not-a-result",
                                     'expected a "type": "result" or "summary" object from pas run --format json'))
            continue
        docs.append((number, doc))
    return docs, problems


def _requirements(summary: Mapping[str, Any]) -> dict[str, Requirement]:
    found = {}
    for rid, row in (summary.get("requirements") or {}).items():
        if isinstance(row, Mapping):
            found[rid] = Requirement(id=rid, level=str(row.get("level", "UNKNOWN")),
                                     profile=str(row.get("profile", "")), title=str(row.get("title", "")))
    return found


def parse_results(text: str, path: str) -> tuple[ImplementationRun | None, list[Problem]]:
    """One implementation's run from a JSON-lines report; None (and problems) when unusable.

    A report without a summary line still counts (named after its file, with a warning).
    """
    docs, problems = _lines(text, path)
    results: dict[str, Mapping[str, Any]] = {}
    summary: Mapping[str, Any] = {}
    for number, doc in docs:
        if doc["type"] == "summary":
            summary = doc
        elif isinstance(doc.get("id"), str) and doc.get("outcome") in OUTCOMES:
            results[doc["id"]] = doc
        else:
            problems.append(_problem(path, number, 1, "not-a-result", "a result line needs a string id and a known outcome"))
    problems.sort(key=lambda p: (p.source.line if p.source else None) or 0)
    if not results:
        problems.append(_problem(path, 1, None, "no-results", "holds no scenario results; write it with pas run --format json"))
        return None, problems
    if not summary:
        problems.append(_problem(path, len(text.splitlines()) or 1, None, "no-summary",
                                 "has no summary line (an interrupted run?); the implementation is named after the file",
                                 Severity.WARNING))
    return _run_of(results, summary, path), problems


def _run_of(results: Mapping[str, Mapping[str, Any]], summary: Mapping[str, Any], path: str) -> ImplementationRun:
    info = summary.get("implementation")
    if not isinstance(info, Mapping):
        info = {}
    name = str(info.get("name") or PurePath(path).stem)
    version = str(info.get("version") or "")
    cells = {sid: Cell(outcome=doc["outcome"], detail=_detail(doc)) for sid, doc in results.items()}
    verdicts = {rid: str(row.get("status", "")) for rid, row in (summary.get("requirements") or {}).items()
                if isinstance(row, Mapping)}
    return ImplementationRun(
        label=f"{name} {version}".strip(), source=path, name=name, version=version,
        language=str(info.get("language") or ""), profiles=_strings(summary.get("profiles")), cells=cells,
        titles={sid: str(doc.get("title") or "") for sid, doc in results.items()},
        covers={sid: _strings(doc.get("requirements")) for sid, doc in results.items()},
        needs={sid: _strings(doc.get("profiles")) or ("activation",) for sid, doc in results.items()},
        verdicts=verdicts, requirements=_requirements(summary),
        counts={o: sum(c.outcome == o for c in cells.values()) for o in OUTCOMES},
        said_hello=bool(info) or not summary, interrupted=summary.get("interrupted") is True,
        spec_version=str(summary.get("spec_version") or ""),
    )


def _unique_labels(runs: Sequence[ImplementationRun]) -> list[ImplementationRun]:
    """Runs whose labels repeat get their file name added, so every column is told apart."""
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
    return [replace(run, label=f"{run.label} ({PurePath(run.source).name})") if seen[run.label] > 1 else run
            for run in runs]


def build_matrix(runs: Iterable[ImplementationRun], known: Mapping[str, Requirement] | None = None) -> Matrix:
    """Line the runs up: requirements in the order their reports (then ``known``) list them.

    ``known`` (e.g. the bundled requirements) supplies titles a report does not carry.
    """
    runs = _unique_labels(list(runs))
    info: dict[str, Requirement] = {}
    for run in runs:
        for rid, requirement in run.requirements.items():
            info.setdefault(rid, requirement)
    for rid, requirement in (known or {}).items():
        info.setdefault(rid, requirement)
    titles: dict[str, str] = {}
    members: dict[str, list[str]] = {}
    for run in runs:
        for sid in run.cells:
            titles.setdefault(sid, run.titles.get(sid, ""))
            for rid in run.covers.get(sid) or (NO_REQUIREMENT,):
                if sid not in members.setdefault(rid, []):
                    members[rid].append(sid)
    order = [rid for rid in info if rid in members] + sorted(r for r in members if r not in info and r != NO_REQUIREMENT)
    if NO_REQUIREMENT in members:
        order.append(NO_REQUIREMENT)
    groups = tuple(Group(requirement=info.get(rid) or Requirement(id=rid, title="" if rid != NO_REQUIREMENT
                                                                  else "scenarios that cite no requirement"),
                         scenarios=tuple(members[rid])) for rid in order)
    return Matrix(runs=tuple(runs), groups=groups, titles=titles)
