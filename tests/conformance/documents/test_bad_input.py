"""Bad input to the loaders: every error is a Problem naming the file, the field and line:col.

Manifests and host configs go through conformance.documents.loader (parse with locations), then
conformance.documents.schemas (JSON Schema), then the model's from_json; scenarios go through
conformance.suite.scenario.load_scenario. None of these may raise for bad input.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from conformance.documents.loader import Limits, load_documents, load_mapping, parse_documents
from conformance.documents.schemas import check_against, schema
from conformance.suite.scenario import FIXTURES_FILE, load_scenario, load_suite
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Problem

MANIFEST = """\
name: Weather
module_name: weather
version: 1.0.0
description: Forecasts.
allow_sleep: true
sleep_brief: Forecasts for any city.
methods:
  - {name: get_weather, kind: tool, description: Now.}
  - {name: get_forecast, kind: tool, description: Later.}
"""


def _write(tmp_path: Path, text: str, name: str = "doc.yaml") -> Path:
    path = tmp_path / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def _load(path: Path, schema_name: str, parse) -> tuple[object | None, list[Problem]]:
    """The loading pipeline a CLI command runs: YAML with locations, schema, then the model."""
    doc, problems = load_mapping(path)
    if doc is None:
        return None, problems
    problems = check_against(schema_name, doc)
    return (None, problems) if problems else (parse(doc.value), [])


def _only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


def _position(text: str, token: str) -> tuple[int, int]:
    """1-based line and column of the only occurrence of ``token`` in ``text``."""
    assert text.count(token) == 1, token
    before = text[: text.index(token)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def _located(problem: Problem, path: Path, line: int, column: int, pointer: str) -> None:
    assert (problem.source.path, problem.source.line, problem.source.column) == (str(path), line, column)
    assert problem.pointer == pointer
    assert str(problem).startswith(f"{path}:{line}:{column}: error ")


# ------------------------------------------------------------------ manifests and host configs

@pytest.mark.parametrize(("edit", "at", "pointer", "words"), [
    pytest.param(("allow_sleep: true", "alow_sleep: true"), "alow_sleep", "/alow_sleep", "unknown field(s) 'alow_sleep'",
                 id="unknown-field"),
    pytest.param(("allow_sleep: true", "allow_sleep: yes"), "yes", "/allow_sleep", "'yes' is not of type",
                 id="yaml11-bool-is-a-string"),
    pytest.param(("version: 1.0.0", "version: 1.0"), "1.0", "/version", "is not of type 'string'", id="version-number"),
    pytest.param(("version: 1.0.0", "version: ''"), "''", "/version", "should be non-empty", id="version-blank"),
    pytest.param(("module_name: weather", "module_name: 2weather"), "2weather", "/module_name", "must be an identifier",
                 id="module-name-pattern"),
    pytest.param(("kind: tool, description: Later", "kind: tol, description: Later"), "tol", "/methods/1/kind",
                 "'tol' is not allowed here; use one of 'tool', 'agent'", id="nested-enum"),
    pytest.param(("{name: get_weather, kind: tool, description: Now.}", "{name: get_weather, kind: tool}"),
                 "{name: get_weather", "/methods/0", "'description' is required", id="nested-required"),
    pytest.param(("description: Now.}", "description: Now., colour: red}"), "colour", "/methods/0/colour",
                 "unknown field(s) 'colour'", id="nested-unknown-field"),
    pytest.param(("sleep_brief: Forecasts for any city.", "sleep_brief: [a, b]"), "[a, b]", "/sleep_brief",
                 "is not of type 'string'", id="wrong-type"),
    pytest.param(("description: Forecasts.\n", ""), "name: Weather", "", "'description' is required",
                 id="missing-required"),
])
def test_a_bad_manifest_field_is_one_problem_at_its_line_and_column(tmp_path, edit, at, pointer, words):
    text = MANIFEST.replace(*edit)
    path = _write(tmp_path, text)
    manifest, problems = _load(path, "plugin-manifest", Manifest.from_json)
    problem = _only(problems)
    assert manifest is None and problem.code == "schema"
    _located(problem, path, *_position(text, at), pointer)
    assert words in problem.message


def test_every_bad_field_is_reported_not_only_the_first(tmp_path):
    text = MANIFEST.replace("allow_sleep: true", "allow_sleep: maybe\nextra: 1").replace("version: 1.0.0", "version: ''")
    problems = _load(_write(tmp_path, text), "plugin-manifest", Manifest.from_json)[1]
    assert [p.pointer for p in problems] == ["/version", "/allow_sleep", "/extra"]


def test_a_good_manifest_goes_through_every_stage(tmp_path):
    manifest, problems = _load(_write(tmp_path, MANIFEST), "plugin-manifest", Manifest.from_json)
    assert problems == [] and manifest.module_name == "weather" and len(manifest.methods) == 2


@pytest.mark.parametrize(("text", "line", "column", "pointer", "words"), [
    pytest.param("strategies: {weather: forbid-sleep}\n", 1, 23, "/strategies/weather", "use one of 'auto'",
                 id="unknown-strategy"),
    pytest.param("enabled: [weather]\nenabeld: [note]\n", 2, 1, "/enabeld", "unknown field(s) 'enabeld'",
                 id="unknown-field"),
    pytest.param("scheduler_enabled: off\n", 1, 20, "/scheduler_enabled", "'off' is not of type 'boolean'",
                 id="yaml11-off"),
    pytest.param("enabled: weather\n", 1, 10, "/enabled", "is not of type 'array'", id="wrong-type"),
    pytest.param("disabled: [weather, weather]\n", 1, 11, "/disabled", "non-unique", id="duplicate-entry"),
])
def test_a_bad_host_config_field_is_one_problem_at_its_line_and_column(tmp_path, text, line, column, pointer, words):
    """Covers: ACT-ADMIN-1 (an unknown strategy in a host config is a validation error)."""
    path = _write(tmp_path, text, "host.yaml")
    problem = _only(_load(path, "host-config", HostConfig.from_json)[1])
    _located(problem, path, line, column, pointer)
    assert words in problem.message


def _schema_examples(name: str) -> list[dict]:
    return list(schema(name).get("examples", []))


def test_every_document_the_schemas_accept_is_accepted_by_the_model():
    """After the schema, from_json never fails: the shipped examples and fixtures load."""
    fixtures, problems = load_mapping(FIXTURES_FILE)
    assert problems == []
    manifests = _schema_examples("plugin-manifest") + list(fixtures.value.values())
    for document in manifests:
        assert Manifest.from_json(document).to_json()
    for document in _schema_examples("host-config"):
        assert HostConfig.from_json(document)


# ------------------------------------------------------------------ the YAML layer

@pytest.mark.parametrize(("content", "code", "line", "column"), [
    pytest.param(b"", "empty-document", 1, 1, id="empty"),
    pytest.param(b" \n\n", "empty-document", 1, 1, id="blank"),
    pytest.param(b"\x00\x01", "not-text", 1, 1, id="binary"),
    pytest.param(b"name: ok\nbrief: caf\xe9\n", "invalid-utf8", 2, 11, id="latin-1"),
    pytest.param(b"name: x\nmodule_name: y\n  bad: 1\n", "yaml-syntax", 3, 6, id="syntax"),
    pytest.param(b"a:\n\t- 1\n", "yaml-syntax", 2, 1, id="tab-indent"),
    pytest.param(b"name: a\nname: b\n", "duplicate-key", 2, 1, id="duplicate-key"),
    pytest.param(b'{"name": "a", "name": "b"}', "duplicate-key", 1, 15, id="duplicate-key-json"),
    pytest.param(b"name: !!python/object:os.system x\n", "yaml-tag", 1, 7, id="python-tag"),
    pytest.param(b"base: &b {a: 1}\nother:\n  <<: *b\n", "yaml-merge-key", 3, 3, id="merge-key"),
    pytest.param(b"a: 1\n---\nb: 2\n", "multiple-documents", 2, 1, id="two-documents"),
    pytest.param(b"- a\n- b\n", "not-a-mapping", 1, 1, id="list-root"),
    pytest.param(b"a: " + b"[" * 70 + b"]" * 70 + b"\n", "yaml-too-deep", 1, 68, id="too-deep"),
])
def test_a_broken_file_is_one_problem_with_file_line_and_column(tmp_path, content, code, line, column):
    path = tmp_path / "broken.yaml"
    path.write_bytes(content)
    doc, problems = load_mapping(path)
    problem = _only(problems)
    assert doc is None and problem.code == code
    assert (problem.source.path, problem.source.line, problem.source.column) == (str(path), line, column)


def test_a_duplicate_key_names_both_places(tmp_path):
    problem = _only(load_mapping(_write(tmp_path, "a: 1\nb:\n  c: 2\n  c: 3\n"))[1])
    assert problem.pointer == "/b/c" and "first at line 3, column 3" in problem.message


def test_an_alias_bomb_is_stopped_by_the_node_limit(tmp_path):
    lines = ["a: &a [1,1,1,1,1,1,1,1,1,1]"]
    for previous, name in zip("abcde", "bcdef"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 10) + "]")
    doc, problems = load_mapping(_write(tmp_path, "\n".join(lines) + "\n"))
    assert doc is None and _only(problems).code == "yaml-too-many-nodes"


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = _write(tmp_path, "a: " + "x" * 200 + "\n")
    assert _only(load_documents(path, Limits(max_bytes=100))[1]).code == "file-too-large"


@pytest.mark.parametrize("name", ["missing.yaml", "a-folder"])
def test_a_missing_or_unreadable_file_is_a_problem_naming_it(tmp_path, name):
    (tmp_path / "a-folder").mkdir()
    path = tmp_path / name
    doc, problems = load_mapping(path)
    problem = _only(problems)
    assert doc is None and problem.code == "unreadable"
    assert str(problem).startswith(f"{path}: error unreadable cannot read the file")


def test_a_file_with_only_comments_is_an_empty_document_problem(tmp_path):
    """Regression: load_mapping used to read documents[1] of an empty list (IndexError)."""
    doc, problems = load_mapping(_write(tmp_path, "# nothing here yet\n"))
    assert doc is None and _only(problems).code in ("empty-document", "not-a-mapping")


@pytest.mark.parametrize("key", ["~", "null"])
def test_a_null_mapping_key_is_a_problem_at_its_line_not_the_python_word_none(tmp_path, key):
    """Regression: a plain null key used to become str(None) == 'None', a valid module name."""
    doc, problems = load_mapping(_write(tmp_path, f"strategies:\n  {key}: forbid_sleep\n"))
    problem = _only(problems)
    assert doc is None and problem.code == "yaml-null-key"
    assert (problem.source.line, problem.source.column) == (2, 3)


def test_a_control_character_is_reported_at_its_line_and_column(tmp_path):
    """Regression: PyYAML's ReaderError carries no mark; it used to be reported without line:col."""
    problem = _only(parse_documents("a: 1\n\x07b: 2\n", "ctrl.yaml")[1])
    assert (problem.source.line, problem.source.column) == (2, 1)
    assert "\n" not in problem.message


