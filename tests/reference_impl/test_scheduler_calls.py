"""activate_plugin and extend_plugin_activation: every outcome kind, arguments, misuse."""

from __future__ import annotations

import dataclasses

import pytest
from support.refimpl_builders import CONV, SEMANTICS, World, plugin, protected, sleeper

from reference_impl.catalogue import Catalogue
from reference_impl.events import OMITTED, Activate, CallObservation, Disable, Extend, PluginView, StartRun
from reference_impl.model import HostConfig, OutcomeKind, PluginState
from reference_impl.scheduler import SchedulerState, step

RUN = StartRun(conversation=CONV)
CALLS = [pytest.param(Activate, True, id="activate_plugin"), pytest.param(Extend, False, id="extend_plugin_activation")]


def _world() -> World:
    manifests = [
        sleeper("weather", injects_prompt=True),
        sleeper("qq_only", support_adapter=("onebot",)),
        sleeper("off"),
        protected("core", builtin=True, injects_prompt=True),
        plugin("calc"),
        plugin("blank", allow_sleep=True, sleep_brief="  \t"),
    ]
    return World(manifests, HostConfig(enabled=("weather", "qq_only", "off", "calc", "blank"), disabled=frozenset({"off"})))


def _call(world: World, call_type, module: str, rounds=OMITTED, adapter=None) -> CallObservation:
    reply = world.apply(call_type(conversation=CONV, module_name=module, rounds=rounds, adapter=adapter))
    assert isinstance(reply, CallObservation)
    return reply


@pytest.mark.parametrize(("call_type", "ends_step"), CALLS)
@pytest.mark.parametrize(("module", "adapter"), [
    pytest.param("ghost", None, id="unknown"),
    pytest.param("off", None, id="disabled"),
    pytest.param("qq_only", "discord", id="adapter-unavailable"),
])
def test_a_call_naming_a_missing_plugin_is_not_found_and_changes_nothing(call_type, ends_step, module, adapter):
    """Covers: ACT-ACTIVATE-1, ACT-EXTEND-1, ACT-ACTIVATE-5, ACT-EXTEND-4."""
    world = _world()
    before = world.state
    reply = _call(world, call_type, module, 4, adapter)
    assert (reply.outcome, reply.rounds, reply.block, reply.ends_step) == (OutcomeKind.NOT_FOUND, None, None, ends_step)
    assert reply.module_name == module
    assert world.state == before


@pytest.mark.parametrize(("call_type", "ends_step"), CALLS)
@pytest.mark.parametrize("module", ["core", "calc", "blank"])
def test_a_call_naming_a_plugin_that_cannot_sleep_answers_always_awake(call_type, ends_step, module):
    """Covers: ACT-ACTIVATE-2, ACT-EXTEND-2, ACT-ELIG-6."""
    world = _world()
    before = world.state
    reply = _call(world, call_type, module, 2)
    assert (reply.outcome, reply.rounds, reply.block, reply.ends_step) == (OutcomeKind.ALWAYS_AWAKE, None, None, ends_step)
    assert world.state == before


def test_activating_an_active_plugin_reports_the_stored_count_and_changes_nothing_ACT_ACTIVATE_3():
    """Covers: ACT-ACTIVATE-3, ACT-ACTIVATE-5."""
    world = _world()
    _call(world, Activate, "weather", 5)
    world.apply(RUN)
    before = world.state
    reply = _call(world, Activate, "weather", 20)
    assert (reply.outcome, reply.rounds, reply.block, reply.ends_step) == (OutcomeKind.ALREADY_ACTIVE, 4, None, True)
    assert world.state == before


@pytest.mark.parametrize(("rounds", "stored"), [
    pytest.param(OMITTED, 3, id="ACT-ARG-1-omitted"),
    pytest.param(None, 3, id="ACT-ARG-1-null"),
    pytest.param(1, 1, id="ACT-ACTIVATE-4-one"),
    pytest.param(7, 7, id="ACT-ACTIVATE-4-seven"),
    pytest.param(20, 20, id="ACT-ACTIVATE-4-max"),
    pytest.param(0, 1, id="ACT-ARG-2-zero"),
    pytest.param(-4, 1, id="ACT-ARG-2-negative"),
    pytest.param(21, 20, id="ACT-ARG-3-21"),
    pytest.param(10**9, 20, id="ACT-ARG-3-huge"),
    pytest.param(2.0, 2, id="ACT-ARG-4-integer-valued-float"),
])
def test_activating_a_sleeping_plugin_stores_the_clamped_rounds_and_returns_the_block(rounds, stored):
    """Covers: ACT-ACTIVATE-4, ACT-ACTIVATE-6, ACT-ARG-1, ACT-ARG-2, ACT-ARG-3, ACT-ARG-4."""
    world = _world()
    reply = _call(world, Activate, "weather", rounds)
    assert (reply.outcome, reply.rounds, reply.ends_step) == (OutcomeKind.ACTIVATED, stored, True)
    assert reply.block == PluginView(module_name="weather", state=PluginState.ACTIVE, rounds_left=stored,
                                     hint=stored == 1, brief_shown=False, methods_shown=True, injection_called=True)
    assert world.counters() == {"weather": stored}


def test_activation_during_the_last_visible_run_reactivates_and_overwrites_ACT_ACTIVATE_7():
    """Covers: ACT-ACTIVATE-7, ACT-ACTIVATE-4 (overwrite)."""
    world = _world()
    _call(world, Activate, "weather", 1)
    view = next(v for v in world.apply(RUN).plugins if v.module_name == "weather")
    assert (view.rounds_left, view.hint) == (1, True)
    reply = _call(world, Activate, "weather", 2)
    assert (reply.outcome, reply.rounds) == (OutcomeKind.ACTIVATED, 2)
    assert world.counters() == {"weather": 2}


