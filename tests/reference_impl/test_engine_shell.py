"""Engine: the stateful shell the adapters drive."""

from __future__ import annotations

from refimpl_builders import CONV, sleeper

from reference_impl import __version__
from reference_impl.engine import Engine, create
from reference_impl.events import Activate, Restart, StartRun
from reference_impl.model import AdminOutcome, HostConfig, PluginState


def test_the_engine_claims_the_activation_text_and_host_profiles():
    engine = create()
    assert isinstance(engine, Engine)
    assert engine.info.profiles == ("activation", "text", "host")
    assert (engine.info.name, engine.info.version, engine.info.language) == ("pas-reference", __version__, "python")


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
