"""The site builds with ``mkdocs build --strict``, and the built pages carry what readers need."""

from __future__ import annotations

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


def test_language_switch_leads_to_the_chinese_overview_and_manifest_guide(built_site):
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'hreflang="zh"' in home and 'href="zh/"' in home
    overview = (built_site / "zh" / "index.html").read_text(encoding="utf-8")
    guide = (built_site / "zh" / "guides" / "manifest" / "index.html").read_text(encoding="utf-8")
    assert "三种状态" in overview and "timeline.zh.svg" in overview
    assert "写好" in guide and "sleep_brief" in guide


def test_overview_pictures_are_published_with_the_site(built_site):
    for name in ("timeline.svg", "timeline.zh.svg"):
        assert (built_site / "generated" / name).read_text(encoding="utf-8").startswith("<svg")


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
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    # Rule pages are reached from the generated lint rules index (mkdocs.yml not_in_nav).
    assert sorted(p for p in pages - in_nav if not p.startswith("rules/")) == []

