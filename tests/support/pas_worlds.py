"""Hypothesis strategies for the property tests: plugin sets, host configs, events."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.model import HostConfig, Manifest, Method, MethodKind, Strategy

NAMES = ("alpha", "beta", "gamma", "delta", "plugin_activation")
CALLABLE_NAMES = NAMES + ("ghost",)
# Each conversation has one adapter for its whole life; "a" declares none.
CONVERSATIONS = {"a": None, "b": "qq", "c": "tg"}
ADAPTER_SETS = ((), (), (), ("qq",), ("qq", "tg"), ("tg",))
BRIEFS = ("", "   ", "\t\n", "Checks things.", "Checks things.", "Checks things.", "  Padded brief.  ")
ALLOW_SLEEP = (True, True, True, None, False)
EDGE_ROUNDS = (OMITTED, None, -5, 0, 1, 2, 3, 19, 20, 21, 100, 10**12, 2.0, -0.0, 1e300, 2.5, "3", "five", True, False,
               [], [2], {}, {"rounds": 2}, math.nan, math.inf)
ROUNDS = st.one_of(st.sampled_from(EDGE_ROUNDS), st.integers(min_value=-30, max_value=40))
# Mostly small valid counts, so that activations live long enough to meet runs and extends.
LIKELY_ROUNDS = st.one_of(st.integers(min_value=1, max_value=4), st.integers(min_value=-2, max_value=22), ROUNDS)
STRATEGY_VALUES = st.sampled_from(
    ("auto", "allow_sleep", "forbid_sleep", "auto", "allow_sleep", "forbid_sleep", "forbid-sleep", "AUTO", "", None, 3,
     ["auto"], Strategy.ALLOW_SLEEP))


@st.composite
def manifests(draw, names=st.lists(st.sampled_from(NAMES), min_size=1, max_size=len(NAMES), unique=True)):  # noqa: B008 - a strategy is a frozen description, safe as a default
    """A few manifests with a mix of eligibility settings, built-ins and adapter limits."""
    found = []
    for name in draw(names):
        found.append(Manifest(
            name=draw(st.sampled_from((name.title(), 'Say "hi" & <go>', "笔记"))),
            module_name=name,
            version="1.0.0",
            description="",
            methods=(Method(name=f"use_{name}", kind=MethodKind.TOOL, description="Use it."),),
            allow_sleep=draw(st.sampled_from(ALLOW_SLEEP)),
            sleep_brief=draw(st.sampled_from(BRIEFS)),
            builtin=draw(st.booleans()),
            support_adapter=draw(st.sampled_from(ADAPTER_SETS)),
            injects_prompt=draw(st.booleans()),
        ))
    return found


@st.composite
def worlds(draw) -> tuple[list[Manifest], HostConfig]:
    """Installed manifests and a host config over them (with a missing 'ghost' now and then)."""
    installed = draw(manifests())
    names = [m.module_name for m in installed]
    left_out = draw(st.sets(st.sampled_from(names), max_size=1))
    enabled = [n for n in draw(st.permutations(names + ["ghost"])) if n not in left_out]
    host = HostConfig(
        enabled=tuple(enabled),
        disabled=frozenset(draw(st.sets(st.sampled_from(names), max_size=1))),
        strategies=draw(st.dictionaries(st.sampled_from(names), st.sampled_from(tuple(Strategy)), max_size=2)),
        scheduler_enabled=draw(st.sampled_from((True, True, True, False))),
    )
    return installed, host


CONVERSATION = st.sampled_from(tuple(CONVERSATIONS))


def _call(kind):
    return st.builds(lambda c, m, r: kind(conversation=c, module_name=m, rounds=r, adapter=CONVERSATIONS[c]),
                     CONVERSATION, st.sampled_from(CALLABLE_NAMES), LIKELY_ROUNDS)


RUNS = st.builds(lambda c: StartRun(conversation=c, adapter=CONVERSATIONS[c]), CONVERSATION)
EVENTS = st.one_of(
    RUNS,
    RUNS,
    _call(Activate),
    _call(Extend),
    st.builds(lambda m, s: SetStrategy(module_name=m, strategy=s), st.sampled_from(CALLABLE_NAMES), STRATEGY_VALUES),
    st.builds(lambda m: Enable(module_name=m), st.sampled_from(CALLABLE_NAMES)),
    st.builds(lambda m: Disable(module_name=m), st.sampled_from(CALLABLE_NAMES)),
    st.builds(lambda on: SetScheduler(enabled=on), st.booleans()),
    st.just(Restart()),
)
