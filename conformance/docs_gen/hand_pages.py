"""The generated regions of hand-written pages (see :mod:`conformance.docs_gen.regions`).

- ``docs/rules/<code>.md`` and its ``.zh.md`` twin: region ``validate-output``, the console
  session of ``pas validate`` on the page's bad example (:mod:`conformance.docs_gen.rule_examples`);
  the output is the tool's, in English, in both languages.
- ``docs/guides/validating.md`` and its twin: region ``rules-table``, every registered code with its
  default severity, whether it can be suppressed, and its summary (in the page's language).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conformance.docs_gen.i18n import Language, language
from conformance.docs_gen.lint_pages import rules_table
from conformance.docs_gen.regions import fill
from conformance.docs_gen.rule_examples import REGION, CannotShow, Validate, page_example, session

GUIDE = "guides/validating.md"
TABLE_REGION = "rules-table"


def _twins(docs_dir: Path, page: str, zh: Language) -> list[tuple[str, Language | None]]:
    pages = [(page, None), (zh.page(page), zh)]
    return [(path, lang) for path, lang in pages if (docs_dir / path).is_file()]


def rule_sessions(docs_dir: Path, validate: Validate) -> dict[str, str]:
    """The ``validate-output`` region of each rule page that has a bad example this machine can make, by code."""
    sessions = {}
    for page in sorted((docs_dir / "rules").glob("*.md")):
        if page.name.endswith(".zh.md"):
            continue
        example = page_example(page.stem, page.read_text(encoding="utf-8"))
        if example is None:
            continue
        try:
            sessions[page.stem] = session(example, validate)
        except CannotShow:
            continue
    return sessions


def hand_pages(docs_dir: Path, rules: Iterable[Any], validate: Validate, zh: Language) -> dict[str, str]:
    """The full text, regions filled, of every hand-written page with a generated region, by path under ``docs_dir``."""
    texts: dict[str, str] = {}
    for code, body in rule_sessions(docs_dir, validate).items():
        for path, _ in _twins(docs_dir, f"rules/{code}.md", zh):
            texts[path] = fill((docs_dir / path).read_text(encoding="utf-8"), {REGION: body})
    rules = list(rules)
    for path, lang in _twins(docs_dir, GUIDE, zh):
        if lang is None:
            table = rules_table(rules)
        else:
            with language(lang):
                table = rules_table(rules)
        texts[path] = fill((docs_dir / path).read_text(encoding="utf-8"), {TABLE_REGION: table})
    return texts
