"""pas fuzz on the host profile: the generator reaches every rule's inputs, the reference host agrees with
itself, every case is written as a host scenario that loads back as the same commands, and each
deliberately broken host is found and shrunk into a scenario that fails on it only."""

from __future__ import annotations

import functools
import itertools

import pytest
from support.fuzz_support import FAKES, fake_adapter, load

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.cli.main import main
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.fuzz.emit import Provenance, dump
from conformance.fuzz.host_case import HostCase
from conformance.fuzz.host_compare import compare_host_case, reference_observations
from conformance.fuzz.host_emit import check_host_document, host_scenario_document
from conformance.fuzz.host_generate import UNKNOWN, generate_host_case
from conformance.fuzz.host_minimise import candidates
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from reference_impl.host import HostEngine
from reference_impl.host_commands import Dispatch, Load, OpenConversation, ReadConfig, Reload, Start, Stop
from reference_impl.host_config import ENV_PREFIX
from reference_impl.model import HostConfig

#: Every broken host of tests/fakes: the classic ones and the single-bug ones of the host rules.
HOST_FAKES = tuple(sorted(p.stem for p in (*FAKES.glob("host_broken_*.py"), *FAKES.glob("single_host_*.py"))))


@functools.cache
def _cases() -> tuple[HostCase, ...]:
    return tuple(generate_host_case(seed, 24) for seed in range(1200))


