"""Which requirements a disagreement breaks, for the ``covers`` of the scenario the fuzzer writes.

The table is the suite's: spec/attribution.yaml, applied by :mod:`conformance.suite.attribution`
to the differing fields, refined by what the reference expected (the outcome, the state, the
rounds argument, the eligibility row under the live host config). A fuzzed case has no
``covers`` to narrow the candidates with, so every candidate is kept, and then what happened
earlier in the case (several conversations, a restart, the scheduler switched, an admin
change) adds the requirements about it. An errored step blames what its kind touches (the
table's fallback for the action).
"""

from __future__ import annotations

from collections.abc import Iterable

from conformance.fuzz.case import MAIN, Case, action_of
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.suite.attribution import blame, facts_of, history_of
from conformance.suite.attribution_table import load_table
from reference_impl.events import Activate, Disable, Enable, Extend, Restart, SetScheduler, SetStrategy, StartRun
from reference_impl.model import HostConfig


def _history(case: Case, index: int) -> list[str]:
    """Requirements suggested by what happened before step ``index``."""
    before = case.events[:index]
    found = []
    if len({getattr(e, "conversation", MAIN) for e in case.events[: index + 1] if hasattr(e, "conversation")}) > 1:
        found.append("ACT-COUNT-6")
    if any(isinstance(e, Restart) for e in before):
        found.append("ACT-COUNT-7")
    if any(isinstance(e, SetScheduler) for e in before) or not case.host.scheduler_enabled:
        found += ["ACT-SCHED-2", "ACT-SCHED-3"]
    if any(isinstance(e, (SetStrategy, Enable, Disable)) for e in before):
        found += ["ACT-ELIG-5", "ACT-COUNT-5"]
    return found


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def derive_covers(case: Case, found: Disagreement, host: HostConfig) -> tuple[str, ...]:
    """The requirement IDs ``found`` breaks, most specific first.

    ``host`` is the reference's live host config just before the differing step (strategy
    changes, enables and the scheduler switch applied).
    """
    event = found.event if found.event is not None else (case.events[0] if case.events else StartRun(conversation=MAIN))
    action = action_of(event)
    if found.verdict is Verdict.ERRORED or not found.mismatches:
        return _unique(load_table().fallback(action))
    index = found.index or 0
    facts = facts_of(event, action, found.expected, host=host, plugins=case.plugins,
                     history=history_of(case.events[:index], event, case.host))
    ids = list(blame(found.mismatches, facts, observed=found.actual))
    if isinstance(event, (StartRun, Activate, Extend)) and found.index is not None:
        ids += _history(case, found.index)
    return _unique(ids)
