"""A SHOULD the declared disclosure options decline is *declined* in every report that gives requirement verdicts."""

from __future__ import annotations

import json

import pytest

from conformance.adapters.inprocess import reference_adapter
from conformance.report import render
from conformance.report.matrix import build_matrix, parse_results
from conformance.report.matrix_html import render_matrix as matrix_html
from conformance.report.matrix_md import render_matrix as matrix_md
from conformance.suite.results import RunResult
from conformance.suite.runner import run_suite
from conformance.suite.scenario import SUITE_DIR, load_suite
from reference_impl.disclosure_options import Options


@pytest.fixture(scope="module")
def run() -> RunResult:
    suite, problems = load_suite([SUITE_DIR / "disclosure"])
    assert not problems
    return run_suite(reference_adapter(Options.from_text("state_scope=instance,order=catalogue")), suite)


def test_the_text_report_counts_declined_shoulds_and_names_each_hazard(run):
    text = render(run, "text")
    assert "  SHOULD     2 passed, 2 declined by declaration, 2 untested (of 6)" in text
    assert "  declined DISC-SCOPE-2 (SHOULD) Loaded state per thread: declared state_scope: instance" in text
    assert "  declined DISC-ORDER-1 (SHOULD) Newly visible tools are appended: declared order: catalogue" in text
    assert run.ok  # declining is not failing


def test_json_lines_carry_the_status_and_the_declaring_values(run):
    summary = json.loads(render(run, "json").splitlines()[-1])
    row = summary["requirements"]["DISC-SCOPE-2"]
    assert (row["status"], row["declined_by"]) == ("declined", "state_scope: instance")
    assert summary["levels"]["SHOULD"]["declined"] == 2
    assert summary["implementation"]["disclosure"]["order"] == "catalogue"


def test_junit_lists_each_declined_should_as_a_skipped_case_of_its_own_suite(run):
    xml = render(run, "junit")
    assert '<testsuite name="pas.declined" tests="2"' in xml
    assert 'type="declined"' in xml and "declined by declaration (state_scope: instance): Loaded state per thread" in xml


def test_markdown_has_a_table_of_the_hazards(run):
    text = render(run, "markdown")
    assert "| DISC-ORDER-1 | SHOULD | Newly visible tools are appended | order: catalogue |" in text
    assert "| declined |" in text.split("| level |")[1].splitlines()[0]


def test_the_matrix_shows_declined_as_its_own_verdict(run):
    parsed, problems = parse_results(render(run, "json"), "ref.jsonl")
    assert not problems and parsed is not None and parsed.verdicts["DISC-SCOPE-2"] == "declined"
    matrix = build_matrix([parsed])
    assert "⚠️ declined" in matrix_md(matrix)
    assert 'class="c declined"' in matrix_html(matrix)
