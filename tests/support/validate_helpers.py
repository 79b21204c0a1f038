"""Shared helpers for the ``pas validate`` tests: write documents, run the checks, run the CLI."""

from __future__ import annotations

from pathlib import Path

from conformance.cli.main import main
from conformance.validate.check import Settings, check_paths
from conformance.validate.lint.registry import LintOptions
from conformance.validate.suppress import Config

MANIFEST = """\
name: Weather
module_name: weather
version: 1.0.0
description: Looks up the weather forecast for a city.
"""
BRIEF = "Weather forecasts for any city. Activate when the user asks about the weather."


def manifest(module: str = "weather", extra: str = "") -> str:
    """A valid manifest for ``module`` with ``extra`` YAML lines appended (line 5 onwards)."""
    return MANIFEST.replace("module_name: weather", f"module_name: {module}") + extra


def write(folder: Path, name: str, text: str) -> str:
    """Write ``text`` to ``folder/name`` (creating folders) and return the path as a string."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def found(paths: list[str], *, disable: tuple[str, ...] = (), **lint: object) -> list[tuple[str, str, int]]:
    """(code, file name, line) of every problem ``pas validate`` reports for ``paths``."""
    config = Config(disable=frozenset(disable), lint=LintOptions(**lint))
    outcome = check_paths(paths, Settings(config=config))
    return [(p.code, Path(p.source.path).name, p.source.line) for p in outcome.problems]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """Run ``pas validate ARGS`` in-process; return the exit status, stdout and stderr."""
    status = main(["validate", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err