# ------------------------------------------------------------------ scenarios

SCENARIO = """\
id: probe
title: Probe
covers: [ACT-ELIG-1]
plugins:
  - fixture: weather
steps:
  - run: null
  - activate: {module_name: weather, rounds: 2}
"""


def _scenario_problem(tmp_path: Path, text: str) -> tuple[Path, Problem]:
    path = _write(tmp_path, text, "scenario.yaml")
    scenario, problems = load_scenario(path)
    assert scenario is None
    return path, problems[0]


def test_a_good_scenario_loads(tmp_path):
    scenario, problems = load_scenario(_write(tmp_path, SCENARIO, "scenario.yaml"))
    assert problems == [] and scenario.id == "probe" and scenario.host.enabled == ("weather",)
    assert [s.action for s in scenario.steps] == ["run", "activate"]


@pytest.mark.parametrize(("edit", "at", "pointer", "words"), [
    pytest.param(("title: Probe", "title: Probe\ncolour: red"), "colour", "/colour", "unknown field(s) 'colour'",
                 id="unknown-top-level-field"),
    pytest.param(("rounds: 2}", "round: 2}"), "round:", "/steps/1/activate/round", "unknown field(s) 'round'",
                 id="unknown-call-field"),
    pytest.param(("  - run: null", "  - run: null\n    expect: {weather: {state: napping}}"), "napping",
                 "/steps/0/expect/weather/state", "napping", id="bad-expected-state"),
    pytest.param(("covers: [ACT-ELIG-1]", "covers: ACT-ELIG-1"), "ACT-ELIG-1", "/covers", "is not of type 'array'",
                 id="wrong-type"),
    pytest.param(("id: probe", "id: Probe Scenario"), "Probe Scenario", "/id", "must be kebab-case", id="id-pattern"),
    pytest.param(("steps:", "host: {strategies: {weather: sleepy}}\nsteps:"), "sleepy", "/host/strategies/weather",
                 "use one of 'auto'", id="unknown-strategy"),
    pytest.param(("  - fixture: weather", "  - fixture: weather\n    wth: {allow_sleep: false}"), "wth",
                 "/plugins/0/wth", "unknown field(s) 'wth'", id="fixture-reference-unknown-field"),
    pytest.param(("- run: null", "- run: null\n    expct: {weather: absent}"), "expct", "/steps/0/expct",
                 "unknown field(s) 'expct'", id="unknown-step-field"),
    pytest.param(("  - fixture: weather", "  - {name: W, module_name: w, version: 1.0.0, description: d, alow: 1}"),
                 "alow", "/plugins/0/alow", "unknown field(s) 'alow'", id="inline-manifest-unknown-field"),
    pytest.param(("  - fixture: weather", "  - {name: W, module_name: w, version: 1.0.0, description: d, builtin: 1}"),
                 "1}", "/plugins/0/builtin", "is not of type 'boolean'", id="inline-manifest-wrong-type"),
])
def test_a_bad_scenario_field_is_a_problem_at_its_line_and_column(tmp_path, edit, at, pointer, words):
    text = SCENARIO.replace(*edit)
    path, problem = _scenario_problem(tmp_path, text)
    _located(problem, path, *_position(text, at), pointer)
    assert words in problem.message


