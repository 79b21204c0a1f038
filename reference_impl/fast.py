"""The scheduler's fast path: ``scheduler.step`` and ``render.render_run`` with caches keyed by value.

:class:`FastScheduler` gives exactly the states, observations and text of the rules
(:mod:`reference_impl.scheduler` and :mod:`reference_impl.render`):
tests/properties/test_fast_path_beside_the_rules.py plays both with random catalogues and
events and requires the same at every step. It is an edge of the reference, what the Engine
steps through; an implementer reads the rules, not this.

Why it is fast: a run's lineup (which plugins it shows, in which order, at rest) depends only
on the catalogue, the host config and the adapter, and those are values: equal values give
equal lineups. So a lineup and its text are computed once per (catalogue, host config,
adapter) and kept in least-recently-used maps keyed by those values; a run only swaps in the
views and blocks of the plugins with a stored counter. What does not depend on the host
config (name order, eligibility under ``auto``, each plugin's resting views, blocks and
runtime context) is kept per catalogue, so that a config change costs set operations over
names and new decisions only for the plugins the config names a strategy for.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import count, filterfalse
from typing import TypeVar

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import brief_fact, eligibility_facts
from reference_impl.events import Event, Observation, PluginView, RunObservation, StartRun
from reference_impl.model import HostConfig, Manifest, PluginState, Strategy
from reference_impl.render import render_block, runtime_context
from reference_impl.scheduler import SchedulerState, plugin_view, scheduler_on, step
from reference_impl.semantics import Semantics, first_match

T = TypeVar("T")

#: How many catalogues a FastScheduler keeps what it derived from; per catalogue, how many
#: lineups (and their texts: one per host config and adapter seen recently), and how many
#: views and blocks of active plugins (one per plugin and rounds left).
CATALOGUES = 2
LINEUPS = 16
ACTIVE = 1024

_RESTING = (PluginState.ALWAYS_AWAKE, PluginState.SLEEPING)


def eligibility_decider(semantics: Semantics) -> Callable[[Manifest, Strategy], bool]:
    """``eligibility.is_sleep_eligible`` that walks the table once per distinct combination of facts.

    For deciding many plugins at once (a catalogue of thousands, or a host config change).
    """
    decided: dict[tuple[object, ...], bool] = {}

    def decide(manifest: Manifest, strategy: Strategy) -> bool:
        # The inputs of eligibility_facts: equal keys give equal facts.
        key = (manifest.module_name == semantics.scheduler_module, manifest.allow_sleep, strategy, brief_fact(manifest))
        if key not in decided:
            facts = eligibility_facts(manifest, strategy, semantics)
            decided[key] = bool(first_match(semantics.eligibility, facts).result)
        return decided[key]

    return decide


def sleep_eligible_names(manifests: Iterable[Manifest], strategy: Strategy, semantics: Semantics) -> frozenset[str]:
    """The module_names of ``manifests`` that may sleep when each has the admin ``strategy``."""
    decide = eligibility_decider(semantics)
    return frozenset(m.module_name for m in manifests if decide(m, strategy))


class _Memo(dict[str, T]):
    """A dict that computes a missing entry from its key, once; a present key is a plain dict lookup."""

    __slots__ = ("_compute",)

    def __init__(self, compute: Callable[[str], T]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> T:
        value = self[key] = self._compute(key)
        return value


@dataclass(frozen=True, slots=True)
class _Lineup:
    """A run's plugins at rest, in prompt order: always-awake first, then those that may sleep."""

    views: tuple[PluginView, ...]
    awake: tuple[str, ...]  # the module_names of the always-awake views, which come first
    sleepers: Mapping[str, int]  # module_name -> position, for the plugins that may sleep (in order)


@dataclass(frozen=True, slots=True)
class _LineupText:
    """The text of a lineup at rest: one block per view, and the runtime contexts by position."""

    blocks: tuple[str, ...]
    contexts: tuple[tuple[int, str], ...]


