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


def _release(key: str, version: str, outcomes: dict[str, str], changes: tuple[str, str]) -> tuple[Implementation, str]:
    lines = [{"type": "result", "id": sid, "outcome": o, "profiles": ["activation"], "reason": ""} for sid, o in outcomes.items()]
    lines.append({"type": "summary", "implementation": {"name": "y", "version": version, "language": "py",
                                                        "profiles": ["activation"]}})
    run = _fake_run(lines)
    return Implementation(key=key, title=f"Y {version}", shown_command="cmd:y", impl=lambda: "cmd:y", missing="",
                          release_of="Y", changes=changes), run


def test_releases_form_a_trend_with_the_verdicts_that_changed_between_them():
    old, old_run = _release("y-1", "1.0", {"a": "passed", "b": "xfailed"}, ("First.", "第一版。"))
    new, new_run = _release("y", "2.0", {"a": "xfailed", "b": "passed"}, ("Fixed b, broke a.", "修好 b。"))
    runs = iter([old_run, new_run])
    data = collect([("a", "calls"), ("b", "calls")], (old, new), runner=lambda args: next(runs))
    text = render(data)
    assert "## Y across its releases { #y-releases }" in text
    assert "| [1.0](#y-1) | 1 · 1 · 0 | 0 · 0 · 0 | 1 of 2 (50%) | First. |" in text
    assert "- 1.0 → 2.0: 1 now pass (`b`); 1 now fail (`a`)." in text
    table = text.split("## Y across")[0]
    assert "[Y 2.0](#y)" in table and "[Y 1.0](#y-1)" not in table  # only the newest release in the main table
    assert "{ #y-1 }" in text  # every release keeps its own section
    assert "修好 b。" in render_zh(data, text)


def test_a_release_not_installed_here_keeps_the_entry_of_its_last_run():
    ran, run = _release("y", "2.0", {"a": "passed"}, ("", ""))
    previous = collect([("a", "calls")], (ran,), runner=lambda args: run)
    absent = Implementation(key="y", title="Y", shown_command="cmd:y", impl=lambda: None, missing="not here")
    now = page.keep_previous(collect([("a", "calls")], (absent,), runner=lambda args: ""), previous)
    assert now["implementations"][0] == previous["implementations"][0]
    fresh = page.keep_previous(collect([("a", "calls")], (absent,), runner=lambda args: ""), {})
    assert fresh["implementations"][0]["installed"] is False


def test_the_page_names_the_eligibility_change_of_nekroagent_2_3_1():
    text = page.PAGE.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| [2.3.1](#nekroagent-2-3-1)"))
    assert "needs a brief" in row and "is_sleep_effective" in row


def test_the_hazards_entry_lists_its_declaration_and_the_shoulds_it_declines():
    (entry,) = [e for e in DATA["implementations"] if e["key"] == "reference-hazards"]
    assert entry["implementation"]["disclosure"]["state_scope"] == "instance"
    assert sorted(entry["declined"]) == ["DISC-CALL-1", "DISC-ORDER-1", "DISC-SCOPE-2"]
    text = page.PAGE.read_text(encoding="utf-8")
    assert "- [DISC-SCOPE-2](generated/specification.md#DISC-SCOPE-2) Loaded state per thread (`state_scope: instance`)" \
        in text
    assert counts(entry, "disclosure")["skipped"] > counts(DATA["implementations"][0], "disclosure")["skipped"]
