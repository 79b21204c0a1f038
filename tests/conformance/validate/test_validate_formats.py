"""Every report format parses and carries the problems: json, junit (XML), sarif 2.1.0, github, text."""

from __future__ import annotations

import io
import json
from xml.etree import ElementTree

import pytest
from support.validate_helpers import BRIEF, manifest, write

from conformance.cli.exit_status import validation_exit_code
from conformance.report.problems import FORMATS, default_format, github_line, render
from conformance.validate.check import check_paths
from conformance.validate.lint.registry import RULES
from reference_impl.problems import Problem, Severity, SourceLocation


@pytest.fixture
def outcome(tmp_path):
    """One error, one warning and one info in two files, and a clean third file."""
    write(tmp_path, "a.yaml", manifest("alpha", "colour: blue\nsleep_brief: Short.\nallow_sleep: true\n"))
    write(tmp_path, "b.yaml", manifest("beta", f"allow_sleep: false\nsleep_brief: {BRIEF}\n"))
    write(tmp_path, "c.yaml", manifest("gamma"))
    return check_paths([str(tmp_path)])


def test_the_fixture_has_one_problem_of_each_severity(outcome):
    assert [p.severity for p in outcome.problems] == [Severity.ERROR, Severity.WARNING, Severity.INFO]


def test_json_report_has_summary_and_problems_with_docs_links(outcome):
    code = validation_exit_code(outcome)  # decided by the command, carried by the report
    doc = json.loads(render(outcome, "json", exit_code=code))
    assert doc["summary"] == {"error": 1, "warning": 1, "info": 1, "files": 3, "documents": 3, "skipped": 0, "exit_code": 1}
    assert json.loads(render(outcome, "json"))["summary"]["exit_code"] is None
    first = doc["problems"][0]
    assert set(first) == {"code", "severity", "message", "pointer", "source", "docs"}
    assert (first["code"], first["source"]["line"], first["source"]["column"]) == ("schema", 5, 1)
    assert first["docs"] == "https://plugin-activation-spec.org/rules/schema/"


def test_junit_report_has_a_test_case_per_file_and_fails_only_on_errors(outcome):
    root = ElementTree.fromstring(render(outcome, "junit"))
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 3 and root.get("failures") == "1"
    failing = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name").rsplit("/", 1)[-1] for c in failing] == ["a.yaml"]
    assert "brief-too-short" in failing[0].find("system-out").text


def test_junit_report_with_strict_fails_on_warnings_too(outcome):
    root = ElementTree.fromstring(render(outcome, "junit", strict=True))
    failure = root.find("./testsuite/testcase/failure")
    assert failure.get("message") == "2 problems" and "brief-too-short" in failure.text


def test_sarif_report_has_the_required_keys_and_points_each_result_at_a_rule(outcome):
    log = json.loads(render(outcome, "sarif"))
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["name"] == "pas validate" and [r["id"] for r in rules] == list(RULES)
    assert [r["level"] for r in run["results"]] == ["error", "warning", "note"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert result["message"]["text"]
    assert all(r["helpUri"].startswith("https://") for r in rules)


def test_text_report_is_one_line_per_problem_and_a_summary(outcome):
    lines = render(outcome, "text").splitlines()
    assert len(lines) == 4 and lines[-1].startswith("pas validate: 1 error, 1 warning, 1 info in 3 files")
    assert render(outcome, "text", quiet=True).count("\n") == 3


def test_github_lines_escape_newlines_percent_colons_and_commas():
    problem = Problem(code="schema", message="50% wrong\nsecond line", pointer="/a",
                      source=SourceLocation(path="dir,x/a:b.yaml", line=3, column=4), severity=Severity.INFO)
    assert github_line(problem) == "::notice file=dir%2Cx/a%3Ab.yaml,line=3,col=4,title=pas schema::50%25 wrong%0Asecond line [/a]"


def test_github_lines_for_a_problem_without_a_line_name_the_path_in_the_message():
    problem = Problem(code="path-not-found", message="no such file", source=SourceLocation(path="gone.yaml"))
    assert github_line(problem) == "::error title=pas path-not-found::gone.yaml: no such file"


def test_every_format_renders_an_empty_outcome(tmp_path):
    outcome = check_paths([write(tmp_path, "m.yaml", manifest())])
    for fmt in FORMATS:
        assert render(outcome, fmt)
    with pytest.raises(ValueError):
        render(outcome, "xml")


def test_format_and_colour_defaults_follow_the_environment():
    assert default_format({"GITHUB_ACTIONS": "true"}) == "github"
    assert default_format({"GITHUB_ACTIONS": "false"}) == "text"
    from conformance.report import use_color

    tty = type("Tty", (io.StringIO,), {"isatty": lambda self: True})()
    assert use_color("auto", tty, {}) and not use_color("auto", io.StringIO(), {})
    assert not use_color("auto", tty, {"NO_COLOR": "1"}) and not use_color("auto", tty, {"TERM": "dumb"})
    assert use_color("always", io.StringIO(), {"NO_COLOR": "1"}) and not use_color("never", tty, {})