class _CatalogueFacts:
    """What every lineup of one catalogue shares whatever the host config, and its lineups.

    The resting views, blocks and runtime contexts are built the first time a lineup shows a
    plugin; the lineups and their texts are kept by (host config, adapter).
    """

    def __init__(self, catalogue: Catalogue, fast: FastScheduler) -> None:
        manifests = self.manifests = catalogue.manifests
        self.by_name = dict(manifests)  # a plain dict: looked up for every named strategy of a new config
        semantics = fast.semantics
        self.names = tuple(sorted(manifests))
        self.builtins = frozenset(m.module_name for m in manifests.values() if m.builtin)  # HOST-LOAD-1
        self.auto = sleep_eligible_names(manifests.values(), Strategy.AUTO, semantics)
        self.restricted = {m.module_name: m.support_adapter for m in manifests.values() if m.support_adapter}
        self.views = {state: _Memo(functools.partial(_resting_view, manifests, state, semantics)) for state in _RESTING}
        self.blocks = {state: _Memo(functools.partial(fast.resting_block, self, state)) for state in _RESTING}
        self.contexts = _Memo(lambda name: runtime_context(manifests[name]))
        self.hidden = _Memo(self._hidden_on)
        self.lineups = functools.lru_cache(maxsize=LINEUPS)(functools.partial(fast.new_lineup, self))
        self.texts = functools.lru_cache(maxsize=LINEUPS)(functools.partial(fast.new_lineup_text, self))
        self.active_views = functools.lru_cache(maxsize=ACTIVE)(functools.partial(_active_view, manifests, semantics))
        self.active_blocks = functools.lru_cache(maxsize=ACTIVE)(functools.partial(fast.active_block, self))

    def _hidden_on(self, adapter: str) -> frozenset[str]:
        return frozenset(m for m, adapters in self.restricted.items() if adapter not in adapters)

    def available(self, host: HostConfig, adapter: str | None) -> list[str]:
        """The plugins a conversation on ``adapter`` can see, by name (ACT-STATE-5), as set operations."""
        shown = set(host.enabled)  # names not installed drop out: only installed names are tested below
        shown.update(self.builtins)
        shown.difference_update(host.disabled)
        if adapter is not None:
            shown.difference_update(self.hidden[adapter])
        return [*filter(shown.__contains__, self.names)]


def _resting_view(manifests: Mapping[str, Manifest], state: PluginState, semantics: Semantics, name: str) -> PluginView:
    return plugin_view(manifests[name], state, None, semantics)


def _active_view(manifests: Mapping[str, Manifest], semantics: Semantics, name: str, rounds: int) -> PluginView:
    return plugin_view(manifests[name], PluginState.ACTIVE, rounds, semantics)


