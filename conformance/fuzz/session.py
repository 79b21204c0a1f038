"""After the search: write the finding as a scenario file, confirm it on the implementation, summarise."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from conformance.adapters.implementation import Adapter
from conformance.documents.step_form import Unwritable
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.emit import Provenance
from conformance.fuzz.report import render
from conformance.fuzz.search import Finding, FuzzResult
from conformance.fuzz.sequence_emit import write_case, write_sequence
from reference_impl.disclosure_options import Options
from reference_impl.model import Profile
from reference_impl.problems import Problem

if TYPE_CHECKING:
    from conformance.suite.scenario import Scenario


def confirm(path: Path, adapter: Adapter, *, text: bool, declared: Options | None = None) -> str:
    """The outcome of the written scenario on the implementation (expected: failed or errored).

    ``declared``: the implementation's disclosure declaration, for a disclosure finding.
    """
    from conformance.suite.runner import run_scenario
    from conformance.suite.scenario import load_scenario

    scenario, problems = load_scenario(path)
    if scenario is None:
        return "unloadable"
    return run_scenario(adapter, scenario, profiles=_profiles(scenario, text), declared=declared).outcome.value


def _profiles(scenario: Scenario, text: bool) -> tuple[str, ...]:
    """The profiles a written scenario runs under: its own, with the text when it was compared."""
    if scenario.is_host:
        return (Profile.HOST,)
    if scenario.is_disclosure:
        return (Profile.DISCLOSURE,)
    return (Profile.ACTIVATION, Profile.TEXT) if text else (Profile.ACTIVATION,)


def confirm_sequence(folder: Path, adapter: Adapter, *, text: bool, declared: Options | None = None) -> str:
    """The outcome of a sequence folder's scenarios run in order on a fresh implementation: the last one's.

    ``unreproduced`` when an earlier one does not pass (the sequence is not the one found).
    """
    from conformance.suite.runner import run_scenario
    from conformance.suite.scenario import load_suite

    scenarios, problems = load_suite([folder])
    if problems or not scenarios:
        return "unloadable"
    adapter.reset()
    outcomes = []
    for scenario in scenarios:
        outcomes.append(run_scenario(adapter, scenario, profiles=_profiles(scenario, text), declared=declared).outcome.value)
    return outcomes[-1] if all(o == "passed" for o in outcomes[:-1]) else "unreproduced"


def _write(finding: Finding, provenance: Provenance, out_dir: Path | str) -> tuple[Path | None, list[Problem]]:
    """Write the finding's scenario, or its sequence (raises Unwritable when no scenario file can say a case)."""
    if finding.before:
        return write_sequence(finding.before, finding.case, finding.disagreement, provenance, out_dir)
    return write_case(finding.case, finding.disagreement, provenance, out_dir)


def write_finding(result: FuzzResult, adapter: Adapter, *, impl: str, out_dir: Path | str) -> str:
    """Write ``result``'s finding (if any) under ``out_dir`` and return the summary text to print."""
    finding = result.finding
    if finding is None:
        return render(result, impl=impl)
    provenance = Provenance(name=result.info.name if result.info else impl, impl=impl, seed=result.seed,
                            text=result.text, original_steps=finding.original_steps)
    try:
        path, problems = _write(finding, provenance, out_dir)
    except Unwritable as error:  # the minimiser returns writable cases only; this guards a hand-made one
        return render(result, impl=impl, problems=[Problem(code="fuzz-emit", message=str(error))])
    confirmed = None
    if path is not None and finding.reproducible:
        declared = finding.case.declared if isinstance(finding.case, DisclosureCase) else None
        try:
            if path.is_dir():
                confirmed = confirm_sequence(path, adapter, text=result.text, declared=declared)
            else:
                if finding.before:
                    adapter.reset()  # the joined sequence begins from a fresh implementation, as found
                confirmed = confirm(path, adapter, text=result.text, declared=declared)
        except Exception as error:  # noqa: BLE001 - a confirmation is a courtesy, never a crash
            problems = [*problems, Problem(code="fuzz-confirm", message=f"confirming failed: {error}")]
    return render(result, impl=impl, written=path, problems=problems, confirmed=confirmed)
