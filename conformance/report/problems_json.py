"""``pas validate --format json``: one JSON object with the summary and every problem (the CTRF report reuses its problem form)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_impl.problems import Problem

if TYPE_CHECKING:
    from conformance.validate.check import Validation


def problem_json(problem: Problem) -> dict:
    """A problem as JSON, with the URL of its code's docs page."""
    from conformance.validate.lint.registry import RULES

    doc = problem.to_json()
    rule = RULES.get(problem.code)
    doc["docs"] = rule.docs_url if rule else None
    return doc


def render_json(outcome: Validation, *, exit_code: int | None = None) -> str:
    """One JSON object: version, summary counts (with the command's ``exit_code``, null if none) and every problem."""
    import json

    doc = {
        "version": 1,
        "summary": {**outcome.counts, "files": outcome.files, "documents": outcome.documents,
                    "skipped": outcome.skipped, "exit_code": exit_code},
        "problems": [problem_json(p) for p in outcome.problems],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
