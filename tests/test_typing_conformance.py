"""conformance type-checks under mypy (the lenient override of [tool.mypy] in pyproject.toml).

reference_impl is checked strictly by tests/reference_impl/test_typing.py; the toolkit is checked
with the override the config gives it, and must stay clean too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is in the test extra; without it the typing check cannot run")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_finds_no_error_in_conformance():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "conformance"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
