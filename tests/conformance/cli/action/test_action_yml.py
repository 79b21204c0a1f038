"""The composite GitHub Action (action.yml): its inputs, the pas options it uses, and its scripts run for real."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[4]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {step["name"]: step for step in ACTION["runs"]["steps"]}
BASH = shutil.which("bash")


def test_action_yml_is_a_composite_action_with_the_documented_inputs():
    assert ACTION["runs"]["using"] == "composite"
    assert {"validate-paths", "impl", "profile", "expected-failures", "format"} <= set(ACTION["inputs"])
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
        assert isinstance(spec.get("default", ""), str), f"{name}: action inputs are strings"


def test_every_expression_names_a_declared_input():
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    used = set(re.findall(r"inputs\.([a-z][a-z-]*)", text))
    assert used and used <= set(ACTION["inputs"])


def test_every_run_step_declares_its_shell_and_reads_inputs_only_through_env():
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash"
            assert "${{" not in step["run"], f"{step['name']}: pass inputs through env, not into the script"


def test_pas_is_installed_from_the_actions_own_path():
    step = STEPS["Install pas"]
    assert step["env"]["PAS_ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install' in step["run"] and '"$PAS_ACTION_PATH"' in step["run"]


def test_python_is_always_set_up_with_a_default_version_when_the_input_is_empty():
    setup = STEPS["Set up Python"]
    assert setup["uses"].startswith("actions/setup-python@")
    assert "if" not in setup, "an empty python-version must not fall back to the runner's system Python"
    expression = re.fullmatch(r"\$\{\{ inputs\.python-version \|\| '([0-9.]+)' \}\}", setup["with"]["python-version"])
    assert expression, setup["with"]["python-version"]
    assert tuple(map(int, expression.group(1).split("."))) >= (3, 11)
    assert ACTION["inputs"]["python-version"]["default"] == ""
    assert steps_in_order()[:2] == ["Set up Python", "Install pas"]


def test_pas_is_installed_with_the_interpreter_setup_python_installed():
    step = STEPS["Install pas"]
    assert step["env"]["PAS_PYTHON"] == "${{ steps.setup-python.outputs.python-path }}"
    assert STEPS["Set up Python"]["id"] == "setup-python"
    assert '"$PAS_PYTHON" -m pip install' in step["run"]
    assert "python3 -m pip" not in step["run"]


def steps_in_order() -> list[str]:
    return [step["name"] for step in ACTION["runs"]["steps"]]


def _help(*command: str, capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("step", "command"), [("Install pas", ()), ("pas validate", ("validate",)),
                                               ("pas run", ("run",))])
def test_every_option_the_scripts_pass_to_pas_exists(step, command, capsys):
    script = "\n".join(line for line in STEPS[step]["run"].splitlines() if "pip " not in line)
    assert re.search(r"\bpas" + "".join(rf"\s+{c}" for c in command) + r"\b", script)
    flags = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", script))
    assert flags
    helptext = _help(*command, capsys=capsys)
    assert {f for f in flags if not re.search(rf"(?<![\w-]){f}\b", helptext)} == set()


def test_the_run_step_only_uses_formats_pas_run_accepts(capsys):
    helptext = _help("run", capsys=capsys)
    assert ACTION["inputs"]["format"]["default"] in re.search(r"--format \{([^}]*)\}", helptext).group(1).split(",")


@pytest.fixture
def shell_env(tmp_path):
    """An environment where `pas` is this checkout, plus the GitHub variables the scripts read."""
    if BASH is None:
        pytest.skip("bash is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "pas"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m conformance "$@"\n')
    shim.chmod(0o755)
    summary = tmp_path / "summary.md"
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT),
            "RUNNER_TEMP": str(tmp_path), "GITHUB_STEP_SUMMARY": str(summary), "NO_COLOR": "1"}


def _run_step(name: str, env: dict[str, str], **inputs: str) -> subprocess.CompletedProcess:
    step_env = {k: v for k, v in STEPS[name]["env"].items() if not v.startswith("${{")}
    values = {key: inputs.get(key, "") for key in STEPS[name]["env"]}
    if "PAS_PYTHON" in values:  # setup-python's interpreter, in the action
        values["PAS_PYTHON"] = sys.executable
    return subprocess.run([BASH, "--noprofile", "--norc", "-eo", "pipefail", "-c", STEPS[name]["run"]],
                          env={**env, **step_env, **values}, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_validate_step_prints_github_annotations_and_fails_on_errors(shell_env, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: plugin-manifest\nname: Bad\nmodule_name: bad\nversion: ''\ndescription: x\n")
    done = _run_step("pas validate", shell_env, PAS_VALIDATE_PATHS=f"conformance/examples/plugins\n{bad}",
                     PAS_STRICT="false")
    assert done.returncode == 1
    assert f"::error file={bad},line=4" in done.stdout


def test_the_validate_step_passes_globs_to_pas_unexpanded(shell_env):
    # pas expands ** recursively (host.yaml and the 14 plugins); bash would read ** as * (plugins only).
    done = _run_step("pas validate", shell_env, PAS_VALIDATE_PATHS="conformance/examples/**/*.yaml",
                     PAS_STRICT="false")
    assert done.returncode == 0, done.stderr
    assert "in 15 files" in done.stdout


def test_the_validate_step_removes_the_quotes_around_a_glob_as_a_shell_would(shell_env, tmp_path):
    # The documented form: a folder, then a quoted glob. The quotes used to reach pas as part of the path.
    spaced = tmp_path / "my plugins"
    spaced.mkdir()
    (spaced / "dice.yaml").write_text("name: Dice\nmodule_name: dice_x\nversion: 1.0.0\ndescription: Rolls dice.\n")
    done = _run_step("pas validate", shell_env, PAS_STRICT="false",
                     PAS_VALIDATE_PATHS=f"conformance/examples/plugins 'conformance/examples/**/*.yaml'\n\"{spaced}\"")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "in 16 files" in done.stdout  # the 14 plugins and host.yaml (the glob), the quoted folder's file


def test_the_validate_step_fails_with_one_line_on_an_unclosed_quote(shell_env):
    done = _run_step("pas validate", shell_env, PAS_STRICT="false", PAS_VALIDATE_PATHS="plugins/ 'plugins/**/*.yaml")
    assert done.returncode == 1
    assert done.stderr.strip() == "pas action: validate-paths: No closing quotation; close the quote"


def test_the_run_step_runs_the_suite_and_appends_a_markdown_report_to_the_job_summary(shell_env, tmp_path):
    done = _run_step("pas run", shell_env, PAS_IMPL="reference", PAS_PROFILES="activation", PAS_FORMAT="markdown")
    assert done.returncode == 0, done.stderr
    assert "# PAS conformance" in done.stdout
    assert "# PAS conformance" in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_the_run_step_fails_when_the_implementation_fails(shell_env, tmp_path):
    output = tmp_path / "report.xml"
    done = _run_step("pas run", shell_env, PAS_IMPL="python:tests.fakes.broken_extend_no_clamp:create",
                     PAS_PROFILES="activation,text", PAS_FORMAT="junit", PAS_OUTPUT=str(output))
    assert done.returncode == 1
    assert "<testsuite" in output.read_text(encoding="utf-8")
