"""After the search: write the finding as a scenario file, confirm it on the implementation, summarise."""

from __future__ import annotations

from pathlib import Path

from conformance.adapters.implementation import Adapter
from conformance.documents.step_form import Unwritable
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.disclosure_emit import disclosure_document, write_disclosure_scenario
from conformance.fuzz.emit import Provenance, scenario_document, write_scenario
from conformance.fuzz.report import render
from conformance.fuzz.search import Finding, FuzzResult
from reference_impl.disclosure_options import Options
from reference_impl.model import Profile
from reference_impl.problems import Problem


def confirm(path: Path, adapter: Adapter, *, text: bool, declared: Options | None = None) -> str:
    """The outcome of the written scenario on the implementation (expected: failed or errored).

    ``declared``: the implementation's disclosure declaration, for a disclosure finding.
    """
    from conformance.suite.runner import run_scenario
    from conformance.suite.scenario import load_scenario

    scenario, problems = load_scenario(path)
    if scenario is None:
        return "unloadable"
    if scenario.is_disclosure:
        return run_scenario(adapter, scenario, profiles=(Profile.DISCLOSURE,), declared=declared).outcome.value
    profiles = (Profile.ACTIVATION, Profile.TEXT) if text else (Profile.ACTIVATION,)
    return run_scenario(adapter, scenario, profiles=profiles).outcome.value


def _write(finding: Finding, provenance: Provenance, out_dir: Path | str, *, text: bool) -> tuple[Path | None, list[Problem]]:
    """Write the finding's scenario (raises Unwritable when no scenario file can say its case)."""
    if isinstance(finding.case, DisclosureCase):
        doc = disclosure_document(finding.case, finding.disagreement, provenance)
        return write_disclosure_scenario(doc, finding.case, out_dir)
    doc = scenario_document(finding.case, finding.disagreement, provenance)
    return write_scenario(doc, finding.case, out_dir, text_profile=text)


def write_finding(result: FuzzResult, adapter: Adapter, *, impl: str, out_dir: Path | str) -> str:
    """Write ``result``'s finding (if any) under ``out_dir`` and return the summary text to print."""
    finding = result.finding
    if finding is None:
        return render(result, impl=impl)
    provenance = Provenance(name=result.info.name if result.info else impl, impl=impl, seed=result.seed,
                            text=result.text, original_steps=finding.original_steps)
    try:
        path, problems = _write(finding, provenance, out_dir, text=result.text)
    except Unwritable as error:  # the minimiser returns writable cases only; this guards a hand-made one
        return render(result, impl=impl, problems=[Problem(code="fuzz-emit", message=str(error))])
    confirmed = None
    if path is not None and finding.reproducible:
        declared = finding.case.declared if isinstance(finding.case, DisclosureCase) else None
        try:
            confirmed = confirm(path, adapter, text=result.text, declared=declared)
        except Exception as error:  # noqa: BLE001 - a confirmation is a courtesy, never a crash
            problems = [*problems, Problem(code="fuzz-confirm", message=f"confirming failed: {error}")]
    return render(result, impl=impl, written=path, problems=problems, confirmed=confirmed)
