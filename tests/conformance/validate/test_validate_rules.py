"""Each document rule: fires on a bad document, not on a good one, and every way of suppressing it works."""

from __future__ import annotations

import pytest
from support.validate_helpers import BRIEF, found, manifest, write

from conformance.validate.check import check_paths

# code, lines that trigger it (appended to a valid manifest), lines that do not, reported line
CASES = [
    ("schema", "colour: blue\n", "x-colour: blue\n", 5),
    ("allow-sleep-without-brief", "allow_sleep: true\nsleep_brief: '   '\n", f"allow_sleep: true\nsleep_brief: {BRIEF}\n", 6),
    ("brief-too-short", "allow_sleep: true\nsleep_brief: Weather.\n", f"allow_sleep: true\nsleep_brief: {BRIEF}\n", 6),
    ("brief-too-long", f"allow_sleep: true\nsleep_brief: {'Weather. ' * 60}\n", f"allow_sleep: true\nsleep_brief: {BRIEF}\n", 6),
    ("brief-repeats-description", "allow_sleep: true\nsleep_brief: looks up the WEATHER forecast, for a city\n",
     f"allow_sleep: true\nsleep_brief: {BRIEF}\n", 6),
    ("brief-without-allow-sleep", f"sleep_brief: {BRIEF}\n", f"allow_sleep: true\nsleep_brief: {BRIEF}\n", 5),
    ("method-without-description", "methods:\n  - {name: get, kind: tool, description: ' '}\n",
     "methods:\n  - {name: get, kind: tool, description: Gets it.}\n", 6),
    ("protected-brief", f"allow_sleep: false\nsleep_brief: {BRIEF}\n", "allow_sleep: false\n", 6),
    ("duplicate-method-name",
     "methods:\n  - {name: get, kind: tool, description: a}\n  - {name: get, kind: agent, description: b}\n",
     "methods:\n  - {name: get, kind: tool, description: a}\n  - {name: put, kind: agent, description: b}\n", 7),
    ("ambiguous-yaml-value", "x-beta: on\n", "x-beta: 'on'\n", 5),
]


def _on_line(text: str, line: int, comment: str) -> str:
    lines = text.splitlines()
    lines[line - 1] += f"  # {comment}"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("code", "bad", "good", "line"), CASES, ids=[c[0] for c in CASES])
def test_rule_reports_the_bad_document_at_its_line(tmp_path, code, bad, good, line):
    assert found([write(tmp_path, "m.yaml", manifest(extra=bad))]) == [(code, "m.yaml", line)]


@pytest.mark.parametrize(("code", "bad", "good", "line"), CASES, ids=[c[0] for c in CASES])
def test_rule_is_silent_on_the_good_document(tmp_path, code, bad, good, line):
    assert found([write(tmp_path, "m.yaml", manifest(extra=good))]) == []


@pytest.mark.parametrize(("code", "bad", "good", "line"), CASES, ids=[c[0] for c in CASES])
def test_inline_comment_on_the_reported_line_suppresses_the_rule(tmp_path, code, bad, good, line):
    text = _on_line(manifest(extra=bad), line, f"pas: disable={code}")
    assert found([write(tmp_path, "m.yaml", text)]) == []


@pytest.mark.parametrize(("code", "bad", "good", "line"), CASES, ids=[c[0] for c in CASES])
def test_disable_file_comment_anywhere_suppresses_the_rule(tmp_path, code, bad, good, line):
    text = f"# pas: disable-file=brief-too-long, {code}\n" + manifest(extra=bad)
    assert found([write(tmp_path, "m.yaml", text)]) == []


@pytest.mark.parametrize(("code", "bad", "good", "line"), CASES, ids=[c[0] for c in CASES])
def test_config_disable_suppresses_the_rule(tmp_path, code, bad, good, line):
    assert found([write(tmp_path, "m.yaml", manifest(extra=bad))], disable=(code,)) == []


def test_a_comment_for_another_code_or_another_line_does_not_suppress(tmp_path):
    text = manifest(extra="allow_sleep: true  # pas: disable=brief-too-short\nsleep_brief: Weather.  # pas: disable=schema\n")
    assert found([write(tmp_path, "m.yaml", text)]) == [("brief-too-short", "m.yaml", 6)]


def test_brief_bounds_are_configurable(tmp_path):
    path = write(tmp_path, "m.yaml", manifest(extra=f"allow_sleep: true\nsleep_brief: {BRIEF}\n"))
    assert found([path], brief_min_length=100) == [("brief-too-short", "m.yaml", 6)]
    assert found([path], brief_max_length=30) == [("brief-too-long", "m.yaml", 6)]


