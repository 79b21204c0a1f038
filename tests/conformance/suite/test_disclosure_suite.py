"""The disclosure suite on the reference under every declaration the spec allows, and what the runner says about it.

Every one of the 960 option combinations runs the whole disclosure suite in-process: each
scenario is either passed or skipped as not applicable under the declared options, never
failed; every scenario applies under some combination. A sample of combinations runs over
stdio (``pas serve-reference --disclosure ...``) with the same result. The runner's skip reason
and the declined SHOULDs of a hazardous declaration are checked on the way.
"""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from conformance.adapters.inprocess import reference_adapter
from conformance.adapters.stdio import StdioAdapter
from conformance.suite.coverage import load_requirements
from conformance.suite.results import Outcome, RequirementStatus
from conformance.suite.runner import run_suite
from conformance.suite.scenario import SUITE_DIR, load_suite
from reference_impl.disclosure_options import OPTION_VALUES, Options, every_combination

SUITE, PROBLEMS = load_suite([SUITE_DIR / "disclosure"], check_schema=True)
COMBINATIONS = list(every_combination())
NOT_APPLICABLE = "not applicable under the declared options: "


def test_the_disclosure_suite_loads_and_every_combination_the_spec_allows_is_run():
    assert PROBLEMS == [] and len(SUITE) >= 42
    assert len(COMBINATIONS) == 960


def test_the_reference_passes_every_applicable_disclosure_scenario_under_every_combination():
    requirements = load_requirements()[0]
    outcomes: Counter[str] = Counter()
    applicable: set[str] = set()
    wrong = []
    for options in COMBINATIONS:
        run = run_suite(reference_adapter(options), SUITE, requirements=requirements)
        for result in run.results:
            outcomes[result.outcome.value] += 1
            if result.outcome is Outcome.PASSED:
                applicable.add(result.id)
            elif result.outcome is not Outcome.SKIPPED or not result.reason.startswith(NOT_APPLICABLE):
                wrong.append((options.to_text(), result.id, result.outcome.value, result.reason))
    assert wrong == []
    assert applicable == {s.id for s in SUITE}, "scenarios no declaration can run"
    assert outcomes[Outcome.PASSED.value] == sum(options.meets(s.requires) for options in COMBINATIONS for s in SUITE)
    assert outcomes[Outcome.PASSED.value] >= 16000


# One combination in 79, from the start of the list: 13 declarations that hold every value of every option.
SAMPLE = COMBINATIONS[::79]


def test_the_stdio_sample_holds_every_value_of_every_option():
    for option, values in OPTION_VALUES.items():
        assert {value for o in SAMPLE for value in o.value_of(option)} == set(values), option


@pytest.mark.slow
@pytest.mark.parametrize("options", SAMPLE, ids=lambda o: o.to_text() or "defaults")
def test_the_reference_over_stdio_passes_the_same_scenarios(options: Options):
    argv = [sys.executable, "-m", "conformance", "serve-reference", "--disclosure", options.to_text()]
    with StdioAdapter(argv, timeout=30.0) as adapter:
        run = run_suite(adapter, SUITE)
    assert run.info is not None and run.info.disclosure == options
    passed = {r.id for r in run.results if r.outcome is Outcome.PASSED}
    assert passed == {s.id for s in SUITE if options.meets(s.requires)}
    assert all(r.reason.startswith(NOT_APPLICABLE) for r in run.results if r.outcome is not Outcome.PASSED)


def test_a_scenario_the_declaration_does_not_meet_is_skipped_saying_why():
    options = Options.from_text("state_scope=instance")
    run = run_suite(reference_adapter(options), [s for s in SUITE if s.id == "disc-threads-keep-their-own-loads"])
    (result,) = run.results
    assert result.outcome is Outcome.SKIPPED
    assert result.reason == (NOT_APPLICABLE + "state_scope is instance, the scenario requires thread or messages")


def test_a_hazardous_declaration_declines_its_shoulds_in_the_summary():
    options = Options.from_text("state_scope=instance,order=catalogue,hidden_calls=executed")
    run = run_suite(reference_adapter(options), SUITE)
    declined = {t.requirement.id: t.declined for t in run.summary.requirements if t.status is RequirementStatus.DECLINED}
    assert declined == {"DISC-SCOPE-2": "state_scope: instance", "DISC-ORDER-1": "order: catalogue",
                        "DISC-CALL-1": "hidden_calls: executed"}
    assert run.summary.levels["SHOULD"]["declined"] == 3 and run.ok
    defaults = run_suite(reference_adapter(), SUITE)
    assert all(t.status is not RequirementStatus.DECLINED for t in defaults.summary.requirements)
