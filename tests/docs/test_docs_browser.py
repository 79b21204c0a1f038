"""The built site in a real browser: headless Chromium against a local HTTP server.

Skipped when /usr/bin/chromium is missing (scripts/install-chromium.sh installs it), unless
PAS_REQUIRE_BROWSER=1, as in CI, where a missing browser is a failure. Screenshots are kept in
test-artifacts/docs/.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.docs_cdp import Browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "docs"

CHROMIUM = Path("/usr/bin/chromium")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site without logging every request to stderr."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(built_site: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 at a free port, for the duration of the module."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="docs-site", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium page for the whole module."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: run scripts/install-chromium.sh"
        if os.environ.get("PAS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PAS_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    with Browser(str(CHROMIUM), tmp_path_factory.mktemp("chromium-profile"), width=1280, height=900) as page:
        yield page


def _text(browser: Browser) -> str:
    return browser.evaluate("document.querySelector('article').innerText")


def test_home_page_renders_the_overview_and_its_timeline_picture(browser, base_url):
    browser.open(base_url)
    assert "Three states" in _text(browser)
    assert browser.wait_for("(document.querySelector('img[src$=\"timeline.svg\"]') || {}).naturalWidth > 0")
    browser.screenshot(ARTIFACTS / "home.png")
    browser.evaluate("document.querySelector('img[src$=\"timeline.svg\"]').scrollIntoView({block: 'center'})")
    browser.evaluate("new Promise(done => setTimeout(done, 500))")  # let the header's title transition end
    browser.screenshot(ARTIFACTS / "home-timeline.png")
    assert browser.errors == []


def test_generated_specification_page_renders_with_requirement_anchors(browser, base_url):
    browser.open(base_url + "generated/specification/")
    heading = browser.evaluate("(document.getElementById('ACT-ELIG-3') || {}).textContent || ''")
    assert heading.startswith("ACT-ELIG-3")
    assert "Requirements by profile and level" in _text(browser)
    browser.screenshot(ARTIFACTS / "specification.png")
    assert browser.errors == []


def test_search_index_loads_and_a_query_finds_the_decision_tables(browser, base_url):
    browser.open(base_url + "?q=extend_plugin_activation")
    status = browser.evaluate("fetch('search/search_index.json').then(r => r.json()).then(j => j.docs.length)")
    assert status > 100  # one entry per section of every page
    count = browser.wait_for("document.querySelectorAll('.md-search-result__item').length")
    assert count > 0
    links = browser.evaluate("[...document.querySelectorAll('.md-search-result__link')].map(a => a.href).join(' ')")
    assert "generated/decision-tables/" in links
    browser.screenshot(ARTIFACTS / "search.png")


def test_chinese_overview_renders_and_search_finds_chinese_text(browser, base_url):
    browser.open(base_url + "zh/")
    assert "三种状态" in _text(browser)
    browser.screenshot(ARTIFACTS / "zh-overview.png")
    browser.open(base_url + "zh/?q=" + "休眠")  # each language searches its own pages
    assert browser.wait_for("document.querySelectorAll('.md-search-result__item').length") > 0
    assert browser.errors == []


_RESULT_LINKS = ("[...document.querySelectorAll('.md-search-result__list > .md-search-result__item"
                 " > .md-search-result__link')].map(a => a.href)")


def _settled_results(browser: Browser) -> list[str]:
    """The result links (one per page, best first) once they stop changing: the worker answers every keystroke."""
    last: list[str] = []
    steady = 0
    for _ in range(150):
        links = browser.evaluate(_RESULT_LINKS)
        steady = steady + 1 if links and links == last else 0
        if steady >= 5:
            return links
        last = links
        browser.evaluate("new Promise(done => setTimeout(done, 200))")
    return last


def _search(browser: Browser, page: str, query: str) -> list[str]:
    browser.open(page)
    browser.evaluate("document.querySelector('label[for=__search]').click()")
    assert browser.wait_for("document.activeElement === document.querySelector('.md-search__input')")
    browser.type(query)
    assert browser.evaluate("document.querySelector('.md-search__input').value") == query
    return _settled_results(browser)


@pytest.mark.parametrize(("prefix", "query", "expected"), [
    ("", "validate", "guides/validating/"),
    ("", "sleep_brief", "guides/manifest/"),
    ("zh/", "可休眠", "zh/generated/scenarios/eligibility/"),
    ("zh/", "一致性测试", "zh/guides/ci-action/"),
])
def test_search_finds_the_page_among_the_first_three_results_in_the_pages_language(
        browser, base_url, prefix, query, expected):
    results = _search(browser, base_url + prefix, query)
    pages = list(dict.fromkeys(link.removeprefix(base_url).split("?")[0].split("#")[0] for link in results))
    assert expected in pages[:3], f"{query!r}: {pages[:10]}"
    # Every result is in the language of the page searched from: zh/ pages from a zh/ page, no other.
    assert pages and all(page.startswith("zh/") == (prefix == "zh/") for page in pages), pages
    browser.screenshot(ARTIFACTS / f"search-{prefix.strip('/') or 'en'}-{expected.strip('/').replace('/', '-')}.png")
    assert browser.errors == []


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """A second headless Chromium page, 375 px wide: a phone held upright."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: run scripts/install-chromium.sh"
        if os.environ.get("PAS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PAS_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    with Browser(str(CHROMIUM), tmp_path_factory.mktemp("chromium-phone"), width=375, height=812) as page:
        yield page


_PICTURE = "document.querySelector('article picture img')"


@pytest.mark.parametrize("prefix", ["", "zh/"])
def test_on_a_phone_the_overview_shows_the_narrow_timeline_at_full_size(phone, base_url, prefix):
    phone.open(base_url + prefix)
    assert phone.wait_for(f"({_PICTURE} || {{}}).naturalWidth > 0")
    assert phone.evaluate(f"{_PICTURE}.currentSrc").endswith("generated/timeline-narrow.svg")
    assert phone.evaluate("document.documentElement.lang") == ("zh" if prefix else "en")
    shown = phone.evaluate(f"{_PICTURE}.getBoundingClientRect().width")
    natural = phone.evaluate(f"{_PICTURE}.naturalWidth")
    assert shown >= natural * 0.97, f"the picture is scaled down to {shown}/{natural}: its text would be too small"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375  # nothing makes the page scroll sideways
    phone.evaluate(f"{_PICTURE}.scrollIntoView({{block: 'center'}})")
    phone.evaluate("new Promise(done => setTimeout(done, 500))")
    phone.screenshot(ARTIFACTS / f"phone-{prefix.strip('/') or 'en'}-timeline.png")
    assert phone.errors == []


def test_on_a_wide_screen_the_overview_shows_the_wide_timeline(browser, base_url):
    browser.open(base_url)
    assert browser.wait_for(f"({_PICTURE} || {{}}).naturalWidth > 0")
    assert browser.evaluate(f"{_PICTURE}.currentSrc").endswith("generated/timeline.svg")


# mkdocs-material replaces each <pre class="mermaid"> by a <div class="mermaid"> holding the drawn SVG in a
# closed shadow root: a div that has taken space means the diagram was drawn.
_DIAGRAM = "document.querySelector('article div.mermaid')"


@pytest.mark.parametrize("page", ["protocol/", "zh/protocol/", "", "zh/"])
def test_on_a_phone_the_mermaid_diagrams_are_drawn_offline_and_fit(phone, base_url, page):
    # mkdocs-material draws ```mermaid blocks into a shadow root, with the mermaid.js the site serves itself.
    phone.open(base_url + page)
    assert phone.wait_for(f"!!{_DIAGRAM} && {_DIAGRAM}.getBoundingClientRect().height > 100", timeout=20)
    assert phone.evaluate("document.querySelectorAll('article pre.mermaid').length") == 0  # none left undrawn
    width = phone.evaluate(f"{_DIAGRAM}.getBoundingClientRect().width")
    assert 0 < width <= 375
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375  # the page never scrolls sideways
    phone.evaluate(f"{_DIAGRAM}.scrollIntoView({{block: 'start'}})")
    phone.evaluate("new Promise(done => setTimeout(done, 500))")
    phone.screenshot(ARTIFACTS / f"phone-diagram-{page.replace('/', '-') or 'home'}.png")
    assert phone.errors == []
