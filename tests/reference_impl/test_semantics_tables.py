"""spec/semantics.yaml as loaded by the reference: constants, tables, requirement IDs."""

from __future__ import annotations

import itertools

import pytest
import yaml

from reference_impl.model import OutcomeKind, PluginState
from reference_impl.semantics import TableRow, first_match, load_semantics, parse_semantics
from reference_impl.spec_files import spec_dir, spec_version


@pytest.fixture(scope="module")
def semantics():
    return load_semantics()


@pytest.fixture(scope="module")
def requirement_ids() -> set[str]:
    with open(spec_dir() / "requirements.yaml", encoding="utf-8") as stream:
        return {entry["id"] for entry in yaml.safe_load(stream)["requirements"]}


def test_the_constants_are_those_of_the_spec_ACT_ARG_1_2_3(semantics):
    """Covers: ACT-ARG-1, ACT-ARG-2, ACT-ARG-3, ACT-SCHED-1."""
    assert (semantics.default_active_rounds, semantics.min_active_rounds, semantics.max_active_rounds) == (3, 1, 20)
    assert semantics.scheduler_module == "plugin_activation"


def test_every_rule_names_a_requirement_that_exists(semantics, requirement_ids):
    rules = list(semantics.eligibility) + [r for m in semantics.methods.values() for r in m.outcomes]
    assert {rule.requirement for rule in rules} <= requirement_ids


def test_the_eligibility_rows_cite_the_scheduler_rule_then_the_four_precedence_rules_in_order(semantics):
    """Covers: ACT-ELIG-8 first (the scheduler never sleeps), then ACT-ELIG-1..4, highest first;
    ACT-ELIG-6 decides a blank brief inside the rules of ACT-ELIG-3 and ACT-ELIG-4."""
    cited = [rule.requirement for rule in semantics.eligibility]
    assert cited[0] == "ACT-ELIG-8" and semantics.eligibility[0].when == {"scheduler": True}
    precedence = [c for c in cited[1:] if c != "ACT-ELIG-6"]
    assert precedence == sorted(precedence) and set(precedence) == {"ACT-ELIG-1", "ACT-ELIG-2", "ACT-ELIG-3", "ACT-ELIG-4"}
    assert [r.when for r in semantics.eligibility if r.requirement == "ACT-ELIG-6"] == [
        {"strategy": "allow_sleep", "brief": "blank"}, {"allow_sleep": True, "brief": "blank"}]


def test_every_table_ends_with_a_catch_all_and_covers_every_combination(semantics):
    tables = [semantics.eligibility] + [m.outcomes for m in semantics.methods.values()]
    assert all(table[-1].when == {} for table in tables)
    for scheduler, allow, strategy, brief in itertools.product((True, False), (True, False, None),
                                                               ("auto", "allow_sleep", "forbid_sleep"),
                                                               ("present", "blank", "empty")):
        first_match(semantics.eligibility,
                    {"scheduler": scheduler, "allow_sleep": allow, "strategy": strategy, "brief": brief})


def test_a_table_without_a_matching_row_is_a_lookup_error():
    with pytest.raises(LookupError, match="catch-all"):
        first_match((TableRow(requirement="X-Y-1", when={"a": 1}, result=True),), {"a": 2})


OUTCOME_REQUIREMENTS = {
    "activate_plugin": {"invalid_argument": "ACT-ARG-4", "not_found": "ACT-ACTIVATE-1", "always_awake": "ACT-ACTIVATE-2",
                        "already_active": "ACT-ACTIVATE-3", "activated": "ACT-ACTIVATE-4"},
    "extend_plugin_activation": {"invalid_argument": "ACT-ARG-4", "not_found": "ACT-EXTEND-1",
                                 "always_awake": "ACT-EXTEND-2", "extended": "ACT-EXTEND-3"},
}


@pytest.mark.parametrize("method", sorted(OUTCOME_REQUIREMENTS))
def test_each_outcome_row_cites_the_requirement_of_its_outcome(semantics, method):
    """Covers: ACT-ACTIVATE-1..4, ACT-EXTEND-1..3, ACT-ARG-4."""
    rows = semantics.methods[method].outcomes
    assert {row.result: row.requirement for row in rows} == OUTCOME_REQUIREMENTS[method]
    assert all(OutcomeKind(row.result) for row in rows)


def test_the_method_kinds_decide_whether_a_reply_ends_the_step_ACT_ACTIVATE_5_ACT_EXTEND_4(semantics):
    """Covers: ACT-ACTIVATE-5, ACT-EXTEND-4."""
    activate, extend = semantics.methods["activate_plugin"], semantics.methods["extend_plugin_activation"]
    assert (activate.kind, activate.ends_step) == ("agent", True)
    assert (extend.kind, extend.ends_step) == ("behavior", False)


def test_the_visibility_table_has_one_row_per_state_ACT_STATE_1_2_3_4(semantics):
    """Covers: ACT-STATE-1, ACT-STATE-2, ACT-STATE-3, ACT-STATE-4, ACT-STATE-6."""
    assert set(semantics.visibility) == {s.value for s in PluginState}
    shown = {state: (v.shows, v.brief_shown, v.methods_shown, v.injection_called, v.rounds_left, v.hint)
             for state, v in semantics.visibility.items()}
    assert shown == {
        "always_awake": ("block", False, True, True, False, "never"),
        "active": ("block", False, True, True, True, "last_run"),
        "sleeping": ("brief", True, False, False, False, "never"),
    }


def test_the_loaded_tables_are_read_only(semantics):
    with pytest.raises(TypeError):
        semantics.visibility["hidden"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        semantics.eligibility[0].when["strategy"] = "auto"  # type: ignore[index]


def test_parse_semantics_reads_the_file_the_reference_loads(semantics):
    with open(spec_dir() / "semantics.yaml", encoding="utf-8") as stream:
        assert parse_semantics(yaml.safe_load(stream)) == semantics


def test_the_spec_version_is_read_from_its_single_home():
    assert spec_version() == (spec_dir() / "VERSION").read_text(encoding="utf-8").strip() == "1.1.0"
