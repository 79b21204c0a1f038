"""The requirements as the suite needs them: spec/requirements.yaml read once into frozen values.

Besides id, level, profile, title and text, a disclosure requirement may say under which
declared options it applies (``applies_when``) and which declared values decline it
(``declined_by``, on a SHOULD): the scenario loader checks that a scenario's ``requires``
implies the first, and the summary reports a SHOULD its implementation declined as declined.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference_impl.disclosure_options import Options
from reference_impl.frozen import EMPTY, FrozenMap
from reference_impl.problems import Problem


@dataclass(frozen=True, slots=True, kw_only=True)
class Requirement:
    """A requirement as the summary and reports need it: id, RFC 2119 level, profile, title, text.

    ``introduced_in`` is the spec version (major.minor) that introduced it ('' when unknown: an
    id a scenario names that spec/requirements.yaml does not hold).
    ``applies_when`` and ``declined_by`` map a disclosure option to the values it takes there
    (spec/schemas/requirements.schema.yaml); empty for every other requirement.
    """

    id: str
    level: str = "UNKNOWN"
    profile: str = ""
    title: str = ""
    text: str = ""
    introduced_in: str = ""
    applies_when: Mapping[str, tuple[Any, ...]] = EMPTY
    declined_by: Mapping[str, tuple[Any, ...]] = EMPTY

    def __post_init__(self) -> None:
        for name in ("applies_when", "declined_by"):
            object.__setattr__(self, name, FrozenMap(getattr(self, name)))

    def declined_under(self, options: Options | None) -> bool:
        """Whether an implementation declaring ``options`` declines this requirement (None: it declares none)."""
        return bool(self.declined_by) and options is not None and options.meets(self.declined_by)

    def declining(self, options: Options) -> str:
        """The declared values that decline it, as a report says them: ``state_scope: instance``."""
        return "; ".join(f"{option}: {', '.join(map(_word, options.value_of(option)))}" for option in self.declined_by)


def _word(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _options(entry: Mapping[str, Any], key: str) -> dict[str, tuple[Any, ...]]:
    given = entry.get(key)
    if not isinstance(given, Mapping):
        return {}
    return {str(option): tuple(values) for option, values in given.items() if isinstance(values, list)}


@functools.cache
def load_requirements(path: Path | None = None) -> tuple[Mapping[str, Requirement], tuple[Problem, ...]]:
    """The requirements by id, in file order (spec/requirements.yaml unless ``path``).

    Never raises: an unreadable file gives no requirements and the problems; malformed
    entries are skipped (the file's schema check reports them).
    """
    from conformance.documents.loader import load_mapping
    from reference_impl.spec_files import spec_dir

    try:
        path = path or spec_dir() / "requirements.yaml"
    except OSError as error:  # SpecFilesMissing: a broken installation
        return {}, (Problem(code="spec-missing", message=str(error)),)
    doc, problems = load_mapping(path)
    if doc is None:
        return {}, tuple(problems)
    found: dict[str, Requirement] = {}
    for entry in doc.value.get("requirements") or ():
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            found[entry["id"]] = Requirement(id=entry["id"], level=str(entry.get("level", "UNKNOWN")),
                                             profile=str(entry.get("profile", "")), title=str(entry.get("title", "")),
                                             text=str(entry.get("text", "")),
                                             introduced_in=str(entry.get("introduced_in", "")),
                                             applies_when=_options(entry, "applies_when"),
                                             declined_by=_options(entry, "declined_by"))
    return found, ()
