"""Rules across the validated set: duplicate module names, dependencies and cycles, host strategies."""

from __future__ import annotations

from support.validate_helpers import BRIEF, found, manifest, write

from conformance.cli.exit_status import validation_exit_code
from conformance.validate.check import Settings, check_paths

HOST = "kind: host-config\nenabled: [weather]\nstrategies:\n"


def _deps(*names: str) -> str:
    return f"dependencies: [{', '.join(names)}]\n"


def test_duplicate_module_name_is_reported_at_the_second_file_naming_the_first(tmp_path):
    first = write(tmp_path, "a.yaml", manifest("weather"))
    write(tmp_path, "b.yaml", manifest("weather"))
    outcome = check_paths([str(tmp_path)])
    (problem,) = outcome.problems
    assert (problem.code, problem.source.path.endswith("b.yaml"), problem.source.line) == ("duplicate-module-name", True, 2)
    assert f"{first}:2:14" in problem.message


def test_dependency_cycle_names_the_whole_cycle_once(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", _deps("beta")))
    write(tmp_path, "b.yaml", manifest("beta", _deps("gamma")))
    write(tmp_path, "c.yaml", manifest("gamma", _deps("alpha")))
    (problem,) = check_paths([str(tmp_path)]).problems
    assert problem.code == "dependency-cycle"
    assert "alpha -> beta -> gamma -> alpha" in problem.message
    assert (problem.source.path.endswith("a.yaml"), problem.pointer) == (True, "/dependencies/0")


def test_a_plugin_depending_on_itself_is_a_cycle(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", _deps("alpha")))
    write(tmp_path, "b.yaml", manifest("beta"))
    problems = check_paths([str(tmp_path)]).problems
    assert [(p.code, "alpha -> alpha" in p.message) for p in problems] == [("dependency-cycle", True)]


def test_an_acyclic_dependency_chain_is_clean(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", _deps("beta", "gamma")))
    write(tmp_path, "b.yaml", manifest("beta", _deps("gamma")))
    write(tmp_path, "c.yaml", manifest("gamma"))
    assert found([str(tmp_path)]) == []


def test_missing_dependency_is_a_warning_when_the_set_holds_several_manifests(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", _deps("beta", "memory_tools")))
    write(tmp_path, "b.yaml", manifest("beta"))
    outcome = check_paths([str(tmp_path)])
    assert [(p.code, p.severity.value, p.source.line) for p in outcome.problems] == [("missing-dependency", "warning", 5)]
    assert validation_exit_code(outcome) == 0 and validation_exit_code(outcome, strict=True) == 1


def test_a_single_manifest_says_nothing_about_missing_dependencies(tmp_path):
    assert found([write(tmp_path, "a.yaml", manifest("alpha", _deps("memory_tools")))]) == []


def test_known_modules_count_as_present_and_enable_the_check_for_one_manifest(tmp_path):
    path = write(tmp_path, "a.yaml", manifest("alpha", _deps("memory_tools", "nowhere")))
    assert found([path], known_modules=frozenset({"memory_tools"})) == [("missing-dependency", "a.yaml", 5)]


def test_strategy_for_a_module_outside_the_set_is_reported_only_when_manifests_are_in_the_set(tmp_path):
    host = write(tmp_path, "host.yaml", HOST + "  wether: allow_sleep\n")
    assert found([host]) == []
    write(tmp_path, "m.yaml", manifest("weather", f"sleep_brief: {BRIEF}\nallow_sleep: true\n"))
    assert found([str(tmp_path)]) == [("unknown-strategy-module", "host.yaml", 4)]


def test_strategy_on_a_protected_plugin_is_reported_unless_it_is_auto(tmp_path):
    write(tmp_path, "m.yaml", manifest("weather", "allow_sleep: false\n"))
    host = write(tmp_path, "host.yaml", HOST + "  weather: forbid_sleep\n")
    assert found([str(tmp_path)]) == [("strategy-on-protected", "host.yaml", 4)]
    write(tmp_path, "host.yaml", HOST + "  weather: auto\n")
    assert found([str(tmp_path)]) == []
    del host


def test_allow_sleep_strategy_on_a_plugin_without_a_brief_is_reported(tmp_path):
    write(tmp_path, "m.yaml", manifest("weather"))
    write(tmp_path, "host.yaml", HOST + "  weather: allow_sleep\n")
    assert found([str(tmp_path)]) == [("strategy-without-brief", "host.yaml", 4)]
    write(tmp_path, "m.yaml", manifest("weather", f"sleep_brief: {BRIEF}\nallow_sleep: true\n"))
    assert found([str(tmp_path)]) == []


def test_no_cross_file_turns_every_set_rule_off(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", _deps("beta", "nowhere")))
    write(tmp_path, "b.yaml", manifest("beta", _deps("alpha")))
    write(tmp_path, "c.yaml", manifest("beta"))
    write(tmp_path, "host.yaml", HOST + "  zeta: auto\n")
    assert len(found([str(tmp_path)])) == 4
    assert found([str(tmp_path)], cross_file=False) == []


def test_cross_file_problems_are_suppressed_by_a_comment_in_the_file_they_land_in(tmp_path):
    write(tmp_path, "a.yaml", manifest("alpha", "dependencies: [nowhere]  # pas: disable=missing-dependency\n"))
    write(tmp_path, "b.yaml", manifest("beta"))
    assert found([str(tmp_path)]) == []


def test_manifests_and_host_configs_in_one_multi_document_file_form_one_set(tmp_path):
    text = manifest("weather", "allow_sleep: false\n") + "---\n" + HOST + "  weather: allow_sleep\n"
    assert found([write(tmp_path, "all.yaml", text)]) == [("strategy-on-protected", "all.yaml", 10)]


def test_the_parallel_path_finds_the_same_problems_in_the_same_order(tmp_path):
    for i in range(12):
        write(tmp_path, f"m{i:02}.yaml", manifest(f"p{i}", _deps(f"p{(i + 1) % 12}") + "x-beta: no\n"))
    serial = check_paths([str(tmp_path)], Settings(jobs=1))
    parallel = check_paths([str(tmp_path)], Settings(jobs=2))
    assert serial.problems == parallel.problems
    assert len(serial.problems) == 13
