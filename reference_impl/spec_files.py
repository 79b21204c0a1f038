"""Where the spec's data files live: inside the wheel, or beside the checkout."""

from __future__ import annotations

import functools
from pathlib import Path

from reference_impl.errors import SpecFilesMissing

_HERE = Path(__file__).resolve().parent
# The wheel carries spec/ as reference_impl/_spec; a checkout has it at the top level.
_CANDIDATES = (_HERE / "_spec", _HERE.parent / "spec")


@functools.cache
def spec_dir() -> Path:
    """Return the folder holding semantics.yaml, requirements.yaml and schemas/.

    Raises SpecFilesMissing when neither the installed nor the checkout copy exists.
    """
    for candidate in _CANDIDATES:
        if (candidate / "semantics.yaml").is_file():
            return candidate
    raise SpecFilesMissing(searched=tuple(str(c) for c in _CANDIDATES))


@functools.cache
def spec_version() -> str:
    """The spec version, read from its single home, spec/VERSION."""
    return (spec_dir() / "VERSION").read_text(encoding="utf-8").strip()

