"""The fast path beside the rules: the same states, observations and text at every step.

``reference_impl.scheduler`` and ``reference_impl.render`` are the rules, with no cache;
``reference_impl.fast.FastScheduler`` (what the Engine steps through) keeps lineups, blocks and
runtime contexts in caches keyed by value. Hypothesis draws catalogues (names and briefs with
the characters PAS escapes, injecting plugins, every eligibility case, adapter limits, method
kinds) and scripts of events (runs in several conversations and on several adapters,
activations and extensions with odd rounds, every admin change, the scheduler switch,
restarts) and plays each script through both; the script also switches between catalogues
that share module names but differ in their manifests (or are equal but distinct objects),
which is what a cache keyed by anything less than the whole value would confuse.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import event, given, settings
from hypothesis import strategies as st
from support.pas_worlds import EDGE_ROUNDS, STRATEGY_VALUES

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
from reference_impl.fast import FastScheduler
from reference_impl.model import HostConfig, Manifest, Method, MethodKind, PluginState, Strategy
from reference_impl.render import render_reply, render_run
from reference_impl.scheduler import SchedulerState, step
from reference_impl.semantics import load_semantics

SEMANTICS = load_semantics()
NAMES = ("alpha", "beta", "gamma", "delta", "plugin_activation")
CONVERSATIONS = ("c1", "c2", "c3")
ADAPTERS = (None, "qq", "minecraft", "")
TEXT = st.text(alphabet=st.sampled_from('ab &<>"\'\n\t é\u3000'), max_size=12)
ROUNDS = st.one_of(st.sampled_from(EDGE_ROUNDS), st.integers(-3, 25), st.integers(1, 3), st.integers(1, 3))


@dataclass(frozen=True)
class Switch:
    """Not a PAS event: the script installs its ``index``-th catalogue, keeping the scheduler state."""

    index: int


@st.composite
def manifests(draw: st.DrawFn, names: tuple[str, ...]) -> tuple[Manifest, ...]:
    """One manifest per name, with random text, sleep settings, injection, adapters and methods."""
    return tuple(
        Manifest(
            name=draw(TEXT) or name,
            module_name=name,
            version="1.0.0",
            description="d",
            builtin=draw(st.sampled_from([False, False, True])),
            injects_prompt=draw(st.booleans()),
            allow_sleep=draw(st.sampled_from([None, True, True, True, False])),
            sleep_brief=draw(st.one_of(TEXT, st.just("Brief."), st.just("Brief."))),
            support_adapter=draw(st.sampled_from([(), (), ("qq",), ("minecraft", "qq")])),
            methods=tuple(
                Method(name=draw(st.sampled_from(["get", "a<b", "ask"])), kind=draw(st.sampled_from(list(MethodKind))),
                       description=draw(TEXT))
                for _ in range(draw(st.integers(0, 2)))
            ),
        )
        for name in names
    )


@st.composite
def catalogues(draw: st.DrawFn) -> list[Catalogue]:
    """Two or three catalogues: the first, another on the same names, and often an equal copy of the first."""
    names = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True)))
    first = draw(manifests(names))
    found = [Catalogue.of(first), Catalogue.of(draw(manifests(names)))]
    if draw(st.booleans()):
        found.append(Catalogue.of(replace(m) for m in first))  # equal to the first, not the same objects
    return found


def events(names: tuple[str, ...], count: int) -> st.SearchStrategy[Event | Switch]:
    """Any event, mostly on installed plugins, conversation c1 and no adapter (so that activations meet runs).

    Runs and calls come most often; now and then an admin change, a restart or a catalogue switch.
    """
    conversation = st.sampled_from((*CONVERSATIONS, "c1", "c1", "c1"))
    adapter = st.sampled_from((*ADAPTERS, None, None, None))
    name = st.one_of(st.sampled_from(names), st.sampled_from(names), st.sampled_from((*NAMES, "ghost")))
    run = st.builds(StartRun, conversation=conversation, adapter=adapter)
    activate = st.builds(Activate, conversation=conversation, module_name=name, rounds=ROUNDS, adapter=adapter)
    return st.one_of(
        run, run, run, run, activate, activate,
        st.builds(Extend, conversation=conversation, module_name=name, rounds=ROUNDS, adapter=adapter),
        st.builds(SetStrategy, module_name=name, strategy=STRATEGY_VALUES),
        st.builds(Enable, module_name=name),
        st.builds(Disable, module_name=name),
        st.builds(SetScheduler, enabled=st.sampled_from([False, True, True])),
        st.just(Restart()),
        st.builds(Switch, index=st.integers(0, count - 1)),
    )


@st.composite
def scripts(draw: st.DrawFn) -> tuple[list[Catalogue], HostConfig, list[Event | Switch]]:
    """Catalogues, a first host config (enabled lists with a missing name now and then) and a script."""
    installed = draw(catalogues())
    enabled = draw(st.one_of(st.just((*NAMES, "ghost")), st.lists(st.sampled_from(NAMES), max_size=6).map(tuple)))
    strategies = draw(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(list(Strategy)), max_size=2))
    host = HostConfig(enabled=enabled, strategies=strategies)
    names = tuple(installed[0].manifests)
    return installed, host, draw(st.lists(events(names, len(installed)), min_size=20, max_size=60))


def _with_text(catalogue: Catalogue, event: Event, observation: Observation) -> Observation:
    """The observation with the rules' text: render_run for a run, render_reply for a call."""
    if isinstance(observation, RunObservation):
        return replace(observation, text=render_run(catalogue.manifests, observation))
    if isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
        return replace(observation, text=render_reply(catalogue.manifests, event, observation))
    return observation


