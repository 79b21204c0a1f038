"""Which requirements a failed step blames: spec/attribution.yaml, applied to its mismatches.

Each :class:`~conformance.suite.expectations.Mismatch` has a ``field`` (the kind of
expectation); the table gives, per step action and field, the candidate requirements,
refined by the expected value and by facts about the step (:class:`StepFacts`: the outcome
and states the reference expects, the host config in force). A step blames the union over
its mismatches of (candidates ∩ covered), or the candidates when none of them is covered,
``covered`` being the step's ``covers`` with the scenario's. ``pas run`` and ``pas fuzz``
(:mod:`conformance.fuzz.covers`) both read the table through this module. A disclosure step's
facts (the catalogue, the declared options, what happened before) and the keys that refine its
mismatches are :mod:`conformance.suite.attribution_disclosure`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from conformance.suite.attribution_disclosure import (
    answer_key,
    call_kinds,
    disclosure_history,
    option_key,
    shown_difference,
)
from conformance.suite.attribution_replay import replay
from conformance.suite.attribution_table import AttributionRule, Table, load_table
from conformance.suite.expectations import CALL_KEYS, RUN_KEYS, Mismatch, check_step
from conformance.suite.scenario import Scenario, Step
from conformance.suite.text_parts import TRIMMED_ELSEWHERE, text_parts, unescaped
from reference_impl.disclosure_commands import Tool
from reference_impl.disclosure_options import Options
from reference_impl.eligibility import deciding_row
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
)
from reference_impl.model import HostConfig, Manifest
from reference_impl.render import Piece
from reference_impl.scheduler import scheduler_on
from reference_impl.semantics import Semantics, load_semantics


@dataclass(frozen=True, slots=True, kw_only=True)
class StepFacts:
    """What the table's refinements read besides the mismatch itself.

    ``outcome``: the outcome the step expects; ``states``: the state it expects per plugin
    (key ``""``: a reply's block); ``host``: the host config in force at the step (None for
    host steps); ``rounds``: a call's rounds argument; ``history``: what happened before the
    step (:func:`history_of`); ``covered``: step and scenario covers; ``events``: the host
    events the step expects; ``reference``: the reference's observation of the step (JSON);
    ``pieces``: the reference's text of the step, piece by piece (:mod:`conformance.suite.text_parts`).
    """

    action: str
    module: str = ""
    outcome: str | None = None
    states: Mapping[str, str] = field(default_factory=dict)
    host: HostConfig | None = None
    plugins: Mapping[str, Manifest] = field(default_factory=dict)
    rounds: Any = OMITTED
    history: frozenset[str] = frozenset()
    covered: frozenset[str] = frozenset()
    events: tuple[Any, ...] = ()
    reference: Mapping[str, Any] | None = None
    pieces: tuple[Piece, ...] = ()
    semantics: Semantics = field(default_factory=load_semantics)
    tools: tuple[Tool, ...] = ()
    declared: Options | None = None
    calls: tuple[str, ...] = ()  # a model step's kinds of call (load, unload, search, list, invoke)

    def deciding(self, module: str) -> list[str]:
        """The eligibility table row's requirement that decides whether ``module`` may sleep, with
        ACT-ELIG-6 when the row tests a brief whose ends some language's trim would change."""
        manifest = self.plugins.get(module)
        if manifest is None or self.host is None:
            return []
        row = deciding_row(manifest, self.host.strategy_for(module), self.semantics)
        trimmed = "brief" in row.when and manifest.sleep_brief != manifest.sleep_brief.strip(TRIMMED_ELSEWHERE)
        return [row.requirement, *(["ACT-ELIG-6"] if trimmed and row.requirement != "ACT-ELIG-6" else [])]


def history_of(before: Sequence[Any], event: Any, initial: HostConfig | None = None) -> frozenset[str]:
    """What happened before ``event`` that a step's failure may be about: ``restarted``,
    ``conversations`` (more than one so far), ``scheduler_switched`` (or off from the start),
    ``admin_changed`` (a strategy, enable or disable).
    """
    found = set()
    if any(isinstance(e, Restart) for e in before):
        found.add("restarted")
    if len({e.conversation for e in (*before, event) if hasattr(e, "conversation")}) > 1:
        found.add("conversations")
    if any(isinstance(e, SetScheduler) for e in before) or (initial is not None and not initial.scheduler_enabled):
        found.add("scheduler_switched")
    if any(isinstance(e, (SetStrategy, Enable, Disable)) for e in before):
        found.add("admin_changed")
    return frozenset(found)


