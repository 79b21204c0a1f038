"""A SHOULD rule is never enforced by a scenario about a MUST rule (issue 14).

Each expectation that only a SHOULD requirement states may appear only in scenarios that
cover that requirement: a scheduler that skips a SHOULD then fails those scenarios alone,
reported against the SHOULD, and passes every MUST scenario.
"""

from __future__ import annotations

from conformance.suite.coverage import load_requirements
from conformance.suite.scenario import load_suite

# The expectation that checks each SHOULD requirement, and how to see it in a step.
SHOULD_EXPECTATIONS = {
    "ACT-ORDER-1": lambda step: step.order is not None,
    "HOST-CFG-6": lambda step: step.host is not None and step.host.provenance is not None,
}


def test_every_should_requirement_has_its_expectation_listed_here():
    requirements, problems = load_requirements()
    assert not problems
    should = {rid for rid, req in requirements.items() if req.level == "SHOULD"}
    assert should == set(SHOULD_EXPECTATIONS), "add the expectation of each new SHOULD requirement above"


def test_should_expectations_appear_only_in_scenarios_that_cover_them():
    scenarios, problems = load_suite()
    assert not problems
    wrong = [f"{scenario.id} step {step.index}: checks {rid} but does not cover it"
             for scenario in scenarios for step in scenario.steps
             for rid, checks in SHOULD_EXPECTATIONS.items()
             if checks(step) and rid not in scenario.requirements]
    assert not wrong, "\n".join(wrong)
