"""The site builds with ``mkdocs build --strict``, and the built pages carry what readers need."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from reference_impl.spec_files import spec_dir

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_site_builds_with_mkdocs_strict(site_build):
    assert site_build.returncode == 0, "mkdocs build --strict failed:\n" + site_build.log[-4000:]


def test_every_requirement_id_is_an_html_anchor_of_the_built_specification_page(built_site):
    html = (built_site / "generated" / "specification" / "index.html").read_text(encoding="utf-8")
    requirements = yaml.safe_load((spec_dir() / "requirements.yaml").read_text(encoding="utf-8"))["requirements"]
    assert [r["id"] for r in requirements if f'id="{r["id"]}"' not in html] == []


def _switch_links(html: str) -> dict[str, str]:
    """The language switch of a built page: hreflang -> href."""
    return {lang: href for href, lang in re.findall(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link"', html)}


def test_chinese_pages_are_built_beside_the_english_ones_with_lang_zh(built_site):
    overview = (built_site / "zh" / "index.html").read_text(encoding="utf-8")
    guide = (built_site / "zh" / "guides" / "manifest" / "index.html").read_text(encoding="utf-8")
    assert "三种状态" in overview and "写好" in guide and "sleep_brief" in guide
    for page in ("zh/index.html", "zh/protocol/index.html", "zh/guides/validating/index.html", "zh/rules/yaml-tag/index.html"):
        assert '<html lang="zh"' in (built_site / page).read_text(encoding="utf-8"), page
    for page in ("index.html", "protocol/index.html", "rules/yaml-tag/index.html"):
        assert '<html lang="en"' in (built_site / page).read_text(encoding="utf-8"), page


def test_language_switch_keeps_the_current_page(built_site):
    home = _switch_links((built_site / "index.html").read_text(encoding="utf-8"))
    assert home["zh"].rstrip("/").endswith("zh") and home["en"] in ("/", "./", "")
    for page in ("protocol", "guides/validating", "rules/yaml-tag"):
        depth = "../" * page.count("/")
        english = _switch_links((built_site / page / "index.html").read_text(encoding="utf-8"))
        chinese = _switch_links((built_site / "zh" / page / "index.html").read_text(encoding="utf-8"))
        assert english == {"en": "./", "zh": f"../{depth}zh/{page}/"}, page
        assert chinese == {"en": f"../../{depth}{page}/", "zh": "./"}, page


def test_chinese_headings_keep_the_english_anchors(built_site):
    html = (built_site / "zh" / "protocol" / "index.html").read_text(encoding="utf-8")
    assert 'id="framing"' in html and 'id="host-profile-commands"' in html and "分帧" in html


def test_generated_pages_appear_in_the_chinese_site_in_english_for_now(built_site):
    # fallback_to_default: docs/generated/ has no .zh.md twins yet.
    html = (built_site / "zh" / "generated" / "specification" / "index.html").read_text(encoding="utf-8")
    assert 'id="ACT-ELIG-3"' in html and "Requirements by profile and level" in html


def test_search_index_holds_chinese_text_segmented_into_words(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "zh" in index["config"]["lang"] and r"\u200b" in index["config"]["separator"]
    chinese = [d for d in index["docs"] if d["location"].startswith("zh/")]
    assert chinese and all(not d["location"].startswith("zh/generated/") for d in chinese)  # fallbacks not indexed twice
    text = " ".join(d["text"] for d in chinese)
    assert "\u200b休眠\u200b" in text  # jieba put word breaks around 休眠 (sleep)


def test_overview_pictures_are_published_with_the_site(built_site):
    # generated/timeline.zh.svg is the Chinese version of generated/timeline.svg (suffix layout):
    # the zh site publishes it as zh/generated/timeline.svg.
    english = (built_site / "generated" / "timeline.svg").read_text(encoding="utf-8")
    chinese = (built_site / "zh" / "generated" / "timeline.svg").read_text(encoding="utf-8")
    assert english.startswith("<svg") and chinese.startswith("<svg")
    assert "休眠" in chinese and "休眠" not in english
    overview = (built_site / "zh" / "index.html").read_text(encoding="utf-8")
    assert 'src="generated/timeline.svg"' in overview


def _nav_files(nav: Any) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [f for item in nav for f in _nav_files(item)]
    if isinstance(nav, dict):
        return [f for value in nav.values() for f in _nav_files(value)]
    return []


def test_every_page_except_the_lint_rule_pages_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = set(_nav_files(config["nav"]))
    # Translations (page.zh.md) are reached through the language switch, not the nav.
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if not p.name.endswith(".zh.md")}
    # Rule pages are reached from the generated lint rules index (mkdocs.yml not_in_nav).
    assert sorted(p for p in pages - in_nav if not p.startswith("rules/")) == []

