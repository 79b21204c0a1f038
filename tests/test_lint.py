"""The whole tree passes ruff with the configuration in pyproject.toml (part of the README's test command)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing_in_the_tree():
    if shutil.which("ruff") is None and subprocess.run([sys.executable, "-m", "ruff", "--version"],
                                                       capture_output=True).returncode != 0:
        pytest.skip("ruff is not installed (it is in the test extra)")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"ruff check . found problems:\n{done.stdout[-6000:]}{done.stderr[-2000:]}"


def _noqa_comments(path: Path) -> list[tuple[int, str]]:
    """The ``# noqa`` comments of a file (real comments, read with tokenize), with their lines."""
    with path.open("rb") as stream:
        tokens = tokenize.tokenize(stream.readline)
        return [(token.start[0], token.string) for token in tokens
                if token.type == tokenize.COMMENT and re.search(r"#\s*noqa\b", token.string)]


def test_every_noqa_says_why():
    # A noqa hides a decision; its reason goes after " - " in the same comment: "
    bare = []
    for path in sorted(ROOT.glob("**/*.py")):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") or part in {"site", "build", "node_modules", "fixtures"} for part in parts):
            continue
        bare += [f"{path.relative_to(ROOT)}:{line}: {comment}" for line, comment in _noqa_comments(path)
                 if " - " not in comment.split("noqa", 1)[1]]
    assert not bare, "give each noqa its reason ('# noqa: BLE001 - why'):\n" + "\n".join(bare)


def test_the_noqa_check_reads_comments_not_strings(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('x = "# noqa"  # noqa: E501\ny = 1  # noqa: F401 - kept for the public API\n', encoding="utf-8")
    assert _noqa_comments(sample) == [(1, "# noqa: E501"), (2, "# noqa: F401 - kept for the public API")]