def test_an_unknown_fixture_is_a_problem_naming_it(tmp_path):
    path, problem = _scenario_problem(tmp_path, SCENARIO.replace("fixture: weather", "fixture: wether"))
    assert problem.code == "unknown-fixture" and problem.pointer == "/plugins/0/fixture"
    assert "'wether'" in problem.message and str(problem).startswith(f"{path}:5:5: ")


def test_two_plugins_with_one_module_name_are_a_problem(tmp_path):
    path, problem = _scenario_problem(tmp_path, SCENARIO.replace("  - fixture: weather",
                                                                 "  - fixture: weather\n  - fixture: weather"))
    assert problem.code == "duplicate-module-name" and "'weather'" in problem.message
    assert str(problem).startswith(f"{path}:5:")


@pytest.mark.parametrize("name", ["missing.yaml", "folder"])
def test_a_missing_scenario_file_is_a_problem_naming_it(tmp_path, name):
    (tmp_path / "folder").mkdir()
    scenario, problems = load_scenario(tmp_path / name)
    assert scenario is None and _only(problems).code == "unreadable"
    assert str(tmp_path / name) in str(problems[0])


def test_a_missing_fixtures_file_is_a_problem_naming_that_file(tmp_path):
    path = _write(tmp_path, SCENARIO, "scenario.yaml")
    scenario, problems = load_scenario(path, tmp_path / "no-fixtures.yaml")
    assert scenario is None and _only(problems).code == "unreadable"
    assert str(tmp_path / "no-fixtures.yaml") in str(problems[0])


