"""Writing a host disagreement as a ready-to-commit host scenario, and the requirements it breaks.

The file holds the case's plugins and host config, the first load's environment, overrides and
behaviour as the scenario's own (later loads write only what they change), and each command
with the reference host's full observation as its expectation. Before it is written it is
checked as a user relies on it: a valid scenario (schema, the host-step rules) that passes on
the reference. A sequence of host cases over the same plugins and host config is joined into
one such scenario (:func:`joined`): each case begins with its load.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.documents.step_form import Unwritable
from conformance.documents.step_table import key_of
from conformance.fuzz import host_case
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.fuzz.emit import (
    Earlier,
    Provenance,
    check_on_reference,
    heading,
    host_document,
    step_documents,
    write_checked,
)
from conformance.fuzz.host_case import HostCase
from conformance.fuzz.host_compare import expectation, reference_observations
from conformance.suite.attribution import StepFacts, blame
from conformance.suite.attribution_table import load_table
from reference_impl.frozen import thaw
from reference_impl.problems import Problem


def derive_host_covers(case: HostCase, found: Disagreement) -> tuple[str, ...]:
    """The requirement IDs ``found`` breaks: the attribution table applied to the differing fields of its step."""
    event = found.event if found.event is not None else case.events[0]
    action = key_of(event)
    table = load_table()
    if found.verdict is Verdict.ERRORED or not found.mismatches:
        return table.fallback(action)
    expected = found.expected if isinstance(found.expected, Mapping) else {}
    facts = StepFacts(action=action, events=tuple(expected.get("events", ())), reference=expected)
    return blame(found.mismatches, facts, table, observed=found.actual)


def _load_document(case: HostCase) -> dict[str, Any]:
    """The scenario's own environment, overrides and behaviour: those of the case's first load."""
    load, doc = case.load, dict[str, Any]()
    if load.environment:
        doc["environment"] = dict(load.environment)
    if load.overrides:
        doc["overrides"] = list(load.overrides)
    behaviour = load.behaviour.to_json()
    if behaviour["setup_fails"] or behaviour["hook_raises"]:
        doc["behaviour"] = {k: v for k, v in behaviour.items() if v}
    return doc


def host_scenario_document(case: HostCase, found: Disagreement | Earlier, provenance: Provenance) -> dict[str, Any]:
    """The host scenario document reproducing ``found``: ``case`` with the reference host's full expectations.

    ``found`` is an :class:`~conformance.fuzz.emit.Earlier` for a case of a sequence finding.
    Raises Unwritable when a load of the case installs other plugins or host config than the
    first (the generator never makes such a case and the minimiser never returns one).
    """
    written = case.written_steps()
    if written is None:
        raise Unwritable("a load of the case installs other plugins or config than the first, which a scenario cannot say")
    covers = found.covers if isinstance(found, Earlier) else derive_host_covers(case, found)
    steps = step_documents(case.events, reference_observations(case), written, found, provenance, covers, expectation)
    host = host_document(case.host)
    if case.host.config:
        host["config"] = thaw(case.host.config)
    return {**heading(case, found, provenance, covers), "profiles": ["host"],
            "plugins": [m.to_json() for m in case.plugins], "host": host, **_load_document(case), "steps": steps}


def check_host_document(doc: Mapping[str, Any], case: HostCase, *, path: str) -> list[Problem]:
    """Problems with a host scenario document before it is written: invalid, or failing on the reference."""
    return check_on_reference(doc, path=path, profiles=("host",))


def write_host_scenario(doc: Mapping[str, Any], case: HostCase, out_dir: Path | str) -> tuple[Path | None, list[Problem]]:
    """Check the document and write it as ``<out_dir>/<id>.yaml``: (path, []) or (None, problems)."""
    path = Path(out_dir) / f"{doc['id']}.yaml"
    return write_checked(doc, path, check_host_document(doc, case, path=str(path)))


def joined(before: Sequence[Any], case: Any, found: Disagreement) -> tuple[HostCase, Disagreement] | None:
    """A sequence of host cases over the same plugins and host config as one case, and its disagreement there.

    None when it cannot be one (a case of another profile, other plugins or another host config).
    """
    cases = [*before, case]
    if not all(isinstance(c, HostCase) for c in cases):
        return None
    try:
        whole = host_case.joined(cases)
    except Unwritable:
        return None
    offset = sum(len(c.events) for c in before)
    return whole, replace(found, index=offset + (found.index or 0))
