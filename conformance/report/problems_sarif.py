"""SARIF 2.1.0 for ``pas validate``: code scanning alerts with rule metadata and locations."""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from conformance.validate.lint.registry import RULES
from reference_impl.problems import Problem, Severity, SourceLocation

if TYPE_CHECKING:
    from conformance.validate.check import Validation

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str) -> str:
    pure = PurePath(path)
    return pure.as_uri() if pure.is_absolute() else pure.as_posix()


def _location(problem: Problem, source: SourceLocation) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(source.path)}}
    if source.line is not None:
        region = {"startLine": source.line}
        if source.column is not None:
            region["startColumn"] = source.column
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if problem.pointer:
        location["logicalLocations"] = [{"fullyQualifiedName": problem.pointer, "kind": "member"}]
    return location


def _rules() -> list[dict[str, Any]]:
    return [
        {
            "id": rule.code,
            "name": rule.code,
            "shortDescription": {"text": rule.summary},
            "helpUri": rule.docs_url,
            "defaultConfiguration": {"level": _LEVEL[rule.severity]},
            "properties": {"family": rule.family},
        }
        for rule in RULES.values()
    ]


def render_sarif(outcome: Validation) -> str:
    """One SARIF log with one run; each problem is a result pointing at its rule by id and index."""
    from reference_impl import __version__

    index = {code: i for i, code in enumerate(RULES)}
    results = []
    for problem in outcome.problems:
        result: dict[str, Any] = {"ruleId": problem.code, "level": _LEVEL[problem.severity],
                                  "message": {"text": problem.message}}
        if problem.code in index:
            result["ruleIndex"] = index[problem.code]
        if problem.source is not None:
            result["locations"] = [_location(problem, problem.source)]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "pas validate", "version": __version__,
                                "informationUri": "https://plugin-activation-spec.org/", "rules": _rules()}},
            "results": results,
        }],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"
