"""Every report format renders every outcome, and machine formats parse."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest
from support.runner_support import ActivationOnly, load_fake, own

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.report import FORMATS, render, use_color
from conformance.report.text import failure_text
from conformance.suite.coverage import load_requirements
from conformance.suite.results import Outcome, RunResult, Summary
from conformance.suite.runner import apply_expected, run_scenario
from reference_impl.engine import Engine
from reference_impl.model import Profile

BOTH = (Profile.ACTIVATION, Profile.TEXT)


@pytest.fixture(scope="module")
def mixed() -> RunResult:
    """One result of each outcome."""
    counts = InProcessAdapter(load_fake("broken_counts_activation_run").create)
    raises = InProcessAdapter(load_fake("broken_raises").create)
    results = [
        run_scenario(reference_adapter(), own("extend-cap"), profiles=BOTH),
        run_scenario(counts, own("count-three-runs"), profiles=BOTH),
        run_scenario(raises, own("unknown-not-found"), profiles=BOTH),
        run_scenario(InProcessAdapter(ActivationOnly), own("text-sleeping-block"), profiles=("activation",)),
        apply_expected(run_scenario(counts, own("reactivate-last-run"), profiles=BOTH),
                       {"runner-reactivate-last-run": "activation counts its own run (bug 7)"}),
        apply_expected(run_scenario(reference_adapter(), own("disable-hides"), profiles=BOTH),
                       {"runner-disable-hides": "was broken"}),
    ]
    assert [r.outcome for r in results] == list(Outcome)
    summary = Summary.of(results, load_requirements()[0], BOTH)
    return RunResult(info=Engine.info, results=tuple(results), summary=summary, profiles=BOTH, duration=0.5)


def test_the_text_report_shows_the_diff_of_a_failure_and_the_reason_of_the_others(mixed):
    text = render(mixed, "text")
    assert "FAILED  runner-count-three-runs" in text
    assert "/plugins/1/rounds_left (weather): expected 3, got 2" in text
    assert 'sent     {"cmd": "run", "conversation": "main"}' in text
    assert "breaks   ACT-COUNT-2" in text
    assert "ERRORED runner-unknown-not-found" in text and "KeyError" in text
    assert "XFAILED runner-reactivate-last-run" in text and "bug 7" in text
    assert "STALE   runner-disable-hides" in text
    assert "SKIPPED 1 scenario(s): needs profile text" in text
    assert "6 scenarios: 1 passed, 1 failed, 1 errored, 1 skipped, 1 xfailed, 1 stale" in text


def test_the_text_report_summarises_requirements_by_level(mixed):
    text = render(mixed, "text")
    assert "Requirements (activation, text):" in text
    assert "  MUST " in text
    assert "failed  ACT-COUNT-2 (MUST)" in text


def test_the_text_report_has_no_colour_unless_asked(mixed):
    assert "\x1b[" not in render(mixed, "text")
    assert "\x1b[31m" in render(mixed, "text", color=True)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_is_used_on_a_terminal_unless_no_color_is_set(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert use_color("auto", _Tty()) and not use_color("auto", io.StringIO())
    assert not use_color("auto", _Tty(), {"TERM": "dumb"})
    assert use_color("always", io.StringIO(), {"NO_COLOR": "1"}) and not use_color("never", _Tty(), {})
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", _Tty())


def test_json_lines_hold_one_object_per_scenario_then_the_summary(mixed):
    lines = [json.loads(line) for line in render(mixed, "json").splitlines()]
    assert [line["type"] for line in lines] == ["result"] * 6 + ["summary"]
    failed = lines[1]
    assert failed["outcome"] == "failed"
    assert failed["failure"]["step"] == 2
    assert failed["failure"]["mismatches"] == [{"field": "rounds_left", "pointer": "/plugins/1/rounds_left", "subject": "weather",
                                                 "check": "equals", "expected": 3, "actual": 2}]
    assert lines[2]["error"]["reason"].endswith("raised KeyError")
    assert lines[2]["error"]["kind"] == "raised" and lines[2]["error"]["in_flight"]["first"]["cmd"] == "activate"
    summary = lines[-1]
    assert summary["counts"]["stale"] == 1 and summary["exit_code"] is None  # no command decided one
    assert summary["implementation"]["name"] == "pas-reference"
    assert summary["requirements"]["ACT-COUNT-2"]["status"] == "failed"
    assert summary["levels"]["MUST"]["failed"] >= 1


def test_json_lines_survive_values_json_cannot_hold():
    from conformance.report.jsonl import dumps

    assert json.loads(dumps({"a": float("nan"), "b": object}))["a"] == "nan"


def test_junit_parses_and_marks_each_outcome(mixed):
    root = ET.fromstring(render(mixed, "junit"))
    assert root.tag == "testsuites" and root.get("tests") == "6"
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == ("2", "1", "2")
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert cases["runner-count-three-runs"].find("failure").get("type") == "mismatch"
    assert "rounds_left" in cases["runner-count-three-runs"].find("failure").text
    assert cases["runner-unknown-not-found"].find("error").get("type") == "raised"  # the failure's kind
    assert cases["runner-text-sleeping-block"].find("skipped") is not None
    assert cases["runner-reactivate-last-run"].find("skipped").get("type") == "xfail"
    assert cases["runner-disable-hides"].find("failure").get("type") == "stale"
    assert cases["runner-extend-cap"].find("*") is None
    assert {suite.get("name") for suite in root.iter("testsuite")} == {"pas.activation", "pas.text"}


def test_junit_strips_characters_xml_cannot_hold(mixed):
    from dataclasses import replace

    from conformance.adapters.implementation import FailureKind
    from conformance.suite.results import ErrorDetail

    broken = replace(mixed.results[2], error=ErrorDetail(kind=FailureKind.SCHEMA, reason="garbage \x00\x1b", detail="\x07"))
    run = replace(mixed, results=(broken,))
    text = render(run, "junit")
    ET.fromstring(text)  # raises when a character XML cannot hold is left in
    assert "garbage" in text and "\x00" not in text and "\x1b" not in text


def test_markdown_has_a_summary_table_and_the_failures(mixed):
    text = render(mixed, "markdown")
    assert text.startswith("# PAS conformance: pas-reference")
    assert "| outcome | scenarios |" in text and "| failed | 1 |" in text
    assert "| level | passed | failed |" in text
    assert "### failed `runner-count-three-runs`" in text
    assert "```text\n" in text and "rounds_left" in text
    assert "- `runner-reactivate-last-run`: activation counts its own run (bug 7)" in text


def test_every_format_renders_an_empty_interrupted_run():
    run = RunResult(info=None, results=(), summary=Summary.of([], {}, ()), interrupted=True)
    for fmt in FORMATS:
        assert render(run, fmt)


def test_the_failure_text_is_a_unified_diff_for_a_differing_whole_text():
    from conformance.report.text import mismatch_lines
    from conformance.suite.expectations import Mismatch

    lines = mismatch_lines(Mismatch(field="text", pointer="/text", expected="a\nb\nc", actual="a\nB\nc"))
    assert lines[0] == "/text differs from the expected text:"
    assert "  -b" in lines and "  +B" in lines


def test_the_failure_text_of_an_errored_result_gives_the_reason_and_detail(mixed):
    text = failure_text(mixed.results[2])
    assert text.splitlines()[0].endswith("(at step 0)")
    assert text.splitlines()[1] == "kind     raised"
    assert "detail   'ghost'" in text
    assert "in flight" not in text  # one request: the sent line says it


def test_the_text_of_a_pipelined_failure_names_the_requests_in_flight(mixed):
    from dataclasses import replace

    from conformance.adapters.implementation import FailureKind, InFlight, Sent

    in_flight = InFlight(first=Sent(cmd="start", id=2), last=Sent(cmd="run", id=9))
    error = replace(mixed.results[2].error, kind=FailureKind.EXITED, in_flight=in_flight)
    text = failure_text(replace(mixed.results[2], error=error))
    assert "in flight 'start' (request 2) to 'run' (request 9): written ahead, none answered" in text


def test_the_json_summary_carries_the_exit_code_the_command_decided(mixed):
    from conformance.report.jsonl import render as render_jsonl

    assert json.loads(render_jsonl(mixed, exit_code=1).splitlines()[-1])["exit_code"] == 1


def test_every_failure_kind_is_explained_in_the_testing_guide_in_both_languages():
    from pathlib import Path

    from conformance.adapters.implementation import FailureKind

    guides = Path(__file__).resolve().parents[3] / "docs" / "guides"
    for page in ("testing.md", "testing.zh.md"):
        text = (guides / page).read_text(encoding="utf-8")
        assert [k.value for k in FailureKind if f"`{k.value}`" not in text] == [], page


def test_the_sent_request_is_shown_in_full_so_a_config_schema_at_fault_is_seen():
    from dataclasses import replace as replaced

    from conformance.suite.results import StepFailure

    schema = {"type": "object", "properties": {f"key_{i}": {"type": "integer"} for i in range(40)}}
    event = {"cmd": "host-load", "plugins": [{"module_name": "weather", "config": {"schema": schema}}]}
    failed = replaced(mixed_result_stub(), failure=StepFailure(index=0, action="host_load", note="", event=event,
                                                                          mismatches=(), breaks=()))
    sent = next(line for line in failure_text(failed).splitlines() if line.startswith("sent"))
    assert '"key_39": {"type": "integer"}' in sent and len(sent) > 1000


def mixed_result_stub():
    from conformance.suite.results import ScenarioResult

    return ScenarioResult(id="s", title="t", path="", profiles=("host",), requirements=(), outcome=Outcome.FAILED)
