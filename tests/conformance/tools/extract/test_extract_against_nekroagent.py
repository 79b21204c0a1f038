"""pas extract nekro against NekroAgent 2.4.0 itself: its built-in plugins, imported and rendered by its own code.

Skipped (with the reason) when nekro-agent is not importable from the Python at
$PAS_NEKRO_PYTHON, default ~/.cache/pas/nekroagent-venv/bin/python (scripts/install-nekroagent.sh).
The NekroAgent side is ``bench/budget_accuracy.py --dump``, run with that Python.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conformance.tools.extract.nekro import extract
from conformance.tools.extract.sources import plugin_files, read_sources

ROOT = Path(__file__).resolve().parents[4]
NEKRO_PYTHON = os.path.expanduser(os.environ.get("PAS_NEKRO_PYTHON", "~/.cache/pas/nekroagent-venv/bin/python"))
AGENT_KINDS = {"agent", "multimodal_agent"}


def _importable(python: str) -> bool:
    return os.path.isfile(python) and subprocess.run(
        [python, "-c", "import importlib.util,sys; sys.exit(importlib.util.find_spec('nekro_agent') is None)"],
        capture_output=True, timeout=60).returncode == 0


@pytest.fixture(scope="module")
def nekro() -> dict:
    if not _importable(NEKRO_PYTHON):
        pytest.skip(f"nekro-agent is not importable from {NEKRO_PYTHON} (set PAS_NEKRO_PYTHON, or run "
                    "scripts/install-nekroagent.sh)")
    done = subprocess.run([NEKRO_PYTHON, str(ROOT / "bench" / "budget_accuracy.py"), "--dump"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def extracted(nekro) -> dict:
    files, problems = plugin_files([nekro["folder"]])
    sources, found = read_sources(files)
    plugins, more = extract(sources)
    assert problems == found == [] and not [p for p in more if p.code == "syntax-error"]
    return {p.fields["module_name"].value: p for p in plugins}


def test_every_builtin_plugin_nekroagent_loads_is_extracted(nekro, extracted):
    assert nekro["failed"] == {} and set(nekro["plugins"]) == set(extracted)


def test_the_methods_are_those_nekroagent_shows_in_its_order_and_hidden_ones_are_left_out(nekro, extracted):
    for module, seen in nekro["plugins"].items():
        shown = [name for name in seen["mounted"] if name in seen["shown"]]
        assert [m.name for m in extracted[module].methods] == shown, module


def test_every_description_equals_the_docstring_nekroagent_renders(nekro, extracted):
    for module, seen in nekro["plugins"].items():
        for method in extracted[module].methods:
            assert method.description == seen["shown"][method.name], f"{module}.{method.name}"
            assert method.kind == seen["kinds"][method.name], f"{module}.{method.name}"


def test_nekroagents_method_list_is_rebuilt_byte_for_byte_from_the_extraction(nekro, extracted):
    for module, seen in nekro["plugins"].items():
        lines = [f"* {m.name}" + (" - **[AGENT METHOD - STOP AFTER CALL]**" if m.kind in AGENT_KINDS else "")
                 + f"\n{m.description}" for m in extracted[module].methods]
        assert "\n".join(lines) == seen["method_prompt"], module
