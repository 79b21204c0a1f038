"""One folder, one answer: validate, simulate, budget, host plan and config explain load a folder alike.

Each command is run, as a user runs it, over the same folders; the problem lines each prints and
the class of its exit status must be the same. Before the one loader (conformance.documents.sets)
a host config without ``kind:`` in a sub-folder gave five schema errors and exit 2 from simulate
and budget but "0 error(s)" from host plan; a missing folder was ``missing-directory`` for
simulate and ``not-a-directory`` for host plan; an empty folder was an error for validate and
simulate and nothing at all for host plan and config explain.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli.main import main

WEATHER = """\
name: Weather
module_name: weather
version: 1.0.0
description: Weather forecasts.
allow_sleep: true
sleep_brief: Look up weather forecasts for a city and a date.
methods:
  - name: forecast
    kind: tool
    description: The forecast for a city.
"""
HOST = "enabled: [weather]\nstrategies:\n  weather: allow_sleep\n"
# path:line:col: severity code message [pointer], as every one of the commands prints a problem
PROBLEM = re.compile(r"^\S.*?: (?:error|warning|info) [a-z0-9-]+ .*$")


def _with_host_in_a_sub_folder(root: Path) -> Path:
    """The folder of issue 23: a manifest, and a host config without ``kind:`` in a sub-folder."""
    (root / "sub").mkdir(parents=True)
    (root / "weather.yaml").write_text(WEATHER)
    (root / "sub" / "host.yaml").write_text(HOST)
    return root


def _missing(root: Path) -> Path:
    return root / "nope"


def _empty(root: Path) -> Path:
    root.mkdir()
    return root


def _symlinked(root: Path) -> Path:
    real = _with_host_in_a_sub_folder(root.parent / "real")
    os.symlink(real, root)
    return root


def _with_a_fifo(root: Path) -> Path:
    root.mkdir()
    (root / "weather.yaml").write_text(WEATHER)
    os.mkfifo(root / "pipe.yaml")
    return root


def _with_an_unreadable_file(root: Path) -> Path:
    root.mkdir()
    (root / "weather.yaml").write_text(WEATHER)
    os.symlink(root / "gone.yaml", root / "dangling.yaml")  # listed by the walk, cannot be read
    return root


def _with_an_invalid_manifest(root: Path) -> Path:
    _with_host_in_a_sub_folder(root)
    (root / "broken.yaml").write_text("name: Broken\nmodule_name: broken\nversion: 1.0.0\n"
                                      "description: Misspelt.\nsleep_breif: Looks things up.\n")
    return root


def _with_a_module_name_twice(root: Path) -> Path:
    _with_host_in_a_sub_folder(root)
    (root / "zz_again.yaml").write_text(WEATHER)
    return root


# folder -> (the problem codes every command prints, the exit status every command gives)
FOLDERS: dict[str, tuple[Callable[[Path], Path], list[str], int]] = {
    "host config in a sub-folder": (_with_host_in_a_sub_folder, [], 0),
    "missing folder": (_missing, ["path-not-found"], 2),
    "empty folder": (_empty, ["path-not-found"], 2),
    "symlinked folder": (_symlinked, [], 0),
    "a FIFO": (_with_a_fifo, ["special-file"], 2),
    "an unreadable file": (_with_an_unreadable_file, ["unreadable"], 2),
    "an invalid manifest": (_with_an_invalid_manifest, ["schema"], 1),
    "a module name twice": (_with_a_module_name_twice, ["duplicate-module-name"], 1),
}


def _commands(folder: str, host: str) -> dict[str, list[str]]:
    return {
        "validate": ["validate", "--no-config", folder],
        "simulate": ["simulate", "--plugins", folder, "--host", host, "run"],
        "budget": ["budget", "--plugins", folder, "--host", host, "--tokenizer", "estimate"],
        "host plan": ["host", "plan", host, "--plugins", folder],
        "config explain": ["config", "explain", host, "--plugins", folder],
    }


def _run(capsys, argv: list[str]) -> tuple[int, list[str]]:
    code = main(argv)
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    return int(code), sorted(line for line in lines if PROBLEM.match(line))


@pytest.mark.parametrize("name", FOLDERS)
def test_every_command_gives_one_folder_the_same_problems_and_exit_status(name, tmp_path, capsys):
    make, codes, status = FOLDERS[name]
    folder = make(tmp_path / "plugins")
    host = tmp_path / "host.yaml"  # outside the folder: the same host config for every command
    host.write_text(HOST)
    answers = {command: _run(capsys, argv) for command, argv in _commands(str(folder), str(host)).items()}
    validate_code, validate_lines = answers["validate"]
    assert [line.split(" ")[2] for line in validate_lines] == codes
    assert validate_code == status
    for command, answer in answers.items():
        assert answer == (status, validate_lines), f"pas {command} answers differently from pas validate"


@pytest.mark.parametrize("command", [["simulate", "run"], ["budget", "--tokenizer", "estimate"]])
def test_the_folder_of_issue_23_simulates_without_a_host_config(command, tmp_path, capsys):
    folder = _with_host_in_a_sub_folder(tmp_path / "plugins")
    code, lines = _run(capsys, [command[0], "--plugins", str(folder), *command[1:]])
    assert (code, lines) == (0, [])  # the host config there is checked as one, not read as a broken manifest


def test_the_host_config_inside_the_plugin_folder_is_read_once_as_the_host_config(tmp_path, capsys):
    folder = _with_host_in_a_sub_folder(tmp_path / "plugins")
    host = str(folder / "sub" / "host.yaml")
    for argv in (["host", "plan", host, "--plugins", str(folder)], ["simulate", "--plugins", str(folder), "--host", host, "run"]):
        assert _run(capsys, argv) == (0, [])


def test_a_folder_with_documents_but_no_manifest_is_no_manifests_where_plugins_are_needed(tmp_path, capsys):
    folder = tmp_path / "plugins"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "host.yaml").write_text(HOST)
    host = str(folder / "sub" / "host.yaml")
    assert _run(capsys, ["validate", "--no-config", str(folder)]) == (0, [])  # a valid host config
    expected = [f"{folder}: error no-manifests holds no plugin manifest (a document with module_name, or kind: "
                "plugin-manifest); give the folder of manifests"]
    for argv in (["simulate", "--plugins", str(folder), "run"], ["budget", "--plugins", str(folder)],
                 ["host", "plan", host, "--plugins", str(folder)], ["config", "explain", host, "--plugins", str(folder)]):
        assert _run(capsys, argv) == (2, expected), argv
