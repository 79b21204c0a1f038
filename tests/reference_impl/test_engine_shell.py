"""Engine: the stateful shell the adapters drive."""

from __future__ import annotations

from support.refimpl_builders import CONV, sleeper

from reference_impl import __version__
from reference_impl.disclosure_commands import DisclosureStart, LoadCall, ModelStep, Request, Tool
from reference_impl.disclosure_options import Options, Order, Scope
from reference_impl.engine import Engine, create, with_options
from reference_impl.events import Activate, Restart, StartRun
from reference_impl.model import AdminOutcome, HostConfig, PluginState


def test_the_engine_claims_every_profile_and_declares_the_default_disclosure_options():
    engine = create()
    assert isinstance(engine, Engine)
    assert engine.info.profiles == ("activation", "text", "host", "disclosure")
    assert (engine.info.name, engine.info.version, engine.info.language) == ("pas-reference", __version__, "python")
    assert engine.info.disclosure == Options()
    assert engine.info.to_json()["disclosure"]["state_scope"] == "thread"


def test_an_engine_made_with_options_declares_them_and_runs_under_them():
    engine = with_options("state_scope=instance,order=catalogue")
    assert engine.info.disclosure == Options(state_scope=Scope.INSTANCE, order=Order.CATALOGUE)
    assert Engine.info.disclosure == Options()  # the class's own declaration is untouched
    engine.apply(DisclosureStart(tools=(Tool(name="b"), Tool(name="a"))))
    engine.apply(Request(thread="x"))
    engine.apply(ModelStep(thread="x", calls=(LoadCall(names=("a", "b"), several=True),)))
    assert engine.apply(Request(thread="y")).tools == ("@load", "@unload", "b", "a")  # shared, catalogue order


def test_a_disclosure_start_forgets_every_earlier_thread():
    engine = create()
    engine.apply(DisclosureStart(tools=(Tool(name="a"),)))
    engine.apply(Request())
    engine.apply(ModelStep(calls=(LoadCall(names=("a",)),)))
    engine.apply(DisclosureStart(tools=(Tool(name="a"),)))
    assert engine.apply(Request()).tools == ("@load", "@unload")


def test_start_forgets_the_counters_of_an_earlier_start():
    engine = create()
    host = HostConfig(enabled=("weather",))
    engine.start([sleeper("weather")], host)
    engine.apply(Activate(conversation=CONV, module_name="weather", rounds=4))
    assert engine.state.counters == {CONV: {"weather": 4}}
    engine.start([sleeper("weather")], host)
    assert engine.state.counters == {}
    assert engine.apply(StartRun(conversation=CONV)).plugins[0].state is PluginState.SLEEPING


def test_a_restart_through_the_engine_keeps_the_counters_ACT_COUNT_7():
    """Covers: ACT-COUNT-7."""
    engine = create()
    engine.start([sleeper("weather")], HostConfig(enabled=("weather",)))
    engine.apply(Activate(conversation=CONV, module_name="weather", rounds=2))
    observation = engine.apply(Restart())
    assert observation.outcome is AdminOutcome.APPLIED
    assert engine.apply(StartRun(conversation=CONV)).plugins[0].rounds_left == 2
