"""The pytest plugin's fuzz items: one per seed, independent, and runnable under pytest-xdist."""

from __future__ import annotations

import pytest
from support.fuzz_support import FAKES

pytest_plugins = ["pytester"]

_FUZZ = ("--pas-fuzz-seeds=3", "--pas-fuzz-examples=15", "-m", "pas_fuzz")


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """Run pytest with only this plugin (and, when asked, xdist) loaded."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("PYTHONPATH", str(FAKES))  # xdist workers are new processes
    monkeypatch.syspath_prepend(str(FAKES))

    def runner(*args: str, subprocess: bool = False) -> pytest.RunResult:
        argv = ("-p", "conformance.cli.pytest_plugin", "-p", "no:cacheprovider", *args)
        return pytester.runpytest_subprocess(*argv) if subprocess else pytester.runpytest(*argv)

    return runner


def test_each_seed_is_an_item_marked_pas_fuzz(run):
    out = run("--pas-impl=reference", "--pas-fuzz-seed=7", *_FUZZ, "--collect-only", "-q").stdout.str()
    assert "pas-fuzz::seed-7" in out and "pas-fuzz::seed-9" in out and "seed-10" not in out
    assert "pas::" not in out  # deselected by -m pas_fuzz


def test_without_fuzz_seeds_there_are_no_fuzz_items(run):
    assert "pas-fuzz::" not in run("--pas-impl=reference", "--collect-only", "-q").stdout.str()


def test_the_reference_passes_every_fuzz_item(run):
    outcomes = run("--pas-impl=reference", *_FUZZ).parseoutcomes()
    assert outcomes["passed"] == 3 and "failed" not in outcomes


def test_a_broken_implementation_fails_its_fuzz_items_with_the_summary_and_writes_the_file(run, pytester):
    out_dir = pytester.path / "found"
    result = run("--pas-impl=python:broken_shared_counters:create", *_FUZZ, "--pas-fuzz-examples=300",
                 f"--pas-fuzz-out={out_dir}")
    assert result.ret == 1
    text = result.stdout.str()
    assert "disagrees with the reference" in text and "reproduce: pas run" in text
    assert list(out_dir.glob("fuzz-*.yaml"))


def test_several_implementations_get_numbered_collectors(run):
    out = run("--pas-impl=reference", "--pas-impl=python:broken_raises:create", *_FUZZ, "--collect-only",
              "-q").stdout.str()
    assert "pas-fuzz[1]::seed-0" in out and "pas-fuzz[2]::seed-2" in out


def test_fuzz_items_run_under_xdist_with_two_workers(run):
    result = run("-p", "xdist.plugin", "-n", "2", "--pas-impl=reference", *_FUZZ, subprocess=True)
    result.assert_outcomes(passed=3)
    assert "2 workers" in result.stdout.str()
