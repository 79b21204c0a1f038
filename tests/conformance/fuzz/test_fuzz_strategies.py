"""The generator reaches every eligibility combination, host setting, kind of step and JSON type of argument.

The search generates from seeds (``generate_case``), so most checks run it over a range of
seeds: deterministic, no Hypothesis. The Hypothesis strategies draw from the same tables.
"""

from __future__ import annotations

import functools
import itertools
import json
import unicodedata

from hypothesis import HealthCheck, Phase, given, settings
from support.fuzz_support import loads_back

from conformance.fuzz.case import CONVERSATIONS, Case, action_of
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.fuzz.emit import Provenance, scenario_document
from conformance.fuzz.generate import (
    ALLOW_SLEEP,
    ALLOW_SLEEP_CHOICES,
    BRIEFS,
    FLAG_ROWS,
    MARKUP_NAME,
    NAME_SETS,
    ROUNDS,
    SCHEDULER,
    STRATEGY_VALUES,
    SUPPORT_ADAPTER,
    UNKNOWN,
    generate_case,
    manifest,
)
from conformance.fuzz.plugin_shapes import (
    DESCRIPTIONS,
    DISPLAY_ROWS,
    METHOD_COUNTS,
    NOT_WHITE_SPACE_BRIEFS,
    WHITE_SPACE_BRIEFS,
    title,
)
from conformance.fuzz.strategies import cases, seeded_cases, worlds
from reference_impl.events import OMITTED, Activate, Enable, SetStrategy, StartRun
from reference_impl.model import WHITE_SPACE, HostConfig, MethodKind, Strategy

_SEEDS = range(400)


def _generated() -> list[Case]:
    return [generate_case(seed, 40) for seed in _SEEDS]


def _brief(text: str) -> str:
    return "blank" if not text.strip(WHITE_SPACE) else "text"


def test_every_eligibility_combination_is_a_possible_plugin():
    # Each plugin draws allow_sleep, a brief and a row of flags; every value is reachable, so every combination is.
    possible = {(allow, _brief(brief), builtin, injects, support)
                for allow, brief, (builtin, injects, support) in itertools.product(ALLOW_SLEEP_CHOICES, BRIEFS, FLAG_ROWS)}
    every = set(itertools.product(ALLOW_SLEEP, ("blank", "text"), (False, True), (False, True), SUPPORT_ADAPTER))
    assert possible == every


@functools.cache
def _plugins() -> tuple:
    """The plugins of many short cases (the plugins come first: a case's length does not change them)."""
    return tuple(m for seed in range(3000) for m in generate_case(seed, 1).plugins if m.module_name != SCHEDULER)


def test_generated_plugins_carry_every_brief_every_eligibility_value_and_every_adapter_list():
    plugins = _plugins()
    assert {m.sleep_brief for m in plugins} == set(BRIEFS)
    assert {m.allow_sleep for m in plugins} == set(ALLOW_SLEEP)
    assert {m.support_adapter for m in plugins} == set(SUPPORT_ADAPTER)
    assert {(m.builtin, m.injects_prompt) for m in plugins} == set(itertools.product((False, True), repeat=2))


def test_the_briefs_include_every_white_space_character_alone_and_characters_that_only_look_blank():
    assert set(WHITE_SPACE) <= set(BRIEFS)  # each of the 25 Unicode White_Space characters, alone: a blank brief
    assert all(not b.strip(WHITE_SPACE) for b in WHITE_SPACE_BRIEFS)
    assert {"\ufeff", "\u001c", "\u001d", "\u001e", "\u001f"} <= set(NOT_WHITE_SPACE_BRIEFS) <= set(BRIEFS)
    assert all(b.strip(WHITE_SPACE) == b for b in NOT_WHITE_SPACE_BRIEFS)  # not White_Space: a non-blank brief


def test_every_brief_sleeps_under_every_strategy_in_some_generated_case():
    seen = {(m.sleep_brief, case.host.strategy_for(m.module_name)) for case in (generate_case(s, 2) for s in range(6000))
            for m in case.plugins if m.module_name != SCHEDULER}
    assert {(b, s) for b in BRIEFS for s in Strategy} <= seen


def test_module_names_vary_in_case_length_and_order_around_the_scheduler():
    names = {m.module_name for m in _plugins()}
    assert names == {n for names in NAME_SETS for n in names}
    assert any(n[0].isupper() for n in names) and any(n.startswith("_") for n in names)
    assert {1, 64} <= {len(n) for n in names}
    assert any(n < SCHEDULER < m and n.lower() < m.lower() and m.startswith("plugin") for n in names for m in names)
    assert any(sorted([a, b]) != sorted([a, b], key=str.lower) for a in names for b in names)


