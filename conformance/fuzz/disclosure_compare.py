"""Running one disclosure case on an implementation and on the reference under the same declaration.

As for activation cases (:mod:`conformance.fuzz.compare`), the comparison is exactly the one
a scenario file makes: the reference's observation of each step becomes the step's
expectations (:func:`expectation`: the visible set, its order, every answer but its text) and
:func:`conformance.suite.expectations.check_step` compares, the implicit checks included (the
declared loader roles, no tool twice). So a case disagrees here if and only if the scenario
written from it fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.adapters.implementation import Adapter, FailureKind, ImplementationFailed, Requests
from conformance.documents.step_table import key_of
from conformance.fuzz.compare import Comparison, walk
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.suite.expectations import Mismatch, check_step
from conformance.suite.scenario import Step
from reference_impl.disclosure_commands import DisclosureEvent, ModelStep, Request
from reference_impl.disclosure_options import Options
from reference_impl.engine import Engine
from reference_impl.frozen import freeze


def expectation(event: DisclosureEvent, observed: Mapping[str, Any], *, order: bool = True) -> dict[str, Any]:
    """The full expectations of a scenario step, from the reference's observation (none for a step that shows nothing).

    ``shown`` and (unless ``order`` is False) ``order``: the catalogue tools of the tool list;
    ``answers``: every answer without its text (the reference gives none; a host's own words are not compared).
    """
    if not isinstance(event, (Request, ModelStep)):
        return {}
    visible = [name for name in observed["tools"] if not name.startswith("@")]
    doc: dict[str, Any] = {"shown": visible}
    if order:
        doc["order"] = list(visible)
    if isinstance(event, ModelStep):
        doc["answers"] = [{k: v for k, v in answer.items() if k != "text"} for answer in observed["answers"]]
    return doc


def step_from(index: int, event: DisclosureEvent, expected: Mapping[str, Any]) -> Step:
    """The scenario Step that :func:`expectation`'s document describes."""
    return Step(index=index, action=key_of(event), event=event,
                shown=tuple(expected["shown"]) if "shown" in expected else None,
                order=tuple(expected["order"]) if "order" in expected else None,
                answers=freeze(expected["answers"]) if "answers" in expected else None)


def differences(index: int, event: DisclosureEvent, expected: Mapping[str, Any], actual: Any, declared: Options, *,
                order: bool = True) -> list[Mismatch]:
    """Every difference between the implementation's observation and the reference's, under ``declared``.

    Raises ImplementationFailed when ``actual`` is too malformed to compare (as the runner does).
    """
    if actual == expected:  # the usual case: identical observations cannot differ
        return []
    step = step_from(index, event, expectation(event, expected, order=order))
    try:
        return check_step(step, actual, text=False, disclosure=declared)
    except Exception as error:  # noqa: BLE001 - e.g. answers that are not objects
        raise ImplementationFailed(kind=FailureKind.MALFORMED, reason="malformed observation",
                                   detail=f"{type(error).__name__}: {error}") from None


def reference_observations(case: DisclosureCase) -> list[dict[str, Any]]:
    """The reference's observation JSON at every event of ``case`` (after its catalogue), under its declaration."""
    reference = Engine(text=False, disclosure=case.declared)
    reference.apply(case.opening)
    return [reference.apply(event).to_json() for event in case.events]


def compare_disclosure_case(adapter: Adapter, case: DisclosureCase, *, order: bool = True,
                            then: Requests | None = None) -> Comparison:
    """Run ``case`` on the implementation behind ``adapter`` and on the reference, step by step.

    Stops at the first disagreement; an ImplementationFailed is an ``errored`` disagreement,
    after which the adapter is reset. Nothing is raised for the implementation's faults.
    ``then``: the requests of the case to run next (see :func:`conformance.fuzz.compare.walk`).
    """
    reference = Engine(text=False, disclosure=case.declared)
    reference.apply(case.opening)
    return walk(adapter, case.events, lambda event: reference.apply(event).to_json(),
                lambda index, event, expected, actual: differences(index, event, expected, actual, case.declared,
                                                                   order=order),
                opening=case.opening, then=then)
