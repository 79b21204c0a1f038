"""docs/guides/ci-action.md: its workflow snippets use real action inputs and real pas options."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[4]
GUIDE = (ROOT / "docs" / "guides" / "ci-action.md").read_text(encoding="utf-8")
INPUTS = set(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"])
BLOCKS = re.findall(r"```yaml\n(.*?)```", GUIDE, flags=re.S)
COMMANDS = (("report", "matrix"), ("report", "badge"), ("extract", "nekro"), ("validate",), ("run",))


def _steps(node):
    """Every mapping with a 'uses' key, anywhere in a parsed workflow fragment."""
    if isinstance(node, dict):
        if "uses" in node:
            yield node
        for value in node.values():
            yield from _steps(value)
    elif isinstance(node, list):
        for item in node:
            yield from _steps(item)


def test_every_yaml_snippet_parses_and_passes_only_declared_inputs_to_the_action():
    uses = []
    for block in BLOCKS:
        for step in _steps(yaml.safe_load(block)):
            if step["uses"] == "./.github/pas":  # PAS used as a local action (it has no public repository)
                uses.append(step)
                assert set(step.get("with") or {}) <= INPUTS, step
    assert len(uses) >= 5


def _pas_lines() -> list[tuple[tuple[str, ...], str]]:
    found = []
    for line in GUIDE.splitlines():
        for command in COMMANDS:
            match = re.search(r"\bpas " + r" ".join(command) + r"\b(.*)", line)
            if match:
                found.append((command, match.group(1)))
                break
    return found


def test_the_guide_shows_every_command_it_is_about():
    assert {command for command, _ in _pas_lines()} == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_option_the_guide_uses_exists(command, capsys):
    flags = {f for c, rest in _pas_lines() if c == command for f in re.findall(r"(?<![\w-])--?[a-z][a-z-]*", rest)}
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    helptext = capsys.readouterr().out
    assert {f for f in flags if not re.search(rf"(?<![\w-]){f}\b", helptext)} == set()


def test_the_guide_names_no_placeholder_repository():
    # PAS has no public repository URL: the recipes use it as a local action and install it from a path.
    assert "OWNER" not in GUIDE and "github.com/" not in GUIDE.replace("docs.github.com/", "")
