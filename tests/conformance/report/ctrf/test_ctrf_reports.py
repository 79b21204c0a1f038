"""``pas run -f ctrf`` and ``pas validate -f ctrf``: CTRF documents the specification accepts, with every outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.ctrf_check import ctrf_problems

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[4]
FAKES = ROOT / "tests" / "fakes"
CORPUS = ROOT / "tests" / "conformance" / "validate" / "corpus"


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory) -> dict:
    """A run of a broken implementation with an expected failure that holds and one that went stale."""
    folder = tmp_path_factory.mktemp("ctrf")
    expected = folder / "expected.yaml"
    expected.write_text("activate-after-expiry-overwrites: counts the activating run (a known bug)\n"
                        "admin-auto-is-no-strategy: listed, but it passes\n", encoding="utf-8")
    report = folder / "run.ctrf.json"
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(FAKES))
        code = main(["run", "--impl", "python:broken_counts_activation_run:create", "--profile", "activation",
                     "--expected-failures", str(expected), "-f", "ctrf", "-o", str(report), "-q"])
    assert code == 1
    return json.loads(report.read_text(encoding="utf-8"))


def test_a_run_report_meets_the_specification(broken_run):
    assert ctrf_problems(json.dumps(broken_run)) == []
    assert broken_run["reportFormat"] == "CTRF" and broken_run["results"]["tool"]["name"] == "pas"


def test_each_scenario_is_a_test_named_by_its_id_with_the_pas_outcome_as_raw_status(broken_run):
    tests = {t["name"]: t for t in broken_run["results"]["tests"]}
    raw = {t["rawStatus"] for t in tests.values()}
    assert {"passed", "failed", "xfailed", "stale"} <= raw
    status = {t["rawStatus"]: t["status"] for t in tests.values()}
    assert status["failed"] == "failed" and status["stale"] == "failed" and status["xfailed"] == "skipped"
    failed = next(t for t in tests.values() if t["rawStatus"] == "failed")
    assert failed["message"] and "expected" in failed["trace"] and failed["extra"]["breaks"]
    assert tests["activate-after-expiry-overwrites"]["rawStatus"] == "xfailed"
    assert tests["admin-auto-is-no-strategy"]["rawStatus"] == "stale"


def test_the_requirement_verdicts_travel_in_extra(broken_run):
    verdicts = broken_run["results"]["extra"]["requirements"]
    assert verdicts["ACT-COUNT-2"] in ("failed", "xfailed") and verdicts["ACT-STATE-1"] == "passed"
    outcomes = broken_run["results"]["summary"]["extra"]["outcomes"]
    assert sum(outcomes.values()) == broken_run["results"]["summary"]["tests"]


def test_an_errored_scenario_is_failed_with_its_failure_kind(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    report = tmp_path / "raises.json"
    assert main(["run", "--impl", "python:broken_raises:create", "-k", "not-found", "-f", "ctrf", "-o", str(report),
                 "-q"]) == 1
    document = json.loads(report.read_text(encoding="utf-8"))
    assert ctrf_problems(json.dumps(document)) == []
    errored = [t for t in document["results"]["tests"] if t["rawStatus"] == "errored"]
    assert errored and all(t["status"] == "failed" and t["extra"]["failure_kind"] == "raised" for t in errored)


def test_a_validate_report_is_a_test_per_file(tmp_path):
    report = tmp_path / "validate.json"
    assert main(["validate", str(CORPUS), "-f", "ctrf", "-o", str(report)]) == 1
    document = json.loads(report.read_text(encoding="utf-8"))
    assert ctrf_problems(json.dumps(document)) == []
    tests = document["results"]["tests"]
    assert len(tests) == len({t["filePath"] for t in tests}) == document["results"]["summary"]["tests"]
    failed = [t for t in tests if t["status"] == "failed"]
    assert failed and all(t["message"] and t["extra"]["problems"] for t in failed)
    assert document["results"]["summary"]["extra"]["exit_code"] == 1


def test_strict_makes_warnings_fail_a_file(tmp_path):
    manifest = tmp_path / "m.yaml"
    manifest.write_text("name: M\nmodule_name: m\nversion: 1.0.0\ndescription: d\nsleep_brief: Tools for m, "
                        "activate when needed.\n", encoding="utf-8")  # brief-without-allow-sleep: a warning
    for strict, status in ((False, "passed"), (True, "failed")):
        report = tmp_path / f"{strict}.json"
        main(["validate", str(manifest), "-f", "ctrf", "-o", str(report), *(["--strict"] if strict else [])])
        (test,) = json.loads(report.read_text(encoding="utf-8"))["results"]["tests"]
        assert test["status"] == status and test["extra"]["problems"][0]["code"] == "brief-without-allow-sleep"


@pytest.mark.parametrize("broken", [
    {"reportFormat": "JUnit"}, {"results": {"tests": [{"name": "x", "status": "errored", "duration": 0}]}},
    {"results": {"tests": [{"name": "x", "status": "passed", "duration": 0.5}]}}, {"requirements": {}},
], ids=["format", "status", "duration-ms", "unknown-field"])
def test_the_check_refuses_what_the_specification_forbids(broken_run, broken):
    document = json.loads(json.dumps(broken_run))
    for key, value in broken.items():
        if key == "results":
            document["results"]["tests"] = value["tests"]
        else:
            document[key] = value
    assert ctrf_problems(json.dumps(document))
