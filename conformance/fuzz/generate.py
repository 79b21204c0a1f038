"""Fuzz cases from tables of values: one generator, fed by ``random.Random`` or by Hypothesis.

Everything a case is built from is a row of a small table here: plugin shapes, host
settings, step kinds and their arguments. :func:`build_plugins`, :func:`build_host` and
:func:`build_event` pick rows through a ``choose(options)`` function. ``pas fuzz``'s search
(:func:`generate_case`) passes a ``random.Random(seed).choice``: no Hypothesis in that loop (a
draw through Hypothesis costs far more than a step); :mod:`conformance.fuzz.strategies` passes
a Hypothesis draw, so the state machine keeps Hypothesis' shrinking. The standard library
only: no Hypothesis import here.

What the tables reach is everything a scenario file can say about the activation profile:
plugins of every shape :mod:`conformance.fuzz.plugin_shapes` describes (module names in both
cases, of one and of 64 characters, sorting around ``plugin_activation``; display names
unlike them; none to three methods with every kind of description; briefs of every White_Space
character and of characters some language's trim removes) x every ``allow_sleep`` x built-in x
injects x support_adapter, ``plugin_activation`` among them with any of those eligibility
fields (ACT-ELIG-8); host configs with plugins left out or disabled, an unknown entry, every
strategy (so every brief under every strategy), the scheduler off; runs and calls in four
conversations, two of them starting on chat adapters, runs that move a conversation to another
adapter (ACT-STATE-7), calls made on another adapter than their conversation's; call names
with surrounding white space, in another case, in full-width forms, empty, unknown or full of
XML specials; ``rounds`` of every JSON type (non-ASCII strings included); strategy changes to
every valid value, unknown strings and non-strings; enable and disable (also of unknown modules
and of ``plugin_activation``); the scheduler switch; restarts. Values that find bugs come more
often (sleep-eligible plugins, the main conversation, everyday rounds), but every row stays
possible.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from conformance.fuzz.case import CONVERSATIONS, MAIN, Case
from conformance.fuzz.plugin_shapes import (
    BRIEFS,
    NAME_SETS,
    NAMES,
    manifest,
    pick_brief,
    pick_descriptions,
    pick_display_name,
)
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.model import HostConfig, Manifest, Strategy

T = TypeVar("T")
Choose = Callable[[Sequence[Any]], Any]  # picks one item of a table

__all__ = ["BRIEFS", "NAMES", "NAME_SETS", "build_case", "build_event", "build_host", "build_plugins", "generate_case",
           "manifest", "scheduler_manifest", "targets"]

SCHEDULER: Final = "plugin_activation"
UNKNOWN: Final = "ghost"  # named in calls, enabled lists and admin steps, never installed
#: A called name no plugin has, full of what a reply sentence must not escape (TXT-REPLY-9).
MARKUP_NAME: Final = "<b>&\"it's\"</b>"
MAX_STEPS: Final = 40
ALLOW_SLEEP: Final = (True, None, False)
#: ``allow_sleep`` of a generated plugin, weighted: a sleep-eligible plugin more than half the time.
ALLOW_SLEEP_CHOICES: Final = (True,) * 3 + ALLOW_SLEEP
SUPPORT_ADAPTER: Final = ((), ("onebot_v11",), ("discord", "onebot_v11"))
#: The rounds argument: omitted, then one of every JSON type and every edge: null, clamped
#: integers, bounds, integers beyond 32 and 64 bits, floats (integral too), numeric strings,
#: booleans, a list, an object.
ROUNDS: Final = (OMITTED, None, 0, -1, 1, 2, 3, 19, 20, 21, 10**10, 10**20, -(10**20), 2.5, 3.0, 1e300, "3", " 3", "三",
                 True, False, [3], {"rounds": 3})
#: Strategy values an admin sets at run time: the valid ones, unknown and near-miss strings, non-strings.
STRATEGY_VALUES: Final = ("auto", "allow_sleep", "forbid_sleep", "sometimes", "AUTO", " auto", "", None, 1, True,
                          ["auto"], {"auto": True})
#: The same, weighted: a valid value most of the time (an admin going back to ``auto`` must be common).
STRATEGY_CHOICES: Final = ("auto", "allow_sleep", "forbid_sleep") * 3 + STRATEGY_VALUES
HOST_STRATEGIES: Final = (None, Strategy.AUTO, Strategy.ALLOW_SLEEP, Strategy.FORBID_SLEEP)

#: (builtin, injects_prompt, support_adapter) rows.
FLAG_ROWS: Final = tuple(itertools.product((False, True), (False, True), SUPPORT_ADAPTER[:1] * 2 + SUPPORT_ADAPTER))
SHAPES: Final = tuple(itertools.product(range(1, len(NAMES) + 1), (False, True)))  # plugin count, scheduler installed
#: Per plugin: (left out of enabled, disabled), mostly (False, False); then its strategy.
PLACEMENTS: Final = ((False, False),) * 6 + ((True, False), (False, True))
PLUGIN_STRATEGIES: Final = HOST_STRATEGIES[:1] * 3 + HOST_STRATEGIES
GLOBALS: Final = tuple(itertools.product((False, True), (True,) * 5 + (False,)))  # "ghost" enabled, scheduler on
#: A conversation for a run or call, mostly ``main``.
CONVERSATION_CHOICES: Final = (MAIN,) * 5 + tuple(c for c in CONVERSATIONS if c != MAIN)
#: Chat adapters a run may move its conversation to, or a call be made on (telegram: no plugin lists it).
ADAPTERS: Final = ("onebot_v11", "discord", "telegram")
#: Whether a call is made on another adapter than its conversation's (one call in eight).
ELSEWHERE: Final = (False,) * 7 + (True,)
#: The head of a step: (kind, conversation or switch). Runs and calls make three quarters of
#: the steps: admin changes reshape the world, and too many leave no counter alive long enough.
HEADS: Final = (
    tuple(("run", c) for c in CONVERSATION_CHOICES) * 6
    + tuple(("move", c) for c in CONVERSATION_CHOICES)
    + tuple(("activate", c) for c in CONVERSATION_CHOICES) * 5
    + tuple(("extend", c) for c in CONVERSATION_CHOICES) * 4
    + (("set_strategy", None),) * 10 + (("enable", None),) * 7 + (("disable", None),) * 7
    + (("set_scheduler", False),) * 5 + (("set_scheduler", True),) * 5 + (("restart", None),) * 8
)
#: Whether the next steps are a motif (:func:`paused_change`) rather than one step drawn alone.
MOTIFS: Final = (False,) * 99 + (True,)
#: Every edge value once, the everyday ones twice more: most calls should leave a counter behind.
ROUNDS_ARGUMENTS: Final = (*ROUNDS, *(OMITTED, 1, 2, 3, 5, 1, 2, 20, 19) * 2)
_FULL_WIDTH: Final = {c: c + 0xFEE0 for c in range(0x21, 0x7F)}  # ASCII -> FULLWIDTH FORMS (NFKC maps them back)
#: How an installed name is mangled in a call: surrounding (Unicode) white space, another case, full width.
NAME_DECORATIONS: Final = (" {}", "{}\t", "\u3000{}", "{} \u00a0", str.upper, str.swapcase,
                           lambda name: name.translate(_FULL_WIDTH))


def scheduler_manifest(*, allow_sleep: bool | None = False, brief: str = "") -> Manifest:
    """The built-in ``plugin_activation`` plugin (disabling it switches the scheduler off).

    It never sleeps whatever its manifest says (ACT-ELIG-8): the fuzzer also gives it the
    eligibility fields of a sleeper, so that only that rule keeps it awake.
    """
    return manifest(SCHEDULER, allow_sleep=allow_sleep, brief=brief, builtin=True)


@dataclass(frozen=True, slots=True)
class Targets:
    """The module names steps over one plugin set may name, each table weighted towards installed plugins."""

    calls: tuple[str, ...]  # activate / extend: any string
    admin: tuple[str, ...]  # enable / disable / set_strategy: module-name shaped


@functools.cache
def targets(names: tuple[str, ...]) -> Targets:
    """The target tables for plugins called ``names`` (cached: a few plugin sets recur all the time)."""
    mangled = tuple(d.format(n) if isinstance(d, str) else d(n) for n in names if n != SCHEDULER
                    for d in NAME_DECORATIONS)
    calls = (*names * 8, *mangled, UNKNOWN, UNKNOWN, "", MARKUP_NAME)
    extra = (UNKNOWN,) if SCHEDULER in names else (UNKNOWN, SCHEDULER)
    return Targets(calls=calls, admin=(*names * 3, *extra))


def build_plugins(choose: Choose, max_plugins: int = len(NAMES)) -> tuple[Manifest, ...]:
    """One to ``max_plugins`` plugins named by one of :data:`NAME_SETS`, sometimes with ``plugin_activation``.

    Each has a display name, methods and a brief of :mod:`conformance.fuzz.plugin_shapes`'s tables.
    """
    count, with_scheduler = choose(SHAPES)
    plugins = []
    for index, name in enumerate(choose(NAME_SETS)[: min(count, max_plugins)]):
        allow, sleep_brief = choose(ALLOW_SLEEP_CHOICES), pick_brief(choose)
        builtin, injects, support = choose(FLAG_ROWS)
        plugins.append(manifest(name, allow_sleep=allow, brief=sleep_brief, builtin=builtin, injects=injects,
                                support_adapter=support, display=pick_display_name(choose, name, index),
                                descriptions=pick_descriptions(choose)))
    if with_scheduler:
        plugins.append(scheduler_manifest(allow_sleep=choose(ALLOW_SLEEP_CHOICES), brief=pick_brief(choose)))
    return tuple(plugins)


def build_host(choose: Choose, plugins: tuple[Manifest, ...]) -> HostConfig:
    """A host config over ``plugins``: now and then one left out of ``enabled`` or disabled, an
    unknown entry, each strategy value (or none) per plugin, the scheduler on or (less often) off."""
    enabled, disabled, strategies = [], set(), {}
    for plugin in plugins:
        left_out, off = choose(PLACEMENTS)
        strategy = choose(PLUGIN_STRATEGIES)
        if not plugin.builtin and not left_out:
            enabled.append(plugin.module_name)
        if off:
            disabled.add(plugin.module_name)
        if strategy is not None:
            strategies[plugin.module_name] = strategy
    ghost, scheduler = choose(GLOBALS)
    if ghost:
        enabled.append(UNKNOWN)
    return HostConfig(enabled=tuple(enabled), disabled=frozenset(disabled), strategies=strategies,
                      scheduler_enabled=scheduler)


def build_event(choose: Choose, names: tuple[str, ...], adapters: dict[str, str | None] | None = None) -> Event:
    """One step over plugins called ``names``: a run, a call, an admin change or a restart.

    ``adapters`` holds each conversation's adapter so far (default: where they start); a
    run that moves its conversation to another adapter updates it.
    """
    adapters = dict(CONVERSATIONS) if adapters is None else adapters
    kind, detail = choose(HEADS)
    if kind == "run":
        return StartRun(conversation=detail, adapter=adapters[detail])
    if kind == "move":
        adapters[detail] = choose(ADAPTERS)
        return StartRun(conversation=detail, adapter=adapters[detail])
    if kind == "activate" or kind == "extend":
        call = Activate if kind == "activate" else Extend
        adapter = choose(ADAPTERS) if choose(ELSEWHERE) else adapters[detail]
        return call(conversation=detail, module_name=choose(targets(names).calls), rounds=choose(ROUNDS_ARGUMENTS),
                    adapter=adapter)
    if kind == "set_strategy":
        return SetStrategy(module_name=choose(targets(names).admin), strategy=choose(STRATEGY_CHOICES))
    if kind == "set_scheduler":
        return SetScheduler(enabled=detail)
    if kind == "restart":
        return Restart()
    return (Enable if kind == "enable" else Disable)(module_name=choose(targets(names).admin))


def paused_change(choose: Choose, names: tuple[str, ...], adapter: str | None = None) -> tuple[Event, ...]:
    """A motif of seven steps no step-by-step draw is likely to make: a plugin activated, the scheduler
    switched off, the plugin disabled or made ineligible, a run, the change undone, the scheduler back, a run.

    While the scheduler is off a run neither reads nor changes counters (ACT-SCHED-2): the
    activation must still be there at the end. Everything happens in ``main``, on ``adapter`` (its adapter so far).
    """
    target = choose([n for n in names if n != SCHEDULER] or [UNKNOWN])
    change, undo = choose(((Disable(module_name=target), Enable(module_name=target)),
                           (SetStrategy(module_name=target, strategy="forbid_sleep"),
                            SetStrategy(module_name=target, strategy="auto"))))
    run = StartRun(conversation=MAIN, adapter=adapter)
    return (Activate(conversation=MAIN, module_name=target, rounds=choose((OMITTED, 3, 5)), adapter=adapter),
            SetScheduler(enabled=False),
            change, run, undo, SetScheduler(enabled=True), run)


def build_case(choose: Choose, steps: int, max_plugins: int = len(NAMES)) -> Case:
    """A whole case: plugins, a host config over them and ``steps`` events.

    Now and then (:data:`MOTIFS`) a run of steps is a motif rather than steps drawn one by one.
    """
    plugins = build_plugins(choose, max_plugins)
    host = build_host(choose, plugins)
    names = tuple(m.module_name for m in plugins)
    adapters = dict(CONVERSATIONS)
    events: list[Event] = []
    while len(events) < steps:
        if choose(MOTIFS):
            events += paused_change(choose, names, adapters[MAIN])
        else:
            events.append(build_event(choose, names, adapters))
    return Case(plugins=plugins, host=host, events=tuple(events[:steps]))


def generate_case(seed: int, steps: int, max_plugins: int = len(NAMES)) -> Case:
    """The case of ``seed``: the same seed and length give the same case on every run and machine."""
    return build_case(random.Random(seed).choice, steps, max_plugins)
