"""Where a real host's Python is, and its example's driver client: what maf_venv, bigtool_venv and nekro_venv share.

Each host runs in a venv of its own that a scripts/install-*.sh script makes under
~/.cache/pas/ (never in PAS's install); an environment variable names the Python itself or the venv.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType


def venv_python(python_variable: str, venv_variable: str, default_venv: str) -> Path:
    """``$python_variable``, else ``bin/python`` of ``$venv_variable`` or of ~/.cache/pas/``default_venv`` (may not exist)."""
    explicit = os.environ.get(python_variable)
    if explicit:
        return Path(explicit)
    return Path(os.environ.get(venv_variable, Path.home() / ".cache" / "pas" / default_venv)) / "bin" / "python"


def load_example_module(path: Path, name: str) -> ModuleType:
    """The example file at ``path`` imported as module ``name`` (registered: dataclasses look it up while built)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