def facts_of(event: Any, action: str, expected: Any, *, host: HostConfig | None = None,
             plugins: Iterable[Manifest] = (), history: Iterable[str] = (), covered: Iterable[str] = ()) -> StepFacts:
    """The facts of a step from the observation the reference expects (its JSON)."""
    expected = expected if isinstance(expected, Mapping) else {}
    states = {v.get("module_name"): v.get("state") for v in expected.get("plugins", ()) if isinstance(v, Mapping)}
    if isinstance(expected.get("block"), Mapping):
        states[""] = expected["block"].get("state")
    is_call = isinstance(event, (Activate, Extend))
    return StepFacts(action=action, module=getattr(event, "module_name", "") or "", outcome=expected.get("outcome"),
                     states=MappingProxyType({k: v for k, v in states.items() if isinstance(k, str) and isinstance(v, str)}), host=host,
                     plugins=MappingProxyType({m.module_name: m for m in plugins}),
                     rounds=event.rounds if is_call else OMITTED, history=frozenset(history),
                     covered=frozenset(covered), reference=expected or None)


def step_facts(scenario: Scenario, step: Step, declared: Options | None = None) -> StepFacts:
    """The facts of a scenario step: the step's own expectations first, the reference's where it says nothing.

    A disclosure step's facts are its catalogue, ``declared`` and what happened before it.
    """
    if step.is_disclosure:
        history = disclosure_history([s.event for s in scenario.steps[: step.index]], step.event)
        return StepFacts(action=step.action, history=history, covered=frozenset((*step.covers, *scenario.covers)),
                         tools=scenario.tools, declared=declared, calls=call_kinds(step.event))
    replayed = replay(scenario, step)
    history = history_of([s.event for s in scenario.steps[: step.index]], step.event, scenario.host)
    if replayed.stale_while_off:
        history |= {"stale_while_off"}
    facts = facts_of(step.event, step.action, replayed.observed, host=replayed.host, plugins=scenario.plugins,
                     history=history, covered=(*step.covers, *scenario.covers))
    states = dict(facts.states)
    states.update({m: e["state"] for m, e in step.expect.items() if isinstance(e, Mapping) and "state" in e})
    if isinstance(step.expect.get("block"), Mapping) and "state" in step.expect["block"]:
        states[""] = step.expect["block"]["state"]
    outcome = step.expect.get("outcome", facts.outcome)
    return StepFacts(action=facts.action, module=facts.module, outcome=outcome if isinstance(outcome, str) else None,
                     states=MappingProxyType(states), host=replayed.host, plugins=facts.plugins, rounds=facts.rounds,
                     history=facts.history, covered=facts.covered, semantics=facts.semantics,
                     events=tuple(step.host.events or ()) if step.host is not None else (), reference=facts.reference,
                     pieces=replayed.pieces)


