"""Comparing a disclosure step's observation with what the step expects, and with the declaration.

A ``request`` or ``model_step`` observes a tool list: ``shown`` compares its catalogue tools as
a set, ``order`` their order (loader tokens dropped). Two checks hold on every tool list whatever
the step states: its ``@role`` tokens are the loader tools the declared options imply
(DISC-CAT-3, field ``roles``), and it names no tool twice (field ``duplicates``). A
``model_step``'s ``answers`` are compared one per call, each on the keys it gives; a
``results`` list name by name when it has the expected length, whole otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.suite.mismatch import MISSING, Mismatch
from conformance.suite.scenario import Step
from reference_impl.disclosure_commands import ModelStep
from reference_impl.disclosure_options import Options
from reference_impl.frozen import thaw


def _is_tool_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def check_tools(step: Step, tools: Sequence[str], options: Options) -> list[Mismatch]:
    """The differences of one observed tool list from the step's ``shown`` and ``order`` and from the declaration."""
    visible = [name for name in tools if not name.startswith("@")]
    roles = sorted(name for name in tools if name.startswith("@"))
    mismatches = []
    wanted = sorted(role.token for role in options.roles)
    if sorted(set(roles)) != wanted:
        mismatches.append(Mismatch(field="roles", pointer="/tools", check="set", expected=wanted, actual=roles))
    twice = sorted(name for name, count in Counter(tools).items() if count > 1)
    if twice:
        mismatches.append(Mismatch(field="duplicates", pointer="/tools", check="count", expected="each tool once",
                                   actual=twice))
    if step.shown is not None and set(step.shown) != set(visible):
        mismatches.append(Mismatch(field="shown", pointer="/tools", check="set", expected=sorted(step.shown),
                                   actual=sorted(set(visible))))
    distinct = list(dict.fromkeys(visible))
    if step.order is not None and list(step.order) != distinct:
        same_set = set(step.order) == set(distinct)
        if same_set or step.shown is None:  # a different set is a shown mismatch, said once
            mismatches.append(Mismatch(field="order" if same_set else "shown", pointer="/tools",
                                       check="order" if same_set else "set", expected=list(step.order),
                                       actual=distinct if same_set else sorted(set(distinct))))
    return mismatches


def _call_kinds(step: Step) -> list[str]:
    event = step.event
    return [call.key for call in event.calls] if isinstance(event, ModelStep) else []


def _results(pointer: str, kind: str, expected: Sequence[Any], actual: Any) -> list[Mismatch]:
    """A results list compared name by name (same length), or whole."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        return [Mismatch(field="answers", pointer=pointer, subject=kind, check="count", expected=list(expected),
                         actual=actual)]
    found = []
    for index, (want, got) in enumerate(zip(expected, actual)):
        for key, value in want.items():
            have = got.get(key, MISSING) if isinstance(got, Mapping) else MISSING
            if have != value:
                found.append(Mismatch(field="answers", pointer=f"{pointer}/{index}/{key}", subject=kind,
                                      expected=value, actual=have))
    return found


def _answer(index: int, kind: str, expected: Mapping[str, Any], actual: Any) -> list[Mismatch]:
    pointer = f"/answers/{index}"
    if not isinstance(actual, Mapping):
        return [Mismatch(field="answers", pointer=pointer, subject=kind, expected=dict(expected), actual=actual)]
    if actual.get("unsupported") is True and "unsupported" not in expected:
        return [Mismatch(field="answers", pointer=f"{pointer}/unsupported", subject=kind, expected="a supported call",
                         actual=True)]
    found = []
    for key, value in expected.items():
        if key == "results" and isinstance(value, Sequence):
            found += _results(f"{pointer}/results", kind, value, actual.get(key, MISSING))
        elif actual.get(key, MISSING) != value:
            found.append(Mismatch(field="answers", pointer=f"{pointer}/{key}", subject=kind, expected=value,
                                  actual=actual.get(key, MISSING)))
    return found


def check_answers(step: Step, answers: Any) -> list[Mismatch]:
    """The differences of a model step's answers from the step's ``answers`` (one per call, in order)."""
    if step.answers is None:
        return []
    expected = [thaw(answer) for answer in step.answers]  # frozen in the step: lists again, to compare with JSON
    if not isinstance(answers, list) or len(answers) != len(expected):
        count = len(answers) if isinstance(answers, list) else answers
        return [Mismatch(field="answers", pointer="/answers", check="count", expected=len(expected), actual=count)]
    kinds = _call_kinds(step) + [""] * len(expected)
    found = []
    for index, (want, got) in enumerate(zip(expected, answers)):
        found += _answer(index, kinds[index] or str(want.get("call", "")), want, got)
    return found


def check_disclosure(step: Step, observed: Mapping[str, Any], options: Options) -> list[Mismatch]:
    """Every difference between a disclosure step's observation and its expectations, under ``options``.

    Steps that show the model nothing (``end_request``, ``rebuild`` ...) are acknowledged with
    an empty object and checked for nothing more.
    """
    if step.action not in ("request", "model_step"):
        return []
    tools = observed.get("tools", MISSING)
    if not _is_tool_list(tools):
        return [Mismatch(field="tools", pointer="/tools", expected="the exact tool list, a list of names", actual=tools)]
    mismatches = check_tools(step, tools, options)
    if step.action == "model_step":
        mismatches += check_answers(step, observed.get("answers", MISSING))
    return mismatches
