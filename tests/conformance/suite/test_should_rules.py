"""A SHOULD rule is never enforced by a scenario about a MUST rule (issue 14).

Each expectation that only a SHOULD requirement states may appear only in scenarios that
cover that requirement: a scheduler that skips a SHOULD then fails those scenarios alone,
reported against the SHOULD, and passes every MUST scenario.

The disclosure profile's SHOULDs are skipped by declaration instead: each names the option
values that decline it (``declined_by``), a scenario that covers it requires other values (the
loader's ``requires-too-wide`` check), and every scenario passes on the reference under every
declaration its ``requires`` admits (tests/conformance/suite/test_disclosure_suite.py), so an
implementation that declares a hazard is never failed for it.
"""

from __future__ import annotations

from support.bundled import bundled_suite

from conformance.suite.coverage import load_requirements

# The expectation that checks each SHOULD requirement, and how to see it in a step.
SHOULD_EXPECTATIONS = {
    "ACT-ORDER-1": lambda step: step.order is not None and not step.is_disclosure,
    "HOST-CFG-6": lambda step: step.host is not None and step.host.provenance is not None,
}


def test_every_should_requirement_has_its_expectation_listed_here():
    requirements, problems = load_requirements()
    assert not problems
    should = {rid for rid, req in requirements.items() if req.level == "SHOULD" and req.profile != "disclosure"}
    assert should == set(SHOULD_EXPECTATIONS), "add the expectation of each new SHOULD requirement above"


def test_every_disclosure_should_is_declined_by_declaring_its_hazard():
    requirements, _ = load_requirements()
    should = [req for req in requirements.values() if req.profile == "disclosure" and req.level.startswith("SHOULD")]
    assert len(should) == 6
    assert [req.id for req in should if not req.declined_by] == []


def test_should_expectations_appear_only_in_scenarios_that_cover_them():
    scenarios, problems = bundled_suite()
    assert not problems
    wrong = [f"{scenario.id} step {step.index}: checks {rid} but does not cover it"
             for scenario in scenarios for step in scenario.steps
             for rid, checks in SHOULD_EXPECTATIONS.items()
             if checks(step) and rid not in scenario.requirements]
    assert not wrong, "\n".join(wrong)
