"""Running one case on an implementation and on the reference, comparing every step.

The comparison is exactly the one a scenario file makes: the reference's observation at
each step is turned into a scenario step with full expectations (:func:`expectation`), and
:func:`conformance.suite.expectations.check_step` compares the implementation's observation with
it. So a case disagrees here if and only if the scenario written from it fails. The
structured view is always compared; ``text`` only when the implementation claims the text
profile.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.adapters.implementation import Adapter, FailureKind, ImplementationFailed, InFlight, Requests, stream
from conformance.fuzz.case import Case, action_of
from conformance.suite.expectations import RUN_KEYS, Mismatch, check_step
from conformance.suite.scenario import Step, TextExpectation
from reference_impl.catalogue import Catalogue
from reference_impl.disclosure_commands import DisclosureEvent
from reference_impl.engine import Engine
from reference_impl.events import Activate, CallObservation, Event, Extend, RunObservation, StartRun
from reference_impl.render import render_reply, render_run

_ABSENT = object()
_VIEW_KEYS = ("module_name", *RUN_KEYS)


class Verdict(enum.StrEnum):
    """How a disagreeing case ended on the implementation, as the runner would report it."""

    FAILED = "failed"  # an observation differs from the reference's
    ERRORED = "errored"  # the implementation crashed, hung or broke the protocol


@dataclass(frozen=True, slots=True, kw_only=True)
class Disagreement:
    """The first step at which the implementation and the reference part ways.

    ``index`` is None when ``start`` already failed. For ``failed``: the reference's
    observation, the implementation's and the differences; for ``errored``: the failure's
    kind, the requests in flight, and why in words (``reason``, ``detail``).
    """

    verdict: Verdict
    index: int | None
    event: Event | DisclosureEvent | None = None
    expected: Mapping[str, Any] | None = None
    actual: Any = None
    mismatches: tuple[Mismatch, ...] = ()
    kind: FailureKind | None = None
    in_flight: InFlight | None = None
    reason: str = ""
    detail: str = ""

    @property
    def command(self) -> str | None:
        """The command the implementation failed on: the first unanswered request, else the step's event."""
        if self.in_flight is not None:
            return self.in_flight.first.cmd
        return self.event.cmd if self.event is not None else None

    def same_kind(self, other: Disagreement | None) -> bool:
        """Whether ``other`` is the same kind of finding: the same verdict; when errored, the same kind and command.

        The sentences (``reason``, ``detail``) are not compared: they are written for people,
        and carry what may differ between two cases of one fault (an exit status, a message).
        """
        if other is None or other.verdict is not self.verdict:
            return False
        return self.verdict is Verdict.FAILED or (other.kind, other.command) == (self.kind, self.command)


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """The result of running one case: the disagreement (None: all steps agreed) and steps sent."""

    disagreement: Disagreement | None
    steps: int


def _view(view: Mapping[str, Any]) -> dict[str, Any]:
    return {key: view[key] for key in RUN_KEYS if key in view}


def expectation(event: Event, observed: Mapping[str, Any], *, text: bool, order: bool = True) -> dict[str, Any]:
    """The full expectations of a scenario step, taken from the reference's observation.

    Runs: every shown plugin's whole view, ``shown`` and (unless ``order`` is False)
    ``order``; calls: outcome, rounds, ends_step and block; admin steps and restarts: the
    outcome. With ``text``, the exact text too, where the reference renders one.
    """
    if isinstance(event, StartRun):
        views = observed["plugins"]
        names = [v["module_name"] for v in views]
        doc: dict[str, Any] = {"expect": {v["module_name"]: _view(v) for v in views}, "shown": names}
        if order:
            doc["order"] = list(names)
    elif isinstance(event, (Activate, Extend)):
        block = observed.get("block")
        doc = {"expect": {"outcome": observed["outcome"], "rounds": observed.get("rounds"),
                          "ends_step": observed.get("ends_step"), "block": None if block is None else _view(block)}}
    else:
        doc = {"expect": {"outcome": observed["outcome"]}}
    if text and isinstance(observed.get("text"), str):
        doc["text"] = {"equals": observed["text"]}
    return doc


