"""The search announces the case it runs next, of whatever kind: an implementation that takes requests ahead
gets the next case's requests while this one's answers are compared (conformance.adapters.stdio)."""

from __future__ import annotations

from support.pipeline_support import Announcing

from conformance.adapters.inprocess import reference_adapter
from conformance.fuzz.search import FuzzOptions, fuzz
from reference_impl.disclosure_commands import DisclosureStart
from reference_impl.host_commands import Load


def test_each_case_announces_the_next_one_of_every_kind_and_the_last_none():
    adapter = Announcing(reference_adapter())
    result = fuzz(adapter, FuzzOptions(max_examples=30, seed=1))
    assert result.finding is None and result.examples == 30
    assert len(adapter.streams) == 30 and adapter.announced_what_came()
    firsts = {type(requests.events[0]) for requests, _ in adapter.streams if requests.start is None}
    assert {DisclosureStart, Load} <= firsts  # disclosure and host cases took turns with activation ones
    assert any(requests.start is not None for requests, _ in adapter.streams)
