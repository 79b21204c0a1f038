"""JSON lines: one object per scenario result, then one summary object.

Every line is a JSON object with a ``type``:

``{"type": "result", ...}`` — one per scenario, in run order::

    id, title, path           the scenario
    outcome                   passed | failed | errored | skipped | xfailed | stale
    profiles, requirements    what the scenario needs and covers (scenario and step level)
    reason                    why skipped; the listed reason for xfailed and stale
    duration                  seconds
    failure                   null, or {step, action, note, event, breaks, observed, source,
                              mismatches: [{pointer, expected, actual}]}  (failed, xfailed)
    error                     null, or {kind, reason, detail, step, event, in_flight}  (errored,
                              xfailed); kind is a FailureKind value (what to group by:
                              conformance.adapters.implementation, docs/guides/testing.md);
                              in_flight null, or {first: {cmd, id}, last: {cmd, id}}: the
                              requests unanswered when it failed (id null in-process)

``{"type": "summary", ...}`` — last::

    implementation            {name, version, language, profiles, disclosure?} or null (hello
                              failed); disclosure: the options it declares
    profiles                  the profiles under test
    spec_version              the spec version run (major.minor): its scenarios ran and
                              only its requirements are listed and judged
    total, counts             scenarios, and how many ended with each outcome
    requirements              {id: {level, profile, title, status, passed, failed, errored,
                              skipped, xfailed, stale, declined_by?}}; status passed | failed |
                              errored | xfailed | declined | untested; declined: a SHOULD the
                              implementation's declared disclosure options decline (a hazard
                              its users will hit), declined_by the declared values that do
    levels                    {MUST|SHOULD|MAY: {passed, failed, errored, xfailed, declined,
                              untested}} (requirements per verdict)
    interrupted, stopped      whether a signal stopped the run; null, or {kind, message, signal}
    duration, exit_code       seconds; the exit status of the pas run that wrote the report
                              (null when written by other means)
"""

from __future__ import annotations

import json
import math
from typing import Any

from conformance.suite.results import RunResult


def _fallback(value: Any) -> str:
    return repr(value)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def dumps(document: Any) -> str:
    """One JSON line; values an implementation returned that JSON cannot hold (objects, NaN) become strings."""
    try:
        return json.dumps(document, ensure_ascii=False, default=_fallback, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(document), ensure_ascii=False, default=_fallback, allow_nan=False)


def summary_json(run: RunResult, exit_code: int | None = None) -> dict[str, Any]:
    """The summary line's object: the run's, with the exit status the command decided (None: no command)."""
    return {**run.to_json(), "exit_code": None if exit_code is None else int(exit_code)}


def render(run: RunResult, *, color: bool = False, exit_code: int | None = None) -> str:
    """Every result line, then the summary line; ``color`` is ignored."""
    lines = [dumps(result.to_json()) for result in run.results]
    lines.append(dumps(summary_json(run, exit_code)))
    return "\n".join(lines) + "\n"
