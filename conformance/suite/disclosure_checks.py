"""The rules of a disclosure scenario that its schema cannot say, each a Problem at the file's line.

A scenario with disclosure steps (``request``, ``model_step`` ...) lists the ``disclosure``
profile, has a ``tools`` catalogue and disclosure steps only; a ``model_step`` happens in a
thread with an open request (a ``request`` opens one; ``end_request`` and ``rebuild`` close
them); ``answers`` check model steps only. Its ``requires`` must admit no declaration under
which a requirement it covers does not apply (``applies_when``), nor one that declines a SHOULD
it covers (``declined_by``): otherwise an implementation that declares such values would fail
the scenario for a rule that does not hold for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from conformance.documents.loader import YamlDocument
from conformance.documents.step_table import DISCLOSURE_KEYS, ROWS
from conformance.suite.requirements import Requirement, load_requirements
from reference_impl.model import Profile
from reference_impl.problems import Problem

#: Expectation keys that belong to other profiles' steps.
_FOREIGN_EXPECTATIONS = ("expect", "text", "events", "problems", "load_order", "setup_order", "config", "provenance")
_OPENS, _CLOSES = "request", "end_request"


def _problem(doc: YamlDocument, pointer: str, code: str, message: str) -> Problem:
    return Problem(code=code, pointer=pointer, source=doc.where(pointer), message=message)


def _thread(value: Any) -> str:
    """The thread a request, end_request or model_step value names (``main`` unless it says another)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("thread"), str):
        return value["thread"]
    return "main"


def _action(step: Mapping[str, Any]) -> str | None:
    return next((key for key in ROWS if key in step), None)


def _open_requests(doc: YamlDocument, steps: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    """A model_step in a thread whose request is not open (none yet, ended, or ended by a rebuild)."""
    open_threads: set[str] = set()
    for index, step in enumerate(steps):
        action = _action(step)
        if action == _OPENS:
            open_threads.add(_thread(step[action]))
        elif action == _CLOSES:
            open_threads.discard(_thread(step[action]))
        elif action == "rebuild":
            open_threads.clear()
        elif action == "model_step" and _thread(step[action]) not in open_threads:
            thread = _thread(step[action])
            yield _problem(doc, f"/steps/{index}", "no-open-request",
                           f"model_step in thread {thread!r}, which has no open request here; "
                           f"add a step 'request: {thread}' before it")


def _misplaced(doc: YamlDocument, steps: Sequence[Mapping[str, Any]], disclosure: bool) -> Iterator[Problem]:
    for index, step in enumerate(steps):
        action = _action(step)
        if "answers" in step and action != "model_step":
            yield _problem(doc, f"/steps/{index}/answers", "disclosure-expectation-misplaced",
                           "answers check model_step steps only")
        if action in DISCLOSURE_KEYS and action not in ("request", "model_step") and any(k in step for k in ("shown", "order")):
            yield _problem(doc, f"/steps/{index}", "disclosure-expectation-misplaced",
                           f"{action} shows the model nothing: check shown and order on request and model_step steps")
        if disclosure and any(key in step for key in _FOREIGN_EXPECTATIONS):
            found = next(key for key in _FOREIGN_EXPECTATIONS if key in step)
            yield _problem(doc, f"/steps/{index}/{found}", "disclosure-expectation-misplaced",
                           f"{found} checks activation or host steps; a disclosure step checks shown, order and answers")


def _covered(doc: YamlDocument) -> Iterator[tuple[str, str]]:
    """Each requirement the scenario covers, with the pointer of the ``covers`` entry naming it."""
    for index, rid in enumerate(doc.value.get("covers") or ()):
        yield rid, f"/covers/{index}"
    for index, step in enumerate(doc.value.get("steps") or ()):
        if isinstance(step, Mapping):
            for inner, rid in enumerate(step.get("covers") or ()):
                yield rid, f"/steps/{index}/covers/{inner}"


def _said(values: Sequence[Any]) -> str:
    return ", ".join(("true" if v else "false") if isinstance(v, bool) else str(v) for v in values)


def option_problems(requires: Mapping[str, Sequence[Any]], requirement: Requirement) -> list[str]:
    """Why ``requires`` is too wide for a scenario covering ``requirement`` ([] when it is not).

    Every option of ``applies_when`` must be required, with values among the rule's; every
    option of ``declined_by`` must be required, with none of the declining values.
    """
    found = []
    for option, values in requirement.applies_when.items():
        wanted = requires.get(option)
        if wanted is None or not set(wanted) <= set(values):
            found.append(f"{requirement.id} applies only when {option} is {_said(values)}: "
                         f"add requires: {{{option}: [{_said(values)}]}} (or fewer of those values)")
    for option, values in requirement.declined_by.items():
        wanted = requires.get(option)
        if wanted is None or set(wanted) & set(values):
            found.append(f"{requirement.id} is declined by {option}: {_said(values)}: require {option} values "
                         f"other than {_said(values)}")
    return found


def _requires(doc: YamlDocument, requirements: Mapping[str, Requirement]) -> Iterator[Problem]:
    requires = doc.value.get("requires") or {}
    for rid, pointer in _covered(doc):
        requirement = requirements.get(rid)
        if requirement is None:
            continue  # an unknown id is pas coverage's to report
        for message in option_problems(requires, requirement):
            yield _problem(doc, pointer, "requires-too-wide", message)


def check_disclosure_steps(doc: YamlDocument, requirements: Mapping[str, Requirement] | None = None) -> list[Problem]:
    """The rules the schema cannot say about disclosure steps (see the module's docstring)."""
    steps = [s for s in doc.value.get("steps", ()) if isinstance(s, Mapping)]
    actions = [_action(step) for step in steps]
    disclosed = [action in DISCLOSURE_KEYS for action in actions]
    claims = Profile.DISCLOSURE.value in (doc.value.get("profiles") or ())
    problems = list(_misplaced(doc, steps, claims or any(disclosed)))
    if not claims and not any(disclosed) and "tools" not in doc.value and "requires" not in doc.value:
        return problems
    if not claims:
        problems.append(_problem(doc, "/profiles" if "profiles" in doc.value else "", "disclosure-profile-missing",
                                 "a scenario with disclosure steps, tools or requires must list the disclosure profile: "
                                 "profiles: [disclosure]"))
    if "tools" not in doc.value:
        problems.append(_problem(doc, "", "disclosure-tools-missing",
                                 "a disclosure scenario needs its catalogue: tools: [{name, description}, ...]"))
    problems += [_problem(doc, f"/steps/{i}", "disclosure-steps-mixed", "a disclosure scenario has disclosure steps "
                          "only; put activation and host steps in a scenario of their own")
                 for i, d in enumerate(disclosed) if not d]
    problems += _open_requests(doc, steps)
    problems += _requires(doc, requirements if requirements is not None else load_requirements()[0])
    return problems
