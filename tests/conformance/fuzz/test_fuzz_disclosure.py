"""``pas fuzz`` over the disclosure profile: cases the declaration allows, the reference agreeing with
itself under every declaration, each disclosure fake found and written as a scenario that loads,
passes on the reference and fails on the fake, blamed on the fake's rule."""

from __future__ import annotations

import random
import sys

import pytest
from support import breaks

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.adapters.stdio import StdioAdapter
from conformance.fuzz.disclosure_case import valid
from conformance.fuzz.disclosure_compare import compare_disclosure_case, reference_observations
from conformance.fuzz.disclosure_generate import MAX_STEPS, generate_disclosure_case
from conformance.fuzz.disclosure_minimise import candidates
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.fuzz.session import write_finding
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from conformance.suite.scenario import load_scenario
from reference_impl.disclosure_commands import LoadCall, ModelStep, SearchCall
from reference_impl.disclosure_options import Options, Role, every_combination
from reference_impl.model import Profile

COMBINATIONS = list(every_combination())
SAMPLE = COMBINATIONS[::37]  # 26 declarations, every value of every option among them
DISCLOSURE_FAKES = sorted(f for f in breaks.single_bug_fakes() if f.startswith("single_disc_"))


def test_generated_cases_are_valid_and_make_only_the_calls_the_declaration_offers():
    draw = random.Random(0)
    for declared in SAMPLE:
        for _ in range(10):
            case = generate_disclosure_case(draw.getrandbits(64), draw.randint(1, MAX_STEPS), declared)
            assert valid(case.events) and case.written_steps() is not None
            calls = [c for e in case.events if isinstance(e, ModelStep) for c in e.calls]
            assert all(Role.SEARCH in declared.roles for c in calls if isinstance(c, SearchCall))
            assert all(len(c.names) == 1 for c in calls if isinstance(c, LoadCall) and not declared.batch)
            reference_observations(case)  # the reference runs every event: none it does not offer


@pytest.mark.parametrize("declared", SAMPLE[::3], ids=lambda o: o.to_text() or "defaults")
def test_the_reference_agrees_with_itself_under_a_declaration(declared: Options):
    adapter = reference_adapter(declared)
    draw = random.Random(1)
    for _ in range(20):
        case = generate_disclosure_case(draw.getrandbits(64), draw.randint(1, MAX_STEPS), declared)
        assert compare_disclosure_case(adapter, case).disagreement is None


def test_the_simpler_variants_of_a_case_stay_writable_or_are_left_to_the_minimiser_to_skip():
    case = generate_disclosure_case(3, 25, Options())
    variants = list(candidates(case))
    assert variants and all(len(v.events) <= len(case.events) for v in variants)
    assert any(v.written_steps() is None for v in variants) or all(valid(v.events) for v in variants)


@pytest.mark.parametrize("fake", DISCLOSURE_FAKES)
def test_fuzz_finds_each_disclosure_fake_and_writes_a_scenario_blamed_on_its_rule(fake: str, tmp_path):
    module = breaks.load_fake(fake)
    adapter = InProcessAdapter(module.create, name=fake)
    result = fuzz(adapter, FuzzOptions(seed=7, max_examples=200, profiles=("disclosure",), shrink_budget=30))
    assert result.finding is not None and result.finding.reproducible, fake
    summary = write_finding(result, adapter, impl=f"python:{fake}:create", out_dir=tmp_path)
    (path,) = tmp_path.glob("fuzz-*.yaml")
    assert f"wrote {path}" in summary and "warning" not in summary
    scenario, problems = load_scenario(path)
    assert problems == [] and scenario is not None and scenario.is_disclosure
    assert breaks.single_bug_fakes()[fake] in scenario.requirements
    declared = result.finding.case.declared
    on_reference = run_scenario(reference_adapter(declared), scenario, profiles=("disclosure",), declared=declared)
    on_fake = run_scenario(InProcessAdapter(module.create, name=fake), scenario, profiles=("disclosure",),
                           declared=declared)
    assert (on_reference.outcome, on_fake.outcome) == (Outcome.PASSED, Outcome.FAILED)


def test_with_both_profiles_in_play_the_activation_cases_of_a_seed_do_not_change():
    """An implementation that claims disclosure too is searched with the same activation cases, every other case."""
    both = fuzz(reference_adapter(), FuzzOptions(seed=2, max_examples=20))
    alone = fuzz(reference_adapter(), FuzzOptions(seed=2, max_examples=10, profiles=(Profile.ACTIVATION, Profile.TEXT)))
    assert both.finding is None and alone.finding is None
    assert both.examples == 20 and both.steps > alone.steps


@pytest.mark.slow
def test_fuzz_compares_the_disclosure_profile_over_stdio():
    argv = [sys.executable, "-m", "conformance", "serve-reference", "--disclosure", "state_scope=instance,listing=true"]
    with StdioAdapter(argv, timeout=30.0) as adapter:
        result = fuzz(adapter, FuzzOptions(seed=4, max_examples=30, profiles=("disclosure",)))
    assert result.finding is None and result.examples == 30 and result.steps > 30
