"""The pytest plugin: scenarios as pytest items with --pas-impl, nothing at all without it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from support.runner_support import FAKES, OWN_SCENARIOS

# Imported here, before any in-process run: pytester drops the modules a run imported when it ends,
# and PyYAML's C parser, imported once, would keep making the first copy's event classes, which the
# next run's fresh copy does not recognise (every file the event loader reads would hold no document).
import conformance.documents.events  # noqa: F401 - imported for that side effect only
from conformance.suite.scenario import SUITE_DIR

pytest_plugins = ["pytester"]

OWN = f"--pas-scenario={OWN_SCENARIOS}"
DISCLOSURE_SUITE = SUITE_DIR / "disclosure"


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """Run pytest in-process with only this plugin loaded (installed or not)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.syspath_prepend(str(FAKES))
    pytester.makepyfile(test_ordinary="def test_ordinary():\n    assert True\n")

    def runner(*args: str) -> pytest.RunResult:
        return pytester.runpytest("-p", "conformance.cli.pytest_plugin", "-p", "no:cacheprovider", *args)

    return runner


def test_without_pas_impl_the_plugin_adds_nothing(run):
    result = run("--collect-only", "-q")
    assert result.ret == 0
    assert "pas::" not in result.stdout.str()
    result = run()
    result.assert_outcomes(passed=1)


def test_each_scenario_is_an_item_named_by_its_id(run):
    result = run("--pas-impl=reference", OWN, "--collect-only", "-q")
    out = result.stdout.str()
    assert "pas::runner-extend-cap" in out and "pas::runner-count-three-runs" in out
    assert "test_ordinary.py::test_ordinary" in out


def test_the_reference_passes_every_scenario(run):
    run("--pas-impl=reference", OWN).assert_outcomes(passed=10)


def test_a_failure_shows_the_readable_diff(run):
    result = run("--pas-impl=python:broken_extend_no_clamp:create", OWN, "-m", "pas")
    result.assert_outcomes(passed=8, failed=1, deselected=1)
    out = result.stdout.str()
    assert "failed: runner-extend-cap: Extensions stop at twenty stored runs" in out
    assert "/rounds: expected 20, got 24" in out and "breaks   ACT-EXTEND-6" in out
    assert "Traceback" not in out


def test_an_errored_scenario_fails_with_its_reason(run):
    result = run("--pas-impl=python:broken_raises:create", OWN, "-k", "unknown")
    result.assert_outcomes(failed=1, deselected=9)
    assert "errored: runner-unknown-not-found" in result.stdout.str()
    assert "raised KeyError" in result.stdout.str()


def test_k_selects_scenarios_by_id(run):
    run("--pas-impl=reference", OWN, "-k", "extend").assert_outcomes(passed=2, deselected=8)


def test_scenarios_needing_an_unclaimed_profile_are_skipped(run):
    result = run("--pas-impl=python:support.runner_support:ActivationOnly", OWN, "-m", "pas", "-rs")
    result.assert_outcomes(passed=8, skipped=1, deselected=1)
    assert "needs profile text" in result.stdout.str()


def test_pas_profile_leaves_other_profiles_out(run):
    run("--pas-impl=reference", OWN, "--pas-profile=activation", "-m", "pas").assert_outcomes(passed=8, deselected=1)


def test_junitxml_names_each_testcase_after_its_scenario(run, pytester):
    run("--pas-impl=python:broken_extend_no_clamp", OWN, "-m", "pas", "--junitxml=out.xml")
    root = ET.parse(pytester.path / "out.xml").getroot()
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert "runner-extend-cap" in cases and cases["runner-extend-cap"].get("classname") == "pas"
    assert "expected 20, got 24" in cases["runner-extend-cap"].find("failure").text


def test_expected_failures_are_strict_xfails(run, pytester):
    listed = pytester.path / "xfail.yaml"
    listed.write_text("runner-extend-cap: no cap yet\nrunner-extend-sleeping: fixed already\n")
    result = run("--pas-impl=python:broken_extend_no_clamp", OWN, "-m", "pas", f"--pas-expected-failures={listed}")
    result.assert_outcomes(passed=7, xfailed=1, failed=1, deselected=1)
    assert "XPASS(strict)" in result.stdout.str()


def test_a_bad_pas_impl_is_a_usage_error(run):
    result = run("--pas-impl=python:no_such_module_at_all", OWN)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "no module named 'no_such_module_at_all'" in result.stderr.str()


def test_a_bad_scenario_path_is_a_usage_error(run, pytester):
    result = run("--pas-impl=reference", f"--pas-scenario={pytester.path / 'nope.yaml'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "nope.yaml" in result.stderr.str()


def test_disclosure_scenarios_run_under_the_options_the_implementation_declares(run):
    # thread scope (the default) keeps one thread's loads from another; instance scope shares them: each
    # declaration runs the scenario that applies to it and skips the other as not applicable
    suite = f"--pas-scenario={DISCLOSURE_SUITE}"
    picked = ("-k", "disc-threads-keep-their-own-loads and not search or disc-instance-state-reaches")
    for impl, passing in (("reference", "disc-threads-keep-their-own-loads"),
                          ("reference?state_scope=instance", "disc-instance-state-reaches-every-thread")):
        result = run(f"--pas-impl={impl}", suite, *picked, "-rs", "-v")
        others = len(list(DISCLOSURE_SUITE.glob("*.yaml"))) - 2
        result.assert_outcomes(passed=1, skipped=1, deselected=others + 1)  # the other scenarios and test_ordinary
        assert f"pas::{passing} PASSED" in result.stdout.str()
        assert "not applicable under the declared options" in result.stdout.str()
