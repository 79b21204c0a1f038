"""mkdocs hook: put every lint rule page (docs/rules/*.md) in the navigation, under "Lint rules".

The rule pages are written by whoever adds a lint rule; listing them by hand in mkdocs.yml would
go stale. The nav entry ``Lint rules: generated/lint-rules.md`` becomes a section: the generated
index first, then each rule page by code (its title is its H1). Kept out of the pages by
``exclude_docs`` in mkdocs.yml.
"""

from __future__ import annotations

from pathlib import Path

SECTION = "Lint rules"
INDEX = "generated/lint-rules.md"


def rule_pages(docs_dir: Path) -> list[str]:
    """``rules/<code>.md`` for every English rule page, sorted by code (translations are not nav entries)."""
    return sorted(p.relative_to(docs_dir).as_posix() for p in (docs_dir / "rules").glob("*.md")
                  if not p.name.endswith(".zh.md"))


def with_rule_pages(nav: list, pages: list[str]) -> list:
    """``nav`` with the ``Lint rules`` entry turned into a section of the index and ``pages``."""
    return [{SECTION: [INDEX, *pages]} if item == {SECTION: INDEX} else item for item in nav]


def on_config(config, **kwargs):
    """Expand the Lint rules entry of the nav before the pages are collected."""
    if config.nav:
        config.nav = with_rule_pages(config.nav, rule_pages(Path(config.docs_dir)))
    return config
