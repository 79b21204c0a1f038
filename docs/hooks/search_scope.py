"""mkdocs hook: each language of the site searches only its own pages.

mkdocs-static-i18n stacks every language into the one ``search/search_index.json`` that every page
fetches, so an English query used to list the Chinese twins of the same pages beside the English
ones (and the other way round). This hook points each page's search worker at
``assets/javascripts/workers/search-scope.js`` (docs/assets/...), a small wrapper around
mkdocs-material's own worker that keeps only the entries under the page's language folder and cuts
Chinese queries into the words the index was cut into; the query string names the language folder
(``scope``), the folders of the other languages (``others``) and Material's worker file (``worker``,
whose name carries a hash that changes with Material's version).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

WRAPPER = "search-scope.js"
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
_WORKER = re.compile(r"^(?P<folder>.*/)?(?P<name>search\.[0-9a-f]+\.min\.js)$")
# What Jinja's tojson escapes, so that the JSON cannot close the <script> element it sits in.
_HTML_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"}


def language_folders(config: Any) -> tuple[str, ...]:
    """``("zh/",)``: the folder of every language other than the default, from the i18n plugin's config."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return ()
    return tuple(f"{lang.locale}/" for lang in i18n.config.languages if not lang.default and lang.build)


def scope_of(url: str, folders: tuple[str, ...]) -> str:
    """The language folder a page URL lies in (``"zh/"``), or ``""`` for the default language."""
    return next((folder for folder in folders if url.startswith(folder)), "")


def with_scoped_worker(html: str, scope: str, folders: tuple[str, ...]) -> str:
    """``html`` whose ``__config`` names the scoped wrapper as search worker (unchanged without a search worker)."""
    found = _CONFIG.search(html)
    if found is None:
        return html
    settings = json.loads(found.group(2))
    worker = _WORKER.match(settings.get("search") or "")
    if worker is None:
        return html
    query = urlencode({"scope": scope, "others": ",".join(folders), "worker": worker.group("name")}, safe="/,")
    settings["search"] = f"{worker.group('folder') or ''}{WRAPPER}?{query}"
    text = json.dumps(settings, ensure_ascii=True, sort_keys=True)
    for char, escaped in _HTML_SAFE.items():
        text = text.replace(char, escaped)
    return html[:found.start(2)] + text + html[found.end(2):]


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    """Give the page the search worker of its own language."""
    folders = language_folders(config)
    return with_scoped_worker(output, scope_of(page.url, folders), folders)
