"""How a blamed failure reads: each broken rule with its level and text, texts uncut, oneOf naming the field."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from conformance.documents.schemas import _message, field_name
from conformance.report.text import breaks_lines, mismatch_lines
from conformance.suite.expectations import Mismatch


def test_each_broken_rule_is_shown_with_its_level_and_text():
    lines = breaks_lines(["ACT-COUNT-3", "NOT-A-RULE-1"])
    assert lines[0].startswith("breaks   ACT-COUNT-3 (MUST) An implementation MUST leave the run in which an activation")
    assert lines[1] == "breaks   NOT-A-RULE-1"
    assert breaks_lines([]) == ["breaks   (no requirement named)"]


def test_a_long_text_that_lacks_a_piece_is_shown_whole_not_cut_at_a_fixed_length():
    text = "\n".join(f"line {i} " + "x" * 80 for i in range(20))
    lines = mismatch_lines(Mismatch(field="text", pointer="/text", check="contains", expected="<hint>", actual=text))
    assert lines[0] == '/text should contain "<hint>"'
    assert lines[-1] == "  | " + text.splitlines()[-1] and len(lines) == 22


def test_a_long_differing_text_is_a_whole_unified_diff():
    expected = "\n".join(f"line {i}" for i in range(100))
    actual = expected.replace("line 99", "line 99!").replace("line 0", "line 0!")
    lines = mismatch_lines(Mismatch(field="text", pointer="/text", expected=expected, actual=actual))
    assert "  +line 0!" in lines and "  +line 99!" in lines


def test_a_one_of_failure_names_the_field_its_forms_and_the_closest_miss():
    schema = {"properties": {"steps": {"items": {"properties": {"rounds": {
        "oneOf": [{"type": "integer", "title": "a whole number"}, {"type": "null"}]}}}}}}
    errors = list(Draft202012Validator(schema).iter_errors({"steps": [{"rounds": "x"}]}))
    assert _message(errors[0]) == ("steps[0].rounds matches none of its allowed forms (a whole number or null); "
                                   "closest: steps[0].rounds: 'x' is not of type 'integer'")
    assert field_name([]) == "the document"


def test_a_value_valid_under_two_one_of_branches_says_so():
    schema = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    errors = list(Draft202012Validator(schema).iter_errors(3))
    assert _message(errors[0]).startswith("the document matches more than one of its allowed forms (integer or number)")
