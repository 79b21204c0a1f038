"""Fuzzing an implementation over the stdio protocol: one process for the whole run, failures errored."""

from __future__ import annotations

import sys

import pytest
from support.fuzz_support import FAKES, REFERENCE_OVER_STDIO, load, outcome_on_reference

from conformance.adapters.implementation import FailureKind
from conformance.adapters.select import adapter_for
from conformance.adapters.stdio import StdioAdapter
from conformance.fuzz.compare import Verdict
from conformance.fuzz.emit import Provenance, scenario_document, write_scenario
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario

pytestmark = pytest.mark.slow


def _hostile(name: str, timeout: float = 5.0) -> StdioAdapter:
    return StdioAdapter([sys.executable, str(FAKES / f"{name}.py")], timeout=timeout)


def test_the_reference_over_stdio_agrees_with_the_reference_in_one_process():
    adapter = adapter_for(REFERENCE_OVER_STDIO)
    pids = set()
    try:
        result = fuzz(adapter, FuzzOptions(max_examples=15, seed=1),
                      on_progress=lambda examples, steps, **_: pids.add(adapter.pid))
    finally:
        adapter.close()
    assert result.finding is None and not result.found
    assert result.examples == 15
    assert len(pids) == 1  # start() resets the state: no new process per case


def test_a_stdio_implementation_that_crashes_is_reported_errored_and_the_crash_reproduces(tmp_path):
    adapter = _hostile("hostile_crash")
    try:
        result = fuzz(adapter, FuzzOptions(max_examples=20, seed=1))
        finding = result.finding
        assert finding is not None and finding.disagreement.verdict is Verdict.ERRORED
        assert "exited with code 3" in finding.disagreement.reason
        assert (finding.disagreement.kind, finding.disagreement.command) == (FailureKind.EXITED, "run")
        provenance = Provenance(name="hostile-crash", impl="cmd:hostile", seed=1, text=result.text)
        path, problems = write_scenario(scenario_document(finding.case, finding.disagreement, provenance),
                                        finding.case, tmp_path, text_profile=result.text)
        assert path is not None, problems
        scenario = load(path)
        assert len(scenario.steps) <= 6
        assert outcome_on_reference(scenario) is Outcome.PASSED
        assert run_scenario(adapter, scenario, profiles=("activation",)).outcome is Outcome.ERRORED
    finally:
        adapter.close()


def test_a_stdio_implementation_that_hangs_is_reported_errored_after_the_timeout():
    adapter = _hostile("hostile_hang", timeout=0.3)
    try:
        result = fuzz(adapter, FuzzOptions(max_examples=20, seed=1, shrink_budget=5.0))
    finally:
        adapter.close()
    assert result.finding is not None and result.finding.disagreement.verdict is Verdict.ERRORED
    assert "no response" in result.finding.disagreement.reason
    assert result.finding.disagreement.kind is FailureKind.TIMEOUT
    assert result.found


def test_a_stdio_implementation_whose_hello_is_garbage_errors_before_any_case():
    adapter = _hostile("hostile_garbage")
    try:
        result = fuzz(adapter, FuzzOptions(max_examples=20, seed=1))
    finally:
        adapter.close()
    assert result.finding is None and result.examples == 0
    assert result.hello_error is not None and result.hello_error.reason.startswith("hello failed")
    assert result.hello_error.kind is FailureKind.UNREADABLE_LINE
    assert result.found


def test_a_finding_that_disagrees_in_some_replays_only_is_reported_flaky_with_its_count(monkeypatch, tmp_path):
    from conformance.fuzz.report import render

    monkeypatch.setenv("PAS_FAKE_SEED", "1")  # its coin flips, the same on every run of the test ...
    monkeypatch.setenv("PAS_FAKE_STARTS", str(tmp_path / "starts"))  # ... but not from one start to the next
    adapter = _hostile("hostile_nondeterministic")
    try:
        result = fuzz(adapter, FuzzOptions(max_examples=50, seed=1))
    finally:
        adapter.close()
    finding = result.finding
    assert finding is not None and finding.replays == 8
    assert finding.flaky and not finding.reproducible and 0 < finding.disagreed < 8
    assert f"flaky: the case disagreed in {finding.disagreed} of 8 replays" in render(result, impl="cmd:x")


def test_a_lone_surrogate_in_a_text_is_a_finding_written_to_a_file_without_a_traceback(tmp_path, capsys):
    from conformance.cli import main

    impl = f"cmd:{sys.executable} {FAKES / 'hostile_surrogate.py'} text"
    assert main(["fuzz", "--impl", impl, "--max-examples", "20", "--seed", "1", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "lone surrogate" in captured.out
    [written] = tmp_path.glob("fuzz-*.yaml")
    assert str(written) in captured.out


@pytest.mark.parametrize("name", ["hostile_vendor_profiles", "hostile_no_profile"])
def test_an_implementation_claiming_no_activation_profile_has_nothing_to_fuzz(name, tmp_path, capsys):
    from conformance.cli import main

    assert main(["fuzz", "--impl", f"cmd:{sys.executable} {FAKES / f'{name}.py'}", "--max-examples", "5",
                 "--out", str(tmp_path)]) == 2
    assert "nothing to test" in capsys.readouterr().out and list(tmp_path.iterdir()) == []
