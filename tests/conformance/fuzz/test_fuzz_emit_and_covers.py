"""The emitted scenario: stable layout, full reference expectations, checks before writing; covers."""

from __future__ import annotations

import pytest
import yaml
from support.fuzz_support import load_fake, loads_back

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.documents.step_form import Unwritable
from conformance.fuzz.case import Case
from conformance.fuzz.compare import Disagreement, Verdict, compare_case
from conformance.fuzz.covers import derive_covers
from conformance.fuzz.emit import Provenance, dump, scenario_document, write_scenario
from conformance.fuzz.search import Finding, FuzzResult
from conformance.fuzz.session import write_finding
from conformance.fuzz.strategies import manifest
from conformance.suite.attribution_table import load_table
from conformance.suite.coverage import load_requirements
from conformance.suite.expectations import Mismatch
from reference_impl.engine import Engine
from reference_impl.events import Activate, Extend, SetStrategy, StartRun
from reference_impl.model import HostConfig

_ALPHA = manifest("alpha")
_PROVENANCE = Provenance(name="broken", impl="python:broken:create", seed=7, text=True, original_steps=9)


def _case(*events, plugins=(_ALPHA,)) -> Case:
    return Case(plugins=plugins, host=HostConfig(enabled=tuple(m.module_name for m in plugins)), events=events)


def _found(case: Case, fake: str) -> Disagreement:
    found = compare_case(InProcessAdapter(load_fake(fake).create), case, Engine(), text=True).disagreement
    assert found is not None
    return found


def test_the_document_lists_its_keys_in_a_stable_readable_order_with_every_step_fully_expected():
    case = _case(Activate(conversation="main", module_name="alpha"), StartRun(conversation="main"))
    doc = scenario_document(case, _found(case, "broken_counts_activation_run"), _PROVENANCE)
    assert list(doc) == ["id", "title", "description", "source", "covers", "plugins", "host", "steps"]
    assert doc["id"].startswith("fuzz-") and len(doc["id"]) == len("fuzz-") + 10
    call, run = doc["steps"]
    assert call["expect"] == {"outcome": "activated", "rounds": 3, "ends_step": True,
                              "block": {"state": "active", "rounds_left": 3, "hint": False, "brief_shown": False,
                                        "methods_shown": True, "injection_called": False}}
    assert list(run)[:3] == ["run", "note", "covers"] and run["run"] is None
    assert run["shown"] == run["order"] == ["alpha"] and "equals" in run["text"]
    assert "--seed 7" in doc["source"] and "shrunk from 9 steps" in doc["description"]


def test_the_dumped_text_loads_back_as_the_same_case_and_passes_on_the_reference(tmp_path):
    case = _case(Extend(conversation="side", module_name="alpha", rounds="3"), StartRun(conversation="qq", adapter="onebot_v11"))
    found = Disagreement(verdict=Verdict.ERRORED, index=1, event=case.events[1], reason="it crashed")
    doc = scenario_document(case, found, _PROVENANCE)
    assert doc["conversations"] == {"qq": {"adapter": "onebot_v11"}}
    assert doc["steps"][0]["extend"] == {"module_name": "alpha", "rounds": "3", "conversation": "side"}
    loads_back(doc, case, tmp_path)
    assert yaml.safe_load(dump(doc)) == doc


def test_a_document_whose_expectations_do_not_hold_on_the_reference_is_not_written(tmp_path):
    case = _case(StartRun(conversation="main"))
    doc = scenario_document(case, Disagreement(verdict=Verdict.ERRORED, index=0, event=case.events[0]), _PROVENANCE)
    doc["steps"][0]["expect"]["alpha"]["state"] = "active"
    path, problems = write_scenario(doc, case, tmp_path, text_profile=True)
    assert path is None and "failed on the reference" in problems[0].message
    assert list(tmp_path.iterdir()) == []


