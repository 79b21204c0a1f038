"""The five paths taught before 1.0 import again for one minor version: each warns and hands on the same objects.

The names each old module had (read from git history, the commit before the split into
subpackages) are handed on from where they live now; the warning names the new path and the
release that removes the old one, and points at the importing line.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import warnings

import pytest

import conformance
from conformance.adapters import implementation
from conformance.cli import pytest_plugin
from conformance.documents import step_table
from conformance.suite import runner, scenario

SHIMS = {
    "conformance.implementation": (implementation, ("Adapter", "Host", "ImplementationFailed", "Scheduler"),
                                   "from conformance import Scheduler, Host, Adapter, ImplementationFailed"),
    "conformance.stateful": ("conformance.fuzz.stateful", ("SchedulerAgainstReference", "scheduler_state_machine"),
                             "from conformance import scheduler_state_machine"),
    "conformance.runner": (runner, ("ALL_PROFILES", "apply_expected", "effective_profiles", "errored", "greet",
                                    "run_scenario", "run_suite", "select_scenarios"),
                           "from conformance import run_suite, select_scenarios"),
    "conformance.scenario": (scenario, ("FIXTURES_FILE", "HOST_EXPECTATION_KEYS", "SUITE_DIR", "HostExpectation",
                                        "Scenario", "Step", "TextExpectation", "check_host_steps", "load_scenario",
                                        "load_suite", "parse_scenario", "scenario_files"),
                             "from conformance import load_suite, Scenario"),
    "conformance.pytest_plugin": (pytest_plugin, ("PasSuite", "ScenarioFailed", "ScenarioItem"), "-p pas"),
}


def _fresh_import(name: str) -> tuple[object, list[warnings.WarningMessage]]:
    """Import ``name`` anew (its warning is given once per import), recording the warnings."""
    sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        __import__(name)  # an import statement's own path: the warning's frame is this function's
    return sys.modules[name], [w for w in caught if issubclass(w.category, DeprecationWarning)]


@pytest.mark.parametrize("name", SHIMS)
def test_an_old_path_warns_naming_the_new_one_and_the_release_that_removes_it(name):
    if name == "conformance.stateful":
        pytest.importorskip("hypothesis")
    _, caught = _fresh_import(name)
    assert len(caught) == 1, caught
    message = str(caught[0].message)
    assert message.startswith(f"{name} is deprecated and will be removed in PAS 1.2: ")
    assert SHIMS[name][2] in message


@pytest.mark.parametrize("name", SHIMS)
def test_an_old_path_hands_on_the_same_objects(name):
    if name == "conformance.stateful":
        pytest.importorskip("hypothesis")
    source, names, _ = SHIMS[name]
    source = importlib.import_module(source) if isinstance(source, str) else source
    shim, _ = _fresh_import(name)
    assert set(names) <= set(shim.__all__)
    assert [n for n in names if getattr(shim, n) is not getattr(source, n)] == []


def test_the_old_names_that_are_public_now_are_the_public_objects():
    _fresh_import("conformance.implementation")
    _fresh_import("conformance.runner")
    _fresh_import("conformance.scenario")
    old = sys.modules
    assert old["conformance.implementation"].Scheduler is conformance.Scheduler
    assert old["conformance.runner"].run_suite is conformance.run_suite
    assert old["conformance.scenario"].load_suite is conformance.load_suite


def test_the_step_keys_of_the_old_scenario_module_are_read_from_the_step_table():
    old, _ = _fresh_import("conformance.scenario")
    assert old.ACTIONS == ("run", "activate", "extend", "set_strategy", "enable", "disable", "set_scheduler", "restart")
    assert old.HOST_ACTIONS is step_table.HOST_KEYS
    assert old.HOST_ACTIONS == ("host_load", "host_start", "host_dispatch", "host_open_conversation", "host_reload",
                                "host_read_config", "host_stop")
    assert old.DEFAULT_CONVERSATION is step_table.DEFAULT_CONVERSATION


def test_the_warning_points_at_the_line_that_imports_the_old_path(tmp_path):
    """Outside pytest (whose assertion rewriting loads this package's modules itself): the user's file and line."""
    script = tmp_path / "old_user.py"
    script.write_text("import sys\n\nimport conformance.runner\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-W", "always::DeprecationWarning", str(script)],
                          capture_output=True, text=True, check=True)
    assert done.stderr.startswith(f"{script}:3: DeprecationWarning: conformance.runner is deprecated"), done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("autoload", [True, False], ids=["entry-point-too", "no-autoload"])
def test_the_old_pytest_plugin_path_still_runs_the_suite_once(tmp_path, autoload):
    """``-p conformance.pytest_plugin``: the real plugin registered once, whether or not the entry point loaded it."""
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conformance.pytest_plugin", "--pas-impl=reference", "-k", "rounds",
         "-q", "-p", "no:cacheprovider", "-W", "default::DeprecationWarning", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "deprecated and will be removed in PAS 1.2" in done.stdout
