"""Where Microsoft Agent Framework 1.23.0's Python is, the skip without it, and the driver's client.

$PAS_MAF_PYTHON, or the venv scripts/install-agent-framework.sh makes
(${PAS_MAF_VENV:-~/.cache/pas/agent-framework-venv}/bin/python). The driver runs in that Python;
the tests talk to it with examples/disclosure-stdio/driver_protocol.py's DriverClient (standard
library only, loaded from the example directory under its own module name).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from support.host_venvs import load_example_module, venv_python

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent-framework"


def maf_python() -> Path:
    """The Python of the MAF venv (which may not exist)."""
    return venv_python("PAS_MAF_PYTHON", "PAS_MAF_VENV", "agent-framework-venv")


def load_protocol() -> ModuleType:
    """examples/disclosure-stdio/driver_protocol.py as module `maf_driver_protocol`."""
    return load_example_module(EXAMPLE.parent / "disclosure-stdio" / "driver_protocol.py", "maf_driver_protocol")


MAF_PYTHON = maf_python()
NEEDS_MAF = pytest.mark.skipif(
    not MAF_PYTHON.exists(),
    reason=f"no Microsoft Agent Framework venv at {MAF_PYTHON}: run scripts/install-agent-framework.sh or set PAS_MAF_PYTHON",
)
