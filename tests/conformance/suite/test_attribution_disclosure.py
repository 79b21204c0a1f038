"""Attribution of disclosure failures: what differs, what happened before, what was declared, and the rule blamed."""

from __future__ import annotations

from conformance.suite.attribution import blamed
from conformance.suite.attribution_disclosure import answer_key, disclosure_history, shown_difference
from conformance.suite.mismatch import Mismatch
from conformance.suite.scenario import Scenario, Step
from reference_impl.disclosure_commands import EndRequest, LoadCall, ModelStep, Rebuild, Request, Store, Tool, Trim
from reference_impl.disclosure_options import Options, Order

TOOLS = (Tool(name="weather"), Tool(name="calendar"), Tool(name="clock", always_visible=True))


def _scenario(events: list, covers: tuple[str, ...], **step: object) -> tuple[Scenario, Step]:
    actions = {Request: "request", ModelStep: "model_step", EndRequest: "end_request", Rebuild: "rebuild",
               Trim: "trim_history"}
    steps = tuple(Step(index=i, action=actions[type(e)], event=e, **(step if i == len(events) - 1 else {}))
                  for i, e in enumerate(events))
    return Scenario(id="s", title="t", covers=covers, steps=steps, profiles=("disclosure",), tools=TOOLS), steps[-1]


def _shown(expected: list[str], actual: list[str]) -> Mismatch:
    return Mismatch(field="shown", pointer="/tools", check="set", expected=expected, actual=actual)


LOADED = [Request(), ModelStep(calls=(LoadCall(names=("weather",)),)), EndRequest()]


def test_a_tool_missing_after_a_rebuild_blames_the_rebuild_rule_when_the_scenario_covers_it():
    scenario, step = _scenario([*LOADED, Rebuild(store=Store.KEPT), Request()], ("DISC-PERSIST-4",))
    assert blamed(scenario, step, [_shown(["clock", "weather"], ["clock"])]) == ("DISC-PERSIST-4",)
    scenario, step = _scenario([*LOADED, Request()], ("DISC-PERSIST-2",))
    assert blamed(scenario, step, [_shown(["clock", "weather"], ["clock"])]) == ("DISC-PERSIST-2",)


def test_a_tool_shown_in_another_thread_blames_the_scope_rules():
    scenario, step = _scenario([*LOADED, Request(thread="b")], ("DISC-SCOPE-1", "DISC-SCOPE-2"))
    assert blamed(scenario, step, [_shown(["clock"], ["clock", "weather"])]) == ("DISC-SCOPE-1", "DISC-SCOPE-2")


def test_an_order_mismatch_blames_the_rule_of_the_declared_order():
    scenario, step = _scenario([Request()], ("DISC-ORDER-1", "DISC-ORDER-2"))
    moved = Mismatch(field="order", pointer="/tools", check="order", expected=["a", "b"], actual=["b", "a"])
    assert blamed(scenario, step, [moved], declared=Options()) == ("DISC-ORDER-1",)
    assert blamed(scenario, step, [moved], declared=Options(order=Order.CATALOGUE)) == ("DISC-ORDER-2",)


def test_answers_blame_the_rule_of_the_outcome_that_differs():
    scenario, step = _scenario([Request(), ModelStep(calls=(LoadCall(names=("weather", "nope"), several=True),))], ())

    def outcome(expected: str, actual: str) -> Mismatch:
        return Mismatch(field="answers", pointer="/answers/0/results/1/outcome", subject="load", expected=expected,
                        actual=actual)

    assert blamed(scenario, step, [outcome("not_found", "loaded")]) == ("DISC-LOAD-3",)
    assert blamed(scenario, step, [outcome("loaded", "unstated")]) == ("DISC-LOAD-4",)
    unsupported = Mismatch(field="answers", pointer="/answers/0/unsupported", subject="search", expected="x", actual=True)
    assert blamed(scenario, step, [unsupported]) == ("DISC-CAT-3",)


def test_the_keys_the_table_reads():
    assert shown_difference(_shown(["clock", "weather"], ["weather"]), TOOLS) == ["missing_always"]
    assert shown_difference(_shown(["clock"], ["clock", "ghost", "weather"]), TOOLS) == ["extra_deferred"]
    assert answer_key(Mismatch(field="answers", pointer="/answers/2/found", subject="search", expected=[], actual=["a"])) \
        == ["search.found"]
    assert answer_key(Mismatch(field="answers", pointer="/answers", check="count", expected=1, actual=2)) == []


def test_history_says_what_happened_before_a_step_on_its_thread():
    before = [*LOADED, Trim(thread="main", keep=0), Rebuild(store=Store.RESET)]
    assert disclosure_history(before, Request()) == {"requests", "trimmed", "rebuilt"}
    assert disclosure_history(before, Request(thread="b")) == {"threads", "rebuilt"}
    assert disclosure_history([Request()], ModelStep()) == frozenset()  # a step of the first request
