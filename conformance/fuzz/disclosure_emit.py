"""Writing a disclosure disagreement as a ready-to-commit scenario file, and the requirements it breaks.

The file holds the case's catalogue (``tools``), a ``requires`` that pins the declaration the
case ran under (every option a scenario can name: the file is not applicable to, and so never
fails, an implementation that declares otherwise), and each event with the reference's full
observation as its expectation. Before it is written it is checked as a user relies on it: a
valid scenario (schema, the disclosure rules, ``covers`` its ``requires`` admits) that passes on
the reference under the case's declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance.documents.step_form import Unwritable
from conformance.documents.step_table import key_of
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.disclosure_compare import expectation, reference_observations
from conformance.fuzz.emit import Earlier, Provenance, check_on_reference, heading, step_documents, write_checked
from conformance.suite.attribution import StepFacts, blame
from conformance.suite.attribution_disclosure import call_kinds, disclosure_history
from conformance.suite.attribution_table import load_table
from conformance.suite.disclosure_checks import option_problems
from conformance.suite.requirements import Requirement, load_requirements
from reference_impl.problems import Problem


def derive_disclosure_covers(case: DisclosureCase, found: Disagreement,
                             requirements: Mapping[str, Requirement] | None = None) -> tuple[str, ...]:
    """The requirement IDs ``found`` breaks, for the scenario's ``covers``.

    The attribution table's, the requirements that what happened before the step suggests
    (a rebuild, another thread ...) taken as covered, then narrowed to those the case's
    ``requires`` admits: a scenario may cover only what applies under the declaration it pins.
    """
    requirements = requirements if requirements is not None else load_requirements()[0]
    requires = case.requires()
    admitted = frozenset(rid for rid, req in requirements.items()
                         if req.profile == "disclosure" and not option_problems(requires, req))
    index = found.index or 0
    event = found.event if found.event is not None else (case.events[0] if case.events else None)
    action = "request" if event is None else key_of(event)
    table = load_table()
    if found.verdict is Verdict.ERRORED or not found.mismatches:
        blamed: tuple[str, ...] = table.fallback(action)
    else:
        history = disclosure_history(case.events[:index], event)
        facts = StepFacts(action=action, history=history, covered=table.history_ids(history) & admitted,
                          tools=case.tools, declared=case.declared, calls=call_kinds(event))
        blamed = blame(found.mismatches, facts, table, observed=found.actual)
    kept = tuple(rid for rid in dict.fromkeys(blamed) if rid in admitted)
    return kept or tuple(rid for rid in table.fallback(action) if rid in admitted) or ("DISC-CAT-1",)


def disclosure_document(case: DisclosureCase, found: Disagreement | Earlier, provenance: Provenance) -> dict[str, Any]:
    """The scenario document reproducing ``found``: ``case`` with the reference's full expectations.

    ``found`` is an :class:`~conformance.fuzz.emit.Earlier` for a case of a sequence finding.
    Raises Unwritable when a model step of the case has no open request (the generator never
    makes such a case and the minimiser never returns one).
    """
    written = case.written_steps()
    if written is None:
        raise Unwritable("a model step of the case has no open request, which a scenario cannot say")
    covers = found.covers if isinstance(found, Earlier) else derive_disclosure_covers(case, found)
    steps = step_documents(case.events, reference_observations(case), written, found, provenance, covers,
                           lambda event, observed: expectation(event, observed))
    return {**heading(case, found, provenance, covers), "profiles": ["disclosure"], "requires": case.requires(),
            "tools": [t.to_json() for t in case.tools], "steps": steps}


def check_disclosure_document(doc: Mapping[str, Any], case: DisclosureCase, *, path: str) -> list[Problem]:
    """Problems with a disclosure scenario document before it is written: invalid, or failing on the reference."""
    return check_on_reference(doc, path=path, profiles=("disclosure",), declared=case.declared)


def write_disclosure_scenario(doc: Mapping[str, Any], case: DisclosureCase,
                              out_dir: Path | str) -> tuple[Path | None, list[Problem]]:
    """Check the document and write it as ``<out_dir>/<id>.yaml``: (path, []) or (None, problems)."""
    path = Path(out_dir) / f"{doc['id']}.yaml"
    return write_checked(doc, path, check_disclosure_document(doc, case, path=str(path)))
