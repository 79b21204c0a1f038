"""docs/hosts/<host>.md: every hazard of each disclosure host is on its page, shown by a failing scenario or a declined SHOULD.

The hazards are data (docs/data/host-hazards.yaml); the evidence comes from the recorded runs
(docs/data/implementations.json). The facts notes on the four hosts (the released code driven by hand
with scripted models) list three hazards each; every one of them is on its host's page, and all but
the three no scenario can reach are a failing scenario with its reason or a declared option.
"""

from __future__ import annotations

import copy
import json

import pytest

from conformance.docs_gen import host_hazards, implementation_pages
from conformance.docs_gen.host_hazards import check, load
from conformance.docs_gen.host_pages import divergence_of, divergence_titles, slug

DATA = json.loads((implementation_pages.DOCS / "data" / "implementations.json").read_text(encoding="utf-8"))
HOSTS, LOAD_PROBLEMS = load()
BY_KEY = {h.key: h for h in HOSTS}
# How many hazards the facts notes list per host ("Things that look like bugs or hazards").
FACTS_HAZARDS = {"agent-framework": 3, "langgraph-bigtool": 3, "mastra": 3, "ai-sdk": 3}
# The facts hazards no scenario reaches with these adapters, and why (each page says so):
# bigtool's duplicate ids and unknown ids need a faulty custom retrieval or a registry that shrinks
# across a rebuild (no scenario event changes the catalogue); the AI SDK's code mode cannot be installed.
NOT_REACHED = {("langgraph-bigtool", 2), ("langgraph-bigtool", 3), ("ai-sdk", 3)}


def _page(key: str, zh: bool = False) -> str:
    return (implementation_pages.DOCS / "hosts" / f"{key}{'.zh' if zh else ''}.md").read_text(encoding="utf-8")


def test_the_hazards_file_is_well_formed_and_holds_for_the_recorded_runs():
    assert LOAD_PROBLEMS == []
    assert check(HOSTS, DATA) == []


@pytest.mark.parametrize("host", sorted(FACTS_HAZARDS))
def test_every_hazard_of_the_facts_notes_is_on_its_hosts_page(host):
    facts = {z.facts: z for z in BY_KEY[host].hazards if z.facts is not None}
    assert sorted(facts) == list(range(1, FACTS_HAZARDS[host] + 1))
    english, chinese = _page(host), _page(host, zh=True)
    for number, hazard in facts.items():
        assert f"{{ #{hazard.id} }}" in english and f"{{ #{hazard.id} }}" in chinese
        assert hazard.says in english and hazard.says_zh in chinese
        assert bool(hazard.not_reached) == ((host, number) in NOT_REACHED), (host, number)


@pytest.mark.parametrize("host", sorted(FACTS_HAZARDS))
def test_each_reached_hazard_is_a_failing_scenario_with_its_reason_or_a_declined_should_with_its_option(host):
    english = _page(host)
    entries = host_hazards.entries_of(DATA, host)
    for hazard in BY_KEY[host].hazards:
        section = english.split(f"{{ #{hazard.id} }}")[1].split("\n### ")[0]
        if hazard.declined:
            decliners = host_hazards.declining(entries, hazard.declined)
            assert decliners, hazard.id
            for entry in decliners:
                assert f"`{entry['declined'][hazard.declined]['declined_by']}`" in section
            assert f"[{hazard.declined}](../generated/specification.md#{hazard.declined})" in section
        elif not hazard.not_reached:
            failing = [(sid, e) for sid in hazard.scenarios for e in host_hazards.failing_on(entries, sid)]
            assert failing, hazard.id
            for sid, entry in failing:
                assert f"(../generated/scenarios/disclosure.md#{sid})" in section
                found = divergence_of(entry["reasons"][sid])
                assert found is not None, f"{entry['key']}/{sid}: the reason does not start with its divergence entry"
                assert f"`{found[0]}#{found[1]}`" in section and found[2] in section