def test_a_document_that_breaks_the_schema_is_not_written(tmp_path):
    case = _case(StartRun(conversation="main"))
    doc = scenario_document(case, Disagreement(verdict=Verdict.ERRORED, index=0, event=case.events[0]), _PROVENANCE)
    doc["id"] = "Not Kebab"
    path, problems = write_scenario(doc, case, tmp_path, text_profile=True)
    assert path is None and problems[0].code == "schema"


def test_a_text_only_difference_makes_a_scenario_that_needs_the_text_profile():
    case = _case(StartRun(conversation="main"))
    found = Disagreement(verdict=Verdict.FAILED, index=0, event=case.events[0], expected={"plugins": []},
                         mismatches=(Mismatch(field="text", pointer="/text", expected="a", actual="b"),))
    assert scenario_document(case, found, _PROVENANCE)["profiles"] == ["activation", "text"]


def test_every_requirement_in_the_covers_table_exists():
    assert load_table().requirement_ids() <= set(load_requirements()[0])


def test_a_reactivation_answered_already_active_is_charged_to_act_activate_7():
    case = _case(Activate(conversation="main", module_name="alpha", rounds=1), StartRun(conversation="main"),
                 Activate(conversation="main", module_name="alpha"))
    covers = derive_covers(case, _found(case, "broken_reactivate_last_run"), case.host)
    assert covers[0] == "ACT-ACTIVATE-7"


def test_an_extension_past_the_cap_is_charged_to_act_extend_6():
    case = _case(Extend(conversation="main", module_name="alpha", rounds=20), Extend(conversation="main", module_name="alpha"))
    assert "ACT-EXTEND-6" in derive_covers(case, _found(case, "broken_extend_no_clamp"), case.host)


def test_a_counter_leaking_into_another_conversation_is_charged_to_act_count_6():
    case = _case(Activate(conversation="main", module_name="alpha"), StartRun(conversation="side"))
    assert "ACT-COUNT-6" in derive_covers(case, _found(case, "broken_shared_counters"), case.host)


def test_an_errored_step_falls_back_to_what_its_kind_touches():
    case = _case(Extend(conversation="main", module_name="ghost"))
    found = Disagreement(verdict=Verdict.ERRORED, index=0, event=case.events[0], reason="boom")
    assert derive_covers(case, found, case.host) == load_table().fallback("extend")


def test_a_case_no_scenario_file_can_say_is_reported_and_not_written(tmp_path):
    # A conversation moved to discord cannot go back to no adapter in a scenario file; the
    # minimiser never returns such a case, and a hand-made one is a problem, not a traceback.
    case = _case(StartRun(conversation="main", adapter="discord"), StartRun(conversation="main"))
    found = Disagreement(verdict=Verdict.ERRORED, index=1, event=case.events[1], reason="it crashed")
    with pytest.raises(Unwritable):
        scenario_document(case, found, _PROVENANCE)
    result = FuzzResult(info=None, seed=7, text=True, finding=Finding(case=case, disagreement=found, original_steps=2))
    text = write_finding(result, reference_adapter(), impl="python:broken:create", out_dir=tmp_path)
    assert "could not write the scenario" in text and "no adapter" in text
    assert list(tmp_path.iterdir()) == []


def test_strings_that_yaml_1_2_reads_as_numbers_are_quoted_so_the_file_loads_them_back_as_strings(tmp_path):
    # PyYAML quotes by YAML 1.1, where "0E0" and "1e5" are strings; PAS's loader reads YAML 1.2, where they are numbers.
    odd = ["0E0", "1e5", "0o17", "0x1F", "+1", "-.5", "1_000", "null", "~"]
    case = _case(*(SetStrategy(module_name="alpha", strategy=text) for text in odd),
                 SetStrategy(module_name="alpha", strategy={text: text for text in odd}), StartRun(conversation="main"))
    found = Disagreement(verdict=Verdict.ERRORED, index=len(case.events) - 1, event=case.events[-1], reason="x")
    loads_back(scenario_document(case, found, _PROVENANCE), case, tmp_path)
