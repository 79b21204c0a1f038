"""Every page made from docs/data/implementations.json, in English and Simplified Chinese, and writing them.

docs/implementations.md (the matrix, :mod:`conformance.docs_gen.implementations_page`) and one page
per disclosure host, docs/hosts/<host>.md (:mod:`conformance.docs_gen.host_pages`). Each Chinese twin
starts with the SHA-256 of its English page, as the docs translation check reads it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.docs_gen.host_hazards import HostHazards, check, entries_of, load
from conformance.docs_gen.host_pages import divergence_of, divergence_titles, render_host
from conformance.docs_gen.i18n import chinese, language
from conformance.docs_gen.implementation_list import ROOT
from conformance.docs_gen.implementations_page import render
from reference_impl.spec_files import spec_dir

DOCS = ROOT / "docs"
PAGE = "implementations.md"


def host_page(key: str) -> str:
    """The path under docs/ of a host's page."""
    return f"hosts/{key}.md"


def twin(path: str) -> str:
    """``hosts/mastra.md`` -> ``hosts/mastra.zh.md``."""
    return path.removesuffix(".md") + ".zh.md"


def readme_titles(data: Mapping[str, Any], hosts: Sequence[HostHazards]) -> tuple[dict[tuple[str, str], str], list[str]]:
    """The heading of every divergence entry a host's expected-failure reasons link, and the links that lead nowhere."""
    titles: dict[tuple[str, str], str] = {}
    problems = []
    for host in hosts:
        for entry in entries_of(data, host.key):
            for sid, reason in entry["reasons"].items():
                found = divergence_of(reason)
                if found is None:
                    continue
                readme, anchor, _ = found
                path = ROOT / readme
                headings = divergence_titles(path.read_text(encoding="utf-8")) if path.is_file() else {}
                if anchor in headings:
                    titles[(readme, anchor)] = headings[anchor]
                else:
                    problems.append(f"{entry['key']}/{sid}: {readme} has no entry #{anchor}")
    return titles, problems


def _with_digest(english: str, chinese_text: str) -> str:
    digest = hashlib.sha256(english.encode("utf-8")).hexdigest()[:12]
    return f"<!-- translated-from: sha256={digest} -->\n{chinese_text}"


def pages(data: Mapping[str, Any], hosts: Sequence[HostHazards]) -> tuple[dict[str, str], list[str]]:
    """Every page by its path under docs/ (both languages), and the problems that keep them from being right.

    The problems are the hazards that do not hold for the data (:func:`host_hazards.check`), the
    divergence links that lead nowhere, and the Chinese strings missing from the vocabulary.
    """
    titles, problems = readme_titles(data, hosts)
    problems = check(hosts, data) + problems
    english = {PAGE: render(data, hosts), **{host_page(h.key): render_host(h, data, titles) for h in hosts}}
    zh = chinese(spec_dir())
    with language(zh):
        translated = {PAGE: render(data, hosts), **{host_page(h.key): render_host(h, data, titles) for h in hosts}}
    problems += [f"no Chinese for {s!r}: add it to conformance/docs_gen/vocabulary.zh.yaml (a requirement id: to "
                 "spec/requirements.zh.yaml)" for s in sorted(zh.missing)]
    files = dict(english)
    files.update({twin(path): _with_digest(english[path], translated[path]) for path in english})
    return files, problems


def write_all(data: Mapping[str, Any]) -> list[str]:
    """Write every page from ``data`` and docs/data/host-hazards.yaml; the problems instead when there are any."""
    hosts, problems = load()
    files, found = pages(data, hosts)
    problems += found
    if problems:
        return problems
    for path, text in files.items():
        target = DOCS / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    return []