class FastScheduler:
    """``scheduler.step`` under one semantics, with caches keyed by value; a run can carry its text.

    The caches are bounded (:data:`CATALOGUES`, :data:`LINEUPS`, :data:`ACTIVE`) and change no result.
    """

    def __init__(self, semantics: Semantics) -> None:
        self.semantics = semantics
        self._facts = functools.lru_cache(maxsize=CATALOGUES)(self.new_facts)

    def step(
        self, catalogue: Catalogue, state: SchedulerState, event: Event, *, text: bool = False
    ) -> tuple[SchedulerState, Observation]:
        """What ``scheduler.step`` gives; with ``text``, a run carries what ``render.render_run`` gives.

        Raises TypeError only for an object that is not an Event (misuse of the API).
        """
        if not isinstance(event, StartRun):
            return step(catalogue, state, event, self.semantics)
        facts = self._facts(catalogue)
        host = state.host
        lineup = facts.lineups(host, event.adapter)
        active: list[tuple[int, PluginView]] = []
        if scheduler_on(host, self.semantics):  # else everything is awake and counters stay (ACT-SCHED-1/2)
            state, active = self._count(facts, lineup, state, event.conversation)
        views = list(lineup.views)
        for position, view in active:
            views[position] = view
        if not text:
            return state, RunObservation(plugins=tuple(views))
        said = self._run_text(facts, facts.texts(host, event.adapter), active)
        return state, RunObservation(plugins=tuple(views), text=said)

    def clear(self) -> None:
        """Forget every cached value (and release the catalogues they were derived from)."""
        self._facts.cache_clear()

    def _count(
        self, facts: _CatalogueFacts, lineup: _Lineup, state: SchedulerState, conversation: str
    ) -> tuple[SchedulerState, list[tuple[int, PluginView]]]:
        """The active views of a run by position, and the counters counted down (ACT-COUNT-2, ACT-COUNT-5)."""
        sleepers = lineup.sleepers
        counted = sorted((sleepers[m], m, n) for m, n in state.counters_of(conversation).items() if m in sleepers)
        remaining: dict[str, int] = {}
        active: list[tuple[int, PluginView]] = []
        for position, name, rounds in counted:
            active.append((position, facts.active_views(name, rounds)))
            if rounds > 1:
                remaining[name] = rounds - 1
        return state.with_counters(conversation, remaining), active

    def _run_text(self, facts: _CatalogueFacts, rest: _LineupText, active: list[tuple[int, PluginView]]) -> str:
        """The lineup's text with the blocks (and runtime contexts) of the active views swapped in."""
        blocks = list(rest.blocks)
        contexts = list(rest.contexts)
        for position, view in active:
            blocks[position] = facts.active_blocks(view)
            at = bisect_left(contexts, (position,))
            present = at < len(contexts) and contexts[at][0] == position
            if present:
                del contexts[at]
            if view.injection_called:
                contexts.insert(at, (position, facts.contexts[view.module_name]))
        # One join, one allocation: the text of 10,000 plugins is megabytes.
        return "\n\n".join([*blocks, *(context for _, context in contexts)])

    def new_facts(self, catalogue: Catalogue) -> _CatalogueFacts:
        """Everything a catalogue's lineups share (computed when the catalogue is first stepped)."""
        return _CatalogueFacts(catalogue, self)

    def new_lineup(self, facts: _CatalogueFacts, host: HostConfig, adapter: str | None) -> _Lineup:
        """The resting lineup of one (host config, adapter): ACT-ORDER-1 over the plugins shown."""
        eligible = self._may_sleep(facts, host)
        listed = facts.available(host, adapter)
        awake = [*filterfalse(eligible.__contains__, listed)]
        asleep = [*filter(eligible.__contains__, listed)]
        views = facts.views
        return _Lineup(
            views=(*map(views[PluginState.ALWAYS_AWAKE].__getitem__, awake),
                   *map(views[PluginState.SLEEPING].__getitem__, asleep)),
            awake=tuple(awake),
            sleepers=dict(zip(asleep, count(len(awake)))),
        )

    def _may_sleep(self, facts: _CatalogueFacts, host: HostConfig) -> AbstractSet[str]:
        """The installed plugins that may sleep under ``host``: auto's set, with named strategies decided again."""
        if not scheduler_on(host, self.semantics):
            return frozenset()
        by_name = facts.by_name
        named = [(m, s) for m, s in host.strategies.items() if m in by_name]
        if not named:
            return facts.auto
        decide = eligibility_decider(self.semantics)
        chosen = [m for m, s in named if decide(by_name[m], s)]
        return facts.auto.difference(m for m, _ in named).union(chosen)

    def new_lineup_text(self, facts: _CatalogueFacts, host: HostConfig, adapter: str | None) -> _LineupText:
        """The blocks and runtime contexts of one resting lineup, from the catalogue's resting blocks."""
        lineup = facts.lineups(host, adapter)
        blocks = facts.blocks
        return _LineupText(
            blocks=(*map(blocks[PluginState.ALWAYS_AWAKE].__getitem__, lineup.awake),
                    *map(blocks[PluginState.SLEEPING].__getitem__, lineup.sleepers)),
            contexts=tuple((i, facts.contexts[v.module_name]) for i, v in enumerate(lineup.views) if v.injection_called),
        )

    def resting_block(self, facts: _CatalogueFacts, state: PluginState, name: str) -> str:
        """The block of a plugin at rest in ``state`` (built once per catalogue)."""
        return self.render_block(facts.manifests[name], facts.views[state][name])

    def active_block(self, facts: _CatalogueFacts, view: PluginView) -> str:
        """The block of an active plugin's view (kept per catalogue, by view)."""
        return self.render_block(facts.manifests[view.module_name], view)

    def render_block(self, manifest: Manifest, view: PluginView) -> str:
        """One block of a run's text: ``render.render_block`` without the injected prompt."""
        return render_block(manifest, view, with_injection=False)
