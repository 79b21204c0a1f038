"""Bugs that only varied plugins show: the fuzzer finds each of them in a few cases.

Each fake here is the reference with one mistake that the classic generated plugins (lower-case
ASCII names, a display name equal to the title-cased module name, one method with a plain
description) could never show: blocks sorted by display name or ignoring case, and a text that
lists only a plugin's first method; or that only seven steps in a row show (a change made and
undone while the scheduler is off, :func:`conformance.fuzz.generate.paused_change`).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from conformance.adapters.inprocess import InProcessAdapter
from conformance.fuzz.search import FuzzOptions, fuzz
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation, StartRun
from reference_impl.model import Manifest, PluginState
from reference_impl.render import method_entry, method_list, render_run
from reference_impl.scheduler import scheduler_on


class _SortedBy(Engine):
    """The reference, except that a run's blocks are sorted by :meth:`key` within each group."""

    def key(self, manifest: Manifest) -> str:
        return manifest.module_name

    def apply(self, event: Event) -> Observation:
        observation = super().apply(event)
        if not isinstance(observation, RunObservation):
            return observation
        manifests = self._catalogue.manifests
        awake = [v for v in observation.plugins if v.state is PluginState.ALWAYS_AWAKE]
        others = [v for v in observation.plugins if v.state is not PluginState.ALWAYS_AWAKE]
        views = tuple(sorted(awake, key=lambda v: self.key(manifests[v.module_name]))
                      + sorted(others, key=lambda v: self.key(manifests[v.module_name])))
        shown = replace(observation, plugins=views, text=None)
        return replace(shown, text=None if observation.text is None else render_run(manifests, shown))


class SortedByDisplayName(_SortedBy):
    """Blocks sorted by the display name (``name``), not the module name."""

    def key(self, manifest: Manifest) -> str:
        return manifest.name


class SortedIgnoringCase(_SortedBy):
    """Blocks sorted by module name ignoring case, not by code point."""

    def key(self, manifest: Manifest) -> str:
        return manifest.module_name.lower()


class FirstMethodOnly(Engine):
    """The text lists only the first method with a description."""

    def apply(self, event: Event) -> Observation:
        observation = super().apply(event)
        if getattr(observation, "text", None) is None:
            return observation
        text = observation.text
        for manifest in self._catalogue.manifests.values():
            shown = [m for m in manifest.methods if m.description]
            if len(shown) > 1:
                text = text.replace(method_list(manifest), method_entry(shown[0]))
        return replace(observation, text=text)


class OffRunDropsStaleCounters(Engine):
    """A run with the scheduler off still drops the counters of plugins disabled or made ineligible meanwhile."""

    def apply(self, event: Event) -> Observation:
        observation = super().apply(event)
        state = self._state
        if isinstance(event, StartRun) and not scheduler_on(state.host, self._semantics):
            manifests = self._catalogue.manifests
            kept = {m: n for m, n in state.counters_of(event.conversation).items()
                    if m not in state.host.disabled
                    and is_sleep_eligible(manifests[m], state.host.strategy_for(m), self._semantics)}
            self._state = state.with_counters(event.conversation, kept)
        return observation


@pytest.mark.parametrize(("fake", "steps"), [(SortedByDisplayName, 4), (SortedIgnoringCase, 4), (FirstMethodOnly, 4),
                                             (OffRunDropsStaleCounters, 7)])
def test_a_bug_only_varied_plugins_or_a_motif_show_is_found_within_a_few_hundred_cases(fake, steps):
    result = fuzz(InProcessAdapter(fake, name=fake.__name__), FuzzOptions(max_examples=300, seed=0))
    assert result.finding is not None, f"{fake.__name__}: nothing found in {result.examples} cases"
    assert result.finding.reproducible
    assert len(result.finding.case.events) <= steps