def test_wide_cjk_characters_count_two_columns_towards_the_brief_length(tmp_path):
    nine, ten = "管理用户笔记和备忘", "管理用户笔记和备忘录"
    opt_in = "allow_sleep: true\n"
    assert found([write(tmp_path, "a.yaml", manifest(extra=f"{opt_in}sleep_brief: {nine}\n"))]) == [
        ("brief-too-short", "a.yaml", 6)]
    assert found([write(tmp_path, "b.yaml", manifest(extra=f"{opt_in}sleep_brief: {ten}\n"))]) == []


def test_allow_sleep_without_any_brief_key_points_at_allow_sleep(tmp_path):
    assert found([write(tmp_path, "m.yaml", manifest(extra="allow_sleep: true\n"))]) == [
        ("allow-sleep-without-brief", "m.yaml", 5)]


def test_unquoted_version_that_loses_digits_is_a_schema_error_and_an_ambiguity(tmp_path):
    text = manifest().replace("version: 1.0.0", "version: 1.10")
    assert found([write(tmp_path, "m.yaml", text)]) == [("schema", "m.yaml", 3), ("ambiguous-yaml-value", "m.yaml", 3)]


def test_schema_problems_come_before_rule_problems_of_the_same_document(tmp_path):
    text = manifest(extra="allow_sleep: true\nsleep_brief: Hi.\nzzz: 1\n")
    assert [code for code, _, _ in found([write(tmp_path, "m.yaml", text)])] == ["schema", "brief-too-short"]


def test_rules_tolerate_wrongly_typed_fields_and_leave_them_to_the_schema(tmp_path):
    text = manifest(extra="allow_sleep: true\nsleep_brief: [a, b]\nmethods: {get: 1}\ndependencies: 7\n")
    codes = {code for code, _, _ in found([write(tmp_path, "m.yaml", text)])}
    assert codes == {"schema", "allow-sleep-without-brief"}


def test_a_key_without_value_is_reported_at_the_key_not_at_the_brace_that_ends_its_mapping(tmp_path):
    # The value of a key cut off at a comma is empty; YAML places that empty value at the closing brace,
    # which may be lines further on. The fix (quote the text) is made at the key.
    extra = ("methods:\n  - name: get\n    kind: tool\n    description: Gets it.\n    parameters:\n"
             "      type: object\n      properties:\n"
             "        city: {type: string, description: City name, optionally with its country.\n"
             "        }\n")
    path = write(tmp_path, "m.yaml", manifest(extra=extra))
    (problem,) = check_paths([path]).problems
    assert (problem.code, problem.source.line, problem.source.column) == ("schema-key-without-value", 12, 54)
    assert problem.pointer == "/methods/0/parameters/properties/city/optionally with its country."


def test_a_key_without_value_is_found_in_a_mapping_inside_a_list_and_a_null_under_default_is_not_one(tmp_path):
    # schema-key-without-value first looks for any null without building paths, then for the keys: both
    # must go through lists ("items", "anyOf") and keep the keys whose null is meant ("default: null").
    extra = ("methods:\n  - name: get\n    kind: tool\n    description: Gets it.\n    parameters:\n"
             "      type: object\n      properties:\n        city:\n          anyOf:\n"
             "            - {type: string, default: null}\n            - {type: array, items: [{type: integer, maximum}]}\n")
    path = write(tmp_path, "m.yaml", manifest(extra=extra))
    (problem,) = check_paths([path]).problems
    assert (problem.code, problem.pointer) == (
        "schema-key-without-value", "/methods/0/parameters/properties/city/anyOf/1/items/0/maximum")


@pytest.mark.parametrize(("brief", "description", "repeats"), [
    ("Looks up the WEATHER_forecast, for a city!", "looks up the weather forecast for a city", True),
    ("Looks up the weather forecast, for a city", "Looks up the weather forecast for a town", False),
    ("Straße und Wetter: für jede Stadt.", "STRASSE und wetter für jede stadt", True),  # casefold: ß is ss
    ("Weather for 1 city, ask it (any) time", "Weather for 1 city; ask it any time.", True),
    ("管理用户笔记，支持创建和删除笔记条目。", "管理用户笔记 支持创建和删除笔记条目", True),
    ("Rolls dice and draws cards for games.", "Rolls dice and draws cards for games 🎲", True),
])
def test_a_brief_repeats_the_description_whatever_its_letters_case_and_punctuation(tmp_path, brief, description, repeats):
    # ASCII text is compared by a translation table, other text by the expression: one rule either way.
    text = manifest(extra=f"allow_sleep: true\nsleep_brief: '{brief}'\n").replace(
        "\ndescription: ", f"\ndescription: '{description}'\nx-old-description: ", 1)
    path = write(tmp_path, "m.yaml", text)
    assert ("brief-repeats-description" in [p.code for p in check_paths([path]).problems]) is repeats
