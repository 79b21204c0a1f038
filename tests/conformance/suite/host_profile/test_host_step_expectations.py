"""How a host step's observation is compared: events by position on the keys given, problems as
a multiset, orders and configs exactly, provenance only when the host reports it."""

from __future__ import annotations

from typing import Any

from conformance.suite.expectations import check_host, check_step
from conformance.suite.scenario import HostExpectation, Step
from reference_impl.host_commands import Start

EVENTS = [{"event": "set_up", "module_name": "memory"}, {"event": "setup_failed", "module_name": "notes"},
          {"event": "started", "module_name": "memory", "generation": 1}]


def problem(code: str, *plugins: str, severity: str = "error") -> dict[str, Any]:
    return {"code": code, "severity": severity, "message": "free text", "plugins": list(plugins), "origin": None}


def observed(**fields: Any) -> dict[str, Any]:
    return {"events": [], "problems": [], **fields}


def pointers(expectation: HostExpectation, observation: dict[str, Any]) -> list[str]:
    return [m.where for m in check_host(expectation, observation)]


def test_expected_events_are_compared_only_on_the_keys_they_give() -> None:
    expected = ({"event": "set_up"}, {"event": "setup_failed", "module_name": "notes"}, {"event": "started"})
    assert pointers(HostExpectation(events=expected), observed(events=EVENTS)) == []


def test_the_first_event_that_differs_is_reported_with_only_the_keys_the_scenario_gives() -> None:
    expected = ({"event": "set_up"}, {"event": "set_up", "module_name": "notes"}, {"event": "started"})
    [mismatch] = check_host(HostExpectation(events=expected), observed(events=EVENTS))
    assert mismatch.pointer == "/events/1"
    assert mismatch.actual == {"event": "setup_failed", "module_name": "notes"}


def test_a_missing_or_an_extra_event_is_a_mismatch_with_the_counts() -> None:
    assert pointers(HostExpectation(events=({"event": "set_up"},)), observed(events=EVENTS)) == [
        "/events/1", "/events (count)"]
    four = (*EVENTS, {"event": "started", "module_name": "dice"})
    assert pointers(HostExpectation(events=tuple(four)), observed(events=EVENTS)) == ["/events/3", "/events (count)"]
    assert pointers(HostExpectation(events=()), observed(events=[])) == []


def test_problems_match_as_a_multiset_whatever_their_order_and_messages() -> None:
    expectation = HostExpectation(problems=({"code": "plugin-not-found", "severity": "warning"},
                                            {"code": "missing-dependency", "plugins": ["notes", "vault"]}))
    found = [problem("missing-dependency", "notes", "vault"), problem("plugin-not-found", "x", severity="warning")]
    assert pointers(expectation, observed(problems=found)) == []


def test_a_missing_and_an_unexpected_problem_are_both_shown() -> None:
    expectation = HostExpectation(problems=({"code": "missing-dependency", "plugins": ["notes", "vault"]},))
    [mismatch] = check_host(expectation, observed(problems=[problem("missing-dependency", "vault", "notes")]))
    assert mismatch.pointer == "/problems"
    assert mismatch.actual == {"missing": [{"code": "missing-dependency", "plugins": ["notes", "vault"]}],
                               "unexpected": [{"code": "missing-dependency", "severity": "error",
                                               "plugins": ["vault", "notes"]}]}


def test_a_general_expected_problem_does_not_steal_the_one_a_specific_expectation_needs() -> None:
    expectation = HostExpectation(problems=({"code": "dependency-cycle"},
                                            {"code": "dependency-cycle", "plugins": ["a", "b"]}))
    found = [problem("dependency-cycle", "a", "b"), problem("dependency-cycle", "c", "d")]
    assert pointers(expectation, observed(problems=found)) == []


def test_a_cycle_may_be_reported_from_any_of_its_plugins_but_not_backwards() -> None:
    expectation = HostExpectation(problems=({"code": "dependency-cycle", "plugins": ["a", "b", "c"]},))
    assert pointers(expectation, observed(problems=[problem("dependency-cycle", "b", "c", "a")])) == []
    assert pointers(expectation, observed(problems=[problem("dependency-cycle", "c", "b", "a")])) == ["/problems (set)"]


def test_orders_and_config_are_compared_exactly() -> None:
    expectation = HostExpectation(load_order=("a", "b"), setup_order=("b", "a"), config={"x": {"y": [1]}})
    assert pointers(expectation, observed(load_order=["a", "b"], setup_order=["b", "a"], config={"x": {"y": [1]}})) == []
    assert pointers(expectation, observed(load_order=["b", "a"], setup_order=["b", "a"], config={"x": {"y": [1, 2]}})) \
        == ["/load_order", "/config"]
    assert pointers(HostExpectation(config={}), observed()) == ["/config"]


def test_provenance_is_checked_only_when_the_host_reports_it() -> None:
    expectation = HostExpectation(provenance={"/a": "file", "/b/c": "environment"})
    config = {"a": 1, "b": {"c": 2}}
    assert pointers(expectation, observed(config=config)) == []
    reported = {"/a": {"layer": "file"}, "/b/c": {"layer": "defaults", "origin": None}}
    assert pointers(expectation, observed(config=config, provenance=reported)) == ["/provenance/~1b~1c/layer"]


def test_provenance_for_a_value_the_config_does_not_hold_is_a_stale_entry_HOST_CFG_8() -> None:
    expectation = HostExpectation(provenance={"/api": "command_line"})
    reported = {"/api": {"layer": "command_line"}, "/api/timeout_s": {"layer": "file"}, "/list/1": {"layer": "file"},
                "/list/0": {"layer": "file"}, "/a~1b": {"layer": "defaults"}}
    config = {"api": 3, "list": ["x"], "a/b": True}
    assert pointers(expectation, observed(config=config, provenance=reported)) == [
        "/provenance/~1api~1timeout_s (stale)", "/provenance/~1list~11 (stale)"]


def test_a_host_step_without_expectations_accepts_any_observation_and_text_is_never_checked() -> None:
    step = Step(index=0, action="host_start", event=Start())
    assert check_step(step, observed(events=EVENTS), text=True) == []
    checked = Step(index=0, action="host_start", event=Start(), host=HostExpectation(events=()))
    assert [m.where for m in check_step(checked, observed(events=EVENTS), text=True)] == [
        "/events/0", "/events (count)"]


def test_a_malformed_host_observation_is_a_mismatch_not_a_crash() -> None:
    expectation = HostExpectation(events=(), problems=())
    assert pointers(expectation, {"events": "none", "problems": {"a": 1}}) == ["/events", "/problems"]
