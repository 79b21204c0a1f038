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
    error                     null, or {reason, detail, step, event}  (errored, xfailed)

``{"type": "summary", ...}`` — last::

    implementation            {name, version, language, profiles} or null (hello failed)
    profiles                  the profiles under test
    total, counts             scenarios, and how many ended with each outcome
    requirements              {id: {level, profile, title, status, passed, failed, errored,
                              skipped, xfailed, stale}}; status passed | failed | errored |
                              xfailed | untested
    levels                    {MUST|SHOULD|MAY: {passed, failed, errored, xfailed, untested}}
                              (requirements per verdict)
    interrupted, duration, exit_code
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


def render(run: RunResult, *, color: bool = False) -> str:
    """Every result line, then the summary line; ``color`` is ignored."""
    lines = [dumps(result.to_json()) for result in run.results]
    lines.append(dumps(run.to_json()))
    return "\n".join(lines) + "\n"
