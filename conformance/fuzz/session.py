"""After the search: write the finding as a scenario file, confirm it on the implementation, summarise."""

from __future__ import annotations

from pathlib import Path

from conformance.adapters.implementation import Adapter
from conformance.documents.step_form import Unwritable
from conformance.fuzz.emit import Provenance, scenario_document, write_scenario
from conformance.fuzz.report import render
from conformance.fuzz.search import FuzzResult
from reference_impl.model import Profile
from reference_impl.problems import Problem


def confirm(path: Path, adapter: Adapter, *, text: bool) -> str:
    """The outcome of the written scenario on the implementation (expected: failed or errored)."""
    from conformance.suite.runner import run_scenario
    from conformance.suite.scenario import load_scenario

    scenario, problems = load_scenario(path)
    if scenario is None:
        return "unloadable"
    profiles = (Profile.ACTIVATION, Profile.TEXT) if text else (Profile.ACTIVATION,)
    return run_scenario(adapter, scenario, profiles=profiles).outcome.value


def write_finding(result: FuzzResult, adapter: Adapter, *, impl: str, out_dir: Path | str) -> str:
    """Write ``result``'s finding (if any) under ``out_dir`` and return the summary text to print."""
    finding = result.finding
    if finding is None:
        return render(result, impl=impl)
    provenance = Provenance(name=result.info.name if result.info else impl, impl=impl, seed=result.seed,
                            text=result.text, original_steps=finding.original_steps)
    try:
        doc = scenario_document(finding.case, finding.disagreement, provenance)
    except Unwritable as error:  # the minimiser returns writable cases only; this guards a hand-made one
        return render(result, impl=impl, problems=[Problem(code="fuzz-emit", message=str(error))])
    path, problems = write_scenario(doc, finding.case, out_dir, text_profile=result.text)
    confirmed = None
    if path is not None and finding.reproducible:
        try:
            confirmed = confirm(path, adapter, text=result.text)
        except Exception as error:  # noqa: BLE001 - a confirmation is a courtesy, never a crash
            problems = [*problems, Problem(code="fuzz-confirm", message=f"confirming failed: {error}")]
    return render(result, impl=impl, written=path, problems=problems, confirmed=confirmed)
