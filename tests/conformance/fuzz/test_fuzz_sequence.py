"""A disagreement that shows only after earlier cases is reported with the sequence of cases that reproduces it.

``leak_start_keeps_counters`` keeps the counters of the case before across ``start``: no case
disagrees alone, so the finding must be the sequence, written as a folder of scenarios that fails
on it run in order (and passes, last case alone). A host that keeps its conversations across
``host-load`` leaks between host cases: over the same plugins and host config they are one scenario.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from support.fuzz_support import fake_adapter, load

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.cli.main import main
from conformance.fuzz.compare import Verdict
from conformance.fuzz.emit import Provenance
from conformance.fuzz.host_case import HostCase
from conformance.fuzz.host_compare import compare_host_case
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.fuzz.sequence import across_cases
from conformance.fuzz.sequence_emit import write_sequence
from conformance.fuzz.session import write_finding
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario, run_suite
from conformance.suite.scenario import load_suite
from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation
from reference_impl.host import HostEngine, HostObservation
from reference_impl.host_commands import Dispatch, HostCommand, Load, OpenConversation, Start
from reference_impl.model import HostConfig, Manifest

LEAK = "leak_start_keeps_counters"
_ONCE = itertools.count()


def _outcomes(adapter, folder) -> list[Outcome]:
    scenarios, problems = load_suite([folder])
    assert not problems, problems
    return [r.outcome for r in run_suite(adapter, scenarios, profiles=("activation", "text")).results]


def test_a_leak_across_start_is_reported_as_the_sequence_of_cases_that_shows_it(tmp_path):
    adapter = fake_adapter(LEAK)
    result = fuzz(adapter, FuzzOptions(max_examples=500, seed=0, profiles=("activation", "text")))
    finding = result.finding
    assert finding is not None and finding.reproducible
    assert finding.before, "a disagreement that only shows after earlier cases was reported without them"
    summary = write_finding(result, adapter, impl=f"python:{LEAK}:create", out_dir=tmp_path)
    assert "did not disagree again" not in summary and "only after 1 earlier case" in summary
    folder = next(tmp_path.glob("fuzz-seq-*"))
    assert folder.is_dir() and f"wrote {folder} (2 scenarios" in summary and "warning" not in summary
    files = sorted(folder.glob("*.yaml"))
    assert [f.name[:3] for f in files] == ["01-", "02-"] and (folder / "README.md").is_file()
    assert _outcomes(fake_adapter(LEAK), folder) == [Outcome.PASSED, Outcome.FAILED]
    assert _outcomes(reference_adapter(), folder) == [Outcome.PASSED, Outcome.PASSED]
    last = load(files[-1])
    assert run_scenario(fake_adapter(LEAK), last, profiles=("activation", "text")).outcome is Outcome.PASSED  # alone


def test_the_command_prints_the_folder_and_how_to_run_it_in_order(fakes_importable, tmp_path, capsys):
    code = main(["fuzz", "--impl", f"python:{LEAK}:create", "--seed", "0", "--profile", "activation",
                 "--out", str(tmp_path)])
    out = capsys.readouterr().out
    folder = next(tmp_path.glob("fuzz-seq-*"))
    assert code == 1 and f"reproduce: pas run --impl 'python:{LEAK}:create' --scenario {folder}" in out


class _KeepsConversations(HostEngine):
    """A host whose load forgets everything but the conversations opened before it (the leak)."""

    def apply(self, command: HostCommand) -> HostObservation:
        kept = self._state.conversations
        observation = super().apply(command)
        if isinstance(command, Load):
            self._state = replace(self._state, conversations=kept)
        return observation


def _host_case(module: str, *events: HostCommand) -> HostCase:
    plugins = (Manifest(name=module.title(), module_name=module, version="1.0.0", description=".", hooks=("on_message",)),)
    host = HostConfig(enabled=(module,))
    return HostCase(plugins=plugins, host=host, events=(Load(plugins=plugins, host=host), *events))


def test_a_leak_across_host_load_between_host_cases_is_one_host_scenario(tmp_path):
    earlier = _host_case("weather", Start(), OpenConversation(conversation="c1"))
    later = _host_case("memory", Start(), Dispatch(hook="on_message", conversation="c1"))
    adapter = InProcessAdapter(_KeepsConversations, name="keeps")
    found = compare_host_case(adapter, earlier).disagreement or compare_host_case(adapter, later).disagreement
    assert found is not None and found.verdict is Verdict.FAILED
    across = across_cases([earlier], later, found, compare=lambda c: compare_host_case(adapter, c).disagreement,
                          reset=adapter.reset, deadline=float("inf"))
    assert across is not None and len(across.before) == 1
    provenance = Provenance(name="keeps", impl="python:keeps", seed=0, text=False)
    path, problems = write_sequence(across.before, across.case, across.disagreement, provenance, tmp_path)
    assert problems == [] and path is not None and path.is_file(), "host cases over one world are one scenario"
    scenario = load(path)
    assert [s.action for s in scenario.steps].count("host_load") == 2
    assert "keeps state across it" in scenario.description
    assert run_scenario(reference_adapter(), scenario, profiles=("host",)).outcome is Outcome.PASSED
    assert run_scenario(InProcessAdapter(_KeepsConversations, name="keeps"), scenario,
                        profiles=("host",)).outcome is Outcome.FAILED


class _WrongOnceInTheProcess(Engine):
    """Wrong on the first run this process ever sees, right ever after (a flaky implementation)."""

    def apply(self, event: Event) -> Observation:
        observation = super().apply(event)
        if isinstance(observation, RunObservation) and observation.plugins and next(_ONCE) == 0:
            return replace(observation, plugins=())
        return observation


def test_a_disagreement_no_sequence_brings_back_is_flaky_not_a_sequence():
    result = fuzz(InProcessAdapter(_WrongOnceInTheProcess, name="once"),
                  FuzzOptions(max_examples=50, seed=0, profiles=("activation",), shrink_budget=5))
    finding = result.finding
    assert finding is not None and not finding.reproducible and not finding.before


def test_a_disagreement_that_shows_alone_has_no_earlier_cases():
    result = fuzz(fake_adapter("broken_decrements_sleeping"), FuzzOptions(max_examples=500, seed=0,
                                                                           profiles=("activation",)))
    assert result.finding is not None and result.finding.reproducible and result.finding.before == ()
