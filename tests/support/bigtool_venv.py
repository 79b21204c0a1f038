"""Where LangGraph bigtool 0.0.3's two Pythons are, the skips without them, and the driver's client.

$PAS_BIGTOOL_DEFAULT_PYTHON / $PAS_BIGTOOL_WORKING_PYTHON, or the venvs scripts/install-bigtool.sh
makes (${PAS_BIGTOOL_DEFAULT_VENV:-~/.cache/pas/bigtool-default-venv},
${PAS_BIGTOOL_WORKING_VENV:-~/.cache/pas/bigtool-working-venv}). The driver runs in that Python; the
tests talk to it with examples/langgraph-bigtool/driver_protocol.py's DriverClient (standard library
only, loaded from the example directory under its own module name).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langgraph-bigtool"


def bigtool_python(which: str) -> Path:
    """The Python of the `which` ("default" or "working") bigtool venv (which may not exist)."""
    explicit = os.environ.get(f"PAS_BIGTOOL_{which.upper()}_PYTHON")
    if explicit:
        return Path(explicit)
    default = Path.home() / ".cache" / "pas" / f"bigtool-{which}-venv"
    return Path(os.environ.get(f"PAS_BIGTOOL_{which.upper()}_VENV", default)) / "bin" / "python"


def load_protocol() -> ModuleType:
    """examples/langgraph-bigtool/driver_protocol.py as module `bigtool_driver_protocol`."""
    spec = importlib.util.spec_from_file_location("bigtool_driver_protocol", EXAMPLE / "driver_protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


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
