"""Properties over whole event sequences and single values: isolation, eligibility, round trips."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from support.pas_activation_model import ActivationModel
from support.pas_worlds import BRIEFS, EVENTS, manifests, worlds

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.engine import Engine
from reference_impl.model import HostConfig, Manifest, Strategy
from reference_impl.scheduler import SchedulerState, step
from reference_impl.semantics import load_semantics

SEMANTICS = load_semantics()

ISOLATED = "a"


def _observe(world, events) -> tuple[list[dict], Engine]:
    installed, host = world
    engine = Engine()
    engine.start(installed, host)
    return [engine.apply(event).to_json() for event in events], engine


@settings(max_examples=max(150, settings.default.max_examples))
@given(world=worlds(), events=st.lists(EVENTS, max_size=40))
def test_events_in_one_conversation_never_change_what_another_sees(world, events):
    """Covers: ACT-COUNT-6: removing conversation a's runs and calls changes nothing elsewhere."""
    def in_isolated(event) -> bool:
        return getattr(event, "conversation", None) == ISOLATED

    full, full_engine = _observe(world, events)
    others, other_engine = _observe(world, [e for e in events if not in_isolated(e)])
    assert [o for e, o in zip(events, full) if not in_isolated(e)] == others
    kept = {c: v for c, v in full_engine.state.counters.items() if c != ISOLATED}
    assert kept == dict(other_engine.state.counters)
    assert full_engine.state.host == other_engine.state.host


@given(installed=manifests(), brief=st.one_of(st.sampled_from(BRIEFS), st.text(max_size=6)),
       strategy=st.sampled_from(tuple(Strategy)))
def test_eligibility_matches_the_model_for_any_brief_text(installed, brief, strategy):
    """Covers: ACT-ELIG-1..4, ACT-ELIG-6: whitespace of any kind around or instead of a brief."""
    manifest = Manifest.from_json({**installed[0].to_json(), "sleep_brief": brief})
    model = ActivationModel([manifest], HostConfig(strategies={manifest.module_name: strategy}))
    assert is_sleep_eligible(manifest, strategy, SEMANTICS) == model.sleepable(manifest)


@given(installed=manifests())
def test_a_manifest_survives_its_json_form(installed):
    for manifest in installed:
        assert Manifest.from_json(json.loads(json.dumps(manifest.to_json()))) == manifest


@settings(max_examples=max(60, settings.default.max_examples // 2))
@given(world=worlds(), events=st.lists(EVENTS, max_size=30))
def test_a_saved_state_restored_anywhere_gives_the_same_future(world, events):
    """Covers: ACT-COUNT-7: saving and restoring mid-sequence changes no later observation."""
    installed, host = world
    catalogue = Catalogue.of(installed)

    def replay(state, tail):
        seen = []
        for event in tail:
            state, observation = step(catalogue, state, event, SEMANTICS)
            seen.append(observation.to_json())
        return state, seen

    half = len(events) // 2
    middle, _ = replay(SchedulerState(host=host), events[:half])
    restored = SchedulerState.from_json(json.loads(json.dumps(middle.to_json())), SEMANTICS)
    assert restored == middle
    assert replay(restored, events[half:]) == replay(middle, events[half:])
