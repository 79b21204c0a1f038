"""Comparing what an implementation observed with what a scenario step expects.

Host steps (profile ``host``) compare a host observation: the event log position by
position on the keys each expected event gives, problems as a multiset on code, severity
and plugins, orders and configs exactly, provenance layers when the host reports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from conformance.suite.disclosure_expectations import check_disclosure
from conformance.suite.mismatch import MISSING as _MISSING
from conformance.suite.mismatch import Mismatch as Mismatch  # where callers found it first
from conformance.suite.scenario import HostExpectation, Step, TextExpectation
from reference_impl.disclosure_options import Options
from reference_impl.problems import pointer_join

RUN_KEYS = ("state", "rounds_left", "hint", "brief_shown", "methods_shown", "injection_called")
CALL_KEYS = ("outcome", "rounds", "ends_step")


def _compare_view(pointer: str, expected: Mapping[str, Any], actual: Mapping[str, Any],
                  subject: str = "") -> list[Mismatch]:
    return [
        Mismatch(field=key, pointer=f"{pointer}/{key}", subject=subject, expected=value, actual=actual.get(key, _MISSING))
        for key, value in expected.items()
        if actual.get(key, _MISSING) != value
    ]


def _check_run(step: Step, observed: Mapping[str, Any]) -> list[Mismatch]:
    listed = observed.get("plugins", [])
    views = {v.get("module_name"): (i, v) for i, v in enumerate(listed) if isinstance(v, Mapping)}
    order = [v.get("module_name") for v in listed if isinstance(v, Mapping)]
    mismatches: list[Mismatch] = []
    for module, expected in step.expect.items():
        if expected == "absent":
            if module in views:
                index, view = views[module]
                mismatches.append(Mismatch(field="shown", pointer=f"/plugins/{index}", subject=module, check="presence",
                                           expected="absent", actual=view.get("state")))
        elif module not in views:
            mismatches.append(Mismatch(field="shown", pointer="/plugins", subject=module, check="presence",
                                       expected=dict(expected), actual="absent"))
        else:
            index, view = views[module]
            mismatches += _compare_view(f"/plugins/{index}", expected, view, subject=module)
    # key=str: a view without a module_name (None) is a mismatch to report, not a TypeError to raise
    if step.shown is not None and sorted(step.shown) != sorted(order, key=str):
        mismatches.append(Mismatch(field="shown", pointer="/plugins", check="set",
                                   expected=sorted(step.shown), actual=sorted(order, key=str)))
    if step.order is not None and list(step.order) != order:
        mismatches.append(Mismatch(field="order", pointer="/plugins", check="order", expected=list(step.order), actual=order))
    return mismatches


def _check_reply(step: Step, observed: Mapping[str, Any]) -> list[Mismatch]:
    mismatches = [
        Mismatch(field=key, pointer=f"/{key}", expected=step.expect[key], actual=observed.get(key, _MISSING))
        for key in CALL_KEYS
        if key in step.expect and observed.get(key, _MISSING) != step.expect[key]
    ]
    if "block" in step.expect:
        expected, actual = step.expect["block"], observed.get("block")
        if expected is None or not isinstance(actual, Mapping):
            if expected != actual:
                mismatches.append(Mismatch(field="block", pointer="/block", expected=expected, actual=actual))
        else:
            mismatches += [replace(m, field="block") for m in _compare_view("/block", expected, actual)]
    return mismatches


def check_text(expectation: TextExpectation, text: Any) -> list[Mismatch]:
    """Compare a rendered text with its expectation."""
    if not isinstance(text, str):
        return [Mismatch(field="text", pointer="/text", expected="a text", actual=text)]
    mismatches = []
    if expectation.equals is not None and text != expectation.equals:
        mismatches.append(Mismatch(field="text", pointer="/text", expected=expectation.equals, actual=text))
    mismatches += [Mismatch(field="text", pointer="/text", check="contains", expected=s, actual=text)
                   for s in expectation.contains if s not in text]
    mismatches += [Mismatch(field="text", pointer="/text", check="not_contains", expected=f"no {s!r}", actual=text)
                   for s in expectation.not_contains if s in text]
    return mismatches


def _project(actual: Any, expected: Mapping[str, Any]) -> Any:
    """``actual`` cut down to the keys ``expected`` gives (missing keys shown as None), for a readable diff."""
    if not isinstance(actual, Mapping):
        return actual
    return {key: actual.get(key) for key in expected}


def _event_matches(expected: Mapping[str, Any], actual: Any) -> bool:
    return isinstance(actual, Mapping) and all(actual.get(k, _MISSING) == v for k, v in expected.items())


def _first_difference(expected: tuple[Mapping[str, Any], ...], actual: list[Any]) -> int | None:
    """The first position where the event logs differ (one ending early counts), or None."""
    for index in range(max(len(expected), len(actual))):
        if index >= len(expected) or index >= len(actual) or not _event_matches(expected[index], actual[index]):
            return index
    return None


def _check_events(expected: tuple[Mapping[str, Any], ...], actual: Any) -> list[Mismatch]:
    """The first position that differs, and the counts when they differ: enough to see what went wrong."""
    if not isinstance(actual, list):
        return [Mismatch(field="events", pointer="/events", expected="a list of events", actual=actual)]
    index = _first_difference(expected, actual)
    if index is None:
        return []
    want: str | dict[str, Any]
    if index >= len(expected):
        want, got = "no more events", actual[index]
    else:
        want = dict(expected[index])
        got = _project(actual[index], want) if index < len(actual) else _MISSING
    mismatches = [Mismatch(field="events", pointer=f"/events/{index}", expected=want, actual=got)]
    if len(actual) != len(expected):
        mismatches.append(Mismatch(field="events", pointer="/events", check="count", expected=len(expected),
                                   actual=len(actual)))
    return mismatches


def _rotations(plugins: list[Any]) -> list[list[Any]]:
    return [plugins[i:] + plugins[:i] for i in range(len(plugins))] or [plugins]


def _problem_matches(expected: Mapping[str, Any], actual: Any) -> bool:
    if not isinstance(actual, Mapping):
        return False
    for key, value in expected.items():
        got = actual.get(key, _MISSING)
        if key == "plugins" and expected.get("code") == "dependency-cycle" and isinstance(got, list):
            if list(value) not in _rotations(got):  # a cycle may be reported from any of its plugins
                return False
        elif got != value:
            return False
    return True


def _match(expected: list[Mapping[str, Any]], actual: list[Any]) -> dict[int, int]:
    """A maximum matching expected index -> actual index (augmenting paths; the lists are short)."""
    owner: dict[int, int] = {}

    def place(e: int, seen: set[int]) -> bool:
        for a, got in enumerate(actual):
            if a not in seen and _problem_matches(expected[e], got):
                seen.add(a)
                if a not in owner or place(owner[a], seen):
                    owner[a] = e
                    return True
        return False

    for e in range(len(expected)):
        place(e, set())
    return {e: a for a, e in owner.items()}


def _check_problems(expected: tuple[Mapping[str, Any], ...], actual: Any) -> list[Mismatch]:
    if not isinstance(actual, list):
        return [Mismatch(field="problems", pointer="/problems", expected="a list of problems", actual=actual)]
    matched = _match(list(expected), actual)
    missing = [dict(p) for i, p in enumerate(expected) if i not in matched]
    taken = set(matched.values())
    extra = [_project(p, {"code": 0, "severity": 0, "plugins": 0}) for i, p in enumerate(actual) if i not in taken]
    if not missing and not extra:
        return []
    return [Mismatch(field="problems", pointer="/problems", check="set", expected=[dict(p) for p in expected],
                     actual={"missing": missing, "unexpected": extra})]


def resolves(document: Any, pointer: str) -> bool:
    """Whether the RFC 6901 ``pointer`` names a value of ``document`` (mappings and lists)."""
    if pointer == "":
        return True
    if not pointer.startswith("/"):
        return False
    node = document
    for token in pointer[1:].split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return False
    return True


def _check_provenance(expected: Mapping[str, str], actual: Any, config: Any) -> list[Mismatch]:
    """The expected layers, and no entry for a value the merged config does not hold (HOST-CFG-8)."""
    if actual is _MISSING:  # HOST-CFG-6 is a SHOULD: a host that keeps no provenance is not wrong
        return []
    if not isinstance(actual, Mapping):
        return [Mismatch(field="provenance", pointer="/provenance", expected="a mapping of pointers", actual=actual)]
    mismatches = []
    for pointer, layer in expected.items():
        entry = actual.get(pointer)
        got = entry.get("layer", _MISSING) if isinstance(entry, Mapping) else _MISSING
        if got != layer:
            mismatches.append(Mismatch(field="provenance", pointer=pointer_join(pointer_join("/provenance", pointer), "layer"),
                                       expected=layer, actual=got))
    if isinstance(config, Mapping):
        mismatches += [Mismatch(field="provenance", pointer=pointer_join("/provenance", pointer), check="stale",
                                expected="no entry: the config holds no value there", actual=entry)
                       for pointer, entry in actual.items() if not resolves(config, str(pointer))]
    return mismatches


def check_host(expectation: HostExpectation, observed: Mapping[str, Any]) -> list[Mismatch]:
    """Every difference between a host observation's JSON and a host step's expectation."""
    mismatches: list[Mismatch] = []
    if expectation.events is not None:
        mismatches += _check_events(expectation.events, observed.get("events"))
    if expectation.problems is not None:
        mismatches += _check_problems(expectation.problems, observed.get("problems"))
    for key in ("load_order", "setup_order"):
        wanted = getattr(expectation, key)
        if wanted is not None and observed.get(key, _MISSING) != list(wanted):
            mismatches.append(Mismatch(field=key, pointer=f"/{key}", expected=list(wanted),
                                       actual=observed.get(key, _MISSING)))
    if expectation.config is not None and observed.get("config", _MISSING) != expectation.config:
        mismatches.append(Mismatch(field="config", pointer="/config", expected=expectation.config,
                                   actual=observed.get("config", _MISSING)))
    if expectation.provenance is not None:
        mismatches += _check_provenance(expectation.provenance, observed.get("provenance", _MISSING),
                                        observed.get("config", _MISSING))
    return mismatches


def check_step(step: Step, observed: object, *, text: bool, disclosure: Options | None = None) -> list[Mismatch]:
    """Every difference between ``observed`` (an observation's JSON) and the step's expectations.

    ``text`` says whether the implementation claims the text profile (text checks only then);
    ``disclosure`` is the options it declares (the defaults when None), whose loader tools
    every tool list of a disclosure step must hold (DISC-CAT-3).
    """
    if not isinstance(observed, Mapping):
        return [Mismatch(field="observation", pointer="", expected="an observation object", actual=observed)]
    if step.is_disclosure:
        return check_disclosure(step, observed, disclosure if disclosure is not None else Options())
    if step.is_host:
        return check_host(step.host, observed) if step.host is not None else []
    mismatches = _check_run(step, observed) if step.action == "run" else _check_reply(step, observed)
    if text and step.text is not None:
        mismatches += check_text(step.text, observed.get("text"))
    return mismatches
