"""The languages of the generated pages: English as written in the generators, Simplified Chinese from data.

The generators write their fixed strings in English through :func:`t` (``t("Scenarios")``,
``t("{n} scenarios.").format(n=3)``); in Chinese, :func:`t` looks the English string up in
``vocabulary.zh.yaml`` beside this module. The requirement texts come from
``spec/requirements.zh.yaml`` (id -> title, text, rationale). Anything missing falls back to
English and is recorded in :attr:`Language.missing`, which the docs tests require to stay empty.
Text taken from other data (schema descriptions, scenario titles, lint summaries) stays in English.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VOCABULARY_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True, kw_only=True)
class Language:
    """One language of the site: its code, the page suffix, and its words (empty for English)."""

    code: str
    suffix: str = ""  # ".zh": pages are written as page.zh.md, the suffix layout of mkdocs-static-i18n
    words: Mapping[str, str] = field(default_factory=dict)
    requirements: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    profiles: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    free: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # English strings and requirement IDs looked up without a translation (filled during generation).
    missing: set[str] = field(default_factory=set)

    def page(self, path: str) -> str:
        """``specification.md`` -> ``specification.zh.md`` (unchanged in English)."""
        if not self.suffix:
            return path
        stem, dot, ext = path.rpartition(".")
        return f"{stem}{self.suffix}.{ext}" if dot else path + self.suffix

    def requirement(self, req: Mapping[str, Any]) -> Mapping[str, Any]:
        """``req`` with its title, text and rationale in this language (English where none is recorded)."""
        if not self.suffix:
            return req
        translated = self.requirements.get(req["id"])
        if translated is None:
            self.missing.add(req["id"])
            return req
        return {**req, **{k: v for k, v in translated.items() if k in ("title", "text", "rationale") and v}}

    def decision(self, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        """A decision of ``free`` with its title and text in this language (English where none is recorded)."""
        if not self.suffix:
            return entry
        translated = self.free.get(entry["id"])
        if translated is None:
            self.missing.add(f"free {entry['id']}")
            return entry
        return {**entry, **{k: v for k, v in translated.items() if k in ("title", "text") and v}}

    def profile(self, name: str, profile: Mapping[str, Any]) -> Mapping[str, Any]:
        """A profile's title and description in this language."""
        if not self.suffix:
            return profile
        translated = self.profiles.get(name)
        if translated is None:
            self.missing.add(f"profile {name}")
            return profile
        return {**profile, **translated}


EN = Language(code="en")
_current: ContextVar[Language] = ContextVar("pas_docs_language", default=EN)


def current() -> Language:
    """The language pages are being generated in."""
    return _current.get()


def t(english: str) -> str:
    """A fixed string of the generators in the current language (English when it has no translation)."""
    language = _current.get()
    if not language.suffix:
        return english
    found = language.words.get(english)
    if found is None:
        language.missing.add(english)
        return english
    return found


@contextlib.contextmanager
def language(lang: Language) -> Iterator[Language]:
    """Generate in ``lang`` inside the ``with`` block."""
    token = _current.set(lang)
    try:
        yield lang
    finally:
        _current.reset(token)


@functools.cache
def _vocabulary(code: str) -> dict[str, str]:
    import yaml

    path = VOCABULARY_DIR / f"vocabulary.{code}.yaml"
    return dict(yaml.safe_load(path.read_text(encoding="utf-8")) or {})


def chinese(spec_dir: Path) -> Language:
    """Simplified Chinese: the vocabulary beside this module and ``spec/requirements.zh.yaml``.

    Raises OSError or yaml.YAMLError when a file cannot be read; a missing requirements.zh.yaml
    means every requirement falls back to English (and is listed as missing).
    """
    import yaml

    path = spec_dir / "requirements.zh.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return Language(code="zh", suffix=".zh", words=_vocabulary("zh"),
                    requirements=dict((data or {}).get("requirements") or {}),
                    profiles=dict((data or {}).get("profiles") or {}), free=dict((data or {}).get("free") or {}))
