"""Running one host case on an implementation and on the reference host, comparing every command.

As for activation cases (:mod:`conformance.fuzz.compare`), the comparison is exactly the one
a scenario file makes: the reference's observation of each command becomes the step's full
host expectations (:func:`expectation`: the event log, the problems' code, severity and plugins,
the load and set-up orders, a configuration and the layer of each of its values) and
:func:`conformance.suite.expectations.check_step` compares. So a case disagrees here if and only
if the scenario written from it fails. A host's own words are never compared: problem messages,
and the reason of an ``invalid`` event, which the specification leaves free.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.adapters.implementation import Adapter, FailureKind, ImplementationFailed, Requests
from conformance.documents.step_table import key_of
from conformance.fuzz.compare import Comparison, walk
from conformance.fuzz.host_case import HostCase
from conformance.suite.expectations import Mismatch, check_step
from conformance.suite.scenario import HostExpectation, Step
from reference_impl.host import HostEngine
from reference_impl.host_commands import HostCommand, Load, ReadConfig

_PROBLEM_KEYS = ("code", "severity", "plugins")


def _event(event: Mapping[str, Any]) -> dict[str, Any]:
    """An expected event: every key the reference gives, but an ``invalid`` event's reason (left free)."""
    if event.get("event") == "invalid":
        return {k: v for k, v in event.items() if k != "reason"}
    return dict(event)


def expectation(command: HostCommand, observed: Mapping[str, Any]) -> dict[str, Any]:
    """The full expectations of a host step, from the reference's observation (its JSON)."""
    doc: dict[str, Any] = {"events": [_event(e) for e in observed["events"]],
                           "problems": [{k: p[k] for k in _PROBLEM_KEYS if k in p} for p in observed["problems"]]}
    if isinstance(command, Load):
        doc["load_order"] = list(observed["load_order"])
        doc["setup_order"] = list(observed["setup_order"])
    if isinstance(command, ReadConfig) and "config" in observed:
        doc["config"] = observed["config"]
        doc["provenance"] = {pointer: entry["layer"] for pointer, entry in observed.get("provenance", {}).items()}
    return doc


def step_from(index: int, command: HostCommand, expected: Mapping[str, Any]) -> Step:
    """The scenario Step that :func:`expectation`'s document describes."""
    host = HostExpectation(
        events=tuple(expected["events"]), problems=tuple(expected["problems"]),
        load_order=tuple(expected["load_order"]) if "load_order" in expected else None,
        setup_order=tuple(expected["setup_order"]) if "setup_order" in expected else None,
        config=expected.get("config"), provenance=expected.get("provenance"))
    return Step(index=index, action=key_of(command), event=command, host=host)


def differences(index: int, command: HostCommand, expected: Mapping[str, Any], actual: Any) -> list[Mismatch]:
    """Every difference between the implementation's observation and the reference's.

    Raises ImplementationFailed when ``actual`` is too malformed to compare (as the runner does).
    """
    if actual == expected:  # the usual case: identical observations cannot differ
        return []
    step = step_from(index, command, expectation(command, expected))
    try:
        return check_step(step, actual, text=False)
    except Exception as error:  # noqa: BLE001 - e.g. events that are not objects
        raise ImplementationFailed(kind=FailureKind.MALFORMED, reason="malformed observation",
                                   detail=f"{type(error).__name__}: {error}") from None


def reference_observations(case: HostCase) -> list[dict[str, Any]]:
    """The reference host's observation JSON at every command of ``case``."""
    reference = HostEngine()
    return [reference.apply(command).to_json() for command in case.events]


def compare_host_case(adapter: Adapter, case: HostCase, *, then: Requests | None = None) -> Comparison:
    """Run ``case`` on the implementation behind ``adapter`` and on the reference host, command by command.

    Stops at the first disagreement; an ImplementationFailed is an ``errored`` disagreement,
    after which the adapter is reset. Nothing is raised for the implementation's faults.
    ``then``: the requests of the case to run next (see :func:`conformance.fuzz.compare.walk`).
    """
    reference = HostEngine()
    return walk(adapter, case.events, lambda command: reference.apply(command).to_json(), differences, then=then)
