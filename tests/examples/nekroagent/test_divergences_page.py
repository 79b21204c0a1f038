"""docs/divergences.md and examples/nekroagent/expected-failures*.yaml (one per release) agree, in both directions.

Every expected failure's reason starts with a link to the entry that explains it (a divergence on
the page, or the README's "Adapter limits" section), and that entry exists. Every divergence on
the page either says it has no behavioural effect or is linked by at least one expected failure.
No NekroAgent needed: this reads files only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.bundled import bundled_suite

from conformance.suite.expected_failures import load_expected_failures

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "divergences.md"
README = ROOT / "examples" / "nekroagent" / "README.md"
# Every release's file (2.4.0's and expected-failures-2.3.x.yaml): their reasons link the same page.
EXPECTED_FILES = sorted((ROOT / "examples" / "nekroagent").glob("expected-failures*.yaml"))
NO_EFFECT = "no behavioural effect"
NOT_MEASURABLE = "not measurable"
_LINK = re.compile(r"^(?P<file>docs/divergences\.md|examples/nekroagent/README\.md)#(?P<anchor>[a-z0-9-]+): \S")


def entries(page: str) -> dict[str, str]:
    """Anchor -> body of every `### Title { #anchor }` entry of the divergences page."""
    found = list(re.finditer(r"^### .*\{ #([a-z0-9-]+) \}$", page, re.M))
    ends = [m.start() for m in found[1:]] + [len(page)]
    return {m.group(1): page[m.end():end].split("\n## ", 1)[0] for m, end in zip(found, ends, strict=True)}


def heading_anchor(title: str) -> str:
    """The anchor mkdocs gives a heading without an explicit one (lower case, words joined by -)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def readme_anchors(text: str) -> set[str]:
    return {heading_anchor(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def reasons() -> dict[str, str]:
    """Every reason of every release's expected-failures file, keyed ``file::scenario``."""
    scenarios, _ = bundled_suite()
    found = {}
    for path in EXPECTED_FILES:
        loaded, problems = load_expected_failures(path, {s.id for s in scenarios})
        assert not problems, problems
        found.update({f"{path.name}::{sid}": reason for sid, reason in loaded.items()})
    return found


def links(reasons_by_id: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Scenario id -> (file, anchor) of the link its reason starts with."""
    out = {}
    for scenario, reason in reasons_by_id.items():
        match = _LINK.match(reason)
        assert match, f"{scenario}: the reason must start with 'docs/divergences.md#anchor: ' or the README's: {reason!r}"
        out[scenario] = (match["file"], match["anchor"])
    return out


def test_every_reason_links_an_entry_that_exists():
    page, readme = entries(PAGE.read_text(encoding="utf-8")), readme_anchors(README.read_text(encoding="utf-8"))
    for scenario, (file, anchor) in links(reasons()).items():
        known = page if file.startswith("docs/") else readme
        assert anchor in known, f"{scenario} links {file}#{anchor}, which is not a heading there"


def test_every_divergence_with_an_effect_is_linked_by_an_expected_failure():
    linked = {anchor for file, anchor in links(reasons()).values() if file.startswith("docs/")}
    for anchor, body in entries(PAGE.read_text(encoding="utf-8")).items():
        effect = body.split("**Effect:**", 1)
        assert len(effect) == 2, f"#{anchor} has no **Effect:** line"
        silent = NO_EFFECT in effect[1] or NOT_MEASURABLE in effect[1]
        assert silent or anchor in linked, f"#{anchor} has an effect but no expected failure links it"
        assert not (silent and anchor in linked), f"#{anchor} says it has no measurable effect, yet a failure links it"


def test_every_entry_names_code_requirement_reason_and_scenarios():
    for anchor, body in entries(PAGE.read_text(encoding="utf-8")).items():
        assert re.search(r"\*\*NekroAgent 2\.\d+\.\d+ code:\*\*", body), f"#{anchor} lacks **NekroAgent <version> code:**"
        for field in ("**Decided by:**", "**Why:**", "**Checked by:**"):
            assert field in body, f"#{anchor} lacks {field}"
        assert re.search(r"`[\w/]+\.py(:\w+)?`|\w+\.py:\w+", body), f"#{anchor} names no NekroAgent file:function"


def test_the_link_check_fails_on_a_dangling_anchor(tmp_path):
    """The first test can fail: a reason naming a heading that is not on the page is caught."""
    page = entries(PAGE.read_text(encoding="utf-8"))
    bad = {"x": "docs/divergences.md#no-such-entry: because."}
    (file, anchor), = links(bad).values()
    assert anchor not in page
    with pytest.raises(AssertionError):
        links({"x": "see the divergences page"})


def test_the_effect_check_fails_on_an_unlinked_divergence():
    """The second test can fail: an entry with an effect that no reason links is reported."""
    page = entries(PAGE.read_text(encoding="utf-8"))
    with_effect = [a for a, body in page.items() if NO_EFFECT not in body and NOT_MEASURABLE not in body]
    assert with_effect, "the page lists divergences with an effect"
    linked = {a for f, a in links(reasons()).values() if f.startswith("docs/")}
    assert set(with_effect) <= linked
    assert not set(with_effect) <= linked - {with_effect[0]}
