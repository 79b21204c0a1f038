"""The runner turns every kind of implementation behaviour into a result and always finishes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from support.pipeline_support import Announcing
from support.runner_support import ActivationOnly, Scripted, load_fake, own, own_suite

from conformance.adapters.implementation import FailureKind, ImplementationFailed
from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.cli.exit_status import run_exit_code
from conformance.suite.results import Outcome, Requirement, RequirementStatus
from conformance.suite.runner import apply_expected, run_scenario, run_suite
from conformance.suite.scenario import load_suite
from reference_impl.engine import Engine
from reference_impl.events import RunObservation
from reference_impl.model import Profile

BOTH = (Profile.ACTIVATION, Profile.TEXT)


def _adapter(fake: str) -> InProcessAdapter:
    return InProcessAdapter(load_fake(fake).create, name=fake)


def test_the_reference_passes_every_runner_scenario():
    run = run_suite(reference_adapter(), own_suite())
    assert {r.outcome for r in run.results} == {Outcome.PASSED}
    assert run.ok and run_exit_code(run) == 0


def test_a_failure_names_the_first_differing_step_the_event_and_the_difference():
    result = run_scenario(_adapter("broken_counts_activation_run"), own("count-three-runs"), profiles=BOTH)
    assert result.outcome is Outcome.FAILED
    failure = result.failure
    assert (failure.index, failure.action, failure.note) == (2, "run", "the activation run did not count")
    assert failure.event == {"cmd": "run", "conversation": "main"}
    assert [(m.field, m.subject, m.expected, m.actual) for m in failure.mismatches] == [("rounds_left", "weather", 3, 2)]
    assert failure.mismatches[0].pointer.endswith("/rounds_left") and failure.mismatches[0].pointer.startswith("/plugins/")
    assert failure.source.line is not None and failure.source.path.endswith("count-three-runs.yaml")


def test_a_failure_breaks_the_scenario_requirements_when_the_step_names_none():
    result = run_scenario(_adapter("broken_counts_activation_run"), own("count-three-runs"), profiles=BOTH)
    assert result.failure.breaks == ("ACT-COUNT-2",)


def test_a_failure_breaks_the_rule_of_the_failed_expectation_even_when_the_step_covers_another():
    # injection_called of a sleeping plugin is ACT-STATE-4 (spec/attribution.yaml), which the step does not cover
    result = run_scenario(_adapter("broken_injects_sleeping"), own("count-three-runs"), profiles=BOTH)
    assert result.failure.index == 0
    assert result.failure.breaks == ("ACT-STATE-4",)


def test_an_exception_from_the_implementation_is_an_errored_result_at_its_step():
    result = run_scenario(_adapter("broken_raises"), own("unknown-not-found"), profiles=BOTH)
    assert result.outcome is Outcome.ERRORED
    assert result.error.step == 0
    assert "KeyError" in result.error.reason and "ghost" in result.error.detail
    assert result.error.event == {"cmd": "activate", "conversation": "main", "module_name": "ghost"}
    assert result.error.kind is FailureKind.RAISED and str(result.error.in_flight) == "'activate'"
    assert result.to_json()["error"]["kind"] == "raised"
    assert result.to_json()["error"]["in_flight"] == {"first": {"cmd": "activate", "id": None},
                                                      "last": {"cmd": "activate", "id": None}}


def test_after_an_error_the_adapter_is_reset_and_the_next_scenario_runs_on_a_fresh_implementation():
    made = []

    def factory() -> Any:
        made.append(load_fake("broken_raises").create())
        return made[-1]

    run = run_suite(InProcessAdapter(factory), [own("unknown-not-found"), own("extend-cap")])
    assert [r.outcome for r in run.results] == [Outcome.ERRORED, Outcome.PASSED]
    assert len(made) == 2


def test_garbage_from_apply_is_an_errored_result():
    for garbage in ("a string", None, 42, ["plugins"]):
        result = run_scenario(InProcessAdapter(lambda g=garbage: Scripted(g)), own("unknown-not-found"),
                              profiles=("activation",))
        assert result.outcome is Outcome.ERRORED, garbage
        assert result.error.reason == "apply() returned no observation" and result.error.kind is FailureKind.BAD_ANSWER


def test_an_observation_too_malformed_to_compare_is_an_errored_result():
    result = run_scenario(InProcessAdapter(lambda: Scripted({"plugins": 5})), own("disable-hides"),
                          profiles=("activation",))
    # Step 0 is an admin step answered with a mapping lacking "outcome": a plain failure.
    assert result.outcome is Outcome.FAILED
    result = run_scenario(InProcessAdapter(lambda: Scripted({"outcome": "applied"}, {"plugins": 5})),
                          own("disable-hides"), profiles=("activation",))
    assert result.outcome is Outcome.ERRORED
    assert result.error.reason == "malformed observation" and result.error.step == 1
    assert result.error.kind is FailureKind.MALFORMED and result.error.in_flight is None


class _ExplodingAdapter:
    """An adapter with a bug of its own (not an ImplementationFailed)."""

    def __init__(self) -> None:
        self.resets = 0

    def hello(self) -> Any:
        return Engine.info

    def start(self, manifests: Any, host: Any) -> None:
        pass

    def send(self, event: Any) -> dict[str, Any]:
        raise RuntimeError("adapter bug")

    def reset(self) -> None:
        self.resets += 1
        raise OSError("and reset fails too")

    def close(self) -> None:
        pass


def test_an_adapter_bug_is_an_errored_result_and_a_failing_reset_does_not_stop_the_run():
    adapter = _ExplodingAdapter()
    run = run_suite(adapter, [own("extend-cap"), own("unknown-not-found")])
    assert [r.outcome for r in run.results] == [Outcome.ERRORED, Outcome.ERRORED]
    assert run.results[0].error.reason == "the adapter raised RuntimeError"
    assert run.results[0].error.kind is FailureKind.INTERNAL
    assert adapter.resets == 2


def test_each_scenario_run_announces_the_next_one_run_so_that_its_requests_may_go_ahead():
    scenarios, _ = load_suite()
    adapter = Announcing(reference_adapter())
    run = run_suite(adapter, scenarios, profiles=("activation", "text"))  # host and disclosure ones skipped between
    ran = [r for r in run.results if r.outcome is not Outcome.SKIPPED]
    assert len(adapter.streams) == len(ran) < len(run.results)
    assert adapter.announced_what_came()


def test_a_scenario_needing_an_unclaimed_profile_is_skipped_with_the_reason():
    result = run_scenario(InProcessAdapter(ActivationOnly), own("text-sleeping-block"), profiles=("activation",))
    assert result.outcome is Outcome.SKIPPED
    assert "text" in result.reason


def test_requested_profiles_narrow_what_the_implementation_claims():
    run = run_suite(reference_adapter(), [own("text-sleeping-block")], profiles=["activation"])
    assert run.profiles == ("activation",)
    assert run.results[0].outcome is Outcome.SKIPPED


class _WrongText(Engine):
    """The reference with nonsense prompt text."""

    def __init__(self, profiles: tuple[str, ...]) -> None:
        super().__init__()
        self.info = replace(Engine.info, profiles=profiles)

    def apply(self, event: Any) -> Any:
        observation = super().apply(event)
        return replace(observation, text="nonsense") if isinstance(observation, RunObservation) else observation


def test_text_expectations_are_checked_only_when_the_text_profile_is_claimed():
    scenario = own("count-three-runs")
    without = run_scenario(InProcessAdapter(lambda: _WrongText(("activation",))), scenario, profiles=("activation",))
    with_text = run_scenario(InProcessAdapter(lambda: _WrongText(BOTH)), scenario, profiles=BOTH)
    assert without.outcome is Outcome.PASSED
    assert with_text.outcome is Outcome.FAILED
    first = with_text.failure.mismatches[0]
    assert (first.field, first.pointer, first.check) == ("text", "/text", "contains")


def test_listed_failures_become_xfailed_and_listed_passes_become_stale():
    expected = {"runner-count-three-runs": "known counting bug", "runner-extend-cap": "was broken once"}
    run = run_suite(_adapter("broken_counts_activation_run"), [own("count-three-runs"), own("extend-cap")],
                    expected=expected)
    xfailed, stale = run.results
    assert (xfailed.outcome, xfailed.reason) == (Outcome.XFAILED, "known counting bug")
    assert xfailed.failure is not None
    assert (stale.outcome, stale.reason) == (Outcome.STALE, "was broken once")
    assert run_exit_code(run) == 1


def test_an_xfailed_run_without_other_problems_exits_zero():
    run = run_suite(_adapter("broken_counts_activation_run"), [own("count-three-runs")],
                    expected={"runner-count-three-runs": "known"})
    assert run.results[0].outcome is Outcome.XFAILED
    assert run_exit_code(run) == 0


def test_a_skipped_scenario_stays_skipped_even_when_listed():
    result = run_scenario(InProcessAdapter(ActivationOnly), own("text-sleeping-block"), profiles=("activation",))
    assert apply_expected(result, {result.id: "text not done"}).outcome is Outcome.SKIPPED


class _NoHello(InProcessAdapter):
    def hello(self) -> Any:
        raise ImplementationFailed(kind=FailureKind.TIMEOUT, reason="no answer", detail="silence")


def test_a_failed_hello_errors_every_scenario_and_the_run_still_completes():
    run = run_suite(_NoHello(Engine), [own("extend-cap"), own("unknown-not-found")])
    assert run.info is None
    assert [r.outcome for r in run.results] == [Outcome.ERRORED, Outcome.ERRORED]
    assert run.results[0].error.reason == "hello failed: no answer"
    assert run.results[0].error.kind is FailureKind.TIMEOUT


def test_ctrl_c_ends_the_run_early_with_the_results_so_far():
    calls = []

    def interrupt(result: Any) -> None:
        calls.append(result)
        raise KeyboardInterrupt

    run = run_suite(reference_adapter(), [own("extend-cap"), own("unknown-not-found")], on_result=interrupt)
    assert run.interrupted and [r.outcome.value for r in run.results] == ["passed", "skipped"]
    assert run.results[1].reason == "not run: interrupted by SIGINT"
    assert run_exit_code(run) == 130 and run.to_json()["stopped"]["signal"] == 2


def test_the_summary_charges_a_failure_to_the_broken_requirements_only():
    requirements = {r: Requirement(id=r, level="MUST", profile="activation")
                    for r in ("ACT-COUNT-2", "ACT-STATE-3", "ACT-ACTIVATE-4", "ACT-ORDER-1")}
    run = run_suite(_adapter("broken_counts_activation_run"), [own("count-three-runs")], requirements=requirements)
    rows = {t.requirement.id: t for t in run.summary.requirements}
    assert rows["ACT-COUNT-2"].status is RequirementStatus.FAILED
    assert rows["ACT-COUNT-2"].counts == {"failed": 1}
    assert rows["ACT-STATE-3"].status is RequirementStatus.UNTESTED
    assert run.summary.levels["MUST"]["failed"] == 1
    assert run.summary.levels["MUST"]["untested"] == 3


def test_the_summary_lists_requirements_of_the_profiles_in_play_with_their_levels():
    run = run_suite(reference_adapter(), own_suite(), profiles=BOTH)
    rows = {t.requirement.id: t for t in run.summary.requirements}
    assert rows["ACT-EXTEND-6"].requirement.level == "MUST"
    assert rows["ACT-EXTEND-6"].status is RequirementStatus.PASSED
    assert all(t.requirement.profile in BOTH for t in run.summary.requirements)
    assert not any(r.startswith("HOST-") for r in rows)
