"""The strategies reach every eligibility combination, every host setting and every kind of step."""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, Phase, given, settings

from conformance.fuzz.case import CONVERSATIONS, action_of
from conformance.fuzz.strategies import ALLOW_SLEEP, BRIEFS, ELIGIBILITY_ROWS, FLAG_ROWS, ROUNDS, STRATEGY_VALUES, UNKNOWN, cases, plugin_sets, worlds
from reference_impl.events import OMITTED
from reference_impl.model import Strategy

_SETTINGS = settings(max_examples=200, database=None, derandomize=True, deadline=None, phases=[Phase.generate],
                     suppress_health_check=list(HealthCheck))


def _collect(strategy, describe, examples: int = 200) -> set:
    seen: set = set()

    @settings(_SETTINGS, max_examples=examples)
    @given(strategy)
    def record(value):
        seen.update(describe(value))

    record()
    return seen


def _brief(text: str) -> str:
    return "white space" if text and not text.strip() else "text" if text else "empty"


def _combination(manifest) -> tuple:
    return (manifest.allow_sleep, _brief(manifest.sleep_brief), manifest.builtin, manifest.injects_prompt,
            bool(manifest.support_adapter))


def test_every_eligibility_combination_is_a_possible_plugin():
    # Each plugin is one row of each table; every row is reachable, so every combination is.
    possible = {(allow, _brief(brief), builtin, injects, bool(support))
                for (allow, brief), (builtin, injects, support) in itertools.product(ELIGIBILITY_ROWS, FLAG_ROWS)}
    every = set(itertools.product(ALLOW_SLEEP, {_brief(b) for b in BRIEFS}, (False, True), (False, True), (False, True)))
    assert len(every) == 72 and possible == every


def test_plugin_sets_draw_every_value_of_every_eligibility_field():
    seen = _collect(plugin_sets(), lambda plugins: {(i, value) for m in plugins if m.module_name != "plugin_activation"
                                                    for i, value in enumerate(_combination(m))})
    assert seen == {(i, value) for combination in itertools.product(
        ALLOW_SLEEP, {_brief(b) for b in BRIEFS}, (False, True), (False, True), (False, True))
        for i, value in enumerate(combination)}


def test_host_configs_reach_each_strategy_disabled_plugins_an_unknown_entry_and_the_scheduler_off():
    def describe(world):
        plugins, host = world
        names = {m.module_name for m in plugins if not m.builtin}
        found = {("strategy", s) for s in host.strategies.values()}
        found |= {("disabled",)} if host.disabled else set()
        found |= {("left out",)} if names - set(host.enabled) else set()
        found |= {("ghost",)} if UNKNOWN in host.enabled else set()
        found |= {("scheduler", host.scheduler_enabled)}
        return found

    seen = _collect(worlds(), describe)
    assert {("strategy", s) for s in Strategy} <= seen
    assert {("disabled",), ("left out",), ("ghost",), ("scheduler", True), ("scheduler", False)} <= seen


def test_steps_reach_every_action_every_edge_rounds_value_and_every_conversation():
    def describe(case):
        found = set()
        for event in case.events:
            doc = event.to_json()
            found.add(("action", action_of(event)))
            if "conversation" in doc:
                found.add(("conversation", doc["conversation"]))
            if action_of(event) in ("activate", "extend"):
                found.add(("rounds", json.dumps(doc["rounds"]) if "rounds" in doc else "omitted"))
            if action_of(event) == "set_strategy":
                found.add(("strategy", event.strategy))
            if action_of(event) in ("enable", "disable") and event.module_name == UNKNOWN:
                found.add(("unknown", action_of(event)))
            if action_of(event) == "set_scheduler":
                found.add(("scheduler", event.enabled))
        return found

    # Generous: Hypothesis biases generation by constants found in loaded modules, so the
    # number of examples needed to hit a rare value depends on what else the session imported.
    seen = _collect(cases(), describe, examples=400)
    actions = ("run", "activate", "extend", "set_strategy", "enable", "disable", "set_scheduler", "restart")
    assert {("action", a) for a in actions} <= seen
    assert {("conversation", c) for c in CONVERSATIONS} <= seen
    assert {("rounds", "omitted" if r is OMITTED else json.dumps(r)) for r in ROUNDS} <= seen
    assert {("strategy", s) for s in STRATEGY_VALUES} <= seen
    assert {("unknown", "enable"), ("unknown", "disable"), ("scheduler", True), ("scheduler", False)} <= seen