def step_from(index: int, event: Event, expected: Mapping[str, Any]) -> Step:
    """The scenario Step that :func:`expectation`'s document describes."""
    text = expected.get("text")
    return Step(
        index=index, action=action_of(event), event=event, expect=expected.get("expect", {}),
        shown=tuple(expected["shown"]) if "shown" in expected else None,
        order=tuple(expected["order"]) if "order" in expected else None,
        text=TextExpectation(equals=text["equals"]) if text else None,
    )


def _key(value: Any, keys: tuple[str, ...]) -> Any:
    if isinstance(value, Mapping):
        return tuple(value.get(k, _ABSENT) for k in keys)
    return ("not a view", repr(value))


def _projection(event: Event, observed: Mapping[str, Any], text: bool) -> Any:
    """Everything check_step looks at, as one comparable value (a fast path: equal means no mismatch)."""
    said = observed.get("text", _ABSENT) if text else None
    if isinstance(event, StartRun):
        plugins = observed.get("plugins", _ABSENT)
        views = tuple(_key(v, _VIEW_KEYS) for v in plugins) if isinstance(plugins, list) else repr(plugins)
        return views, said
    if isinstance(event, (Activate, Extend)):
        block = observed.get("block", _ABSENT)
        return (observed.get("outcome", _ABSENT), observed.get("rounds", _ABSENT), observed.get("ends_step", _ABSENT),
                block if block is None or block is _ABSENT else _key(block, RUN_KEYS), said)
    return observed.get("outcome", _ABSENT)


def differences(index: int, event: Event, expected: Mapping[str, Any], actual: Any, *, text: bool,
                order: bool = True) -> list[Mismatch]:
    """Every difference between the implementation's observation and the reference's.

    Raises ImplementationFailed when ``actual`` is too malformed to compare (as the runner does).
    """
    if actual == expected:  # the usual case, decided in C: identical observations cannot differ
        return []
    if isinstance(actual, Mapping) and _projection(event, expected, text) == _projection(event, actual, text):
        return []
    step = step_from(index, event, expectation(event, expected, text=text, order=order))
    try:
        return check_step(step, actual, text=text)
    except Exception as error:  # noqa: BLE001 - e.g. "plugins" that is not a list
        raise ImplementationFailed(kind=FailureKind.MALFORMED, reason="malformed observation",
                                   detail=f"{type(error).__name__}: {error}") from None


class Reference:
    """The reference side of every comparison of a search: one Engine, observations as JSON.

    The same observations as ``Engine(text=text).apply(event).to_json()``, cheaper: the
    engine runs without text, and the text is rendered here, once per distinct run view
    of a case (runs repeat their view often: nothing changes between two runs but counters).
    """

    def __init__(self, *, text: bool) -> None:
        self.text = text
        self._engine = Engine(text=False)
        self._manifests: Mapping[str, Any] = {}
        self._runs: dict[RunObservation, str] = {}

    def start(self, case: Case) -> None:
        """Install the case's plugins and host config, forgetting the earlier case."""
        self._engine.start(case.plugins, case.host)
        self._manifests = Catalogue.of(case.plugins).manifests
        self._runs.clear()

    def observe(self, event: Event) -> dict[str, Any]:
        """Apply ``event``; the observation's JSON, with the reference text when comparing text."""
        observation = self._engine.apply(event)
        doc = observation.to_json()
        if not self.text:
            return doc
        if isinstance(observation, RunObservation):
            said = self._runs.get(observation)
            if said is None:
                said = self._runs[observation] = render_run(self._manifests, observation)
            doc["text"] = said
        elif isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
            doc["text"] = render_reply(self._manifests, event, observation)
        return doc


def errored(index: int | None, event: Any, error: ImplementationFailed) -> Disagreement:
    """The errored disagreement of a failure at step ``index`` (None: while starting)."""
    return Disagreement(verdict=Verdict.ERRORED, index=index, event=event, kind=error.kind,
                        in_flight=error.in_flight, reason=error.reason, detail=error.detail)


