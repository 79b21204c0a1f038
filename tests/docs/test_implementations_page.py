"""docs/implementations.md: rendered from docs/data/implementations.json, which real runs of the current suite produced."""

from __future__ import annotations

import hashlib
import json

from conformance.docs_gen import implementation_list, implementation_pages
from conformance.docs_gen import implementations as page
from conformance.docs_gen.host_hazards import load
from conformance.docs_gen.i18n import chinese, language
from conformance.docs_gen.implementation_list import Implementation
from conformance.docs_gen.implementations import collect, current_suite
from conformance.docs_gen.implementations_page import counts, render
from reference_impl.spec_files import spec_dir

DATA = json.loads(page.DATA.read_text(encoding="utf-8"))
DOCS = implementation_pages.DOCS
PAGE = (DOCS / "implementations.md").read_text(encoding="utf-8")


def test_every_committed_page_is_the_rendering_of_the_committed_data():
    hosts, problems = load()
    files, found = implementation_pages.pages(DATA, hosts)
    assert problems + found == []
    stale = [path for path, text in files.items() if not (DOCS / path).is_file()
             or (DOCS / path).read_text(encoding="utf-8") != text]
    assert stale == [], f"stale: {stale}; run `python -m conformance.docs_gen.implementations --render`"


def test_the_data_was_made_from_the_current_suite():
    suite = current_suite()
    assert [(s["id"], s["category"], s["title"]) for s in DATA["suite"]] == suite, (
        "the suite changed: run `python -m conformance.docs_gen.implementations` (needs every host installed: "
        "scripts/install-*.sh)")
    ids = {sid for sid, _, _ in suite}
    for entry in DATA["implementations"]:
        assert not entry["installed"] or set(entry["results"]) == ids, entry["key"]


def test_every_known_implementation_is_on_the_page_installed_or_not():
    assert [e["key"] for e in DATA["implementations"]] == [i.key for i in implementation_list.IMPLEMENTATIONS]
    assert all(f"{{ #{e['key']} }}" in PAGE for e in DATA["implementations"])


def test_every_implementation_of_the_list_ran_when_the_data_was_made():
    # The committed data comes from a machine where every host was installed (the coordinator's runs).
    assert [e["key"] for e in DATA["implementations"] if not e["installed"]] == []


def test_the_reference_entry_matches_a_fresh_in_process_run():
    (reference,) = [i for i in implementation_list.IMPLEMENTATIONS if i.key == "reference"]
    fresh = collect(current_suite(), (reference,))["implementations"][0]
    (recorded,) = [e for e in DATA["implementations"] if e["key"] == "reference"]
    assert fresh["results"] == recorded["results"], "the reference's results changed: regenerate the data"


