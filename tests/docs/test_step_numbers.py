"""A failing step has the same number in `pas run`'s text report and on its scenario page.

A scheduler that counts the activation run as one of the activated runs (a real bug, ACT-COUNT-3)
is run through the counting scenarios; for every failure whose step is not the first, the number
the text report gives ("step N (action)") must be the number of the scenario page's table row
that describes that very step.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from conformance.adapters.inprocess import InProcessAdapter
from conformance.docs_gen.scenario_pages import _steps_table, category_of
from conformance.report.text import render
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from conformance.suite.scenario import SUITE_DIR, load_suite
from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Observation
from reference_impl.model import OutcomeKind

GENERATED = Path(__file__).resolve().parents[2] / "docs" / "generated"


class _CountsActivationRun(Engine):
    """The reference, except that an activation already spends one of its runs."""

    info = replace(Engine.info, name="counts-activation-run")

    def apply(self, event: Event) -> Observation:
        observation = super().apply(event)
        if isinstance(event, Activate) and observation.outcome is OutcomeKind.ACTIVATED:
            counters = dict(self._state.counters_of(event.conversation))
            counters[event.module_name] -= 1
            self._state = self._state.with_counters(
                event.conversation, {name: rounds for name, rounds in counters.items() if rounds > 0})
        return observation


def _row(page: str, scenario_id: str, number: int) -> str:
    """The step-table row numbered ``number`` in the section of ``scenario_id``."""
    section = page.split(f"{{ #{scenario_id} }}", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith(f"| {number} | ")]
    assert len(rows) == 1, f"{scenario_id}: no single row numbered {number}"
    return rows[0]


def test_a_failing_step_has_the_same_number_in_the_report_and_on_the_page():
    scenarios, problems = load_suite([SUITE_DIR / "counting"])
    assert not problems
    run = run_suite(InProcessAdapter(_CountsActivationRun, name="counts-activation-run"), scenarios)
    report = render(run)
    by_id = {s.id: s for s in scenarios}
    checked = 0
    for result in run.results:
        if result.outcome is not Outcome.FAILED or result.failure is None or result.failure.index == 0:
            continue
        scenario = by_id[result.id]
        said = re.search(rf"^\S+\s+{re.escape(result.id)} .*\n(?:    .*\n)*?    (?:.*, )?step (\d+) \(", report, re.M)
        assert said, f"the report names no step of {result.id}"
        number = int(said.group(1))
        page = (GENERATED / "scenarios" / f"{category_of(scenario, SUITE_DIR)}.md").read_text(encoding="utf-8")
        row = _row(page, scenario.id, number)
        # the row the generator writes for the failing step itself (after the header and rule lines)
        assert row == _steps_table(scenario)[2 + result.failure.index], (number, row)
        checked += 1
    assert checked >= 2, "the broken scheduler should fail several counting scenarios after their first step"
