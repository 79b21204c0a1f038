"""docs/implementations.md: rendered from docs/data/implementations.json, which real runs of the current suite produced."""

from __future__ import annotations

import json

from conformance.docs_gen import implementations as page
from conformance.docs_gen.implementations import Implementation, collect, counts, current_suite, render, render_zh

DATA = json.loads(page.DATA.read_text(encoding="utf-8"))


def test_the_committed_pages_are_the_rendering_of_the_committed_data():
    english = render(DATA)
    assert page.PAGE.read_text(encoding="utf-8") == english, (
        "docs/implementations.md is stale: run `python -m conformance.docs_gen.implementations --render`")
    assert page.PAGE_ZH.read_text(encoding="utf-8") == render_zh(DATA, english)


def test_the_data_was_made_from_the_current_suite():
    suite = current_suite()
    assert [(s["id"], s["category"]) for s in DATA["suite"]] == suite, (
        "the suite changed: run `python -m conformance.docs_gen.implementations` (needs node and NekroAgent's venv)")
    ids = {sid for sid, _ in suite}
    for entry in DATA["implementations"]:
        assert not entry["installed"] or set(entry["results"]) == ids, entry["key"]


def test_every_known_implementation_is_on_the_page_installed_or_not():
    assert [e["key"] for e in DATA["implementations"]] == [i.key for i in page.IMPLEMENTATIONS]
    assert all(f"{{ #{e['key']} }}" in page.PAGE.read_text(encoding="utf-8") for e in DATA["implementations"])


def test_the_reference_entry_matches_a_fresh_in_process_run():
    (reference,) = [i for i in page.IMPLEMENTATIONS if i.key == "reference"]
    fresh = collect(current_suite(), (reference,))["implementations"][0]
    (recorded,) = [e for e in DATA["implementations"] if e["key"] == "reference"]
    assert fresh["results"] == recorded["results"], "the reference's results changed: regenerate the data"


def _fake_run(lines: list[dict]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_an_implementation_that_is_not_installed_is_listed_as_not_run_with_the_reason():
    absent = Implementation(key="absent", title="Absent", shown_command="cmd:absent", impl=lambda: None,
                            missing="absent is not installed")
    data = collect([("s1", "calls")], (absent,), runner=lambda args: "")
    text = render(data)
    assert data["implementations"][0]["installed"] is False
    assert "Not run here: absent is not installed." in text and "[Absent](#absent) |" in text


def test_counts_per_profile_and_expected_failures_grouped_by_cause_with_a_link_to_the_divergences():
    results = [
        {"type": "result", "id": "a", "outcome": "passed", "profiles": ["activation"], "reason": ""},
        {"type": "result", "id": "b", "outcome": "xfailed", "profiles": ["activation"], "reason": "[C1] default 5"},
        {"type": "result", "id": "c", "outcome": "xfailed", "profiles": ["activation", "text"], "reason": "[C1] default 5"},
        {"type": "result", "id": "d", "outcome": "errored", "profiles": ["activation", "text"], "reason": ""},
        {"type": "result", "id": "e", "outcome": "skipped", "profiles": ["host"], "reason": "profile not claimed"},
        {"type": "summary", "implementation": {"name": "x", "version": "1.2.3", "language": "go",
                                               "profiles": ["activation", "text"]}},
    ]
    impl = Implementation(key="x", title="X", shown_command="cmd:x", impl=lambda: "cmd:x", missing="",
                          expected_failures="x/expected.yaml")
    suite = [("a", "calls"), ("b", "calls"), ("c", "text"), ("d", "text"), ("e", "host")]
    data = collect(suite, (impl,), runner=lambda args: _fake_run(results))
    entry = data["implementations"][0]
    assert counts(entry, "activation") == {"passed": 1, "expected": 1, "failed": 0, "skipped": 0}
    assert counts(entry, "text") == {"passed": 0, "expected": 1, "failed": 1, "skipped": 0}
    assert counts(entry, "host") == {"passed": 0, "expected": 0, "failed": 0, "skipped": 1}
    text = render(data)
    assert "| [X](#x) | 1.2.3 | `text` | 0 | 1 | 1 | 0 |" in text
    assert "| [X](#x) | 1.2.3 | `host` |   |   |   | 1 |" in text
    assert "- 2 scenarios: [C1] default 5" in text and "(divergences.md)" in text
    assert "- [`d`](generated/scenarios/text.md#d): errored" in text
    assert render(data) == text  # deterministic


def test_the_chinese_twin_carries_the_english_pages_digest_and_the_same_anchors():
    english = render(DATA)
    chinese = render_zh(DATA, english)
    import hashlib

    assert chinese.startswith(f"<!-- translated-from: sha256={hashlib.sha256(english.encode()).hexdigest()[:12]} -->\n")
    assert [line.split("{ #")[1] for line in chinese.splitlines() if line.startswith("## ")] == [
        line.split("{ #")[1] for line in english.splitlines() if line.startswith("## ")]