def _text_key(value: Any) -> str:
    """A value as the table writes a case key: ``true``, ``null``, ``20``, ``active``; a type name otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and float(value).is_integer():
        return str(int(value))
    if isinstance(value, str):
        return value
    return "mapping" if isinstance(value, Mapping) else "list" if isinstance(value, list) else type(value).__name__


def rounds_class(rounds: Any, semantics: Semantics) -> str:
    """``default``, ``not_integer``, ``below_min``, ``above_max`` or ``in_range`` (ACT-ARG-1..4)."""
    if rounds is OMITTED or rounds is None:
        return "default"
    if isinstance(rounds, bool) or not isinstance(rounds, (int, float)) or not float(rounds).is_integer():
        return "not_integer"
    if rounds < semantics.min_active_rounds:
        return "below_min"
    return "above_max" if rounds > semantics.max_active_rounds else "in_range"


def _event_kind(mismatch: Mismatch, facts: StepFacts) -> list[str]:
    """The first differing event's kind; ``hook_called_after_failure`` when a hook_failed is expected before it,
    ``cause`` for a skipped event that differs in its cause alone."""
    expected, actual = mismatch.expected, mismatch.actual
    if (isinstance(expected, Mapping) and isinstance(actual, Mapping) and expected.get("event") == "skipped"
            and "cause" in expected and {**actual, "cause": expected["cause"]} == dict(expected)):
        return ["cause"]
    for value in (mismatch.expected, mismatch.actual):
        if isinstance(value, Mapping) and isinstance(value.get("event"), str):
            index = mismatch.pointer.rpartition("/")[2]
            before = facts.events[: int(index)] if index.isdigit() else ()
            failed = any(isinstance(e, Mapping) and e.get("event") == "hook_failed" for e in before)
            return ["hook_called_after_failure" if value["event"] == "hook_called" and failed else value["event"]]
    return []


def _problem_codes(mismatch: Mismatch) -> list[str]:
    actual = mismatch.actual if isinstance(mismatch.actual, Mapping) else {}
    listed = [*actual.get("missing", ()), *actual.get("unexpected", ())]
    return list(dict.fromkeys(p["code"] for p in listed if isinstance(p, Mapping) and isinstance(p.get("code"), str)))


def _lost_key(expected: Any, actual: Any) -> bool:
    if not (isinstance(expected, Mapping) and isinstance(actual, Mapping)):
        return False
    return any(k not in actual or _lost_key(v, actual[k]) for k, v in expected.items())


def text_difference(mismatch: Mismatch) -> str:
    """``escaping`` when the texts differ only in XML escapes (TXT-BLOCK-2), ``other`` otherwise."""
    expected, actual = mismatch.expected, mismatch.actual
    if not (isinstance(expected, str) and isinstance(actual, str)) or unescaped(expected) == expected:
        return "other"
    if mismatch.check == "equals":
        return "escaping" if unescaped(expected) == unescaped(actual) else "other"
    return "escaping" if mismatch.check == "contains" and unescaped(expected) in actual else "other"


def _text_part(mismatch: Mismatch, facts: StepFacts) -> list[str]:
    """The parts of the reference text the text differs in (none when the reference text is unknown)."""
    if not facts.pieces or not isinstance(mismatch.actual, str) or not isinstance(mismatch.expected, str):
        return []
    if mismatch.check not in ("equals", "contains", "not_contains"):
        return []
    try:
        expected = mismatch.expected
        if mismatch.check == "not_contains":  # written "no '<piece>'" (conformance/suite/expectations.py)
            expected = ast.literal_eval(expected.removeprefix("no "))
        return text_parts(facts.pieces, expected, mismatch.actual, check=mismatch.check)
    except Exception:  # noqa: BLE001 - a text too odd to place: the covers narrow the blame instead
        return []


def config_difference(expected: Any, actual: Any) -> str:
    """``missing_key`` (a merge lost a key), ``extra_key`` (a key nobody set) or ``value``."""
    if _lost_key(expected, actual):
        return "missing_key"
    return "extra_key" if _lost_key(actual, expected) else "value"


def _keys(by: str, mismatch: Mismatch, facts: StepFacts) -> list[str]:
    """The case keys ``by`` reads for this mismatch (several for problem codes, none when unknown)."""
    if by in ("expected", "actual"):
        value = getattr(mismatch, by)
        return [_text_key(value)] if isinstance(value, (str, int, float, bool, type(None))) else []
    if by == "outcome":
        return [facts.outcome] if facts.outcome else []
    if by == "state":
        state = facts.states.get(mismatch.subject)
        return [state] if state else []
    if by == "check":
        return [mismatch.check]
    if by == "scheduler":
        return [] if facts.host is None else ["on" if scheduler_on(facts.host, facts.semantics) else "off"]
    if by == "rounds_argument":
        return [rounds_class(facts.rounds, facts.semantics)]
    if by == "event":
        return _event_kind(mismatch, facts)
    if by == "text_difference":
        return [text_difference(mismatch)]
    if by == "text_part":
        return _text_part(mismatch, facts)
    if by == "problem_code":
        return _problem_codes(mismatch)
    if by == "shown_difference":
        return shown_difference(mismatch, facts.tools)
    if by == "answer":
        return answer_key(mismatch)
    if by in ("order_option", "discovery_option"):
        return option_key(by, facts.declared)
    if by == "step_calls":
        return list(dict.fromkeys(facts.calls))
    return [config_difference(mismatch.expected, mismatch.actual)]


def _computed(names: Iterable[str], mismatch: Mismatch, facts: StepFacts) -> list[str]:
    found = []
    for name in names:
        if name == "eligibility":
            found += facts.deciding(mismatch.subject or facts.module)
    return found


def candidates(rule: AttributionRule, mismatch: Mismatch, facts: StepFacts) -> tuple[list[str], list[str]]:
    """(candidates with the computed ones, covered-only extras) of ``rule`` for ``mismatch``, cases applied."""
    found = [*rule.candidates, *_computed(rule.compute, mismatch, facts)]
    extra = [*rule.if_covered, *(i for happened in sorted(facts.history) for i in rule.history.get(happened, ()))]
    if rule.by:
        matched = [rule.cases[key] for key in _keys(rule.by, mismatch, facts) if key in rule.cases]
        for case in matched or ([rule.otherwise] if rule.otherwise else []):
            more, more_extra = candidates(case, mismatch, facts)
            found += more
            extra += more_extra
    return found, extra


def consequences(table: Table, action: str, mismatches: Sequence[Mismatch]) -> list[Mismatch]:
    """The mismatches that follow from another one of the same step (a text rendered from a wrong view)."""
    dropped = []
    for mismatch in mismatches:
        rule = table.rule(action, mismatch.field)
        if rule is None or not rule.derived_from:
            continue
        if any(other.field in rule.derived_from and (not mismatch.subject or other.subject in ("", mismatch.subject))
               for other in mismatches if other is not mismatch):
            dropped.append(mismatch)
    return dropped


def _narrowed(found: Sequence[str], extra: Sequence[str], covered: frozenset[str]) -> list[str]:
    hit = [i for i in (*found, *extra) if i in covered]
    return hit or list(found)


def _view(view: Any) -> dict[str, Any]:
    return {k: view[k] for k in RUN_KEYS if k in view} if isinstance(view, Mapping) else view


def unstated(facts: StepFacts, observed: Any) -> list[Mismatch]:
    """Where ``observed`` differs from the reference's observation on what the step does not state.

    A step may check only the text: when the text differs because the view does (a wrong
    counter rendered faithfully), the view's difference is what the failure is about.
    """
    reference = facts.reference
    if not isinstance(reference, Mapping) or not isinstance(observed, Mapping) or facts.action not in ("run", "activate", "extend"):
        return []
    if facts.action == "run":
        views = [v for v in reference.get("plugins", ()) if isinstance(v, Mapping)]
        step = Step(index=0, action="run", event=None, expect={v["module_name"]: _view(v) for v in views},  # type: ignore[arg-type]
                    shown=tuple(v["module_name"] for v in views))
    else:
        step = Step(index=0, action=facts.action, event=None,  # type: ignore[arg-type]
                    expect={**{k: reference.get(k) for k in CALL_KEYS}, "block": _view(reference.get("block"))})
    try:
        return check_step(step, observed, text=False)
    except Exception:  # noqa: BLE001 - too malformed to compare: the stated mismatches say enough
        return []


def blame(mismatches: Sequence[Mismatch], facts: StepFacts, table: Table | None = None,
          observed: Any = None) -> tuple[str, ...]:
    """The requirements a failed step breaks: the union, over the mismatches that are not
    consequences of others, of (candidates ∩ covered), or the candidates when that is empty.

    When every mismatch is of a derived field (the text), the differences of ``observed``
    from the reference's observation on what the step does not state count too.
    """
    table = table or load_table()
    rules = [table.rule(facts.action, m.field) for m in mismatches]
    if mismatches and all(rule is not None and rule.derived_from for rule in rules):
        mismatches = [*mismatches, *unstated(facts, observed)]
    derived = consequences(table, facts.action, mismatches)
    blamed: list[str] = []
    for mismatch in mismatches:
        if any(mismatch is d for d in derived):
            continue
        rule = table.rule(facts.action, mismatch.field)
        if rule is None:
            blamed += _narrowed(table.fallback(facts.action), (), facts.covered)
            continue
        blamed += _narrowed(*candidates(rule, mismatch, facts), facts.covered)
    return tuple(dict.fromkeys(blamed)) or tuple(_narrowed(table.fallback(facts.action), (), facts.covered))


def blamed(scenario: Scenario, step: Step, mismatches: Sequence[Mismatch], observed: Any = None, *,
           declared: Options | None = None) -> tuple[str, ...]:
    """The requirements a failed scenario step breaks (what ``pas run`` reports as ``breaks``).

    ``declared``: the disclosure options the implementation declares (a disclosure step's
    ``order`` and search mismatches blame the rule of the declared value).
    """
    return blame(mismatches, step_facts(scenario, step, declared), observed=observed)
