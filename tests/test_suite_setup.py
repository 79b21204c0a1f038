"""The test suite's own set-up: one place for Hypothesis profiles and helpers, cost markers, xdist safety.

tests/conftest.py registers the Hypothesis profiles, marks the slow tests by path and shared build,
and orders the files for the pytest-xdist workers (worker_order); tests/support/ holds every helper.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
# Python files under tests/ that are neither tests nor helpers: fakes, extraction fixtures, the examples'
# expected-failure generators (data a test reads as files).
NOT_HELPERS = ("tests/fakes/", "tests/conformance/tools/extract/fixtures/", "tests/examples/")
INNER_LOOP = '.venv/bin/python -m pytest -m "not slow" -n auto'


def test_hypothesis_profiles_are_registered_at_the_root_only():
    registering = sorted(p.relative_to(ROOT).as_posix() for p in TESTS.rglob("*.py")
                         if "register_profile(" in p.read_text(encoding="utf-8") and p.name != "test_suite_setup.py")
    assert registering == ["tests/conftest.py"]


def test_a_run_without_a_chosen_profile_is_derandomized_and_writes_no_database(monkeypatch):
    # The ci profile is the default of the whole run, whichever folder is run.
    assert settings.default.derandomize and settings.default.database is None and settings.default.deadline is None


def test_every_helper_module_is_in_tests_support():
    outside = sorted(rel for p in TESTS.rglob("*.py")
                     if not (rel := p.relative_to(ROOT).as_posix()).startswith(("tests/support/", *NOT_HELPERS))
                     and not p.name.startswith("test_") and p.name != "conftest.py")
    assert outside == [], "helpers belong in tests/support/ (imported as support.NAME)"


@pytest.mark.parametrize("page", ["README.md", "docs/contributing.md", "docs/contributing.zh.md"])
def test_the_inner_loop_is_written_where_contributors_look(page):
    assert INNER_LOOP in (ROOT / page).read_text(encoding="utf-8")


def test_the_readme_shows_two_set_up_commands_and_the_test_command_runs_on_every_core():
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", section, re.DOTALL)
    assert len(commands) == 2 and commands[1].endswith("-m pytest -n auto")


@pytest.mark.slow
def test_an_unregistered_problem_code_fails_the_run_under_xdist_too(tmp_path):
    # A problem "made" by PAS's code (a frame whose file is under conformance/) with a code nobody registered.
    fake_maker = ROOT / "conformance" / "made_up.py"
    (tmp_path / "test_emits.py").write_text(
        "from reference_impl.problems import Problem\n"
        "def test_emits():\n"
        f"    exec(compile('Problem(code=\"no-such-code-anywhere\", message=\"m\")', {str(fake_maker)!r}, 'exec'))\n",
        encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(TESTS)}  # tests/conftest.py as a plugin: the file is outside tests/
    for extra in ([], ["-n", "2"]):
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
                               "test_emits.py", *extra], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 1 and "no-such-code-anywhere" in done.stderr, (extra, done.stdout[-2000:], done.stderr[-2000:])


class _Item:
    """As much of a pytest item as worker_order reads."""

    def __init__(self, path: str, *fixtures: str, slow: bool = True) -> None:
        self.path, self.fixturenames, self.slow = path, fixtures, slow

    def get_closest_marker(self, name: str) -> object:
        return name if name == "slow" and self.slow else None


def test_the_workers_never_start_two_files_that_wait_for_one_build():
    from support.worker_order import worker_order

    items = [_Item("fast.py", slow=False), _Item("api.py", "built_site"), _Item("browser.py", "site_build"),
             _Item("browser.py", "built_site"), _Item("commands.py", "user_venv", "wheelhouse"),
             _Item("nekro.py"), _Item("workflows.py", "wheelhouse"), _Item("wheel.py")]
    order = [item.path for item in worker_order(items)]  # type: ignore[arg-type]
    assert order == ["api.py", "commands.py", "nekro.py", "wheel.py", "browser.py", "browser.py", "workflows.py", "fast.py"]
