"""Every hand-written page has a Simplified Chinese twin that is up to date with its English source.

The site is bilingual with mkdocs-static-i18n (docs_structure: suffix): ``docs/guides/manifest.zh.md``
translates ``docs/guides/manifest.md``. Each translation starts with a comment naming the version of
the English page it was translated from::

    <!-- translated-from: sha256=0123456789ab -->

that is, the first 12 hex digits of the SHA-256 of the English file's bytes, exactly as
``sha256sum docs/guides/manifest.md | cut -c1-12`` prints them, except that the bodies of the page's
generated regions (``<!-- generated: NAME ... -->`` to ``<!-- /generated -->``: the output of
``pas validate`` on a rule page's example, the validating guide's table of rules) are left out:
``pas docs generate`` writes those into both languages, so no translator needs to compare them
(conformance.docs_gen.regions). When the English page changes,
these tests fail until a translator has brought the Chinese page up to date and then written the
new hash into that line by hand. There is deliberately no command that refreshes the hashes: the
hash records that someone compared the two texts, which no script can do.

Pages under docs/generated/ are not translated yet: the zh site shows them in English
(``fallback_to_default`` in mkdocs.yml).

Each Chinese page also gives its headings the English page's anchors (``## 分帧 { #framing }``), so
links into a page and the language switch land on the same section in both languages.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from conformance.docs_gen.regions import without_regions

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
UNTRANSLATED = ("generated/",)  # docs/generated/: made by `python -m conformance docs generate`

HASH_DIGITS = 12
MARKER = re.compile(r"\A<!-- translated-from: sha256=([0-9a-f]+) -->\n")

# The extensions of mkdocs.yml that change which headings a page has and what their anchors are.
_EXTENSIONS = ["abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "tables", "toc",
               "pymdownx.details", "pymdownx.superfences", "pymdownx.tabbed"]


def _english_pages() -> list[str]:
    pages = (p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if not p.name.endswith(".zh.md"))
    return sorted(p for p in pages if not p.startswith(UNTRANSLATED))


def _twin(page: str) -> str:
    return page.removesuffix(".md") + ".zh.md"


def source_hash(page: str) -> str:
    """The hash a translation of ``docs/<page>`` records: the first 12 hex digits of its SHA-256, regions left out."""
    text = (DOCS / page).read_bytes().decode("utf-8")
    return hashlib.sha256(without_regions(text).encode("utf-8")).hexdigest()[:HASH_DIGITS]


def _anchors(text: str) -> list[str]:
    markdown = pytest.importorskip("markdown", reason="mkdocs is not installed (pip install '.[docs]')")
    pytest.importorskip("pymdownx", reason="mkdocs-material is not installed (pip install '.[docs]')")
    converter = markdown.Markdown(extensions=_EXTENSIONS)
    converter.convert(text)

    def walk(tokens: list[dict]) -> list[str]:
        return [a for t in tokens for a in (t["id"], *walk(t["children"]))]

    return walk(converter.toc_tokens)


ENGLISH = _english_pages()


def test_the_hand_written_pages_are_found():
    assert {"index.md", "protocol.md", "guides/manifest.md", "rules/yaml-tag.md"} <= set(ENGLISH)


@pytest.mark.parametrize("page", ENGLISH)
def test_english_page_has_an_up_to_date_chinese_translation(page):
    twin = _twin(page)
    expected = source_hash(page)
    how = (f"the first line of docs/{twin} must be `<!-- translated-from: sha256={expected} -->` (the first "
           f"{HASH_DIGITS} hex digits of `sha256sum docs/{page}`)")
    if not (DOCS / twin).is_file():
        pytest.fail(f"docs/{page} has no Simplified Chinese translation: add docs/{twin}, translated from "
                    f"the current English page; {how}", pytrace=False)
    marker = MARKER.match((DOCS / twin).read_text(encoding="utf-8"))
    if marker is None:
        pytest.fail(f"docs/{twin} does not say which version of docs/{page} it translates: {how}", pytrace=False)
    if marker.group(1) != expected:
        pytest.fail(
            f"docs/{page} has changed since docs/{twin} was translated from it (recorded sha256={marker.group(1)}, "
            f"now {expected}): bring the translation up to date with the English page (`git log -p -- docs/{page}` "
            f"shows what changed), then write the new hash by hand: {how}",
            pytrace=False,
        )


@pytest.mark.parametrize("page", ENGLISH)
def test_chinese_translation_keeps_the_english_anchors(page):
    twin = DOCS / _twin(page)
    if not twin.is_file():
        pytest.skip(f"docs/{_twin(page)} is missing (reported by the test above)")
    english = _anchors((DOCS / page).read_text(encoding="utf-8"))
    chinese = _anchors(twin.read_text(encoding="utf-8"))
    assert chinese == english, (
        f"the headings of docs/{_twin(page)} must carry the anchors of docs/{page}, in the same order, so links "
        f"and the language switch land on the same section: give each Chinese heading the English one's id "
        f"with `{{ #id }}` (English anchors {english}, Chinese {chinese})"
    )


def test_every_translation_has_an_english_source():
    twins = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.zh.md"))
    orphans = [t for t in twins if not (DOCS / t.replace(".zh.md", ".md")).is_file()]
    assert orphans == [], f"translations without an English page (rename or delete them with it): {orphans}"


def test_the_old_zh_folder_is_gone():
    # Before the suffix layout, translations lived in docs/zh/; the i18n plugin now builds zh/ itself.
    assert not (DOCS / "zh").exists(), "docs/zh/ is replaced by page.zh.md files beside the English pages"
