"""Which requirements a disagreement breaks: derived from the step kind and the differing fields.

A small table maps (action, field) to requirement IDs, refined by what the reference
expected (the outcome, the state, the rounds argument) and by what happened earlier in the
case (several conversations, a restart, the scheduler switched). When nothing more precise
applies, the requirements the step type touches are the fallback.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from conformance.fuzz.case import MAIN, Case, action_of
from conformance.fuzz.compare import Disagreement, Verdict
from reference_impl.eligibility import deciding_requirement
from reference_impl.semantics import load_semantics
from reference_impl.events import OMITTED, Activate, Disable, Enable, Event, Extend, Restart, SetScheduler, SetStrategy, StartRun
from reference_impl.model import HostConfig

#: What a step of each kind touches: the fallback when no field says more (e.g. an errored step).
STEP_COVERS: Final[Mapping[str, tuple[str, ...]]] = {
    "run": ("ACT-COUNT-2", "ACT-STATE-1", "ACT-STATE-2", "ACT-STATE-3"),
    "activate": ("ACT-ACTIVATE-4",),
    "extend": ("ACT-EXTEND-3",),
    "set_strategy": ("ACT-ADMIN-1", "ACT-ADMIN-2"),
    "enable": ("ACT-ADMIN-3",),
    "disable": ("ACT-ADMIN-3",),
    "set_scheduler": ("ACT-SCHED-1",),
    "restart": ("ACT-COUNT-7",),
}
#: A differing field of a run's plugin view (or of the run as a whole).
RUN_FIELD_COVERS: Final[Mapping[str, tuple[str, ...]]] = {
    "rounds_left": ("ACT-COUNT-2", "ACT-COUNT-3"),
    "hint": ("ACT-STATE-6",),
    "shown": ("ACT-STATE-5",),
    "order": ("ACT-ORDER-1",),
    "text": ("TXT-BLOCK-1",),
}
STATE_COVERS: Final[Mapping[str, str]] = {"always_awake": "ACT-STATE-1", "active": "ACT-STATE-2",
                                          "sleeping": "ACT-STATE-3"}
#: The outcome the reference answered -> the requirement defining it, per method.
OUTCOME_COVERS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "activate": {"not_found": ("ACT-ACTIVATE-1",), "always_awake": ("ACT-ACTIVATE-2",),
                 "already_active": ("ACT-ACTIVATE-3",), "activated": ("ACT-ACTIVATE-4",),
                 "invalid_argument": ("ACT-ARG-4",)},
    "extend": {"not_found": ("ACT-EXTEND-1",), "always_awake": ("ACT-EXTEND-2",), "extended": ("ACT-EXTEND-3",),
               "invalid_argument": ("ACT-ARG-4",)},
}
CALL_FIELD_COVERS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "activate": {"ends_step": ("ACT-ACTIVATE-5",), "block": ("ACT-ACTIVATE-6",)},
    "extend": {"ends_step": ("ACT-EXTEND-4",), "block": ("ACT-EXTEND-4",)},
}
REPLY_TEXT_COVERS: Final[Mapping[str, str]] = {
    "activated": "TXT-REPLY-1", "already_active": "TXT-REPLY-2", "always_awake": "TXT-REPLY-3",
    "not_found": "TXT-REPLY-4", "extended": "TXT-REPLY-5", "invalid_argument": "TXT-REPLY-6",
}


def argument_covers(rounds: Any) -> tuple[str, ...]:
    """The requirement on the rounds argument that a call's value exercises."""
    if rounds is OMITTED or rounds is None:
        return ("ACT-ARG-1",)
    if isinstance(rounds, bool) or not isinstance(rounds, (int, float)) or rounds != int(rounds):
        return ("ACT-ARG-4",)
    if rounds < 1:
        return ("ACT-ARG-2",)
    return ("ACT-ARG-3",) if rounds > 20 else ()


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


def _run_field(field: str, module: str | None, expected: Mapping[str, Any], case: Case, host: HostConfig) -> list[str]:
    view = next((v for v in expected.get("plugins", []) if v.get("module_name") == module), None)
    state = view.get("state") if view else None
    if field in RUN_FIELD_COVERS:
        return list(RUN_FIELD_COVERS[field])
    if field == "injection_called" and state == "sleeping":
        return ["ACT-STATE-4"]
    if field == "state" and view is not None:
        manifest = next((m for m in case.plugins if m.module_name == module), None)
        found = [STATE_COVERS[state]]
        if not host.scheduler_enabled or "plugin_activation" in host.disabled:
            return ["ACT-SCHED-1", *found]
        if state == "active":
            return [*found, "ACT-COUNT-2", "ACT-COUNT-3"]
        if manifest is not None:
            found.append(deciding_requirement(manifest, host.strategy_for(manifest.module_name), load_semantics()))
        return found
    return [STATE_COVERS[state]] if state in STATE_COVERS else list(STEP_COVERS["run"])


def _call_field(field: str, event: Activate | Extend, expected: Mapping[str, Any], actual: Any) -> list[str]:
    method = "activate" if isinstance(event, Activate) else "extend"
    outcome = expected.get("outcome")
    if field == "text":
        return [REPLY_TEXT_COVERS.get(outcome, "TXT-REPLY-1")]
    if field in CALL_FIELD_COVERS[method]:
        return list(CALL_FIELD_COVERS[method][field])
    found = list(OUTCOME_COVERS[method].get(outcome, STEP_COVERS[method]))
    got = actual.get("outcome") if isinstance(actual, Mapping) else None
    if field == "outcome" and got == "already_active" and outcome == "activated":
        found.append("ACT-ACTIVATE-7")
    if field == "rounds" and method == "extend" and expected.get("rounds") == 20:
        found.append("ACT-EXTEND-6")
    if field == "rounds" or (field == "outcome" and "invalid_argument" in (outcome, got)):
        found += argument_covers(event.rounds)
    return found


def _admin_field(event: Event, expected: Mapping[str, Any], actual: Any) -> list[str]:
    if isinstance(event, SetStrategy):
        got = actual.get("outcome") if isinstance(actual, Mapping) else None
        return ["ACT-ADMIN-1"] if "rejected" in (expected.get("outcome"), got) else ["ACT-ADMIN-2"]
    return list(STEP_COVERS[action_of(event)])


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def derive_covers(case: Case, found: Disagreement, host: HostConfig) -> tuple[str, ...]:
    """The requirement IDs ``found`` breaks, most specific first.

    ``host`` is the reference's live host config just before the differing step (strategy
    changes, enables and the scheduler switch applied).
    """
    event = found.event if found.event is not None else (case.events[0] if case.events else StartRun(conversation=MAIN))
    if found.verdict is Verdict.ERRORED or not found.mismatches:
        return _unique(STEP_COVERS[action_of(event)])
    ids: list[str] = []
    expected = found.expected or {}
    for mismatch in found.mismatches:
        field, module = mismatch.field, mismatch.subject or None
        if isinstance(event, StartRun):
            ids += _run_field(field, module, expected, case, host)
        elif isinstance(event, (Activate, Extend)):
            ids += _call_field(field, event, expected, found.actual)
        else:
            ids += _admin_field(event, expected, found.actual)
    if isinstance(event, (StartRun, Activate, Extend)) and found.index is not None:
        ids += _history(case, found.index)
    return _unique(ids)
