"""Comparing what an implementation observed with what a scenario step expects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance.scenario import Step, TextExpectation

RUN_KEYS = ("state", "rounds_left", "hint", "brief_shown", "methods_shown", "injection_called")
CALL_KEYS = ("outcome", "rounds", "ends_step")
_MISSING = object()


@dataclass(frozen=True, slots=True, kw_only=True)
class Mismatch:
    """One difference: where in the observation, what was expected, what came back."""

    pointer: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        actual = "(missing)" if self.actual is _MISSING else repr(self.actual)
        return f"{self.pointer}: expected {self.expected!r}, got {actual}"

    def to_json(self) -> dict[str, Any]:
        return {"pointer": self.pointer, "expected": self.expected,
                "actual": None if self.actual is _MISSING else self.actual}


def _compare_view(pointer: str, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[Mismatch]:
    return [
        Mismatch(pointer=f"{pointer}/{key}", expected=value, actual=actual.get(key, _MISSING))
        for key, value in expected.items()
        if actual.get(key, _MISSING) != value
    ]


def _check_run(step: Step, observed: Mapping[str, Any]) -> list[Mismatch]:
    views = {v.get("module_name"): v for v in observed.get("plugins", []) if isinstance(v, Mapping)}
    order = [v.get("module_name") for v in observed.get("plugins", []) if isinstance(v, Mapping)]
    mismatches: list[Mismatch] = []
    for module, expected in step.expect.items():
        pointer = f"/plugins/{module}"
        if expected == "absent":
            if module in views:
                mismatches.append(Mismatch(pointer=pointer, expected="absent", actual=views[module].get("state")))
        elif module not in views:
            mismatches.append(Mismatch(pointer=pointer, expected=dict(expected), actual="absent"))
        else:
            mismatches += _compare_view(pointer, expected, views[module])
    if step.shown is not None and sorted(step.shown) != sorted(order):
        mismatches.append(Mismatch(pointer="/plugins (shown)", expected=sorted(step.shown), actual=sorted(order)))
    if step.order is not None and list(step.order) != order:
        mismatches.append(Mismatch(pointer="/plugins (order)", expected=list(step.order), actual=order))
    return mismatches


def _check_reply(step: Step, observed: Mapping[str, Any]) -> list[Mismatch]:
    mismatches = [
        Mismatch(pointer=f"/{key}", expected=step.expect[key], actual=observed.get(key, _MISSING))
        for key in ("outcome", "rounds", "ends_step")
        if key in step.expect and observed.get(key, _MISSING) != step.expect[key]
    ]
    if "block" in step.expect:
        expected, actual = step.expect["block"], observed.get("block")
        if expected is None or not isinstance(actual, Mapping):
            if expected != actual:
                mismatches.append(Mismatch(pointer="/block", expected=expected, actual=actual))
        else:
            mismatches += _compare_view("/block", expected, actual)
    return mismatches


def check_text(expectation: TextExpectation, text: Any) -> list[Mismatch]:
    """Compare a rendered text with its expectation."""
    if not isinstance(text, str):
        return [Mismatch(pointer="/text", expected="a text", actual=text)]
    mismatches = []
    if expectation.equals is not None and text != expectation.equals:
        mismatches.append(Mismatch(pointer="/text", expected=expectation.equals, actual=text))
    mismatches += [Mismatch(pointer="/text (contains)", expected=s, actual=text) for s in expectation.contains if s not in text]
    mismatches += [Mismatch(pointer="/text (not_contains)", expected=f"no {s!r}", actual=text)
                   for s in expectation.not_contains if s in text]
    return mismatches


def check_step(step: Step, observed: Mapping[str, Any], *, text: bool) -> list[Mismatch]:
    """Every difference between ``observed`` (an observation's JSON) and the step's expectations.

    ``text`` says whether the implementation claims the text profile (text checks only then).
    """
    if not isinstance(observed, Mapping):
        return [Mismatch(pointer="", expected="an observation object", actual=observed)]
    mismatches = _check_run(step, observed) if step.action == "run" else _check_reply(step, observed)
    if text and step.text is not None:
        mismatches += check_text(step.text, observed.get("text"))
    return mismatches
