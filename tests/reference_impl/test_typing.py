"""reference_impl type-checks under mypy --strict (the [tool.mypy] section of pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is in the test extra; without it the typing check cannot run")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_mypy_strict_finds_no_error_in_reference_impl():
    """The config file makes it strict; --strict here too, so a weakened config cannot pass for clean."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"), "reference_impl"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
