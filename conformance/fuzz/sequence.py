"""Disagreements that show only after earlier cases: the shortest sequence of cases that reproduces one.

Every case begins with ``start`` (or ``host-load``, or ``disclosure-start``), which must forget
everything before it. An implementation that keeps some state across it (counters, instances, a
cache) answers a case right when it runs alone and wrong when it follows the case that left
the state behind. The search meets such a case only after the others, so replaying it alone,
in a fresh implementation (``reset``), does not disagree: :func:`across_cases` then replays it
after the cases that preceded it in the search, from a fresh implementation too, the last 1,
2, 4 ... of them until the disagreement comes back; drops every earlier case it does not need;
shrinks the disagreeing case and then each earlier one with the usual greedy pass
(:mod:`conformance.fuzz.minimise`), each replay of a candidate being the whole sequence from a
fresh implementation; and confirms that the sequence still disagrees and the last case alone
does not. The finding is then the sequence, never dropped as "did not disagree again":
:mod:`conformance.fuzz.sequence_emit` writes it as one scenario when it can be one, else as a
folder of scenarios to be run in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from conformance.fuzz import disclosure_minimise, minimise
from conformance.fuzz.case import Case
from conformance.fuzz.compare import Disagreement
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.host_case import HostCase

AnyCase = Any  # Case | DisclosureCase | HostCase: anything with events, truncated() and written_steps()
Compare = Callable[[AnyCase], "Disagreement | None"]
#: Replays of the shrunk sequence (and of its last case alone) that confirm it.
CONFIRMATIONS: Final = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class Across:
    """A disagreement of ``case`` that shows only when ``before`` ran first, from a fresh implementation."""

    before: tuple[AnyCase, ...]
    case: AnyCase
    disagreement: Disagreement


def variants(case: AnyCase) -> Iterator[AnyCase]:
    """The simpler variants of one case of any kind (the greedy pass's candidates)."""
    if isinstance(case, DisclosureCase):
        return disclosure_minimise.candidates(case)
    if isinstance(case, Case):
        return minimise.candidates(case)
    from conformance.fuzz.host_minimise import candidates

    return candidates(case)


def _earlier_variants(case: AnyCase, last: AnyCase) -> Iterator[AnyCase]:
    """An earlier case's variants: a host case over the last case's plugins and host config (the two can
    then be one scenario), cut shorter (no step of it disagrees), then the usual ones."""
    if isinstance(case, HostCase) and isinstance(last, HostCase) and (case.plugins, case.host) != (last.plugins, last.host):
        yield case.with_world(last.plugins, last.host)
    for end in range(len(case.events) - 1):
        yield case.truncated(end)
    yield from variants(case)


class _Replayer:
    """Replays sequences of cases from a fresh implementation, within a deadline."""

    def __init__(self, compare: Compare, reset: Callable[[], None], found: Disagreement, deadline: float) -> None:
        self.compare, self.reset, self.found, self.deadline = compare, reset, found, deadline

    def disagrees(self, before: Sequence[AnyCase], case: AnyCase) -> Disagreement | None:
        """The same kind of disagreement as the finding's, when ``case`` runs after ``before`` (which all agree)."""
        self.reset()
        for earlier in before:
            if self.compare(earlier) is not None:
                return None  # an earlier case no longer agrees: not the sequence that was seen
        found = self.compare(case)
        return found if self.found.same_kind(found) else None

    def late(self) -> bool:
        return time.monotonic() >= self.deadline


def _shortest_suffix(replay: _Replayer, history: Sequence[AnyCase], case: AnyCase) -> tuple[AnyCase, ...] | None:
    """The last 1, 2, 4 ... cases of ``history`` until ``case`` disagrees after them; None when it never does."""
    count = 1
    while True:
        before = tuple(history[-count:])
        if replay.disagrees(before, case) is not None:
            return before
        if count >= len(history) or replay.late():
            return None
        count = min(2 * count, len(history))


def _fewer_cases(replay: _Replayer, before: tuple[AnyCase, ...], case: AnyCase) -> tuple[AnyCase, ...]:
    """``before`` without every case the disagreement does not need, the earliest tried first."""
    index = 0
    while index < len(before) and not replay.late():
        fewer = before[:index] + before[index + 1:]
        if replay.disagrees(fewer, case) is not None:
            before = fewer
        else:
            index += 1
    return before


def _shrink(replay: _Replayer, before: tuple[AnyCase, ...], case: AnyCase,
            max_tries: int) -> tuple[tuple[AnyCase, ...], AnyCase]:
    """The disagreeing case shrunk after ``before``, then each earlier case shrunk in turn."""
    case = minimise.minimise(case, lambda c: replay.disagrees(before, c) is not None, max_tries=max_tries,
                             deadline=replay.deadline, variants=variants)
    for index in range(len(before)):
        def still(candidate: AnyCase, at: int = index, others: tuple[AnyCase, ...] = before) -> bool:
            return replay.disagrees(others[:at] + (candidate,) + others[at + 1:], case) is not None

        smaller = minimise.minimise(before[index], still, max_tries=max_tries // 4, deadline=replay.deadline,
                                    variants=lambda c: _earlier_variants(c, case))
        before = before[:index] + (smaller,) + before[index + 1:]
    return before, case


def across_cases(history: Sequence[AnyCase], case: AnyCase, found: Disagreement, *, compare: Compare,
                 reset: Callable[[], None], deadline: float, max_tries: int = 400) -> Across | None:
    """The shortest sequence of ``history``'s cases after which ``case`` disagrees as ``found`` says, shrunk.

    None when ``case`` disagrees on its own (an ordinary finding) or after none of the sequences
    tried (a flaky implementation; the caller reports it so). ``compare`` runs one case on the
    implementation and the reference (None: they agree); ``reset`` throws the implementation away.
    """
    replay = _Replayer(compare, reset, found, deadline)
    if replay.disagrees((), case) is not None or not history:
        return None
    before = _shortest_suffix(replay, history, case)
    if before is None:
        return None
    before = _fewer_cases(replay, before, case)
    before, case = _shrink(replay, before, case, max_tries)
    replay.deadline = float("inf")  # the confirmation runs whatever the time
    final = [replay.disagrees(before, case) for _ in range(CONFIRMATIONS)]
    if any(f is None for f in final) or any(replay.disagrees((), case) is not None for _ in range(CONFIRMATIONS)):
        return None
    disagreement = final[0]
    assert disagreement is not None  # checked just above
    if disagreement.index is not None:
        case = case.truncated(disagreement.index)
    return Across(before=before, case=case, disagreement=disagreement)
