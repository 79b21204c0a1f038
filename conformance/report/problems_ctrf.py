"""CTRF JSON for ``pas validate``: one test per file, failed when the file has failing problems.

As the JUnit report does (:mod:`conformance.report.problems_junit`): errors fail a file, and
warnings too with ``--strict``; a file with only other problems passes and lists them in its
``extra``. Every problem is in the file's ``extra.problems`` as ``--format json`` writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance.report.ctrf import dumps, envelope
from conformance.report.problems_json import problem_json
from conformance.report.problems_junit import grouped
from reference_impl.problems import Problem, Severity

if TYPE_CHECKING:
    from conformance.validate.check import Validation


def _test(path: str, problems: list[Problem], failing: set[Severity]) -> dict[str, Any]:
    bad = [p for p in problems if p.severity in failing]
    test: dict[str, Any] = {"name": path or "(command line)", "status": "failed" if bad else "passed", "duration": 0,
                            "suite": ["pas validate"], "type": "lint"}
    if path:
        test["filePath"] = path
    if bad:
        test["message"] = f"{len(bad)} problem{'s' if len(bad) != 1 else ''}: {bad[0].code} {bad[0].message}"
        test["trace"] = "\n".join(str(p) for p in bad)
        first = bad[0].source
        if first is not None and first.line is not None:
            test["line"] = first.line
    test["extra"] = {"problems": [problem_json(p) for p in problems]}
    return test


def render_ctrf(outcome: Validation, *, strict: bool = False, exit_code: int | None = None,
                now: float | None = None) -> str:
    """The CTRF document: a test per file (and one for problems with no file), the counts in ``summary.extra``."""
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    tests = [_test(path, problems, failing) for path, problems in grouped(outcome).items()]
    counts = {**outcome.counts, "files": outcome.files, "documents": outcome.documents, "skipped": outcome.skipped}
    return dumps(envelope(tests, command="pas validate", duration=0.0, now=now,
                          summary_extra={"problems": counts, "exit_code": exit_code}))