@settings(max_examples=250)
@given(script=scripts())
def test_the_fast_path_gives_the_states_observations_and_text_of_the_rules(script):
    installed, host, steps = script
    fast = FastScheduler(SEMANTICS)
    catalogue, rules_state = installed[0], SchedulerState(host=host)
    fast_state = rules_state
    for number, item in enumerate(steps):
        if isinstance(item, Switch):
            catalogue = installed[item.index]
            continue
        rules_state, expected = step(catalogue, rules_state, item, SEMANTICS)
        fast_state, observed = fast.step(catalogue, fast_state, item, text=True)
        if isinstance(observed, CallObservation) and isinstance(item, (Activate, Extend)):
            observed = replace(observed, text=render_reply(catalogue.manifests, item, observed))
        assert observed == _with_text(catalogue, item, expected), f"step {number}: {item!r}"
        assert fast_state == rules_state, f"step {number}: {item!r}"
        if isinstance(expected, RunObservation):
            event(f"run shows active: {any(v.state is PluginState.ACTIVE for v in expected.plugins)}")


@settings(max_examples=60)
@given(script=scripts(), text=st.booleans())
def test_the_engine_gives_what_the_rules_give(script, text):
    installed, host, steps = script
    engine = Engine(text=text)
    engine.start(installed[0].manifests.values(), host)
    state = SchedulerState(host=host)
    for item in steps:
        if isinstance(item, Switch):
            continue
        state, expected = step(installed[0], state, item, SEMANTICS)
        assert engine.apply(item) == (_with_text(installed[0], item, expected) if text else expected)
        assert engine.state == state



def test_host_configs_that_hash_alike_but_differ_get_their_own_lineups():
    """A config's hash leaves out all but the last names of its enabled list; equality still tells them apart."""
    catalogue = Catalogue.of(Manifest(name=n, module_name=n, version="1", description="d") for n in NAMES)
    rest = (*NAMES[2:], "ghost")  # four names after the one that differs
    first, second = HostConfig(enabled=("alpha", *rest)), HostConfig(enabled=("beta", *rest))
    assert hash(first) == hash(second) and first != second
    fast, event = FastScheduler(SEMANTICS), StartRun(conversation="c1")
    for host in (first, second, first):
        state = SchedulerState(host=host)
        _, expected = step(catalogue, state, event, SEMANTICS)
        assert fast.step(catalogue, state, event, text=True) == (state, _with_text(catalogue, event, expected))
    shown = {v.module_name for v in fast.step(catalogue, SchedulerState(host=second), event)[1].plugins}
    assert "beta" in shown and "alpha" not in shown
