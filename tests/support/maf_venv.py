"""Where Microsoft Agent Framework 1.23.0's Python is, the skip without it, and the driver's client.

$PAS_MAF_PYTHON, or the venv scripts/install-agent-framework.sh makes
(${PAS_MAF_VENV:-~/.cache/pas/agent-framework-venv}/bin/python). The driver runs in that Python;
the tests talk to it with examples/agent-framework/driver_protocol.py's DriverClient (standard
library only, loaded from the example directory under its own module name).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent-framework"


def maf_python() -> Path:
    """The Python of the MAF venv (which may not exist)."""
    explicit = os.environ.get("PAS_MAF_PYTHON")
    if explicit:
        return Path(explicit)
    venv = Path(os.environ.get("PAS_MAF_VENV", Path.home() / ".cache" / "pas" / "agent-framework-venv"))
    return venv / "bin" / "python"


def load_protocol() -> ModuleType:
    """examples/agent-framework/driver_protocol.py as module `maf_driver_protocol`."""
    spec = importlib.util.spec_from_file_location("maf_driver_protocol", EXAMPLE / "driver_protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


MAF_PYTHON = maf_python()
NEEDS_MAF = pytest.mark.skipif(
    not MAF_PYTHON.exists(),
    reason=f"no Microsoft Agent Framework venv at {MAF_PYTHON}: run scripts/install-agent-framework.sh or set PAS_MAF_PYTHON",
)
