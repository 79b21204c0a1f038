"""The implementer's expected-failures file: ``{scenario-id: reason}``.

A listed scenario that fails or errors is reported ``xfailed`` with the reason and does not
fail the run; one that passes is ``stale`` and fails the run, so the file shrinks as bugs
are fixed. Every reason must be a non-empty string and every id a scenario of the suite.
An empty file (or one holding only comments) lists nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from conformance.documents.loader import load_documents
from reference_impl.problems import Problem, SourceLocation


def load_expected_failures(path: Path | str, known_ids: Collection[str]) -> tuple[Mapping[str, str], list[Problem]]:
    """The reasons by scenario id, and every problem with file:line (unknown ids, blank reasons)."""
    # load_documents, not load_mapping: an empty or comments-only file is valid here.
    documents, problems = load_documents(path)
    if any(p.code == "empty-document" for p in problems) or (not problems and not documents):
        return {}, []
    if problems:
        return {}, problems
    doc = documents[0]
    if len(documents) > 1 or not isinstance(doc.value, (dict, type(None))):
        where = SourceLocation(path=str(path), line=documents[-1].line if len(documents) > 1 else doc.line)
        return {}, [Problem(code="not-a-mapping", source=where,
                            message="expected one mapping of scenario id to reason, e.g. 'my-scenario: bug #12'")]
    if doc.value is None:
        return {}, []
    problems = []
    reasons: dict[str, str] = {}
    for scenario_id, reason in doc.value.items():
        pointer = "/" + scenario_id.replace("~", "~0").replace("/", "~1")
        if scenario_id not in known_ids:
            problems.append(Problem(code="unknown-scenario", pointer=pointer, source=doc.where(pointer, key=True),
                                    message=f"no scenario has id {scenario_id!r}; remove the entry or fix the id"))
        elif not isinstance(reason, str) or not reason.strip():
            problems.append(Problem(code="missing-reason", pointer=pointer, source=doc.where(pointer),
                                    message=f"give a reason why {scenario_id!r} is expected to fail"))
        else:
            reasons[scenario_id] = reason.strip()
    return reasons, problems
