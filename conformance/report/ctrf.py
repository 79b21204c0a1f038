"""CTRF (Common Test Report Format) JSON: one test per scenario, as GitHub summaries and PR-comment actions read it.

The document follows the CTRF specification (github.com/ctrf-io/ctrf, ``spec/ctrf.md``):
``reportFormat``, ``specVersion`` and ``results`` with ``tool``, ``summary`` (the counts of each
status, ``start`` and ``stop`` in milliseconds since the epoch) and ``tests`` (``name``,
``status``, ``duration`` in milliseconds). Only fields that every CTRF schema since the one that
introduced ``reportFormat`` declares are written, so that strict consumers (unknown fields are an
error outside ``extra``, section 4.4) accept it; everything PAS-specific lives in ``extra``.

CTRF has five statuses; PAS's outcomes map onto them by :data:`STATUS`, and the outcome itself is
``rawStatus``. An outcome added later (say, a declined requirement's) is ``other`` until it is
listed. :func:`envelope` is shared with ``pas validate``'s CTRF report
(:mod:`conformance.report.problems_ctrf`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from conformance.report.text import error_text, failure_text, headline
from conformance.suite.results import Outcome, RunResult, ScenarioResult

#: The CTRF specification version this report follows (spec/ctrf.md's "Version", which ``specVersion`` carries).
SPEC_VERSION = "0.0.0"
STATUSES = ("passed", "failed", "skipped", "pending", "other")
#: PAS outcome -> CTRF status. An errored scenario failed (the implementation crashed, hung or broke the
#: protocol), a stale expected failure fails the run as in every other report, an expected failure is skipped.
STATUS = {
    Outcome.PASSED: "passed", Outcome.FAILED: "failed", Outcome.ERRORED: "failed", Outcome.STALE: "failed",
    Outcome.SKIPPED: "skipped", Outcome.XFAILED: "skipped",
}
_PROFILE_ORDER = ("host", "text", "activation")


def _version() -> str:
    from reference_impl import __version__

    return __version__


def envelope(tests: Sequence[Mapping[str, Any]], *, command: str, duration: float, now: float | None = None,
             extra: Mapping[str, Any] | None = None, summary_extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A CTRF document around ``tests``, written by the pas ``command``: the summary counts each status;
    ``stop`` is ``now`` (the report is written when the work ends), ``start`` ``duration`` seconds before it."""
    stop = int((time.time() if now is None else now) * 1000)
    counts = {status: sum(test["status"] == status for test in tests) for status in STATUSES}
    summary: dict[str, Any] = {"tests": len(tests), **counts, "start": stop - int(duration * 1000), "stop": stop,
                               "duration": int(duration * 1000)}
    if summary_extra:
        summary["extra"] = dict(summary_extra)
    results: dict[str, Any] = {"tool": {"name": "pas", "version": _version(), "extra": {"command": command}},
                               "summary": summary, "tests": list(tests)}
    if extra:
        results["extra"] = dict(extra)
    return {"reportFormat": "CTRF", "specVersion": SPEC_VERSION,
            "timestamp": datetime.fromtimestamp(stop / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "generatedBy": f"pas {_version()}", "results": results}


def dumps(document: Mapping[str, Any]) -> str:
    """The document as indented JSON with a final newline; values JSON cannot hold become their repr."""
    return json.dumps(document, indent=2, ensure_ascii=False, default=repr) + "\n"


def _detail(result: ScenarioResult) -> tuple[str, str]:
    """(message, trace) of a result that did not pass: the headline and the readable diff or error."""
    texts: dict[Outcome, Callable[[ScenarioResult], str]] = {
        Outcome.FAILED: failure_text, Outcome.ERRORED: error_text, Outcome.XFAILED: failure_text}
    if result.outcome is Outcome.PASSED:
        return "", ""
    trace = texts[result.outcome](result) if result.outcome in texts else ""
    return headline(result), trace


def ctrf_test(result: ScenarioResult) -> dict[str, Any]:
    """One scenario as a CTRF test: its id as ``name``, the PAS outcome as ``rawStatus``, PAS facts in ``extra``."""
    message, trace = _detail(result)
    test: dict[str, Any] = {
        "name": result.id, "status": STATUS.get(result.outcome, "other"), "duration": int(result.duration * 1000),
        "rawStatus": result.outcome.value,
        "suite": [next((p for p in _PROFILE_ORDER if p in result.profiles), "activation")],
        "tags": list(result.profiles), "type": "conformance",
    }
    if result.path:
        test["filePath"] = result.path
    if message:
        test["message"] = message
    if trace:
        test["trace"] = trace
    extra: dict[str, Any] = {"title": result.title, "requirements": list(result.requirements)}
    if result.failure is not None:
        extra["breaks"] = list(result.failure.breaks)
        extra["step"] = result.failure.index
    if result.error is not None:
        extra["failure_kind"] = result.error.kind.value
    test["extra"] = extra
    return test


def render(run: RunResult, *, color: bool = False, now: float | None = None) -> str:
    """The CTRF document of ``run``; ``color`` is ignored, ``now`` (seconds since the epoch) is for tests."""
    extra: dict[str, Any] = {
        "implementation": run.info.to_json() if run.info else None, "profiles": list(run.profiles),
        "spec_version": run.spec_version,
        "requirements": {t.requirement.id: t.status.value for t in run.summary.requirements},
        "interrupted": run.interrupted, "stopped": run.stop.to_json() if run.stop else None,
    }
    return dumps(envelope([ctrf_test(r) for r in run.results], command="pas run", duration=run.duration, now=now,
                          extra=extra, summary_extra={"outcomes": dict(run.summary.counts)}))
