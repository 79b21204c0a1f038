"""Drives one implementation through scenarios and returns results; never renders.

The runner talks only to an :class:`~conformance.adapters.implementation.Adapter`. Whatever the
implementation does — a wrong answer, an exception, garbage, a protocol violation — becomes
a result (``failed`` or ``errored``) and the run goes on with the next scenario, after
``adapter.reset()`` unless the failure leaves it fit for the next ``start``, as a wrong answer does
(``KEPT_KINDS``: a refusal, an error answer in its turn). A run stops early, still returning every result so far and the rest as
skipped "not run" results, on a signal (:class:`Interrupted`, a KeyboardInterrupt), at the
time limit, at the first bad result with ``fail_fast``, after ``max_start_failures``
consecutive failures to start or greet the implementation, after ``max_repeats`` consecutive scenarios that
hung or crashed the same way, and when it claims no profile under test. What is kept of an observation is bounded (:func:`~conformance.suite.results.bounded`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from conformance.adapters.implementation import KEPT_KINDS, Adapter, FailureKind, ImplementationFailed, Requests, stream
from conformance.adapters.interface import UnusableImplementation
from conformance.suite.expectations import check_step
from conformance.suite.keywords import keyword_matcher
from conformance.suite.results import (
    BAD_OUTCOMES,
    ErrorDetail,
    Outcome,
    Requirement,
    RunResult,
    ScenarioResult,
    StepFailure,
    Stop,
    StopKind,
    Summary,
    bounded,
)
from conformance.suite.scenario import Scenario, Step
from conformance.suite.spec_versions import resolve, within
from reference_impl.disclosure_options import Options
from reference_impl.model import ImplementationInfo, Profile

ALL_PROFILES = tuple(p.value for p in Profile)


def select_scenarios(scenarios: Iterable[Scenario], *, keyword: str | None = None,
                     profiles: Collection[str] | None = None, spec_version: str | None = None) -> list[Scenario]:
    """The scenarios matching ``-k keyword`` (on id and title) that need only ``profiles`` and belong to
    ``spec_version`` (introduced in it or before; a scenario naming no version belongs to every one).

    Raises BadKeyword for a malformed keyword expression.
    """
    matches = keyword_matcher(keyword) if keyword else None
    return [s for s in scenarios
            if (matches is None or matches(f"{s.id} {s.title}"))
            and (profiles is None or set(s.profiles) <= set(profiles))
            and (spec_version is None or within(s.introduced_in, spec_version))]


def _base(scenario: Scenario, outcome: Outcome, **fields: Any) -> ScenarioResult:
    return ScenarioResult(id=scenario.id, title=scenario.title, path=scenario.path, profiles=scenario.profiles,
                          requirements=scenario.requirements, outcome=outcome, **fields)


def _failure(scenario: Scenario, step: Step, observed: Any, mismatches: Sequence[Any],
             declared: Options | None) -> StepFailure:
    # Only a failing step names the requirements it breaks: a passing run never loads the attribution table.
    from conformance.suite.attribution import blamed

    kept = tuple(replace(m, expected=bounded(m.expected), actual=bounded(m.actual)) for m in mismatches[:100])
    return StepFailure(index=step.index, action=step.action, note=step.note, event=step.event_json(),
                       mismatches=kept, breaks=blamed(scenario, step, mismatches, observed, declared=declared),
                       observed=bounded(observed), source=step.source)


def _check(step: Step, observed: Any, text: bool, declared: Options | None) -> list[Any]:
    try:
        return check_step(step, observed, text=text, disclosure=declared)
    except Exception as error:  # noqa: BLE001 - an observation too malformed to compare
        raise ImplementationFailed(kind=FailureKind.MALFORMED, reason="malformed observation",
                                   detail=f"{type(error).__name__}: {error}") from None


def _reset(adapter: Adapter) -> None:
    try:
        adapter.reset()
    except Exception:  # noqa: BLE001 - the next scenario reports whatever is still broken
        pass


def error_detail(error: Exception, *, prefix: str = "") -> ErrorDetail:
    """What the runner keeps of an adapter's exception: the failure's kind, reason, detail and requests in flight.

    Anything but ImplementationFailed is a fault of the adapter itself (kind ``internal``).
    Reason and detail are bounded; ``prefix`` starts the reason (e.g. ``hello failed: ``).
    """
    if isinstance(error, ImplementationFailed):
        kind, reason, detail, in_flight = error.kind, error.reason, error.detail, error.in_flight
    else:
        kind, reason, detail, in_flight = FailureKind.INTERNAL, f"the adapter raised {type(error).__name__}", str(error), None
    return ErrorDetail(kind=kind, reason=bounded(prefix + reason, limit=1024), detail=bounded(detail, limit=8192),
                       in_flight=in_flight)


def errored(scenario: Scenario, error: ErrorDetail) -> ScenarioResult:
    """The errored result of a scenario that could not run (e.g. the hello failed)."""
    return _base(scenario, Outcome.ERRORED, error=error)


def not_applicable(scenario: Scenario, declared: Options | None) -> str:
    """Why a disclosure scenario does not apply under the declared options ('' when it does, or is no disclosure scenario)."""
    if not scenario.is_disclosure or not scenario.requires:
        return ""
    unmet = (declared or Options()).unmet(scenario.requires)
    return f"not applicable under the declared options: {'; '.join(unmet)}" if unmet else ""


def requests_of(scenario: Scenario) -> Requests:
    """What running ``scenario`` sends: a host scenario's host_load resets the host (no start); a
    disclosure scenario begins with its catalogue (disclosure-start, answered before the first step)."""
    events: list[Any] = [s.event for s in scenario.steps]
    if scenario.is_disclosure:
        return Requests.of([scenario.opening, *events], split_writes=scenario.split_writes)
    return Requests.of(events, start=None if scenario.is_host else (scenario.plugins, scenario.host),
                       split_writes=scenario.split_writes)


def skipped(scenario: Scenario, profiles: Collection[str], declared: Options | None) -> str:
    """Why ``scenario`` is not run against an implementation claiming ``profiles`` ('' when it is run)."""
    missing = [p for p in scenario.profiles if p not in profiles]
    if missing:
        return f"needs profile {', '.join(missing)}, which is not claimed"
    return not_applicable(scenario, declared)


def run_scenario(adapter: Adapter, scenario: Scenario, *, profiles: Collection[str],
                 declared: Options | None = None, then: Scenario | None = None) -> ScenarioResult:
    """Run one scenario against an implementation claiming ``profiles`` (and declaring ``declared``).

    Skipped when the scenario needs an unclaimed profile, or requires disclosure options the
    declaration does not meet (the defaults when ``declared`` is None); text expectations are
    checked only when ``text`` is claimed. ``then`` is the scenario the run goes on with: its
    requests may be written ahead, to an implementation that takes them, while this one's answers
    are compared. Never raises for the implementation's faults (only KeyboardInterrupt passes
    through, and UnusableImplementation for a Python implementation that cannot be driven at all).
    """
    skip = skipped(scenario, profiles, declared)
    if skip:
        return _base(scenario, Outcome.SKIPPED, reason=skip)
    text = "text" in profiles
    started = time.perf_counter()
    step: Step | None = None
    requests = requests_of(scenario)
    answers = stream(adapter, requests.events, start=requests.start, split_writes=requests.split_writes,
                     then=requests_of(then) if then is not None else None)
    try:
        if requests.start is not None or scenario.is_disclosure:
            next(answers)  # start, or the catalogue: answered, nothing to compare
        for step in scenario.steps:
            observed = next(answers)
            mismatches = _check(step, observed, text, declared)
            if mismatches:
                failure = _failure(scenario, step, observed, mismatches, declared)
                return _base(scenario, Outcome.FAILED, failure=failure, duration=time.perf_counter() - started)
        next(answers, None)  # a failure that came only with requests written ahead is raised at the end
    except UnusableImplementation:
        raise  # the caller's mistake, said once: not a result of this scenario
    except Exception as error:  # noqa: BLE001 - ImplementationFailed, or a bug in the adapter itself
        if not (isinstance(error, ImplementationFailed) and error.kind in KEPT_KINDS):
            _reset(adapter)
        where = replace(error_detail(error), step=step.index if step else None,
                        event=step.event_json() if step else None)
        return _base(scenario, Outcome.ERRORED, error=where, duration=time.perf_counter() - started)
    finally:
        answers.close()  # stopped early: the answers already asked for are dropped
    return _base(scenario, Outcome.PASSED, duration=time.perf_counter() - started)


def apply_expected(result: ScenarioResult, expected: Mapping[str, str]) -> ScenarioResult:
    """Turn a listed failure into ``xfailed`` and a listed pass into ``stale`` (reason kept)."""
    reason = expected.get(result.id)
    if reason is None:
        return result
    if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
        return replace(result, outcome=Outcome.XFAILED, reason=reason)
    if result.outcome is Outcome.PASSED:
        return replace(result, outcome=Outcome.STALE, reason=reason)
    return result


def effective_profiles(info: ImplementationInfo | None, requested: Collection[str] | None) -> tuple[str, ...]:
    """The profiles under test: the PAS profiles the implementation claims (vendor ``x-`` ones are ignored),
    narrowed to ``requested``."""
    claimed = info.profiles if info is not None else ()
    return tuple(p for p in claimed if p in ALL_PROFILES and (requested is None or p in requested))


def greet(adapter: Adapter) -> tuple[ImplementationInfo | None, ErrorDetail | None]:
    """Ask the implementation who it is: ``(info, None)``, or ``(None, why hello failed)``.

    Raises UnusableImplementation (a Python implementation that cannot be driven at all):
    that is said once, by the caller, not recorded against every scenario.
    """
    try:
        return adapter.hello(), None
    except UnusableImplementation:
        raise
    except Exception as error:  # noqa: BLE001 - a failed hello is a result, whatever the adapter raised
        _reset(adapter)
        return None, error_detail(error, prefix="hello failed: ")


class Interrupted(KeyboardInterrupt):
    """A signal asked the run to stop (raised by the handler ``pas run`` installs); ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signum)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunLimits:
    """When a run stops early: wall-clock seconds (None: never), -x, consecutive start failures,
    consecutive scenarios that hung or crashed the same way (``max_repeats``)."""

    max_time: float | None = None
    fail_fast: bool = False
    max_start_failures: int = 3
    max_repeats: int = 3


