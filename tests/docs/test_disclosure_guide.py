"""The disclosure guide (docs/guides/disclosure.md) shows commands that run, and the output they print.

Every ``$ `` line of a ``console`` block runs from the repository root with the package's
``pas`` first on PATH and must exit 0; the lines shown under it must appear in its output, in
that order (the output may hold more: blank lines, the simulation's header with local paths).
The Chinese twin shows the same blocks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "disclosure.md"
TWIN = ROOT / "docs" / "guides" / "disclosure.zh.md"
_CONSOLE = re.compile(r"```console\n(.*?)```", re.S)


def _commands(path: Path) -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the page's console blocks with the output lines shown under it."""
    found: list[tuple[str, list[str]]] = []
    for block in _CONSOLE.findall(path.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


COMMANDS = _commands(GUIDE)


def test_the_guide_shows_commands_and_the_translation_shows_the_same_ones():
    assert len(COMMANDS) >= 6 and any(shown for _, shown in COMMANDS)
    assert _CONSOLE.findall(TWIN.read_text(encoding="utf-8")) == _CONSOLE.findall(GUIDE.read_text(encoding="utf-8"))


def _in_order(shown: list[str], printed: list[str]) -> bool:
    rest = iter(printed)
    return all(any(line == out for out in rest) for line in shown)


@pytest.mark.slow
@pytest.mark.parametrize(("command", "shown"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_each_command_of_the_guide_runs_and_prints_what_it_shows(command: str, shown: list[str]):
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
           "NO_COLOR": "1"}
    done = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert _in_order(shown, done.stdout.splitlines()), done.stdout
