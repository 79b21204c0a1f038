"""The attribution table (spec/attribution.yaml): complete for the bundled suite, and what it blames."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from support.bundled import bundled_suite

from conformance.documents.step_table import HOST_KEYS
from conformance.suite.attribution import StepFacts, blame, candidates, history_of, step_facts
from conformance.suite.attribution_table import Table, load_table, parse_table
from conformance.suite.coverage import load_requirements
from conformance.suite.expectations import Mismatch
from conformance.suite.scenario import Scenario, Step
from reference_impl.events import Restart, StartRun
from reference_impl.model import HostConfig, Manifest
from reference_impl.spec_files import spec_dir


@pytest.fixture(scope="module")
def suite() -> list[Scenario]:
    scenarios, problems = bundled_suite()
    assert not problems, problems
    return scenarios


def _other(value: Any) -> Any:
    """A value that differs from ``value`` (what a wrong implementation might answer)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return 1 if value is None else f"{value}?" if isinstance(value, str) else None


def _host_mismatches(step: Step) -> list[Mismatch]:
    host, found = step.host, []
    if host is None:
        return found
    if host.events is not None:
        first = dict(host.events[0]) if host.events else "no more events"
        found.append(Mismatch(field="events", pointer="/events/0", expected=first, actual=None))
    if host.problems is not None:
        found.append(Mismatch(field="problems", pointer="/problems", check="set", expected=list(host.problems),
                              actual={"missing": [dict(p) for p in host.problems], "unexpected": []}))
    for key in ("load_order", "setup_order", "config", "provenance"):
        if getattr(host, key) is not None:
            found.append(Mismatch(field=key, pointer=f"/{key}", expected=getattr(host, key), actual={}))
    return found


def expectation_mismatches(step: Step) -> list[Mismatch]:
    """One made-up failure of each expectation the step states."""
    if step.action in HOST_KEYS:
        return _host_mismatches(step)
    found = []
    for key, value in step.expect.items():
        if step.action == "run" and value == "absent":
            found.append(Mismatch(field="shown", pointer="/plugins", subject=key, check="presence", expected="absent", actual="active"))
        elif step.action == "run":
            found += [Mismatch(field=k, pointer=f"/plugins/0/{k}", subject=key, expected=v, actual=_other(v)) for k, v in value.items()]
        else:
            found.append(Mismatch(field=key, pointer=f"/{key}", expected=value, actual=_other(value)))
    if step.shown is not None:
        found.append(Mismatch(field="shown", pointer="/plugins", check="set", expected=list(step.shown), actual=[]))
    if step.order is not None:
        found.append(Mismatch(field="order", pointer="/plugins", check="order", expected=list(step.order), actual=[]))
    if step.text is not None:
        found.append(Mismatch(field="text", pointer="/text", expected=step.text.equals or "", actual="?"))
    return found


def unmapped(table: Table, scenarios: list[Scenario]) -> list[str]:
    """Every stated expectation of ``scenarios`` that the table maps to no requirement."""
    missing = []
    for scenario in scenarios:
        for step in scenario.steps:
            facts = None
            for mismatch in expectation_mismatches(step):
                rule = table.rule(step.action, mismatch.field)
                if rule is not None:
                    facts = facts or step_facts(scenario, step)
                    found, extra = candidates(rule, mismatch, facts)
                    if found or set(extra) & facts.covered:
                        continue
                missing.append(f"{scenario.id} step {step.index} ({step.action}): {mismatch.field}")
    return missing


def test_every_expectation_of_every_bundled_scenario_maps_to_a_requirement(suite):
    assert unmapped(load_table(), suite) == []


def test_an_expectation_kind_missing_from_the_table_is_found(suite):
    with open(spec_dir() / "attribution.yaml", encoding="utf-8") as stream:
        doc = yaml.safe_load(stream)
    del doc["actions"]["run"]["fields"]["order"]
    assert any(line.endswith("(run): order") for line in unmapped(parse_table(doc, HOST_KEYS), suite))


def test_every_requirement_the_table_names_exists():
    assert sorted(load_table().requirement_ids() - set(load_requirements()[0])) == []


def test_the_table_is_valid_against_its_schema():
    with open(spec_dir() / "schemas" / "attribution.schema.yaml", encoding="utf-8") as stream:
        schema = yaml.safe_load(stream)
    with open(spec_dir() / "attribution.yaml", encoding="utf-8") as stream:
        doc = yaml.safe_load(stream)
    assert [e.message for e in Draft202012Validator(schema).iter_errors(doc)] == []
    doc["actions"]["run"]["fields"]["state"]["candidatez"] = ["ACT-STATE-1"]
    assert list(Draft202012Validator(schema).iter_errors(doc)) != []


# ------------------------------------------------------------------ what the table blames

_PROTECTED = Manifest(name="Basic", module_name="basic", version="1.0.0", description="d", allow_sleep=False)
_WEATHER = Manifest(name="Weather", module_name="weather", version="1.0.0", description="d", allow_sleep=True,
                    sleep_brief="Weather.")


def _facts(action: str = "run", covered: tuple[str, ...] = (), **changes: Any) -> StepFacts:
    host = HostConfig(enabled=("basic", "weather"))
    facts = StepFacts(action=action, host=host, plugins={"basic": _PROTECTED, "weather": _WEATHER},
                      states={"basic": "always_awake", "weather": "active"}, covered=frozenset(covered))
    return replace(facts, **changes)


def _state(subject: str, expected: str, actual: str) -> Mismatch:
    return Mismatch(field="state", pointer="/plugins/0/state", subject=subject, expected=expected, actual=actual)


def test_a_protected_plugin_shown_sleeping_blames_the_eligibility_row_that_protects_it():
    assert blame([_state("basic", "always_awake", "sleeping")], _facts()) == ("ACT-ELIG-1",)


