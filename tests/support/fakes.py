"""The fakes of tests/fakes/: where they are, and the one way the tests load one."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

FAKES = Path(__file__).resolve().parents[1] / "fakes"


def load_fake(name: str) -> ModuleType:
    """A fresh import of tests/fakes/<name>.py (fakes are files, not a package); raises FileNotFoundError for none."""
    spec = importlib.util.spec_from_file_location(f"pas_fake_{name}", FAKES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
