"""Runs: states, counting down, the scheduler switch, strategy changes, restarts, order."""

from __future__ import annotations

import pytest
from support.refimpl_builders import CONV, SEMANTICS, World, plugin, protected, sleeper, views_by_module

from reference_impl.events import (
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.model import AdminOutcome, HostConfig, OutcomeKind, PluginState, Strategy
from reference_impl.scheduler import SchedulerState, step

RUN = StartRun(conversation=CONV)


def _view(world: World, module: str, event: StartRun = RUN):
    observation = world.apply(event)
    assert isinstance(observation, RunObservation)
    return views_by_module(observation).get(module)


@pytest.mark.parametrize("rounds", range(1, 21))
def test_a_plugin_activated_for_n_runs_is_shown_n_to_1_then_sleeps(rounds):
    """Covers: ACT-COUNT-2, ACT-COUNT-3, ACT-STATE-2, ACT-STATE-3, ACT-STATE-6 (the worked example)."""
    world = World([sleeper("weather", injects_prompt=True)])
    assert _view(world, "weather").state is PluginState.SLEEPING
    reply = world.apply(Activate(conversation=CONV, module_name="weather", rounds=rounds))
    assert reply.outcome is OutcomeKind.ACTIVATED
    shown = [_view(world, "weather") for _ in range(rounds)]
    assert [v.state for v in shown] == [PluginState.ACTIVE] * rounds
    assert [v.rounds_left for v in shown] == list(range(rounds, 0, -1))
    assert [v.hint for v in shown] == [False] * (rounds - 1) + [True]
    assert all(v.methods_shown and v.injection_called and not v.brief_shown for v in shown)
    after = _view(world, "weather")
    assert (after.state, after.rounds_left, after.hint) == (PluginState.SLEEPING, None, False)
    assert (after.brief_shown, after.methods_shown, after.injection_called) == (True, False, False)
    assert world.counters() == {}


def test_the_stored_counter_is_one_less_than_the_rounds_left_shown_ACT_COUNT_2():
    """Covers: ACT-COUNT-2: shown R, stored becomes R - 1, removed at 0."""
    world = World([sleeper("weather")])
    world.apply(Activate(conversation=CONV, module_name="weather", rounds=2))
    assert world.counters() == {"weather": 2}
    assert _view(world, "weather").rounds_left == 2
    assert world.counters() == {"weather": 1}
    assert _view(world, "weather").rounds_left == 1
    assert world.counters() == {}


def test_a_run_creates_no_counter_for_sleeping_or_awake_plugins_ACT_COUNT_4():
    """Covers: ACT-COUNT-4, ACT-STATE-1."""
    world = World([sleeper("weather"), protected("basic", injects_prompt=True), plugin("calc")])
    views = views_by_module(world.apply(RUN))
    assert world.state.counters == {}
    for module in ("basic", "calc"):
        view = views[module]
        assert (view.state, view.rounds_left, view.hint, view.methods_shown) == (PluginState.ALWAYS_AWAKE, None, False, True)
    assert views["basic"].injection_called and not views["calc"].injection_called


def test_injection_is_called_only_for_plugins_that_inject_ACT_STATE_4():
    """Covers: ACT-STATE-2, ACT-STATE-4: an active plugin without injection has none called."""
    world = World([sleeper("quiet"), sleeper("loud", injects_prompt=True)])
    for module in ("quiet", "loud"):
        world.apply(Activate(conversation=CONV, module_name=module, rounds=2))
    views = views_by_module(world.apply(RUN))
    assert (views["quiet"].injection_called, views["loud"].injection_called) == (False, True)


def test_switching_the_scheduler_off_shows_all_awake_and_freezes_counters_ACT_SCHED_1_2_3():
    """Covers: ACT-SCHED-1, ACT-SCHED-2, ACT-SCHED-3."""
    world = World([sleeper("weather", injects_prompt=True), sleeper("draw")])
    world.apply(Activate(conversation=CONV, module_name="weather", rounds=4))
    world.apply(RUN)
    assert world.counters() == {"weather": 3}
    assert world.apply(SetScheduler(enabled=False)).outcome is AdminOutcome.APPLIED
    for _ in range(5):
        views = views_by_module(world.apply(RUN))
        assert {v.state for v in views.values()} == {PluginState.ALWAYS_AWAKE}
        assert all(v.rounds_left is None and not v.hint for v in views.values())
        assert views["weather"].injection_called
    assert world.apply(Activate(conversation=CONV, module_name="draw")).outcome is OutcomeKind.ALWAYS_AWAKE
    assert world.apply(Extend(conversation=CONV, module_name="weather")).outcome is OutcomeKind.ALWAYS_AWAKE
    assert world.counters() == {"weather": 3}
    world.apply(SetScheduler(enabled=True))
    assert _view(world, "weather").rounds_left == 3


def test_disabling_plugin_activation_by_name_switches_the_scheduler_off_ACT_SCHED_1():
    """Covers: ACT-SCHED-1: the scheduler is the built-in plugin_activation plugin."""
    world = World([protected("plugin_activation", builtin=True), sleeper("weather")])
    world.apply(Activate(conversation=CONV, module_name="weather", rounds=2))
    world.apply(Disable(module_name="plugin_activation"))
    views = views_by_module(world.apply(RUN))
    assert set(views) == {"weather"}
    assert views["weather"].state is PluginState.ALWAYS_AWAKE
    assert world.counters() == {"weather": 2}


@pytest.mark.parametrize("change", [
    pytest.param(SetStrategy(module_name="weather", strategy="forbid_sleep"), id="strategy-forbid_sleep"),
    pytest.param(Disable(module_name="weather"), id="disable"),
])
def test_a_counter_lost_to_an_admin_change_is_dropped_at_the_next_run_ACT_COUNT_5(change):
    """Covers: ACT-COUNT-5, ACT-ELIG-5, ACT-ADMIN-3."""
    world = World([sleeper("weather")])
    world.apply(Activate(conversation=CONV, module_name="weather", rounds=5))
    world.apply(change)
    assert world.counters() == {"weather": 5}, "nothing happens before the next run"
    world.apply(RUN)
    assert world.counters() == {}
    undo = SetStrategy(module_name="weather", strategy="auto") if isinstance(change, SetStrategy) else Enable(module_name="weather")
    world.apply(undo)
    assert _view(world, "weather").state is PluginState.SLEEPING


def test_a_strategy_change_takes_effect_at_the_next_run_ACT_ELIG_5():
    """Covers: ACT-ELIG-5, ACT-ELIG-3: allow_sleep on a null plugin with a brief makes it sleep."""
    world = World([plugin("dice", sleep_brief="Rolls dice.")])
    assert _view(world, "dice").state is PluginState.ALWAYS_AWAKE
    world.apply(SetStrategy(module_name="dice", strategy="allow_sleep"))
    assert _view(world, "dice").state is PluginState.SLEEPING
    world.apply(SetStrategy(module_name="dice", strategy="auto"))
    assert _view(world, "dice").state is PluginState.ALWAYS_AWAKE


def test_conversations_keep_separate_counters_ACT_COUNT_6():
    """Covers: ACT-COUNT-6."""
    world = World([sleeper("weather")])
    world.apply(Activate(conversation="a", module_name="weather", rounds=3))
    assert _view(world, "weather", StartRun(conversation="b")).state is PluginState.SLEEPING
    assert world.counters("a") == {"weather": 3}
    world.apply(Extend(conversation="b", module_name="weather", rounds=7))
    assert (world.counters("a"), world.counters("b")) == ({"weather": 3}, {"weather": 7})
    assert _view(world, "weather", StartRun(conversation="a")).rounds_left == 3


def test_counters_and_admin_changes_survive_a_restart_ACT_COUNT_7():
    """Covers: ACT-COUNT-7."""
    world = World([sleeper("weather"), sleeper("draw"), plugin("dice", sleep_brief="Dice.")])
    world.apply(Activate(conversation="a", module_name="weather", rounds=6))
    world.apply(Extend(conversation="b", module_name="draw", rounds=2))
    world.apply(SetStrategy(module_name="dice", strategy="allow_sleep"))
    world.apply(Disable(module_name="draw"))
    before = world.state
    assert world.apply(Restart()).outcome is AdminOutcome.APPLIED
    assert world.state == before
    assert SchedulerState.from_json(before.to_json(), SEMANTICS) == before
    views = views_by_module(world.apply(StartRun(conversation="a")))
    assert (views["weather"].rounds_left, views["dice"].state, "draw" in views) == (6, PluginState.SLEEPING, False)


def test_blocks_are_ordered_awake_first_then_the_rest_by_module_name_ACT_ORDER_1():
    """Covers: ACT-ORDER-1 (code-point order: upper case before lower case, '_' between)."""
    manifests = [sleeper("zeta"), protected("b_awake"), sleeper("Alpha"), plugin("a_awake"), sleeper("mid"),
                 sleeper("_under"), protected("Z_awake")]
    world = World(manifests)
    world.apply(Activate(conversation=CONV, module_name="zeta", rounds=2))
    order = [v.module_name for v in world.apply(RUN).plugins]
    assert order == ["Z_awake", "a_awake", "b_awake", "Alpha", "_under", "mid", "zeta"]


def test_one_catalogue_serves_many_host_configs_and_adapters_without_mixing_them_up():
    """Covers: ACT-ELIG-5: the view depends on the host config of the state given, however often it changes."""
    world = World([sleeper("weather"), sleeper("qq_only", support_adapter=("onebot",))])
    for index in range(60):  # fresh host objects: ids of dropped ones get reused
        strategy = Strategy.FORBID_SLEEP if index % 2 == 0 else Strategy.AUTO
        host = HostConfig(enabled=("weather", "qq_only"), strategies={"weather": strategy})
        for adapter in (None, "onebot", "discord"):
            _, observation = step(world.catalogue, SchedulerState(host=host), StartRun(conversation=CONV, adapter=adapter), SEMANTICS)
            views = views_by_module(observation)
            assert views["weather"].state is (PluginState.ALWAYS_AWAKE if index % 2 == 0 else PluginState.SLEEPING)
            assert ("qq_only" in views) is (adapter != "discord")


def test_plugins_not_available_to_the_conversation_are_not_shown_ACT_STATE_5():
    """Covers: ACT-STATE-5: disabled, not loaded, or excluded by support_adapter."""
    manifests = [sleeper("qq_only", support_adapter=("onebot",)), sleeper("off"), sleeper("not_loaded"),
                 protected("core", builtin=True)]
    host = HostConfig(enabled=("qq_only", "off", "missing"), disabled=frozenset({"off"}))
    world = World(manifests, host)
    assert set(views_by_module(world.apply(StartRun(conversation="c", adapter="discord")))) == {"core"}
    assert set(views_by_module(world.apply(StartRun(conversation="c", adapter="onebot")))) == {"core", "qq_only"}
    assert set(views_by_module(world.apply(StartRun(conversation="c")))) == {"core", "qq_only"}


def test_a_counter_is_dropped_when_the_adapter_no_longer_supports_the_plugin_ACT_COUNT_5():
    """Covers: ACT-COUNT-5 ('no longer available in that conversation')."""
    world = World([sleeper("qq_only", support_adapter=("onebot",))])
    world.apply(Activate(conversation=CONV, module_name="qq_only", rounds=4, adapter="onebot"))
    world.apply(StartRun(conversation=CONV, adapter="discord"))
    assert world.counters() == {}


def test_a_builtin_plugin_can_be_disabled_and_enabled_again_ACT_ADMIN_3():
    """Covers: ACT-ADMIN-3."""
    world = World([protected("core", builtin=True)])
    world.apply(Disable(module_name="core"))
    assert _view(world, "core") is None
    world.apply(Enable(module_name="core"))
    assert _view(world, "core").state is PluginState.ALWAYS_AWAKE


def test_enabling_a_plugin_that_was_not_loaded_shows_it_from_the_next_run_ACT_ADMIN_3():
    """Covers: ACT-ADMIN-3."""
    world = World([sleeper("weather")], HostConfig())
    assert _view(world, "weather") is None
    assert world.apply(Activate(conversation=CONV, module_name="weather")).outcome is OutcomeKind.NOT_FOUND
    assert world.apply(Enable(module_name="weather")).outcome is AdminOutcome.APPLIED
    assert _view(world, "weather").state is PluginState.SLEEPING


@pytest.mark.parametrize("event", [Enable(module_name="ghost"), Disable(module_name="ghost")], ids=["enable", "disable"])
def test_enabling_or_disabling_an_unknown_plugin_is_rejected_and_changes_nothing(event):
    """Covers: ACT-ADMIN-3 (admin events name installed plugins)."""
    world = World([sleeper("weather")])
    before = world.state
    observation = world.apply(event)
    assert observation.outcome is AdminOutcome.REJECTED and "ghost" in observation.reason
    assert world.state == before


@pytest.mark.parametrize("strategy", ["forbid-sleep", "AUTO", "", None, 3, ["auto"], {"auto": 1}])
def test_an_unknown_strategy_is_rejected_and_the_previous_one_kept_ACT_ADMIN_1(strategy):
    """Covers: ACT-ADMIN-1."""
    world = World([sleeper("weather")], HostConfig(enabled=("weather",)))
    world.apply(SetStrategy(module_name="weather", strategy="forbid_sleep"))
    before = world.state
    observation = world.apply(SetStrategy(module_name="weather", strategy=strategy))
    assert observation.outcome is AdminOutcome.REJECTED
    assert "auto, allow_sleep, forbid_sleep" in observation.reason
    assert world.state == before


def test_setting_auto_is_the_same_as_having_no_strategy_ACT_ADMIN_2():
    """Covers: ACT-ADMIN-2."""
    world = World([sleeper("weather")])
    start = world.state
    world.apply(SetStrategy(module_name="weather", strategy="forbid_sleep"))
    world.apply(SetStrategy(module_name="weather", strategy="auto"))
    assert world.state == start
    assert world.state.host.strategies == {}
