"""Where NekroAgent 2.4.0's Python is, for the tests that drive its real code, and the skip without it.

$PAS_NEKRO_PYTHON, or the venv scripts/install-nekroagent.sh makes
(${PAS_NEKRO_VENV:-~/.cache/pas/nekroagent-venv}/bin/python). With PAS_REQUIRE_NEKRO=1, as in
.ci/run, tests/conftest.py turns the skip into a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.host_venvs import venv_python


def nekro_python() -> Path:
    """The Python of the NekroAgent venv (which may not exist)."""
    return venv_python("PAS_NEKRO_PYTHON", "PAS_NEKRO_VENV", "nekroagent-venv")


NEKRO_PYTHON = nekro_python()
NEEDS_NEKRO = pytest.mark.skipif(
    not NEKRO_PYTHON.exists(),
    reason=f"no NekroAgent venv at {NEKRO_PYTHON}: run scripts/install-nekroagent.sh or set PAS_NEKRO_PYTHON",
)

# The releases before 2.4.0 with activation scheduling; scripts/install-nekroagent.sh VERSION (or all)
# puts each in ~/.cache/pas/nekroagent-<version>-venv. CI installs all five, and with PAS_REQUIRE_NEKRO=1
# (.ci/run) a skip whose reason names nekroagent fails: a release missing there is a failure.
OLDER_RELEASES = ("2.3.0", "2.3.1", "2.3.2", "2.3.3")


def release_python(version: str) -> Path:
    """The Python of an older release's venv (which may not exist)."""
    return Path.home() / ".cache" / "pas" / f"nekroagent-{version}-venv" / "bin" / "python"


def needs_release(version: str) -> pytest.MarkDecorator:
    """Skip unless the venv of ``version`` is installed (a failure under PAS_REQUIRE_NEKRO=1, as in CI)."""
    return pytest.mark.skipif(not release_python(version).exists(),
                              reason=f"release {version} is not installed here: scripts/install-nekroagent.sh {version} (or all)")