def _fake_run(lines: list[dict]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_an_implementation_that_is_not_installed_is_listed_as_not_run_with_the_reason():
    absent = Implementation(key="absent", title="Absent", shown_command="cmd:absent", impl=lambda: None,
                            missing="absent is not installed")
    data = collect([("s1", "calls", "S1")], (absent,), runner=lambda args: "")
    text = render(data)
    assert data["implementations"][0]["installed"] is False
    assert "Not run here: absent is not installed." in text and "| [Absent](#absent) | not run here |" in text


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
    suite = [("a", "calls", "A"), ("b", "calls", "B"), ("c", "text", "C"), ("d", "text", "D"), ("e", "host", "E")]
    data = collect(suite, (impl,), runner=lambda args: _fake_run(results))
    entry = data["implementations"][0]
    assert counts(entry, "activation") == {"passed": 1, "expected": 1, "failed": 0, "skipped": 0}
    assert counts(entry, "text") == {"passed": 0, "expected": 1, "failed": 1, "skipped": 0}
    assert counts(entry, "host") == {"passed": 0, "expected": 0, "failed": 0, "skipped": 1}
    text = render(data)
    assert "| [X](#x) | 1.2.3 | `text` |   | 0 | 1 | 1 | 0 |   |" in text
    assert "`host`" not in text.split("## X")[0], "a profile the implementation does not claim has no row"
    assert "- 2 scenarios: [C1] default 5" in text and "(divergences.md)" in text
    assert "- [`d`](generated/scenarios/text.md#d): errored" in text
    assert "Command: `pas run --impl cmd:x --expected-failures x/expected.yaml`" in text
    assert render(data) == text  # deterministic


def test_each_implementation_says_which_spec_version_it_ran():
    impl = Implementation(key="x", title="X", shown_command="cmd:x", impl=lambda: "cmd:x", missing="")
    run = _fake_run([{"type": "result", "id": "a", "outcome": "passed", "profiles": ["activation"], "reason": ""},
                     {"type": "summary", "spec_version": "1.0", "implementation": {
                         "name": "x", "version": "2", "language": "go", "profiles": ["activation"]}}])
    data = collect([("a", "calls", "A")], (impl,), runner=lambda args: run)
    assert data["implementations"][0]["spec_version"] == "1.0"
    assert "Claims: `activation` · `x` 2 (go) · Spec version run: 1.0" in render(data)
    with language(chinese(spec_dir())):
        assert "所运行的规范版本: 1.0" in render(data) or "所运行的规范版本：1.0" in render(data)
    assert all(e["spec_version"] == "1.1" for e in DATA["implementations"]), "regenerate the data"


def _disclosure_run(declared: dict, declined: dict) -> str:
    requirements = {rid: {"status": "declined", "title": title, "declined_by": by} for rid, (title, by) in declined.items()}
    return _fake_run([
        {"type": "result", "id": "a", "outcome": "passed", "profiles": ["disclosure"], "reason": ""},
        {"type": "result", "id": "b", "outcome": "skipped", "profiles": ["disclosure"], "reason": "requires thread"},
        {"type": "summary", "requirements": requirements,
         "implementation": {"name": "h", "version": "9", "language": "js", "profiles": ["disclosure"],
                            "disclosure": declared}}])


def test_a_disclosure_row_shows_the_options_that_differ_from_the_defaults_and_the_shoulds_they_decline():
    impl = Implementation(key="h", title="H", shown_command="cmd:node h.mjs in-memory", impl=lambda: "cmd:h", missing="",
                          extra_args=("--timeout", "60"), expected_failures="h/xf.yaml", host="h", configuration="in-memory")
    run = _disclosure_run({"state_scope": "instance", "unload": [], "order": "append", "expiry": "idle",
                           "expiry_seconds": 3600}, {"DISC-SCOPE-2": ("Loaded state per thread", "state_scope: instance")})
    text = render(collect([("a", "disclosure", "A"), ("b", "disclosure", "B")], (impl,), runner=lambda args: run))
    assert ("| [H](#h) | 9 | `disclosure` | `state_scope: instance, unload: [], expiry: idle, expiry_seconds: 3600` "
            "| 1 | 0 | 0 | 1 | [DISC-SCOPE-2](generated/specification.md#DISC-SCOPE-2) |") in text
    assert ('Command: `pas run --timeout 60 --impl "cmd:node h.mjs in-memory" --expected-failures h/xf.yaml`'
            in text), "an --impl with spaces is quoted as a shell needs it"


def test_the_chinese_twin_carries_the_english_pages_digest_and_the_same_anchors():
    chinese_page = (DOCS / "implementations.zh.md").read_text(encoding="utf-8")
    digest = hashlib.sha256(PAGE.encode()).hexdigest()[:12]
    assert chinese_page.startswith(f"<!-- translated-from: sha256={digest} -->\n")
    assert [line.split("{ #")[1] for line in chinese_page.splitlines() if line.startswith("#")] == [
        line.split("{ #")[1] for line in PAGE.splitlines() if line.startswith("#")]
    assert "| 实现 | 版本 | 配置档 | 声明的选项 | 通过 | 预期失败 | 失败 | 不适用 | 放弃的 SHOULD |" in chinese_page


def test_every_fixed_string_of_the_pages_has_a_chinese_translation():
    zh = chinese(spec_dir())
    with language(zh):
        render(DATA, load()[0])
    assert zh.missing == set()


def _release(key: str, version: str, outcomes: dict[str, str], changes: tuple[str, str]) -> tuple[Implementation, str]:
    lines = [{"type": "result", "id": sid, "outcome": o, "profiles": ["activation"], "reason": ""} for sid, o in outcomes.items()]
    lines.append({"type": "summary", "implementation": {"name": "y", "version": version, "language": "py",
                                                        "profiles": ["activation"]}})
    run = _fake_run(lines)
    return Implementation(key=key, title=f"Y {version}", shown_command="cmd:y", impl=lambda: "cmd:y", missing="",
                          release_of="Y", changes=changes), run


def test_releases_form_a_trend_and_every_release_has_its_rows_in_the_matrix():
    old, old_run = _release("y-1", "1.0", {"a": "passed", "b": "xfailed"}, ("First.", "第一版。"))
    new, new_run = _release("y", "2.0", {"a": "xfailed", "b": "passed"}, ("Fixed b, broke a.", "修好 b。"))
    runs = iter([old_run, new_run])
    data = collect([("a", "calls", "A"), ("b", "calls", "B")], (old, new), runner=lambda args: next(runs))
    text = render(data)
    assert "## Y across its releases { #y-releases }" in text
    assert "| [1.0](#y-1) | 1 · 1 · 0 | 0 · 0 · 0 | 1 of 2 (50%) | First. |" in text
    assert "- 1.0 → 2.0: 1 now pass (`b`); 1 now fail (`a`)." in text
    matrix = text.split("## Y across")[0]
    assert "[Y 2.0](#y) | 2.0 | `activation`" in matrix and "[Y 1.0](#y-1) | 1.0 | `activation`" in matrix
    assert "{ #y-1 }" in text  # every release keeps its own section
    zh = chinese(spec_dir())
    with language(zh):
        assert "修好 b。" in render(data)


def test_a_release_not_installed_here_keeps_the_results_of_its_last_run():
    ran, run = _release("y", "2.0", {"a": "passed"}, ("", ""))
    previous = collect([("a", "calls", "A")], (ran,), runner=lambda args: run)
    absent = Implementation(key="y", title="Y renamed", shown_command="cmd:y", impl=lambda: None, missing="not here")
    now = page.keep_previous(collect([("a", "calls", "A")], (absent,), runner=lambda args: ""), previous)
    kept = now["implementations"][0]
    assert kept["installed"] is True and kept["results"] == previous["implementations"][0]["results"]
    assert kept["title"] == "Y renamed", "what the list says of it now (title, command, host) is current"
    fresh = page.keep_previous(collect([("a", "calls", "A")], (absent,), runner=lambda args: ""), {})
    assert fresh["implementations"][0]["installed"] is False


def test_the_page_names_the_eligibility_change_of_nekroagent_2_3_1():
    row = next(line for line in PAGE.splitlines() if line.startswith("| [2.3.1](#nekroagent-2-3-1)"))
    assert "needs a brief" in row and "is_sleep_effective" in row


def test_the_hazards_entry_lists_its_declaration_and_the_shoulds_it_declines():
    (entry,) = [e for e in DATA["implementations"] if e["key"] == "reference-hazards"]
    assert entry["implementation"]["disclosure"]["state_scope"] == "instance"
    assert sorted(entry["declined"]) == ["DISC-CALL-1", "DISC-ORDER-1", "DISC-SCOPE-2"]
    assert "- [DISC-SCOPE-2](generated/specification.md#DISC-SCOPE-2) Loaded state per thread (`state_scope: instance`)" \
        in PAGE
    assert counts(entry, "disclosure")["skipped"] > counts(DATA["implementations"][0], "disclosure")["skipped"]


def test_every_disclosure_host_and_configuration_is_in_the_matrix_with_its_declared_options():
    rows = [line for line in PAGE.split("\n\n## ")[0].splitlines() if "`disclosure`" in line]
    for key in ("agent-framework", "langgraph-bigtool-default", "langgraph-bigtool-working", "mastra-in-memory",
                "mastra-context", "mastra-in-memory-no-memory", "mastra-context-no-memory", "ai-sdk"):
        (row,) = [r for r in rows if f"](#{key})" in r]
        assert "state_scope" in row or "discovery" in row, row
    (bigtool,) = [r for r in rows if "](#langgraph-bigtool-default)" in r]
    assert "langgraph-prebuilt 1.1.3" in bigtool, "the default install's versions are its version"