@pytest.mark.parametrize(("start", "rounds", "total"), [
    pytest.param(0, OMITTED, 3, id="ACT-EXTEND-5-sleeping-default"),
    pytest.param(0, 0, 1, id="ACT-ARG-2-sleeping-zero"),
    pytest.param(2, 5, 7, id="ACT-EXTEND-3-sum"),
    pytest.param(2, -1, 3, id="ACT-ARG-2-negative-adds-one"),
    pytest.param(15, 10, 20, id="ACT-EXTEND-6-cap"),
    pytest.param(19, 99, 20, id="ACT-EXTEND-6-cap-of-clamped"),
    pytest.param(4, 3.0, 7, id="ACT-ARG-4-integer-valued-float"),
])
def test_extending_adds_the_clamped_rounds_up_to_the_cap(start, rounds, total):
    """Covers: ACT-EXTEND-3, ACT-EXTEND-4, ACT-EXTEND-5, ACT-EXTEND-6, ACT-ARG-2, ACT-ARG-3."""
    world = _world()
    if start:
        _call(world, Activate, "weather", start)
    reply = _call(world, Extend, "weather", rounds)
    assert (reply.outcome, reply.rounds, reply.block, reply.ends_step) == (OutcomeKind.EXTENDED, total, None, False)
    assert world.counters() == {"weather": total}


def test_extending_during_the_hinted_last_run_keeps_the_plugin_visible_ACT_EXTEND_3():
    """Covers: ACT-EXTEND-3, ACT-STATE-6: doing what the hint says continues the countdown seamlessly."""
    world = _world()
    _call(world, Activate, "weather", 1)
    assert [v.hint for v in world.apply(RUN).plugins if v.module_name == "weather"] == [True]
    assert _call(world, Extend, "weather", 2).rounds == 2
    shown = [next(v for v in world.apply(RUN).plugins if v.module_name == "weather") for _ in range(3)]
    assert [(v.state, v.rounds_left) for v in shown] == [
        (PluginState.ACTIVE, 2), (PluginState.ACTIVE, 1), (PluginState.SLEEPING, None)]


def test_extending_a_sleeping_plugin_leaves_it_asleep_until_the_next_run_ACT_EXTEND_5():
    """Covers: ACT-EXTEND-5."""
    world = _world()
    assert _call(world, Extend, "weather", 2).block is None
    view = next(v for v in world.apply(RUN).plugins if v.module_name == "weather")
    assert (view.state, view.rounds_left) == (PluginState.ACTIVE, 2)


@pytest.mark.parametrize(("call_type", "ends_step"), CALLS)
@pytest.mark.parametrize("rounds", [2.5, "3", True, False, [], [3], {"rounds": 3}, float("nan"), float("inf")],
                         ids=["fraction", "numeric-string", "true", "false", "empty-list", "list", "object", "nan", "inf"])
@pytest.mark.parametrize("module", ["weather", "ghost", "core"])
def test_a_non_integer_rounds_is_invalid_whatever_plugin_is_named(call_type, ends_step, rounds, module):
    """Covers: ACT-ARG-4 (checked before the plugin), ACT-ACTIVATE-5."""
    world = _world()
    before = world.state
    reply = _call(world, call_type, module, rounds)
    assert (reply.outcome, reply.rounds, reply.block, reply.ends_step) == (
        OutcomeKind.INVALID_ARGUMENT, None, None, ends_step)
    assert world.state == before


@pytest.mark.parametrize("not_an_event", ["run", {"cmd": "run"}, None, object(), RUN.to_json()])
def test_step_raises_type_error_for_anything_that_is_not_an_event(not_an_event):
    """step's documented misuse error."""
    with pytest.raises(TypeError, match="not a PAS event"):
        step(Catalogue(), SchedulerState(), not_an_event, SEMANTICS)


def test_step_never_mutates_the_state_it_was_given():
    """The scheduler is a pure function: the old state stays valid for replay."""
    world = _world()
    _call(world, Activate, "weather", 3)
    old = world.state
    snapshot = old.to_json()
    for event in (RUN, Extend(conversation=CONV, module_name="weather"), Disable(module_name="weather"), RUN):
        step(world.catalogue, old, event, SEMANTICS)
    assert old.to_json() == snapshot


@pytest.mark.parametrize(("module", "rounds"), [
    pytest.param("ghost", 3, id="no-plugin"),
    pytest.param("weather", "three", id="invalid-rounds"),
    pytest.param("ghost", "three", id="neither"),
])
@pytest.mark.parametrize("call_type", [Activate, Extend])
def test_a_semantics_whose_table_grants_a_call_without_a_plugin_or_valid_rounds_is_refused(call_type, module, rounds):
    """Semantics are an argument: a table that grants activated or extended unconditionally is misuse.

    The bundled tables answer not_found and invalid_argument first, so only such a custom
    table reaches this check; without it the scheduler would store a counter for nothing.
    """
    method = "activate_plugin" if call_type is Activate else "extend_plugin_activation"
    rules = SEMANTICS.methods[method]
    granting = dataclasses.replace(rules, outcomes=(dataclasses.replace(rules.outcomes[-1], when={}),))
    semantics = dataclasses.replace(SEMANTICS, methods={**SEMANTICS.methods, method: granting})
    world = _world()
    with pytest.raises(LookupError, match="without a plugin or valid rounds"):
        step(world.catalogue, world.state, call_type(conversation=CONV, module_name=module, rounds=rounds), semantics)