def signal_stop(signum: int) -> Stop:
    """The stop of a run that signal ``signum`` interrupted."""
    import signal

    return Stop(kind=StopKind.SIGNAL, signal=signum, message=f"interrupted by {signal.Signals(signum).name}")


def _signal_stop(error: KeyboardInterrupt) -> Stop:
    import signal

    return signal_stop(error.signum if isinstance(error, Interrupted) else signal.SIGINT)


def _nothing_to_test(info: ImplementationInfo, requested: Collection[str] | None) -> Stop:
    claimed = ", ".join(info.profiles) or "none"
    if requested is not None and set(info.profiles) & set(ALL_PROFILES):
        why = f"it claims {claimed} but --profile asks for {', '.join(requested)}"
    elif info.profiles:
        why = (f"it claims only vendor profiles ({claimed}), which the runner ignores; "
               f"claim one of {', '.join(ALL_PROFILES)} to be tested")
    else:
        why = f"it claims no profile PAS knows (claimed: {claimed}; known: {', '.join(ALL_PROFILES)})"
    return Stop(kind=StopKind.NOTHING_TO_TEST, message=f"nothing to test: {info.name} {info.version}: {why}")


#: The failures that cost a scenario a restart, or a whole timeout: repeated, they stop the run.
_HANG_OR_CRASH = frozenset({FailureKind.TIMEOUT, FailureKind.EXITED, FailureKind.STDIN_CLOSED})