def test_display_names_are_often_unlike_the_module_names_and_sort_otherwise():
    plugins = _plugins()
    displays = {m.name for m in plugins}
    assert {n for row in DISPLAY_ROWS.values() for n in row} <= displays
    assert any(not n.isascii() for n in displays) and any("'" in n and '"' in n for n in displays)
    assert any("<" in n and "&" in n for n in displays)
    unlike = [case for case in _generated() if len(case.plugins) > 1
              and sorted(case.plugins, key=lambda m: m.name) != sorted(case.plugins, key=lambda m: m.module_name)]
    assert len(unlike) > 40
    assert sum(m.name == title(m.module_name) for m in plugins) > len(plugins) / 3  # the plain name stays common


def test_plugins_have_none_to_three_methods_with_every_kind_of_description():
    plugins = _plugins()
    assert {len(m.methods) for m in plugins} == set(METHOD_COUNTS)
    descriptions = {d.description for m in plugins for d in m.methods}
    plain = {f"Use {m.module_name}." for m in plugins}
    assert {d for d in DESCRIPTIONS if "{}" not in d} <= descriptions and descriptions & plain
    assert "" in descriptions and any(d and not d.strip(WHITE_SPACE) for d in descriptions)
    assert any(d[:1] in "\u001c\u001d\u001e\u001f" or d[-1:] in "\u001c\u001d\u001e\u001f" for d in descriptions if d)
    assert {k for m in plugins for k in (d.kind for d in m.methods)} >= {MethodKind.TOOL, MethodKind.AGENT}


def test_host_configs_reach_each_strategy_disabled_plugins_an_unknown_entry_and_the_scheduler_off():
    seen = set()
    for case in _generated():
        host, names = case.host, {m.module_name for m in case.plugins if not m.builtin}
        seen |= {("strategy", s) for s in host.strategies.values()}
        seen |= {("disabled",)} if host.disabled else set()
        seen |= {("left out",)} if names - set(host.enabled) else set()
        seen |= {("ghost",)} if UNKNOWN in host.enabled else set()
        seen |= {("scheduler", host.scheduler_enabled)}
    assert {("strategy", s) for s in Strategy} <= seen
    assert {("disabled",), ("left out",), ("ghost",), ("scheduler", True), ("scheduler", False)} <= seen


def _describe(case: Case) -> set:
    found = set()
    for event in case.events:
        doc = event.to_json()
        found.add(("action", action_of(event)))
        if "conversation" in doc:
            found.add(("conversation", doc["conversation"], doc.get("adapter")))
        if isinstance(event, (Activate,)) or action_of(event) == "extend":
            found.add(("rounds", json.dumps(doc["rounds"]) if "rounds" in doc else "omitted"))
            installed = {m.module_name for m in case.plugins}
            name = event.module_name
            if name not in installed and name.strip() in installed:
                found.add(("padded name", name != name.strip(" \t")))  # True: padded with non-ASCII space
            elif name not in installed and unicodedata.normalize("NFKC", name) in installed:
                found.add(("call name", "full width"))
            elif name not in installed and name.lower() in {n.lower() for n in installed}:
                found.add(("call name", "another case"))
            elif name not in installed:
                found.add(("call name", {UNKNOWN: "unknown", "": "empty", MARKUP_NAME: "markup"}.get(name, "other")))
        if isinstance(event, SetStrategy):
            found.add(("strategy", json.dumps(doc["strategy"])))
        if action_of(event) in ("enable", "disable") and event.module_name in (UNKNOWN, "plugin_activation"):
            found.add(("admin target", action_of(event), event.module_name))
        if action_of(event) == "set_scheduler":
            found.add(("scheduler", event.enabled))
    return found


def test_steps_reach_every_action_conversation_rounds_type_strategy_value_and_odd_name():
    seen = set().union(*map(_describe, _generated()))
    actions = ("run", "activate", "extend", "set_strategy", "enable", "disable", "set_scheduler", "restart")
    assert {("action", a) for a in actions} <= seen
    assert {("conversation", c, a) for c, a in CONVERSATIONS.items()} <= seen
    assert {("rounds", "omitted" if r is OMITTED else json.dumps(r)) for r in ROUNDS} <= seen
    assert {("strategy", json.dumps(s)) for s in STRATEGY_VALUES} <= seen
    assert {("padded name", False), ("padded name", True)} <= seen
    odd = ("unknown", "empty", "markup", "full width", "another case")
    assert {("call name", kind) for kind in odd} <= seen
    assert {("admin target", a, n) for a in ("enable", "disable") for n in (UNKNOWN, "plugin_activation")} <= seen
    assert {("scheduler", True), ("scheduler", False)} <= seen


