"""Where LangGraph bigtool 0.0.3's two Pythons are, the skips without them, and the driver's client.

$PAS_BIGTOOL_DEFAULT_PYTHON / $PAS_BIGTOOL_WORKING_PYTHON, or the venvs scripts/install-bigtool.sh
makes (${PAS_BIGTOOL_DEFAULT_VENV:-~/.cache/pas/bigtool-default-venv},
${PAS_BIGTOOL_WORKING_VENV:-~/.cache/pas/bigtool-working-venv}). The driver runs in that Python; the
tests talk to it with examples/disclosure-stdio/driver_protocol.py's DriverClient (standard library
only, loaded from the example directory under its own module name).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from support.host_venvs import load_example_module, venv_python

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langgraph-bigtool"


def bigtool_python(which: str) -> Path:
    """The Python of the `which` ("default" or "working") bigtool venv (which may not exist)."""
    which = which.upper()
    return venv_python(f"PAS_BIGTOOL_{which}_PYTHON", f"PAS_BIGTOOL_{which}_VENV", f"bigtool-{which.lower()}-venv")


def load_protocol() -> ModuleType:
    """examples/disclosure-stdio/driver_protocol.py as module `bigtool_driver_protocol`."""
    return load_example_module(EXAMPLE.parent / "disclosure-stdio" / "driver_protocol.py", "bigtool_driver_protocol")


DEFAULT_PYTHON = bigtool_python("default")
WORKING_PYTHON = bigtool_python("working")
NEEDS_DEFAULT = pytest.mark.skipif(
    not DEFAULT_PYTHON.exists(),
    reason=f"no bigtool default-set venv at {DEFAULT_PYTHON}: run scripts/install-bigtool.sh default "
           "or set PAS_BIGTOOL_DEFAULT_PYTHON",
)
NEEDS_WORKING = pytest.mark.skipif(
    not WORKING_PYTHON.exists(),
    reason=f"no bigtool working-set venv at {WORKING_PYTHON}: run scripts/install-bigtool.sh working "
           "or set PAS_BIGTOOL_WORKING_PYTHON",
)