@functools.cache
def _observed() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The problem codes and event kinds the reference host reports over the generated cases."""
    codes, kinds = set(), set()
    for case in _cases():
        for observed in reference_observations(case):
            codes |= {p["code"] for p in observed["problems"]}
            kinds |= {e["event"] for e in observed["events"]}
    return tuple(codes), tuple(kinds)


def test_loads_reach_every_problem_the_host_profile_reports():
    codes, _ = _observed()
    assert set(codes) >= {
        "plugin-not-found", "missing-dependency", "dependency-cycle", "invalid-config", "invalid-config-schema",
        "config-unknown-plugin", "env-unknown-plugin", "env-ambiguous-plugin", "env-ambiguous-key", "env-no-key",
        "env-empty-key", "override-syntax", "override-unknown-plugin", "override-plugin-not-loaded", "plugin-not-loaded"}


def test_commands_reach_every_lifecycle_event():
    _, kinds = _observed()
    assert set(kinds) == {"registered", "invalid", "skipped", "set_up", "setup_failed", "started", "stopped",
                          "torn_down", "hook_called", "hook_failed", "conversation_opened", "reloaded", "reload_refused"}


def test_dependencies_reach_missing_ones_cycles_self_dependencies_and_unloaded_plugins():
    seen = set()
    for case in _cases():
        names = {m.module_name for m in case.plugins}
        for plugin in case.plugins:
            deps = set(plugin.dependencies)
            seen |= {"missing"} if UNKNOWN in deps else set()
            seen |= {"self"} if plugin.module_name in deps else set()
            seen |= {"disabled"} if deps & case.host.disabled else set()
            seen |= {"left out"} if deps & (names - set(case.host.enabled) - {m.module_name for m in case.plugins if m.builtin}) else set()
            seen |= {"cycle"} if any(plugin.module_name in m.dependencies for m in case.plugins
                                     if m.module_name in deps and m is not plugin) else set()
    assert seen == {"missing", "self", "disabled", "left out", "cycle"}


def test_host_configs_list_plugins_out_of_name_order_so_set_up_ties_follow_the_list():
    unsorted = [c for c in _cases() if len(c.host.enabled) > 1 and list(c.host.enabled) != sorted(c.host.enabled)]
    assert len(unsorted) > 100


def test_environments_and_overrides_carry_the_values_hosts_get_wrong():
    variables, overrides = {}, set()
    for case in _cases():
        for each in (e for e in case.events if isinstance(e, Load)):
            variables.update(each.environment)
            overrides.update(each.overrides)
    names, values = set(variables), set(variables.values())
    assert {"NaN", "Infinity", "-Infinity", " metric ", "a=b", "天气", "", "https://x/?a=b"} <= values
    assert any(n.startswith("pas__") for n in names) and any(n.startswith("Pas__") for n in names)
    assert any(n.startswith(ENV_PREFIX) and not n[len(ENV_PREFIX):].isupper() for n in names)  # a module in lower case
    assert any(o.count("=") > 1 for o in overrides) and any("=" not in o for o in overrides)
    assert any(o.split("=", 1)[1] in ("NaN", "Infinity", " metric ") for o in overrides if "=" in o)
    listed = [list(e.environment) for c in _cases() for e in c.events if isinstance(e, Load) and len(e.environment) > 1]
    assert any(names != sorted(names) for names in listed)  # applied by name, not in the order given


def test_cases_reach_failing_setups_raising_hooks_reloads_conversations_before_and_after_start_and_reloads():
    seen = set()
    for case in _cases():
        started = False
        for event in case.events:
            if isinstance(event, Load):
                seen |= {"setup fails"} if event.behaviour.setup_fails else set()
                seen |= {"hook raises"} if event.behaviour.hook_raises else set()
                seen |= {"load again"} if event is not case.events[0] else set()
                started = False
            elif isinstance(event, Start):
                started = True
            elif isinstance(event, OpenConversation) or (isinstance(event, Dispatch) and event.conversation):
                seen.add(f"conversation {'after' if started else 'before'} start")
            seen |= {type(event).__name__}
    assert seen >= {"setup fails", "hook raises", "load again", "conversation before start", "conversation after start",
                    "Start", "Stop", "Dispatch", "OpenConversation", "Reload", "ReadConfig"}


def test_the_reference_host_agrees_with_itself_on_every_generated_case():
    adapter = reference_adapter()
    for case in _cases()[:400]:
        assert compare_host_case(adapter, case).disagreement is None


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_a_generated_case_is_written_as_a_host_scenario_that_loads_back_as_the_same_commands(seed, tmp_path):
    case = generate_host_case(seed, 24)
    found = Disagreement(verdict=Verdict.ERRORED, index=len(case.events) - 1, event=case.events[-1], reason="x")
    doc = host_scenario_document(case, found, Provenance(name="x", impl="x", seed=seed, text=False))
    path = tmp_path / f"{doc['id']}.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    scenario = load(path)
    assert (scenario.plugins, scenario.host) == (case.plugins, case.host)
    assert tuple(step.event for step in scenario.steps) == case.events
    assert check_host_document(doc, case, path=str(path)) == []


def test_the_simpler_variants_keep_the_first_load_and_the_last_command():
    case = max(_cases()[:50], key=lambda c: len(c.events))
    for variant in itertools.islice(candidates(case), 300):
        assert isinstance(variant.events[0], Load) and variant.events[-1] == case.events[-1]
        assert variant.written_steps() is not None


@pytest.mark.parametrize("name", HOST_FAKES)
def test_each_broken_host_is_found_and_shrunk_into_a_host_scenario_that_fails_on_it_only(name, tmp_path):
    result = fuzz(fake_adapter(name), FuzzOptions(max_examples=2000, seed=0, profiles=("host",)))
    finding = result.finding
    assert len(HOST_FAKES) >= 14
    assert finding is not None and finding.reproducible and not finding.before, name
    assert isinstance(finding.case, HostCase) and len(finding.case.events) <= 6
    doc = host_scenario_document(finding.case, finding.disagreement,
                                 Provenance(name=name, impl=name, seed=0, text=False))
    path = tmp_path / "found.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    scenario = load(path)
    assert run_scenario(reference_adapter(), scenario, profiles=("host",)).outcome is Outcome.PASSED
    assert run_scenario(fake_adapter(name), scenario, profiles=("host",)).outcome is Outcome.FAILED


def test_a_host_only_implementation_is_fuzzed_with_host_cases():
    result = fuzz(InProcessAdapter(HostEngine, name="host"), FuzzOptions(max_examples=60, seed=5))
    assert result.finding is None and result.hello_error is None and result.steps > 60


def test_profile_host_writes_a_host_scenario(fakes_importable, tmp_path, capsys):
    code = main(["fuzz", "--impl", "python:host_broken_hook_stops:create", "--profile", "host", "--seed", "0",
                 "--max-examples", "2000", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1, out
    written = list(tmp_path.glob("fuzz-*.yaml"))
    assert len(written) == 1 and "host_dispatch" in written[0].read_text(encoding="utf-8")
    assert "HOST-HOOK-2" in load(written[0]).covers


def test_a_read_of_a_plugin_not_loaded_expects_the_problem_and_no_config():
    case = HostCase(plugins=(), host=HostConfig(), events=(Load(), ReadConfig(module_name="x"), Reload(module_name="x"),
                                                           Stop()))
    observed = reference_observations(case)
    assert [p["code"] for p in observed[1]["problems"]] == ["plugin-not-loaded"] and "config" not in observed[1]