def test_rounds_cover_every_json_type():
    kinds = {type(r).__name__ for r in ROUNDS if r is not OMITTED}
    assert kinds == {"NoneType", "int", "float", "str", "bool", "list", "dict"}
    assert any(isinstance(r, int) and not isinstance(r, bool) and r > 2**63 for r in ROUNDS)
    assert any(isinstance(r, int) and not isinstance(r, bool) and r < 0 for r in ROUNDS)


def test_the_same_seed_and_length_give_the_same_case_and_other_seeds_differ():
    assert generate_case(12345, 30) == generate_case(12345, 30)
    assert len({generate_case(seed, 30).digest for seed in range(50)}) == 50


def test_every_odd_value_survives_a_round_trip_through_an_emitted_scenario_file(tmp_path):
    plugins = tuple(manifest(name, brief=brief) for name, brief in zip(("alpha", "beta", "gamma", "delta") * 2, BRIEFS))
    plugins = tuple({m.module_name: m for m in plugins}.values())  # one per name
    briefs = [manifest("alpha", brief=b) for b in BRIEFS]
    events = [Activate(conversation="main", module_name=" alpha\u3000", rounds=r) for r in ROUNDS]
    events += [SetStrategy(module_name="alpha", strategy=s) for s in STRATEGY_VALUES]
    events += [Enable(module_name=UNKNOWN), StartRun(conversation="main")]
    for brief_plugin in briefs:
        case = Case(plugins=(brief_plugin, *plugins[1:]), host=HostConfig(enabled=("alpha", "beta")),
                    events=tuple(events))
        found = Disagreement(verdict=Verdict.ERRORED, index=len(events) - 1, event=events[-1], reason="crashed")
        doc = scenario_document(case, found, Provenance(name="x", impl="x", seed=0, text=True))
        loads_back(doc, case, tmp_path)


_QUICK = settings(max_examples=60, database=None, derandomize=True, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))


def test_the_hypothesis_strategies_draw_from_the_same_tables():
    seen: list = []

    @_QUICK
    @given(cases(max_steps=10), worlds(), seeded_cases(max_steps=10))
    def record(case, world, seeded):
        seen.append((case, world, seeded))

    record()
    for case, (plugins, host), seeded in seen:
        assert 1 <= len(case.events) <= 10 and 1 <= len(seeded.events) <= 10
        assert all(m.sleep_brief in BRIEFS for m in (*case.plugins, *plugins, *seeded.plugins))
        assert isinstance(host, HostConfig)


def test_runs_move_conversations_to_other_adapters_and_calls_are_made_elsewhere():
    moved = elsewhere = 0
    for case in _generated():
        current = dict(CONVERSATIONS)
        for event in case.events:
            if isinstance(event, StartRun):
                moved += event.adapter != current[event.conversation]
                current[event.conversation] = event.adapter
            elif getattr(event, "adapter", None) != current.get(getattr(event, "conversation", ""), None):
                elsewhere += 1
    assert moved > 50 and elsewhere > 50


def test_generated_cases_with_adapter_changes_are_written_and_load_back_as_the_same_case(tmp_path):
    written = 0
    for seed in range(40):
        case = generate_case(seed, 12)
        if not any(isinstance(value, dict) and "adapter" in value for _, value in case.written_steps()):
            continue
        found = Disagreement(verdict=Verdict.ERRORED, index=len(case.events) - 1, event=case.events[-1], reason="x")
        doc = scenario_document(case, found, Provenance(name="x", impl="x", seed=seed, text=True))
        loads_back(doc, case, tmp_path)
        written += 1
    assert written >= 10


def test_a_case_whose_conversation_would_go_back_to_no_adapter_cannot_be_written():
    moved = StartRun(conversation="main", adapter="discord")
    case = Case(plugins=(manifest("alpha"),), host=HostConfig(enabled=("alpha",)),
                events=(moved, StartRun(conversation="main")))
    assert case.written_steps() is None
    again = Case(plugins=case.plugins, host=case.host, events=(moved, moved))
    assert again.written_steps() == (("run", {"adapter": "discord"}), ("run", None))
