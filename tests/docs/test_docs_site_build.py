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


def test_generated_pages_are_built_in_chinese_in_the_chinese_site(built_site):
    html = (built_site / "zh" / "generated" / "specification" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh"' in html and 'id="ACT-ELIG-3"' in html
    assert "按配置档和级别统计需求" in html and "受保护的插件从不休眠" in html
    english = (built_site / "generated" / "specification" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in english and "Requirements by profile and level" in english
    cli = (built_site / "zh" / "generated" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "命令行参考" in cli and 'id="exit-status"' in cli


def test_requirement_sources_link_to_the_sources_page(built_site):
    html = (built_site / "generated" / "specification" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../sources/#seed-000"' in html and 'href="../../sources/#seed-003"' in html
    sources = (built_site / "sources" / "index.html").read_text(encoding="utf-8")
    assert 'id="seed-000"' in sources and 'id="nekroagent-code"' in sources


def test_mermaid_is_served_by_the_site_itself(built_site):
    html = (built_site / "protocol" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<script src="\.\./javascripts/vendor/mermaid-[0-9.]+\.min\.js"></script>', html)
    assert (built_site / "javascripts" / "vendor" / "mermaid-11.17.2.min.js").stat().st_size > 1_000_000


def test_mermaid_diagrams_are_left_for_the_browser_to_draw(built_site):
    for page in ("index.html", "protocol/index.html", "zh/protocol/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert '<pre class="mermaid"><code>' in html, page
    assert "spawn (own process group)  ────────►" not in (built_site / "protocol" / "index.html").read_text(encoding="utf-8")


def test_search_index_holds_chinese_text_segmented_into_words(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "zh" in index["config"]["lang"] and r"\u200b" in index["config"]["separator"]
    chinese = [d for d in index["docs"] if d["location"].startswith("zh/")]
    assert chinese and any(d["location"].startswith("zh/generated/specification/") for d in chinese)
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


def _hook(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"pas_{name}_hook", DOCS / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_is_in_the_navigation_rule_pages_included():
    from support.docs_config import mkdocs_config

    config = mkdocs_config()
    assert "not_in_nav" not in config
    rules = _hook("rules_nav")
    in_nav = set(_nav_files(rules.with_rule_pages(config["nav"], rules.rule_pages(DOCS))))
    # Translations (page.zh.md) are reached through the language switch, not the nav.
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if not p.name.endswith(".zh.md")}
    assert sorted(pages - in_nav) == []


def test_every_rule_page_is_in_the_built_navigation(built_site):
    # The overview's own text links no rule page, so every rules/ link on it is a navigation entry.
    for page, prefix in (("index.html", "rules/"), ("zh/index.html", "rules/")):
        html = (built_site / page).read_text(encoding="utf-8")
        codes = sorted(p.stem for p in (DOCS / "rules").glob("*.md") if not p.name.endswith(".zh.md"))
        assert codes and [c for c in codes if f'href="{prefix}{c}/"' not in html] == [], page


def test_the_changelog_has_a_section_for_the_current_spec_version():
    version = (ROOT / "spec" / "VERSION").read_text(encoding="utf-8").strip()
    major_minor = ".".join(version.split(".")[:2])
    text = (DOCS / "changelog.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## Spec (\d+\.\d+)", text, flags=re.M)
    assert sections and sections[0] == major_minor, f"the changelog's newest section must be ## Spec {major_minor}"
    assert f"### {version}" in text

