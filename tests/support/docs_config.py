"""mkdocs.yml as data, for the docs tests: YAML with mkdocs' ``!!python/name:`` tags read as their names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps ``!!python/name:x.y`` as the string ``x.y`` instead of importing it."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix)


def mkdocs_config() -> dict[str, Any]:
    """The parsed mkdocs.yml of the checkout."""
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