def reset_quietly(adapter: Adapter) -> None:
    """Reset the adapter after a failure; whatever is still broken, the next start reports."""
    try:
        adapter.reset()
    except Exception:  # noqa: BLE001 - the next start reports whatever is still broken
        pass


def compare_case(adapter: Adapter, case: Case, reference: Reference | Engine, *, text: bool,
                 order: bool = True, then: Requests | None = None) -> Comparison:
    """Run ``case`` on the implementation behind ``adapter`` and on ``reference``, step by step.

    ``reference`` is a :class:`Reference` (a search keeps one) or an Engine. Stops at the
    first disagreement. An ImplementationFailed (crash, hang, garbage) is an ``errored``
    disagreement, after which the adapter is reset; nothing is raised for the
    implementation's faults. ``then``: the requests of the case to run next (see :func:`walk`).
    """
    if isinstance(reference, Reference):
        reference.start(case)
        observe = reference.observe
    else:
        reference.start(case.plugins, case.host)
        observe = lambda event: reference.apply(event).to_json()  # noqa: E731 - a one-line stand-in for the reference side
    return walk(adapter, case.events, observe,
                lambda index, event, expected, actual: differences(index, event, expected, actual, text=text, order=order),
                start=(case.plugins, case.host), then=then)


def walk(adapter: Adapter, events: Sequence[Any], observe: Callable[[Any], Mapping[str, Any]],
         differ: Callable[[int, Any, Mapping[str, Any], Any], list[Mismatch]], *,
         start: tuple[Any, Any] | None = None, opening: Any = None, then: Requests | None = None) -> Comparison:
    """Send ``events`` to ``adapter`` (after ``start``, or after an ``opening`` event, or alone), comparing each answer.

    ``observe(event)`` is the reference's observation; ``differ(index, event, expected,
    actual)`` the mismatches (raising ImplementationFailed for an answer too malformed to
    compare). Stops at the first disagreement; an ImplementationFailed is an ``errored`` one,
    after which the adapter is reset. Without ``start`` and ``opening`` (a host case, whose first
    event is a load) the first answer is the first event's. ``then`` is what the caller runs next
    if this agrees (the next case's requests): an implementation that takes requests ahead may get
    them before this case's answers are all compared.
    """
    # Asked for all at once: an implementation that takes requests ahead works while the reference does.
    answers = stream(adapter, [opening, *events] if opening is not None else events, start=start, then=then)
    try:
        try:
            if start is not None or opening is not None:
                next(answers)
        except ImplementationFailed as error:
            reset_quietly(adapter)
            return Comparison(disagreement=errored(None, None, error), steps=0)
        for index, event in enumerate(events):
            expected = observe(event)
            try:
                actual = next(answers)
                mismatches = differ(index, event, expected, actual)
            except ImplementationFailed as error:
                reset_quietly(adapter)
                return Comparison(disagreement=errored(index, event, error), steps=index + 1)
            if mismatches:
                found = Disagreement(verdict=Verdict.FAILED, index=index, event=event, expected=expected,
                                     actual=actual, mismatches=tuple(mismatches))
                return Comparison(disagreement=found, steps=index + 1)
        try:
            next(answers, None)  # a failure that came only with requests written ahead is raised at the end
        except ImplementationFailed as error:
            reset_quietly(adapter)
            last = len(events) - 1
            return Comparison(disagreement=errored(last if last >= 0 else None, events[-1] if events else None, error),
                              steps=len(events))
    finally:
        answers.close()  # stopped at a disagreement: the answers already asked for are dropped
    return Comparison(disagreement=None, steps=len(events))


def reference_observations(case: Case, *, text: bool) -> list[dict[str, Any]]:
    """The reference's observation JSON at every step of ``case``."""
    reference = Engine(text=text)
    reference.start(case.plugins, case.host)
    return [reference.apply(event).to_json() for event in case.events]
