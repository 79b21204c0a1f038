"""The caller-owned lineup cache: bounded, least recently used, keyed by identity it keeps alive."""

from __future__ import annotations

import dataclasses
import gc
import weakref

from refimpl_builders import CONV, SEMANTICS, sleeper

from reference_impl.catalogue import Catalogue
from reference_impl.events import StartRun
from reference_impl.lineup_cache import LineupCache, memo
from reference_impl.model import HostConfig
from reference_impl.scheduler import SchedulerState, step


class Anchor:
    """A value that can be weakly referenced (frozen slotted dataclasses cannot)."""


def test_a_value_is_computed_once_per_anchor_and_key():
    cache, anchor, calls = LineupCache(), Anchor(), []
    for _ in range(3):
        assert cache.get((anchor,), "k", lambda: calls.append(1) or len(calls)) == 1
    assert cache.get((anchor,), "other", lambda: "second") == "second"
    assert len(calls) == 1


def test_equal_but_distinct_values_do_not_share_an_entry():
    """Keyed by identity: a HostConfig equal to another is still a different config object."""
    cache = LineupCache()
    first, second = HostConfig(enabled=("a",)), HostConfig(enabled=("a",))
    assert first == second
    assert cache.get((first,), "k", lambda: "first") == "first"
    assert cache.get((second,), "k", lambda: "second") == "second"


def test_the_least_recently_used_entry_is_dropped_when_full():
    cache = LineupCache(size=2)
    a, b, c = Anchor(), Anchor(), Anchor()
    cache.get((a,), "k", lambda: "a")
    cache.get((b,), "k", lambda: "b")
    cache.get((a,), "k", lambda: "a again")  # a is now the most recently used
    cache.get((c,), "k", lambda: "c")
    assert len(cache) == 2
    assert cache.get((a,), "k", lambda: "recomputed") == "a"
    assert cache.get((b,), "k", lambda: "recomputed") == "recomputed"


def test_an_entry_keeps_its_anchors_alive_so_their_identity_cannot_be_recycled():
    cache, anchor = LineupCache(), Anchor()
    alive = weakref.ref(anchor)
    cache.get((anchor,), "k", lambda: "v")
    del anchor
    gc.collect()
    assert alive() is not None
    cache.clear()
    gc.collect()
    assert alive() is None and len(cache) == 0


def test_without_a_cache_memo_just_computes():
    calls = []
    assert [memo(None, (), "k", lambda: calls.append(1) or len(calls)) for _ in range(2)] == [1, 2]


def test_a_cache_of_size_zero_keeps_nothing_and_still_answers():
    cache, anchor, calls = LineupCache(size=0), Anchor(), []
    assert [cache.get((anchor,), "k", lambda: calls.append(1) or len(calls)) for _ in range(2)] == [1, 2]
    assert len(cache) == 0


def test_the_catalogue_is_a_plain_value_with_no_cache_inside():
    """The memo that used to live in a frozen Catalogue is gone: its only field is the manifests."""
    assert [f.name for f in dataclasses.fields(Catalogue)] == ["manifests"]


def test_a_run_reuses_the_lineup_of_the_same_host_config_object():
    catalogue = Catalogue.of([sleeper("alpha"), sleeper("beta")])
    state = SchedulerState(host=HostConfig(enabled=("alpha", "beta")))
    cache = LineupCache()
    _, first = step(catalogue, state, StartRun(conversation=CONV), SEMANTICS, cache=cache)
    entries = len(cache)
    _, again = step(catalogue, state, StartRun(conversation=CONV), SEMANTICS, cache=cache)
    assert again == first and len(cache) == entries
    assert all(a is b for a, b in zip(first.plugins, again.plugins, strict=True))
