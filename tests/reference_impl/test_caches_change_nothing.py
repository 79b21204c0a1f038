"""The caller-owned caches (LineupCache, TextCache, the Engine's recent host configs) change no result.

Hypothesis builds catalogues (names and briefs with the characters PAS escapes, injecting
plugins, every eligibility case, adapters) and event sequences (runs in several conversations
and adapters, activations, extensions, every admin change, restarts) and plays each three
ways: the pure ``step`` with no cache and ``render_run`` with a new TextCache every time; the
same with a LineupCache so small that it evicts at every step and one TextCache kept across
the whole script; and the Engine, which owns full-size caches. Every state, observation and
text must be equal.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.catalogue import Catalogue
from reference_impl.engine import Engine
from reference_impl.events import (
    Activate,
    CallObservation,
    Disable,
    Enable,
    Event,
    Extend,
    Observation,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.lineup_cache import LineupCache
from reference_impl.model import HostConfig, Manifest, Method, MethodKind
from reference_impl.render import TextCache, render_reply, render_run
from reference_impl.scheduler import SchedulerState, step
from reference_impl.semantics import load_semantics

SEMANTICS = load_semantics()
NAMES = ("alpha", "beta", "gamma", "delta", "plugin_activation")
CONVERSATIONS = ("c1", "c2")
ADAPTERS = (None, "qq", "minecraft")
TEXT = st.text(alphabet=st.sampled_from('ab &<>"\n\t é'), max_size=12)


@st.composite
def manifests(draw: st.DrawFn) -> tuple[Manifest, ...]:
    """Two to five plugins with random text, sleep settings, injection and adapters."""
    chosen = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
    return tuple(
        Manifest(
            name=draw(TEXT) or name,
            module_name=name,
            version="1.0.0",
            description="d",
            builtin=draw(st.booleans()),
            injects_prompt=draw(st.sampled_from([True, True, False])),
            allow_sleep=draw(st.sampled_from([None, True, True, False])),
            sleep_brief=draw(st.one_of(TEXT, st.just("Brief."))),
            support_adapter=draw(st.sampled_from([(), ("qq",), ("minecraft",)])),
            methods=tuple(
                Method(name=draw(st.sampled_from(["get", "a<b", "ask"])), kind=draw(st.sampled_from(list(MethodKind))),
                       description=draw(TEXT))
                for _ in range(draw(st.integers(0, 2)))
            ),
        )
        for name in chosen
    )


def events(installed: tuple[str, ...]) -> st.SearchStrategy[Event]:
    """Any event, mostly on installed plugins, in any conversation and adapter; runs and calls most often."""
    conversation, adapter = st.sampled_from(CONVERSATIONS), st.sampled_from(ADAPTERS)
    name = st.one_of(st.sampled_from(installed), st.sampled_from(installed), st.sampled_from(NAMES))
    rounds = st.one_of(st.integers(-2, 25), st.integers(1, 2))
    run = st.builds(StartRun, conversation=conversation, adapter=adapter)
    activate = st.builds(Activate, conversation=conversation, module_name=name, rounds=rounds, adapter=adapter)
    return st.one_of(
        run, run, run, activate, activate,
        st.builds(Extend, conversation=conversation, module_name=name, rounds=rounds, adapter=adapter),
        st.builds(SetStrategy, module_name=name, strategy=st.sampled_from(["auto", "force_sleep", "forbid_sleep", "x"])),
        st.builds(Enable, module_name=name),
        st.builds(Disable, module_name=name),
        st.builds(SetScheduler, enabled=st.booleans()),
        st.just(Restart()),
    )


def _play(
    catalogue: Catalogue, state: SchedulerState, event: Event, lineups: LineupCache | None, texts: TextCache | None
) -> tuple[SchedulerState, Observation]:
    state, observation = step(catalogue, state, event, SEMANTICS, cache=lineups)
    if isinstance(observation, RunObservation):
        texts = TextCache() if texts is None else texts
        return state, replace(observation, text=render_run(catalogue.manifests, observation, texts))
    if isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
        return state, replace(observation, text=render_reply(catalogue.manifests, event, observation))
    return state, observation


@st.composite
def worlds(draw: st.DrawFn) -> tuple[tuple[Manifest, ...], tuple[str, ...], list[Event]]:
    """Plugins, the host's enabled list (often all of them) and a script of events."""
    plugins = draw(manifests())
    enabled = draw(st.one_of(st.just(NAMES), st.lists(st.sampled_from(NAMES), max_size=6).map(tuple)))
    return plugins, enabled, draw(st.lists(events(tuple(m.module_name for m in plugins)), min_size=8, max_size=40))


@settings(max_examples=200, deadline=None)
@given(world=worlds())
def test_every_state_observation_and_text_is_the_same_with_and_without_caches(world):
    plugins, enabled, script = world
    catalogue = Catalogue.of(plugins)
    host = HostConfig(enabled=tuple(enabled))
    plain = tiny = SchedulerState(host=host)
    lineups, texts = LineupCache(size=1), TextCache()
    engine = Engine()
    engine.start(plugins, host)
    for event in script:
        plain, expected = _play(catalogue, plain, event, None, None)
        tiny, observed = _play(catalogue, tiny, event, lineups, texts)
        assert (tiny, observed) == (plain, expected), f"small caches, after {event!r}"
        assert engine.apply(event) == expected, f"engine, after {event!r}"
        assert engine.state == plain


def test_an_equal_host_config_after_a_restart_is_the_same_object_so_its_lineup_still_hits():
    engine = Engine()
    plugins = [Manifest(name="A", module_name="a", version="1", description="d", allow_sleep=True, sleep_brief="b")]
    engine.start(plugins, HostConfig(enabled=("a",)))
    host = engine.state.host
    engine.apply(StartRun(conversation="c1"))
    engine.apply(Restart())
    engine.apply(Disable(module_name="a"))
    engine.apply(Enable(module_name="a"))
    assert engine.state.host is host
    hits = engine._cache.hits["lineup"]
    engine.apply(StartRun(conversation="c2"))
    assert engine._cache.hits["lineup"] == hits + 1


def test_a_text_cache_bound_to_another_catalogue_forgets_the_first():
    first = Catalogue.of([Manifest(name="A", module_name="a", version="1", description="d", builtin=True)])
    second = Catalogue.of([Manifest(name="B", module_name="a", version="1", description="d", builtin=True)])
    cache = TextCache()
    run = step(first, SchedulerState(), StartRun(conversation="c"), SEMANTICS)[1]
    assert isinstance(run, RunObservation)
    assert render_run(first.manifests, run, cache) == render_run(first.manifests, run, TextCache())
    assert render_run(second.manifests, run, cache) == render_run(second.manifests, run, TextCache())
    assert 'name="B"' in render_run(second.manifests, run, cache)


def test_a_text_cache_keeps_the_blocks_of_the_last_run_only():
    catalogue = Catalogue.of([Manifest(name=n, module_name=n, version="1", description="d") for n in "abcdef"])
    cache = TextCache()
    for enabled in ("abcdef", "ab", "abc"):
        run = step(catalogue, SchedulerState(host=HostConfig(enabled=tuple(enabled))), StartRun(conversation="c"), SEMANTICS)[1]
        assert isinstance(run, RunObservation)
        assert render_run(catalogue.manifests, run, cache) == render_run(catalogue.manifests, run, TextCache())
        assert len(cache) == len(run.plugins)