def test_a_bad_fixture_is_a_problem_in_the_fixtures_file(tmp_path):
    fixtures = _write(tmp_path, "weather:\n  name: W\n  module_name: weather\n  version: 1.0.0\n  description: d\n"
                                "  allow_sleep: sometimes\n", "fixtures.yaml")
    scenario, problems = load_scenario(_write(tmp_path, SCENARIO, "scenario.yaml"), fixtures)
    assert scenario is None
    _located(_only(problems), fixtures, 6, 16, "/weather/allow_sleep")


def test_load_suite_reports_a_reused_id_and_a_missing_path(tmp_path):
    first = _write(tmp_path, SCENARIO, "one.yaml")
    _write(tmp_path, SCENARIO, "two.yaml")
    scenarios, problems = load_suite([tmp_path, tmp_path / "gone.yaml"])
    assert [s.path for s in scenarios] == [str(first)]
    assert sorted(p.code for p in problems) == ["duplicate-scenario-id", "unreadable"]


WITH_CASES = [
    pytest.param("{allow_sleep: 'yes'}", "/plugins/0/with/allow_sleep", id="wrong-type"),
    pytest.param("{alow_sleep: false}", "/plugins/0/with/alow_sleep", id="unknown-field"),
    pytest.param("{module_name: 'bad name!'}", "/plugins/0/with/module_name", id="bad-module-name"),
]


@pytest.mark.parametrize(("override", "pointer"), WITH_CASES)
def test_a_bad_fixture_override_is_a_problem_at_its_line(tmp_path, override, pointer):
    """Regression: `with:` used to skip the manifest schema (a traceback, or a typo silently accepted)."""
    text = SCENARIO.replace("  - fixture: weather", f"  - fixture: weather\n    with: {override}")
    path = _write(tmp_path, text, "scenario.yaml")
    scenario, problems = load_scenario(path)
    assert scenario is None
    problem = _only(problems)
    assert problem.pointer == pointer and problem.source.line == 6
