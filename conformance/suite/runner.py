"""Drives one implementation through scenarios and returns results; never renders.

The runner talks only to an :class:`~conformance.adapters.implementation.Adapter`. Whatever the
implementation does — a wrong answer, an exception, garbage, a protocol violation — becomes
a result (``failed`` or ``errored``) and the run goes on with the next scenario after
``adapter.reset()``. Ctrl-C stops the run early but still returns the results so far.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.suite.expectations import check_step
from conformance.adapters.implementation import Adapter, ImplementationFailed
from conformance.suite.keywords import keyword_matcher
from conformance.suite.results import ErrorDetail, Outcome, Requirement, RunResult, ScenarioResult, StepFailure, Summary
from conformance.suite.scenario import Scenario, Step
from reference_impl.model import ImplementationInfo

ALL_PROFILES = ("activation", "text", "host")


def select_scenarios(scenarios: Iterable[Scenario], *, keyword: str | None = None,
                     profiles: Collection[str] | None = None) -> list[Scenario]:
    """The scenarios matching ``-k keyword`` (on id and title) that need only ``profiles``.

    Raises BadKeyword for a malformed keyword expression.
    """
    matches = keyword_matcher(keyword) if keyword else None
    return [s for s in scenarios
            if (matches is None or matches(f"{s.id} {s.title}"))
            and (profiles is None or set(s.profiles) <= set(profiles))]


def _base(scenario: Scenario, outcome: Outcome, **fields: Any) -> ScenarioResult:
    return ScenarioResult(id=scenario.id, title=scenario.title, path=scenario.path, profiles=scenario.profiles,
                          requirements=scenario.requirements, outcome=outcome, **fields)


def _failure(scenario: Scenario, step: Step, observed: Any, mismatches: Sequence[Any]) -> StepFailure:
    return StepFailure(index=step.index, action=step.action, note=step.note, event=step.event_json(),
                       mismatches=tuple(mismatches), breaks=step.covers or scenario.covers,
                       observed=observed, source=step.source)


def _check(step: Step, observed: Any, text: bool) -> list[Any]:
    try:
        return check_step(step, observed, text=text)
    except Exception as error:  # noqa: BLE001 - an observation too malformed to compare
        raise ImplementationFailed(reason="malformed observation", detail=f"{type(error).__name__}: {error}") from None


def _reset(adapter: Adapter) -> None:
    try:
        adapter.reset()
    except Exception:  # noqa: BLE001 - the next scenario reports whatever is still broken
        pass


def errored(scenario: Scenario, error: ErrorDetail) -> ScenarioResult:
    """The errored result of a scenario that could not run (e.g. the hello failed)."""
    return _base(scenario, Outcome.ERRORED, error=error)


def run_scenario(adapter: Adapter, scenario: Scenario, *, profiles: Collection[str]) -> ScenarioResult:
    """Run one scenario against an implementation claiming ``profiles``.

    Skipped when the scenario needs an unclaimed profile; text expectations are checked
    only when ``text`` is claimed. Never raises for the implementation's faults (only
    KeyboardInterrupt passes through).
    """
    missing = [p for p in scenario.profiles if p not in profiles]
    if missing:
        return _base(scenario, Outcome.SKIPPED, reason=f"needs profile {', '.join(missing)}, which is not claimed")
    text = "text" in profiles
    started = time.perf_counter()
    step: Step | None = None
    try:
        if not scenario.is_host:  # a host scenario begins with host_load, which resets the host
            adapter.start(scenario.plugins, scenario.host)
        for step in scenario.steps:
            observed = adapter.send(step.event)
            mismatches = _check(step, observed, text)
            if mismatches:
                return _base(scenario, Outcome.FAILED, failure=_failure(scenario, step, observed, mismatches),
                             duration=time.perf_counter() - started)
    except Exception as error:  # noqa: BLE001 - ImplementationFailed, or a bug in the adapter itself
        _reset(adapter)
        if isinstance(error, ImplementationFailed):
            reason, detail = error.reason, error.detail
        else:
            reason, detail = f"the adapter raised {type(error).__name__}", str(error)
        where = ErrorDetail(reason=reason, detail=detail, step=step.index if step else None,
                            event=step.event_json() if step else None)
        return _base(scenario, Outcome.ERRORED, error=where, duration=time.perf_counter() - started)
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
    """The profiles under test: those the implementation claims, narrowed to ``requested``."""
    claimed = info.profiles if info is not None else ()
    return tuple(p for p in claimed if requested is None or p in requested)


def greet(adapter: Adapter) -> tuple[ImplementationInfo | None, ErrorDetail | None]:
    """Ask the implementation who it is: ``(info, None)``, or ``(None, why hello failed)``."""
    try:
        return adapter.hello(), None
    except Exception as error:  # noqa: BLE001
        _reset(adapter)
        reason = error.reason if isinstance(error, ImplementationFailed) else f"the adapter raised {type(error).__name__}"
        detail = error.detail if isinstance(error, ImplementationFailed) else str(error)
        return None, ErrorDetail(reason=f"hello failed: {reason}", detail=detail)


def run_suite(adapter: Adapter, scenarios: Iterable[Scenario], *, expected: Mapping[str, str] | None = None,
              profiles: Collection[str] | None = None, requirements: Mapping[str, Requirement] | None = None,
              on_result: Callable[[ScenarioResult], None] | None = None) -> RunResult:
    """Say hello, run every scenario, apply the expected failures and summarise.

    ``profiles`` narrows what is tested (default: everything claimed). When hello fails,
    every scenario is errored with its reason. Never raises for the implementation's faults;
    Ctrl-C ends the run early with ``interrupted`` set. The caller closes the adapter.
    """
    started = time.perf_counter()
    expected = expected or {}
    results: list[ScenarioResult] = []
    interrupted = False
    info, hello_error = greet(adapter)
    in_play = effective_profiles(info, profiles)
    try:
        for scenario in scenarios:
            if hello_error is not None:
                result = errored(scenario, hello_error)
            else:
                result = run_scenario(adapter, scenario, profiles=in_play)
            result = apply_expected(result, expected)
            results.append(result)
            if on_result is not None:
                on_result(result)
    except KeyboardInterrupt:
        interrupted = True
    if requirements is None:
        from conformance.suite.coverage import load_requirements

        requirements = load_requirements()[0]
    summary_profiles = in_play or tuple(profiles or ("activation",))
    return RunResult(info=info, results=tuple(results), profiles=summary_profiles, interrupted=interrupted,
                     summary=Summary.of(results, requirements, summary_profiles),
                     duration=time.perf_counter() - started)
