"""``pas run``: exit codes, selection, output, and clear one-line usage errors."""

from __future__ import annotations

import json
import sys

import pytest
from support.runner_support import FAKES, OWN_SCENARIOS, ROOT, own_suite

from conformance.cli.main import main
from conformance.suite.keywords import BadKeyword, keyword_matcher
from conformance.suite.runner import select_scenarios

OWN = ["--scenario", str(OWN_SCENARIOS)]


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["run", *OWN, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_reference_passes_and_exits_zero(capsys):
    code, out, err = _run(capsys)
    assert code == 0 and err == ""
    assert "9 scenarios: 9 passed" in out


def test_the_default_is_the_reference_on_the_bundled_suite(capsys):
    code = main(["run", "--format", "json"])
    lines = capsys.readouterr().out.splitlines()
    summary = json.loads(lines[-1])
    assert code == 0
    assert summary["implementation"]["name"] == "pas-reference"
    assert summary["total"] == len(lines) - 1 > 0


def test_a_broken_implementation_exits_one(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    code, out, _ = _run(capsys, "--impl", "python:broken_shared_counters:create")
    assert code == 1
    assert "FAILED  runner-conversations-separate" in out


def test_a_factory_defaults_to_create(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    code, out, _ = _run(capsys, "--impl", "python:broken_shared_counters")
    assert code == 1 and "broken-shared-counters" in out


@pytest.mark.parametrize("impl, message", [
    ("nonsense", "expected 'reference'"),
    ("python:", "expected 'reference'"),
    ("python:no_such_module_here:create", "no module named 'no_such_module_here'"),
    ("python:reference_impl.engine:nothing", "has no attribute 'nothing'"),
    ("python:reference_impl.engine:PROFILES", "is not callable"),
    ("cmd:", "the command is empty"),
    ("cmd:'unterminated", "cannot split the command"),
])
def test_a_bad_impl_is_a_one_line_usage_error(capsys, impl, message):
    code, out, err = _run(capsys, "--impl", impl)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_module_that_crashes_on_import_is_a_usage_error(capsys, tmp_path, monkeypatch):
    (tmp_path / "crashes_on_import.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = _run(capsys, "--impl", "python:crashes_on_import:create")
    assert code == 2 and "RuntimeError: boom" in err


def test_a_missing_scenario_file_is_a_usage_error(capsys, tmp_path):
    code = main(["run", "--scenario", str(tmp_path / "missing.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and "missing.yaml" in err and "Traceback" not in err


def test_an_invalid_scenario_file_is_a_usage_error_with_its_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: t\ncovers: [ACT-COUNT-2]\nsteps:\n  - run: null\n    expect: 3\n")
    code = main(["run", "--scenario", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and "bad.yaml:6" in err


def test_k_selects_scenarios_by_id_or_title_substring(capsys):
    code, out, _ = _run(capsys, "-k", "extend", "--format", "json")
    ids = [json.loads(line)["id"] for line in out.splitlines()[:-1]]
    assert code == 0 and ids == ["runner-extend-cap", "runner-extend-sleeping"]


def test_k_understands_not_and_or_and_parentheses():
    matches = keyword_matcher("(extend or count) and not cap")
    assert matches("runner-extend-sleeping") and matches("runner-count-three-runs")
    assert not matches("runner-extend-cap") and not matches("runner-disable-hides")
    assert keyword_matcher("WEATHER")("weather is shown")


@pytest.mark.parametrize("expression", ["a and", "(a", "or b", "a b", ")"])
def test_a_malformed_k_expression_is_rejected(expression):
    with pytest.raises(BadKeyword):
        keyword_matcher(expression)


def test_a_malformed_k_expression_is_a_usage_error(capsys):
    code, _, err = _run(capsys, "-k", "extend and")
    assert code == 2 and "-k 'extend and'" in err


def test_k_matching_nothing_is_a_usage_error(capsys):
    code, _, err = _run(capsys, "-k", "no-such-thing")
    assert code == 2 and err == "pas run: no scenario to run: -k 'no-such-thing' matches none of the 9 scenarios\n"


def test_profile_filtering_everything_away_names_the_profile(capsys):
    code, _, err = _run(capsys, "-k", "extend-cap", "--profile", "host")
    assert code == 2 and "--profile host leaves none of the 9 scenarios" in err and "-k" not in err


def test_an_empty_scenario_folder_is_named_as_the_cause(capsys, tmp_path):
    code = main(["run", "--scenario", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and f"{tmp_path}: error path-not-found the scenario folder holds no scenario file" in err


def test_profile_leaves_out_scenarios_needing_other_profiles():
    ids = {s.id for s in select_scenarios(own_suite(), profiles=["activation"])}
    assert "runner-text-sleeping-block" not in ids and "runner-extend-cap" in ids


def test_profile_activation_turns_text_checks_off(capsys):
    code, out, _ = _run(capsys, "--profile", "activation", "--format", "json")
    summary = json.loads(out.splitlines()[-1])
    assert code == 0 and summary["profiles"] == ["activation"] and summary["total"] == 8


def test_output_writes_the_report_to_a_file(capsys, tmp_path):
    target = tmp_path / "report.xml"
    code, out, _ = _run(capsys, "--format", "junit", "--output", str(target))
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8").startswith("<?xml")


def test_an_unwritable_output_is_an_error_after_the_run(capsys, tmp_path):
    code, _, err = _run(capsys, "--output", str(tmp_path / "no" / "such" / "dir.txt"))
    assert code == 2 and "cannot write" in err


def test_a_non_positive_timeout_is_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--timeout", "0"])
    assert exit_info.value.code == 2


@pytest.mark.slow
def test_a_stdio_implementation_runs_through_the_same_runner(capsys, monkeypatch):
    pytest.importorskip("conformance.adapters.stdio")
    monkeypatch.chdir(ROOT)
    code, out, err = _run(capsys, "--impl", f"cmd:{sys.executable} -m conformance serve-reference", "--format", "json")
    summary = json.loads(out.splitlines()[-1])
    assert (code, err) == (0, "")
    assert summary["counts"]["passed"] == 9 and summary["implementation"]["name"] == "pas-reference"
