"""The expected-failures file: reasons required, ids checked, problems with file:line."""

from __future__ import annotations

from pathlib import Path

from support.runner_support import FAKES, OWN_SCENARIOS

from conformance.cli.main import main
from conformance.suite.expected_failures import load_expected_failures

KNOWN = {"runner-extend-cap", "runner-count-three-runs"}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "xfail.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_of_ids_and_reasons_loads_as_a_mapping(tmp_path):
    path = _write(tmp_path, "runner-extend-cap: 'bug #12: no cap at 20'\n")
    assert load_expected_failures(path, KNOWN) == ({"runner-extend-cap": "bug #12: no cap at 20"}, [])


def test_an_empty_or_comment_only_file_lists_nothing(tmp_path):
    for text in ("", "# nothing expected to fail any more\n", "---\n"):
        assert load_expected_failures(_write(tmp_path, text), KNOWN) == ({}, [])


def test_an_unknown_scenario_id_is_a_problem_at_its_line(tmp_path):
    path = _write(tmp_path, "runner-extend-cap: known\nno-such-scenario: typo\n")
    reasons, problems = load_expected_failures(path, KNOWN)
    assert [p.code for p in problems] == ["unknown-scenario"]
    assert problems[0].source.line == 2
    assert "no-such-scenario" in problems[0].message


def test_a_missing_or_blank_reason_is_a_problem(tmp_path):
    path = _write(tmp_path, "runner-extend-cap:\nrunner-count-three-runs: '  '\n")
    _, problems = load_expected_failures(path, KNOWN)
    assert [(p.code, p.source.line) for p in problems] == [("missing-reason", 1), ("missing-reason", 2)]


def test_a_list_instead_of_a_mapping_is_a_problem(tmp_path):
    _, problems = load_expected_failures(_write(tmp_path, "- runner-extend-cap\n"), KNOWN)
    assert [p.code for p in problems] == ["not-a-mapping"]


def test_a_bad_file_makes_pas_run_a_usage_error_with_one_line_per_problem(tmp_path, capsys):
    path = _write(tmp_path, "runner-extend-cap:\n")
    code = main(["run", "--scenario", str(OWN_SCENARIOS), "--expected-failures", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "xfail.yaml:1" in err and "missing-reason" in err
    assert "Traceback" not in err


def test_a_listed_failure_does_not_fail_pas_run(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    path = _write(tmp_path, "runner-extend-cap: extensions are not capped yet\n")
    code = main(["run", "--impl", "python:broken_extend_no_clamp:create", "--scenario", str(OWN_SCENARIOS),
                 "--expected-failures", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "XFAILED runner-extend-cap" in out and "extensions are not capped yet" in out


def test_a_listed_scenario_that_passes_is_stale_and_fails_pas_run(tmp_path, capsys):
    path = _write(tmp_path, "runner-extend-cap: extensions are not capped yet\n")
    code = main(["run", "--scenario", str(OWN_SCENARIOS), "--expected-failures", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "STALE   runner-extend-cap" in out and "remove it" in out
