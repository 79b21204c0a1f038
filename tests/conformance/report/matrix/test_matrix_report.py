"""``pas report matrix``: several implementations' JSON-lines results side by side, by requirement."""

from __future__ import annotations

from html.parser import HTMLParser

from conformance.adapters.implementation import FailureKind
from conformance.cli.main import main
from conformance.report import jsonl
from conformance.report.matrix import NO_REQUIREMENT, build_matrix, parse_results
from conformance.report.matrix_html import render_matrix as render_html
from conformance.report.matrix_md import render_matrix as render_markdown
from conformance.suite.expectations import Mismatch
from conformance.suite.results import ErrorDetail, Outcome, Requirement, RunResult, ScenarioResult, StepFailure, Summary
from reference_impl.model import ImplementationInfo

REQUIREMENTS = {"ACT-A": Requirement(id="ACT-A", level="MUST", profile="activation", title="Rule A"),
                "ACT-B": Requirement(id="ACT-B", level="SHOULD", profile="activation", title="Rule B")}


def _result(sid: str, outcome: str, covers: tuple[str, ...], **fields) -> ScenarioResult:
    return ScenarioResult(id=sid, title=f"title of {sid}", outcome=Outcome(outcome), requirements=covers, **fields)


def _jsonl(name: str, results: list[ScenarioResult]) -> str:
    info = ImplementationInfo(name=name, version="0.1.0", language="go", profiles=("activation",))
    summary = Summary.of(results, REQUIREMENTS, ("activation",))
    return jsonl.render(RunResult(info=info, results=tuple(results), summary=summary, profiles=("activation",)))


FAILURE = StepFailure(index=2, action="run", note="", event={"cmd": "run"}, breaks=("ACT-B",),
                      mismatches=(Mismatch(field="state", pointer="/plugins/0/state", subject="weather", expected="active", actual="sleeping"),))
GOOD = _jsonl("good", [_result("s1", "passed", ("ACT-A",)), _result("s2", "passed", ("ACT-A", "ACT-B")),
                       _result("s3", "passed", ())])
BAD = _jsonl("bad", [_result("s1", "passed", ("ACT-A",)), _result("s2", "failed", ("ACT-A", "ACT-B"), failure=FAILURE),
                     _result("s3", "errored", (), error=ErrorDetail(kind=FailureKind.TIMEOUT,
                                                                     reason="no response to 'run' within 5 s"))])


def _matrix(*texts: tuple[str, str]):
    runs = []
    for path, text in texts:
        run, problems = parse_results(text, path)
        assert run is not None and problems == []
        runs.append(run)
    return build_matrix(runs)


def test_a_report_is_read_back_with_its_identity_outcomes_and_requirement_verdicts():
    run, problems = parse_results(BAD, "bad.jsonl")
    assert problems == [] and run.label == "bad 0.1.0" and run.language == "go"
    assert {sid: cell.outcome for sid, cell in run.cells.items()} == {"s1": "passed", "s2": "failed", "s3": "errored"}
    assert run.verdicts == {"ACT-A": "passed", "ACT-B": "failed"}  # s2's failure broke ACT-B only
    assert run.cells["s2"].detail == "step 2: /plugins/0/state (weather) expected \"active\", got \"sleeping\""
    assert run.cells["s3"].detail == "no response to 'run' within 5 s"


def test_scenarios_are_grouped_under_every_requirement_they_cover_in_requirement_order():
    matrix = _matrix(("good.jsonl", GOOD), ("bad.jsonl", BAD))
    assert [(g.requirement.id, g.scenarios) for g in matrix.groups] == [
        ("ACT-A", ("s1", "s2")), ("ACT-B", ("s2",)), (NO_REQUIREMENT, ("s3",))]
    assert [r.label for r in matrix.runs] == ["good 0.1.0", "bad 0.1.0"]


def test_two_reports_of_one_implementation_are_told_apart_by_file_name():
    matrix = _matrix(("a/one.jsonl", GOOD), ("b/two.jsonl", GOOD))
    assert [r.label for r in matrix.runs] == ["good 0.1.0 (one.jsonl)", "good 0.1.0 (two.jsonl)"]


def test_bad_lines_are_problems_with_line_and_column_and_an_empty_report_is_unusable():
    run, problems = parse_results(GOOD + '{"type": "result", "id": 1}\nnot json\n[1]\n', "r.jsonl")
    assert run is not None
    assert [(p.code, p.source.line) for p in problems] == [("not-a-result", 5), ("invalid-json", 6), ("not-a-result", 7)]
    assert problems[1].source.column == 1
    run, problems = parse_results("", "empty.jsonl")
    assert run is None and [p.code for p in problems] == ["no-results"]


