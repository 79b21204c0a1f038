"""The fuzzer finds every deliberately broken scheduler and writes a minimal, committable scenario."""

from __future__ import annotations

import pytest
from support.fuzz_support import (
    HOSTILE_IN_PROCESS,
    SEED,
    WRONG_BEHAVIOUR,
    fake_adapter,
    fuzz_fake,
    load,
    outcome_on,
    outcome_on_reference,
)

from conformance.adapters.inprocess import reference_adapter
from conformance.documents.loader import load_mapping
from conformance.documents.schemas import check_against
from conformance.fuzz.compare import Verdict
from conformance.fuzz.emit import Provenance, scenario_document, write_scenario
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.suite.coverage import load_requirements
from conformance.suite.results import Outcome

MAX_STEPS = 6


def _write(result, tmp_path, name):
    finding = result.finding
    provenance = Provenance(name=result.info.name, impl=f"python:{name}:create", seed=result.seed, text=result.text,
                            original_steps=finding.original_steps)
    doc = scenario_document(finding.case, finding.disagreement, provenance)
    path, problems = write_scenario(doc, finding.case, tmp_path, text_profile=result.text)
    assert path is not None, problems
    return doc, path


@pytest.mark.parametrize("name", WRONG_BEHAVIOUR)
def test_a_wrong_behaviour_fake_is_found_and_shrunk_into_a_scenario_that_fails_on_it_only(name, tmp_path):
    result = fuzz_fake(name)
    assert result.finding is not None, f"{name}: nothing found in {result.examples} examples"
    assert result.found
    doc, path = _write(result, tmp_path, name)
    loaded, problems = load_mapping(path)
    assert check_against("scenario", loaded) == []
    assert len(doc["steps"]) <= MAX_STEPS
    scenario = load(path)
    assert outcome_on_reference(scenario) is Outcome.PASSED
    expected = Outcome.ERRORED if result.finding.disagreement.verdict is Verdict.ERRORED else Outcome.FAILED
    assert outcome_on(fake_adapter(name), scenario) is expected


@pytest.mark.parametrize("name", HOSTILE_IN_PROCESS)
def test_a_fake_that_raises_or_returns_garbage_is_reported_errored_with_a_reproducing_scenario(name, tmp_path):
    result = fuzz_fake(name, max_examples=200)
    assert result.finding is not None and result.finding.disagreement.verdict is Verdict.ERRORED
    assert result.finding.disagreement.reason
    doc, path = _write(result, tmp_path, name)
    assert len(doc["steps"]) <= MAX_STEPS
    scenario = load(path)
    assert outcome_on_reference(scenario) is Outcome.PASSED
    assert outcome_on(fake_adapter(name), scenario) is Outcome.ERRORED


def test_the_reference_fuzzed_against_itself_disagrees_nowhere():
    result = fuzz(reference_adapter(), FuzzOptions(max_examples=100, seed=0))
    assert result.finding is None and result.hello_error is None
    assert not result.found
    assert result.examples == 100 and result.steps > 100
    assert result.text  # the reference claims text, so the text was compared too


def test_every_requirement_a_finding_covers_exists():
    known = set(load_requirements()[0])
    for name in WRONG_BEHAVIOUR:
        result = fuzz_fake(name)
        provenance = Provenance(name="x", impl="x", seed=0, text=result.text)
        doc = scenario_document(result.finding.case, result.finding.disagreement, provenance)
        assert doc["covers"] and set(doc["covers"]) <= known, doc["covers"]


def test_a_fake_that_counts_the_activation_run_is_charged_to_the_counting_requirements():
    result = fuzz_fake("broken_counts_activation_run")
    doc = scenario_document(result.finding.case, result.finding.disagreement,
                            Provenance(name="x", impl="x", seed=0, text=False))
    assert {"ACT-COUNT-2", "ACT-COUNT-3"} <= set(doc["covers"])


def test_the_same_seed_gives_the_same_scenario_file(tmp_path):
    name = "broken_shared_counters"
    runs = [fuzz(fake_adapter(name), FuzzOptions(max_examples=500, seed=SEED, profiles=("activation", "text")))
            for _ in range(2)]
    first, second = (_write(run, tmp_path / folder, name)[1] for run, folder in zip(runs, "ab"))
    assert first.name == second.name
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