def test_with_the_scheduler_off_a_plugin_not_always_awake_blames_act_sched_1():
    facts = _facts(host=HostConfig(enabled=("basic", "weather"), scheduler_enabled=False))
    assert blame([_state("weather", "always_awake", "sleeping")], facts) == ("ACT-SCHED-1",)


def test_a_wrong_rounds_left_blames_the_counting_rules_narrowed_to_the_covered_one():
    wrong = Mismatch(field="rounds_left", pointer="/plugins/1/rounds_left", subject="weather", expected=3, actual=2)
    assert blame([wrong], _facts()) == ("ACT-COUNT-2", "ACT-COUNT-3")
    assert blame([wrong], _facts(covered=("ACT-COUNT-3", "ACT-ORDER-1"))) == ("ACT-COUNT-3",)


def test_a_restart_is_blamed_only_after_one_happened_and_when_the_scenario_covers_it():
    wrong = Mismatch(field="rounds_left", pointer="/plugins/1/rounds_left", subject="weather", expected=3, actual=2)
    assert blame([wrong], _facts(covered=("ACT-COUNT-7",))) == ("ACT-COUNT-2", "ACT-COUNT-3")
    restarted = _facts(covered=("ACT-COUNT-7",), history=frozenset({"restarted"}))
    assert blame([wrong], restarted) == ("ACT-COUNT-7",)


def test_the_history_of_a_step_says_what_happened_before_it():
    run_main, run_side = StartRun(conversation="main"), StartRun(conversation="side")
    assert history_of([run_main], run_main) == frozenset()
    assert history_of([Restart(), run_main], run_side) == {"restarted", "conversations"}


def test_a_text_rendered_from_a_wrong_view_is_a_consequence_and_blames_nothing_itself():
    text = Mismatch(field="text", pointer="/text", expected="a", actual="b")
    assert blame([_state("basic", "always_awake", "sleeping"), text], _facts()) == ("ACT-ELIG-1",)
    assert blame([text], _facts()) == ("TXT-BLOCK-1",)


def test_a_text_that_differs_only_in_xml_escapes_blames_escaping():
    text = Mismatch(field="text", pointer="/text", expected='name="A &amp; B"', actual='name="A & B"')
    assert blame([text], _facts()) == ("TXT-BLOCK-2",)


def test_a_reply_outcome_blames_the_rule_of_the_expected_outcome():
    outcome = Mismatch(field="outcome", pointer="/outcome", expected="activated", actual="already_active")
    rounds = Mismatch(field="rounds", pointer="/rounds", expected=3, actual=0)
    facts = _facts(action="activate", module="weather", outcome="activated")
    assert blame([outcome, rounds], facts) == ("ACT-ACTIVATE-7",)
    small = Mismatch(field="outcome", pointer="/outcome", expected="activated", actual="invalid_argument")
    assert blame([small], replace(facts, rounds=0)) == ("ACT-ARG-2",)


def test_a_config_that_lost_a_nested_key_blames_the_deep_merge():
    config = Mismatch(field="config", pointer="/config", expected={"api": {"retries": 3, "timeout": 5}},
                      actual={"api": {"timeout": 5}})
    assert blame([config], StepFacts(action="host_read_config")) == ("HOST-CFG-2",)


def test_a_field_the_table_does_not_list_blames_the_actions_fallback():
    odd = Mismatch(field="observation", pointer="", expected="an observation object", actual=None)
    assert blame([odd], StepFacts(action="extend")) == load_table().fallback("extend")


def test_a_blank_brief_blames_act_elig_6_and_a_brief_some_trim_would_change_adds_it():
    """Issue 30: a blank-brief failure blames ACT-ELIG-6 (its rows in the eligibility table), and a
    brief present only because U+FEFF is not White_Space blames ACT-ELIG-6 beside the deciding row."""
    blank = replace(_WEATHER, module_name="blank", sleep_brief="\u3000\x85")
    marked = replace(_WEATHER, module_name="marked", sleep_brief="\ufeff")
    facts = _facts(plugins={"blank": blank, "marked": marked}, host=HostConfig(enabled=("blank", "marked")))
    assert blame([_state("blank", "always_awake", "sleeping")], facts) == ("ACT-ELIG-6",)
    assert blame([_state("marked", "sleeping", "always_awake")], facts) == ("ACT-ELIG-4", "ACT-ELIG-6")
    assert blame([_state("weather", "sleeping", "always_awake")], _facts()) == ("ACT-ELIG-4",)


def test_a_skipped_event_that_differs_only_in_its_cause_blames_the_cause_rule():
    differs = Mismatch(field="events", pointer="/events/3", expected={"event": "skipped", "module_name": "d", "cause": "b"},
                       actual={"event": "skipped", "module_name": "d", "cause": "a"})
    assert blame([differs], StepFacts(action="host_start")) == ("HOST-LIFE-5",)
    other = replace(differs, actual={"event": "set_up", "module_name": "d", "cause": None})
    assert blame([other], StepFacts(action="host_start")) == ("HOST-LIFE-3",)


def test_a_counter_lost_after_a_run_with_the_scheduler_off_and_the_counter_stale_blames_act_sched_2(suite):
    (scenario,) = [s for s in suite if s.id == "sched-off-runs-drop-no-stale-counter"]
    last = scenario.steps[-1]
    assert "stale_while_off" in step_facts(scenario, last).history
    assert "stale_while_off" not in step_facts(scenario, scenario.steps[5]).history  # the run that found it stale
    lost = _state("weather", "active", "sleeping")
    assert blame([lost], step_facts(scenario, last)) == ("ACT-SCHED-2",)