def test_a_report_without_summary_is_named_after_its_file_with_a_warning():
    results_only = "\n".join(GOOD.splitlines()[:-1]) + "\n"
    run, problems = parse_results(results_only, "dir/mine.jsonl")
    assert run.label == "mine" and run.verdicts == {}
    assert [(p.code, p.severity.value) for p in problems] == [("no-summary", "warning")]


def test_the_markdown_shows_requirement_verdicts_and_scenario_cells_per_implementation():
    text = render_markdown(_matrix(("good.jsonl", GOOD), ("bad.jsonl", BAD)))
    assert "| requirement / scenario | good 0.1.0 | bad 0.1.0 |" in text
    assert "| **ACT-B** SHOULD · Rule B | ✅ passed | ❌ failed |" in text
    assert "| ↳ `s2` | ✅ | ❌ |" in text
    assert "- 💥 `s3` on bad 0.1.0 — errored: no response to 'run' within 5 s" in text


def test_markdown_cells_cannot_break_the_table_or_inject_html():
    hostile = _jsonl("evil|<b>name</b>", [_result("s1", "passed", ("ACT-A",))])
    text = render_markdown(_matrix(("evil.jsonl", hostile)))
    assert "evil\\|&lt;b&gt;name&lt;/b&gt; 0.1.0" in text and "<b>" not in text


class _Collector(HTMLParser):
    """Tags, attributes and text of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_the_html_is_one_self_contained_page_with_every_report_text_escaped():
    hostile = _jsonl('<script>alert("x")</script>', [_result("s1", "failed", ("ACT-A",), failure=FAILURE)])
    page = render_html(_matrix(("good.jsonl", GOOD), ("evil.jsonl", hostile)))
    parser = _Collector()
    parser.feed(page)
    tags = [t for t, _ in parser.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert not any(k in ("src", "href") for _, attrs in parser.tags for k in attrs)
    assert '<script>alert("x")</script> 0.1.0' in "".join(parser.text)  # shown as text, not run
    failed = [a for t, a in parser.tags if t == "td" and "failed" in a.get("class", "")]
    assert failed and 'expected "active"' in failed[0]["title"]


def test_pas_report_matrix_writes_html_or_markdown_by_the_output_name(tmp_path, capsys):
    (tmp_path / "good.jsonl").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text(BAD, encoding="utf-8")
    paths = [str(tmp_path / "good.jsonl"), str(tmp_path / "bad.jsonl")]
    assert main(["report", "matrix", *paths, "--output", str(tmp_path / "m.html")]) == 0
    assert (tmp_path / "m.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["report", "matrix", *paths, "-o", str(tmp_path / "m.md")]) == 0
    assert (tmp_path / "m.md").read_text(encoding="utf-8").startswith("# PAS compatibility matrix")
    assert main(["report", "matrix", *paths, "--format", "html"]) == 0
    assert "<table" in capsys.readouterr().out


def test_unusable_input_exits_2_and_a_missing_summary_exits_1(tmp_path, capsys):
    (tmp_path / "junk.jsonl").write_text("nope\n", encoding="utf-8")
    assert main(["report", "matrix", str(tmp_path / "junk.jsonl")]) == 2
    assert "junk.jsonl:1:1: error invalid-json" in capsys.readouterr().err
    assert main(["report", "matrix", str(tmp_path / "missing.jsonl")]) == 2
    (tmp_path / "partial.jsonl").write_text(GOOD.splitlines()[0] + "\n", encoding="utf-8")
    assert main(["report", "matrix", str(tmp_path / "partial.jsonl")]) == 1
    assert main(["report"]) == 2


def test_real_runs_of_the_reference_and_a_broken_fake_line_up_in_one_matrix(tmp_path, capsys):
    ref, broken = tmp_path / "ref.jsonl", tmp_path / "broken.jsonl"
    assert main(["run", "-k", "extend", "--format", "json", "--output", str(ref)]) == 0
    assert main(["run", "--impl", "python:tests.fakes.broken_extend_no_clamp", "-k", "extend", "--format", "json",
                 "--output", str(broken)]) == 1
    capsys.readouterr()
    assert main(["report", "matrix", str(ref), str(broken)]) == 0
    text = capsys.readouterr().out
    assert "pas-reference" in text and "broken-extend-no-clamp" in text
    assert "**ACT-EXTEND-6** MUST" in text and "❌ failed" in text