class Repeats:
    """Consecutive scenarios that hung or crashed the same way: the same kind, at the same command."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.ids: list[str] = []
        self.reason = ""

    def count(self, result: ScenarioResult) -> int:
        """Note ``result``; how many scenarios in a row, up to it, hung or crashed like it (0: it did not)."""
        if result.outcome is Outcome.SKIPPED:  # not run (a disclosure scenario not applicable): no link broken
            return 0
        error = result.error
        if error is None or error.kind not in _HANG_OR_CRASH:
            self.key, self.ids = None, []
            return 0
        key = (error.kind, error.in_flight.first.cmd if error.in_flight else None,
               re.sub(r"request \d+", "request", error.reason))
        if key != self.key:
            self.key, self.ids = key, []
        self.ids.append(result.id)
        self.reason = error.reason
        return len(self.ids)

    def stop(self) -> Stop:
        """The stop after the repeats counted."""
        return Stop(kind=StopKind.REPEATED, message=f"the same failure in {len(self.ids)} scenarios in a row "
                    f"({', '.join(self.ids)}): {self.reason}; every scenario would cost the same, so the run stops "
                    "(--max-repeats sets how many)")


class _Run:
    """The state of one run while it goes: results so far, consecutive start failures, the stop."""

    def __init__(self, adapter: Adapter, limits: RunLimits, expected: Mapping[str, str],
                 profiles: Collection[str] | None, on_result: Callable[[ScenarioResult], None] | None) -> None:
        self.adapter, self.limits, self.expected = adapter, limits, expected
        self.requested, self.on_result = profiles, on_result
        self.started = time.monotonic()
        self.info: ImplementationInfo | None = None
        self.in_play: tuple[str, ...] = ()
        self.declared: Options | None = None  # the disclosure declaration, with the disclosure profile in play
        self.results: list[ScenarioResult] = []
        self.start_failures = 0
        self.repeats = Repeats()
        self.stop: Stop | None = None

    def record(self, result: ScenarioResult) -> None:
        self.results.append(result)
        if self.on_result is not None:
            self.on_result(result)

    def check_clock(self) -> None:
        limit = self.limits.max_time
        if self.stop is None and limit is not None and time.monotonic() - self.started >= limit:
            self.stop = Stop(kind=StopKind.TIME, message=f"the time limit of {limit:g} s (--max-time) was reached")

    def one(self, scenario: Scenario, following: Sequence[Scenario] = ()) -> None:
        """Greet (again, after a failure), then run ``scenario`` (``following``: the scenarios after it); may set ``stop``."""
        info, hello_error = greet(self.adapter)
        if hello_error is not None:
            self.start_failures += 1
            self.record(apply_expected(errored(scenario, hello_error), self.expected))
            if self.start_failures >= self.limits.max_start_failures:
                self.stop = Stop(kind=StopKind.START_FAILURES,
                                 message=f"the implementation failed to start {self.start_failures} times in a row "
                                         f"({hello_error.reason}: {hello_error.detail}); nothing more can be tested")
            return
        assert info is not None  # greet gives the info or an error, never neither
        self.start_failures = 0
        if self.info is None:
            self.info, self.in_play = info, effective_profiles(info, self.requested)
            self.declared = info.disclosure_options if Profile.DISCLOSURE in self.in_play else None
            if not self.in_play:
                self.stop = _nothing_to_test(info, self.requested)
                return
        runs = not skipped(scenario, self.in_play, self.declared)  # the next scenario run goes ahead of this one's answers
        upcoming = next((s for s in following if not skipped(s, self.in_play, self.declared)), None) if runs else None
        result = apply_expected(run_scenario(self.adapter, scenario, profiles=self.in_play, declared=self.declared,
                                             then=upcoming), self.expected)
        self.record(result)
        if self.limits.fail_fast and result.outcome in BAD_OUTCOMES:
            self.stop = Stop(kind=StopKind.FAIL_FAST, message=f"stopped at the first failure ({result.id}) (-x)")
        elif self.repeats.count(result) >= self.limits.max_repeats:
            self.stop = self.repeats.stop()

    def not_run(self, scenarios: Sequence[Scenario]) -> None:
        """Record the scenarios that never ran as skipped, saying why."""
        reason = f"not run: {self.stop.message}" if self.stop else "not run"
        for scenario in scenarios:
            try:
                self.record(_base(scenario, Outcome.SKIPPED, reason=reason))
            except KeyboardInterrupt:  # a second signal while finishing: the report is what matters now
                pass


def run_suite(adapter: Adapter, scenarios: Iterable[Scenario], *, expected: Mapping[str, str] | None = None,
              profiles: Collection[str] | None = None, requirements: Mapping[str, Requirement] | None = None,
              on_result: Callable[[ScenarioResult], None] | None = None, limits: RunLimits = RunLimits(),
              stop: Stop | None = None, spec_version: str | None = None) -> RunResult:
    """Say hello, run every scenario, apply the expected failures and summarise.

    ``profiles`` narrows what is tested (default: everything claimed); ``on_result`` sees each
    result as it is made (streaming reports). Never raises for the implementation's faults:
    a signal (KeyboardInterrupt), the limits and an implementation with nothing to test end
    the run early with ``stop`` set. A ``stop`` given (a signal that arrived while the suite
    loaded) ends it before the first scenario, every scenario reported as not run. The caller
    closes the adapter. ``spec_version`` (default: the newest) is the version the summary judges:
    only its requirements are listed and given verdicts (select its scenarios with
    :func:`select_scenarios`). Raises UnusableImplementation, before any result, for a Python
    implementation that cannot be driven at all (a missing method, a wrong signature), and
    UnknownSpecVersion for a version no release file describes.
    """
    version = resolve(spec_version)
    scenarios = list(scenarios)
    run = _Run(adapter, limits, expected or {}, profiles, on_result)
    run.stop = stop
    try:
        for index, scenario in enumerate(scenarios):
            run.check_clock()
            if run.stop is not None:
                break
            run.one(scenario, scenarios[index + 1:])
    except KeyboardInterrupt as error:
        run.stop = _signal_stop(error)
    if run.stop is not None:  # one result per scenario, in order: the rest did not run
        run.not_run(scenarios[len(run.results):])
    if requirements is None:
        from conformance.suite.coverage import load_requirements

        requirements = load_requirements()[0]
    later = frozenset(r for r, req in requirements.items() if not within(req.introduced_in, version))
    summary_profiles = run.in_play or tuple(profiles or ("activation",))
    return RunResult(info=run.info, results=tuple(run.results), profiles=summary_profiles, spec_version=version,
                     interrupted=run.stop is not None and run.stop.kind is StopKind.SIGNAL, stop=run.stop,
                     summary=Summary.of(run.results, requirements, summary_profiles, run.declared, later=later),
                     duration=time.monotonic() - run.started)
