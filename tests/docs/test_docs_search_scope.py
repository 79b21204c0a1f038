"""docs/hooks/search_scope.py: every built page searches with the worker of its own language.

What the searches find is checked in a real browser (test_docs_browser.py); here, the hook's
rewriting of each page's ``__config`` and the wrapper it names.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
WRAPPER = ROOT / "docs" / "assets" / "javascripts" / "workers" / "search-scope.js"


def _hook():
    spec = importlib.util.spec_from_file_location("pas_search_scope_hook", ROOT / "docs" / "hooks" / "search_scope.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_PAGE = ('<html><body><script id="__config" type="application/json">{"base": "../..", '
         '"search": "../../assets/javascripts/workers/search.a7633da7.min.js", '
         '"translations": {"x": "<b>&\'"}}</script></body></html>')


def _config(html: str) -> dict:
    return json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', html).group(1))


def test_a_chinese_page_gets_the_wrapper_scoped_to_zh_beside_materials_worker():
    html = _hook().with_scoped_worker(_PAGE, "zh/", ("zh/",))
    assert _config(html)["search"] == ("../../assets/javascripts/workers/search-scope.js"
                                       "?scope=zh/&others=zh/&worker=search.a7633da7.min.js")
    assert _config(html)["translations"] == {"x": "<b>&'"}
    assert "<b>" not in html.split("__config")[1]  # escaped as tojson does: the JSON cannot end the script


def test_an_english_page_searches_outside_every_language_folder():
    hook = _hook()
    assert hook.scope_of("guides/validating/", ("zh/",)) == ""
    assert hook.scope_of("zh/guides/validating/", ("zh/",)) == "zh/"
    assert "?scope=&others=zh/&" in _config(hook.with_scoped_worker(_PAGE, "", ("zh/",)))["search"]


def test_a_page_without_a_search_worker_is_left_as_it_is():
    hook = _hook()
    assert hook.with_scoped_worker("<html></html>", "zh/", ("zh/",)) == "<html></html>"
    other = _PAGE.replace("workers/search.a7633da7.min.js", "workers/other.js")
    assert hook.with_scoped_worker(other, "zh/", ("zh/",)) == other


def test_the_languages_are_read_from_the_i18n_plugin():
    languages = [SimpleNamespace(locale="en", default=True, build=True),
                 SimpleNamespace(locale="zh", default=False, build=True),
                 SimpleNamespace(locale="ja", default=False, build=False)]
    config = SimpleNamespace(plugins={"i18n": SimpleNamespace(config=SimpleNamespace(languages=languages))})
    assert _hook().language_folders(config) == ("zh/",)
    assert _hook().language_folders(SimpleNamespace(plugins={})) == ()


def test_the_wrapper_registers_before_importing_materials_worker_and_only_a_worker_file():
    script = WRAPPER.read_text(encoding="utf-8")
    assert script.index('addEventListener("message"') < script.index("importScripts(worker)")
    assert r"/^search\.[0-9a-f]+\.min\.js$/.test(worker)" in script


def test_every_built_page_names_the_wrapper_with_its_own_language_folder(built_site):
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) > 100
    for page in pages:
        url = page.parent.relative_to(built_site).as_posix()
        search = _config(page.read_text(encoding="utf-8"))["search"]
        scope = "zh/" if url == "zh" or url.startswith("zh/") else ""
        assert re.search(rf"/?search-scope\.js\?scope={scope}&others=zh/&worker=search\.[0-9a-f]+\.min\.js$", search), (url, search)
        worker = page.parent / search.split("?")[0]
        assert worker.resolve().is_file() and (worker.parent / search.rsplit("=", 1)[1]).is_file(), url
