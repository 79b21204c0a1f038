"""``pas report diff A.jsonl B.jsonl``: the scenarios and requirements whose state changed, and the exit status."""

from __future__ import annotations

import pytest

from conformance.cli.main import main
from conformance.report import jsonl
from conformance.report.diff import Direction, diff_runs, direction
from conformance.report.diff_render import render_markdown, render_text
from conformance.report.matrix import parse_results
from conformance.suite.expectations import Mismatch
from conformance.suite.results import Outcome, Requirement, RunResult, ScenarioResult, StepFailure, Summary
from reference_impl.model import ImplementationInfo

REQUIREMENTS = {"ACT-A": Requirement(id="ACT-A", level="MUST", profile="activation", title="Rule A"),
                "ACT-B": Requirement(id="ACT-B", level="SHOULD", profile="activation", title="Rule B"),
                "ACT-C": Requirement(id="ACT-C", level="MAY", profile="activation", title="Rule C")}
MISMATCH = Mismatch(field="state", pointer="/plugins/0/state", subject="weather", expected="active", actual="sleeping")


def _jsonl(name: str, outcomes: dict[str, str]) -> str:
    covers = {"s1": ("ACT-A",), "s2": ("ACT-B",), "s3": ("ACT-C",), "s4": (), "s5": ("ACT-C",)}
    results = [ScenarioResult(id=sid, title=f"title of {sid}", outcome=Outcome(outcome), requirements=covers[sid],
                              failure=StepFailure(index=2, action="run", note="", event={"cmd": "run"},
                                                  breaks=covers[sid], mismatches=(MISMATCH,))
                              if outcome == "failed" else None) for sid, outcome in outcomes.items()]
    info = ImplementationInfo(name=name, version="1.0.0", language="go", profiles=("activation",))
    return jsonl.render(RunResult(info=info, results=tuple(results), summary=Summary.of(results, REQUIREMENTS,
                                                                                          ("activation",)),
                                  profiles=("activation",)))


BEFORE = _jsonl("impl", {"s1": "passed", "s2": "passed", "s3": "failed", "s4": "skipped"})
AFTER = _jsonl("impl", {"s1": "passed", "s2": "failed", "s3": "passed", "s4": "xfailed", "s5": "passed"})


def _diff(before: str = BEFORE, after: str = AFTER):
    runs = [parse_results(text, name)[0] for text, name in ((before, "before.jsonl"), (after, "after.jsonl"))]
    return diff_runs(*runs)


@pytest.mark.parametrize(("before", "after", "expected"), [
    ("passed", "failed", Direction.WORSE), ("skipped", "errored", Direction.WORSE), ("passed", "skipped", Direction.WORSE),
    ("failed", "passed", Direction.BETTER), ("stale", "xfailed", Direction.BETTER),
    ("skipped", "xfailed", Direction.CHANGED), ("passed", "declined", Direction.WORSE),
    ("", "passed", Direction.ADDED), ("failed", "", Direction.REMOVED),
])
def test_each_change_has_a_direction(before, after, expected):
    from conformance.report.diff import SCENARIO_SCORE

    assert direction(before, after, SCENARIO_SCORE) is expected


def test_scenarios_and_requirements_that_changed_are_listed_with_their_states():
    diff = _diff()
    scenarios = {c.id: (c.before, c.after, c.direction) for c in diff.scenarios}
    assert scenarios == {"s2": ("passed", "failed", Direction.WORSE), "s3": ("failed", "passed", Direction.BETTER),
                         "s4": ("skipped", "xfailed", Direction.CHANGED), "s5": ("", "passed", Direction.ADDED)}
    requirements = {c.id: (c.before, c.after, c.direction) for c in diff.requirements}
    assert requirements == {"ACT-B": ("passed", "failed", Direction.WORSE),
                            "ACT-C": ("failed", "passed", Direction.BETTER)}
    assert diff.worse and diff.compared_scenarios == 4


def test_the_text_names_each_change_and_the_reason_of_a_failure():
    text = render_text(_diff())
    assert "requirements: 1 worse, 1 better (of 3 in both)" in text
    assert "scenarios:    1 worse, 1 better, 1 changed, 1 added (of 4 in both)" in text
    worse = next(line for line in text.splitlines() if line.strip().startswith("worse") and "s2" in line)
    assert "passed -> failed" in worse and "/plugins/0/state (weather) expected" in worse
    assert "SHOULD Rule B" in next(line for line in text.splitlines() if "ACT-B" in line)


def test_the_markdown_is_a_pr_comment_with_a_table_each():
    markdown = render_markdown(_diff())
    assert markdown.startswith("### PAS conformance: impl 1.0.0 → impl 1.0.0")
    assert "**Something got worse.**" in markdown
    assert "| 🔴 worse | `ACT-B` | SHOULD | passed | failed | Rule B |" in markdown
    assert "| ➕ added | `s5` | - | passed | title of s5 |" in markdown


def test_nothing_changed_is_said_and_exits_zero(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_text(BEFORE, encoding="utf-8")
    assert main(["report", "diff", str(path), str(path)]) == 0
    assert "no scenario or requirement changed state" in capsys.readouterr().out


@pytest.mark.parametrize(("first", "second", "code"), [(BEFORE, AFTER, 1), (AFTER, BEFORE, 1),
                                                       (_jsonl("x", {"s3": "failed"}), _jsonl("x", {"s3": "passed"}), 0)])
def test_the_exit_status_is_one_when_something_got_worse(tmp_path, capsys, first, second, code):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(first, encoding="utf-8")
    b.write_text(second, encoding="utf-8")
    out = tmp_path / "diff.md"
    assert main(["report", "diff", str(a), str(b), "--format", "markdown", "-o", str(out)]) == code
    assert out.read_text(encoding="utf-8").startswith("### PAS conformance")


def test_an_unreadable_or_foreign_file_exits_two(tmp_path, capsys):
    good, foreign = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    good.write_text(BEFORE, encoding="utf-8")
    foreign.write_text('{"hello": 1}\n', encoding="utf-8")
    assert main(["report", "diff", str(good), str(tmp_path / "missing.jsonl")]) == 2
    assert main(["report", "diff", str(good), str(foreign)]) == 2
    assert "pas report:" in capsys.readouterr().err


def test_a_long_scenario_table_is_folded(monkeypatch):
    from conformance.report import diff_render

    many = {f"s{i}": "passed" for i in range(1, 6)}
    diff = _diff(_jsonl("a", many), _jsonl("a", dict.fromkeys(many, "failed")))
    assert "<details>" not in render_markdown(diff)  # five rows: at most FOLD (20)
    monkeypatch.setattr(diff_render, "FOLD", 3)
    assert "<details><summary>5 scenarios changed</summary>" in render_markdown(diff)