def test_bigtool_shows_the_default_install_with_its_crash_as_the_verdict_and_the_working_set():
    page = _page("langgraph-bigtool")
    assert "| [default](../implementations.md#langgraph-bigtool-default) | 0.0.3 (langgraph 1.2.24, langgraph-prebuilt 1.1.3)" in page
    assert "| [working](../implementations.md#langgraph-bigtool-working) | 0.0.3 (langgraph 1.0.1, langgraph-prebuilt 1.0.1)" in page
    crash = page.split("{ #default-install-crashes }")[1].split("\n### ")[0]
    assert crash.count("fails on `default`.") == 3 and "`working`" not in crash
    assert "'ToolNode' object has no attribute 'inject_tool_args'" in crash


def _with_failure(data: dict, key: str, sid: str) -> dict:
    changed = copy.deepcopy(data)
    (entry,) = [e for e in changed["implementations"] if e["key"] == key]
    entry["results"][sid] = "failed"
    return changed


def test_a_failure_no_hazard_names_is_reported_so_no_page_leaves_it_out():
    changed = _with_failure(DATA, "mastra-context", "disc-loads-survive-the-next-request")
    assert check(HOSTS, changed) == [
        "mastra: disc-loads-survive-the-next-request fails on a configuration but no hazard names it"]


def test_a_hazard_whose_scenarios_all_pass_or_whose_should_nobody_declines_is_reported():
    changed = copy.deepcopy(DATA)
    for entry in changed["implementations"]:
        if entry.get("host") == "agent-framework":
            entry["results"]["disc-newly-visible-tools-are-appended"] = "passed"
            entry["results"]["disc-always-visible-tool-keeps-its-place"] = "passed"
            entry["declined"] = {}
    assert check(HOSTS, changed) == [
        "agent-framework/state-shared-by-every-session: no configuration declines DISC-SCOPE-2",
        "agent-framework/order-changes-between-runs: none of disc-newly-visible-tools-are-appended, "
        "disc-always-visible-tool-keeps-its-place fails on any configuration"]


def test_a_malformed_hazard_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "hazards.yaml"
    bad.write_text("format: 1\nhosts:\n  - key: x\n    name: X\n    hazards:\n      - id: h\n        title: T\n"
                   "        title_zh: T\n        says: S\n        says_zh: S\n        sees: [a]\n", encoding="utf-8")
    hosts, problems = load(bad)
    assert [h.hazards for h in hosts] == [()]
    assert len(problems) == 2 and all(p.startswith(f"{bad}:6:") for p in problems)
    assert "sees is not a hazard field" in problems[0]
    assert "name the scenarios that show it, the SHOULD it declines, or why nothing reaches it" in problems[1]


def test_divergence_titles_come_from_explicit_anchors_and_from_heading_slugs():
    readme = "# T\n\n## Divergences\n\n<a id=\"own-tools\"></a>\n### The agent's own tools are `x`\n\n### A listing, marks\n"
    titles = divergence_titles(readme)
    assert titles["own-tools"] == "The agent's own tools are `x`"
    assert titles["a-listing-marks"] == "A listing, marks"
    assert slug("The order of a run is not the order of the next") == "the-order-of-a-run-is-not-the-order-of-the-next"
    assert divergence_of("examples/x/README.md#a-b: why (f.py:3)") == ("examples/x/README.md", "a-b", "why (f.py:3)")
    assert divergence_of("[C1] why") is None


def test_chinese_text_folded_over_lines_has_no_space_between_chinese_characters():
    for host in HOSTS:
        for hazard in host.hazards:
            for text in (hazard.says_zh, hazard.not_reached_zh):
                assert "， " not in text and " ，" not in text and "的 工" not in text, hazard.id
    (shared,) = [z for z in BY_KEY["agent-framework"].hazards if z.id == "state-shared-by-every-session"]
    assert "都会出现在其中，消耗它们的 token" in shared.says_zh
    (twice,) = [z for z in BY_KEY["langgraph-bigtool"].hazards if z.id == "duplicates-from-one-retrieval"]
    assert "与已有列表比较，`langgraph_bigtool/graph.py:16-18`" in twice.not_reached_zh
