"""The fast path on keyword cases in the JSON Schema Test Suite layout: it may defer, never wrongly accept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from conformance.documents import fastschema
from conformance.documents.ecma import validator_class
from conformance.documents.fastschema import DRAFT_2020_12

CASES = Path(__file__).resolve().parent / "keyword_cases"
HANDLED_FILES = ("type", "enum_const", "object", "string", "array", "number", "combinators", "ref")


def _groups(name: str) -> list[dict]:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def _registry(schema: dict) -> tuple[Registry, str]:
    uri = schema.get("$id", "")
    resource = Resource.from_contents(schema, default_specification=DRAFT202012)
    return Registry().with_resource(uri, resource).crawl(), uri


def FastPath(registry: Registry) -> fastschema.FastPath:
    """The fast path over every resource of ``registry``, embedded ones included (as jsonschema sees them)."""
    return fastschema.FastPath({uri: registry.contents(uri) for uri in registry})


def _jsonschema_says(schema: dict, registry: Registry, data: object) -> bool:
    cls = validator_class() if schema.get("$schema") == DRAFT_2020_12 else validator_for(schema)
    return cls(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER).is_valid(data)


def _cases(names: tuple[str, ...]) -> list:
    return [pytest.param(name, group, test, id=f"{name}: {group['description']}: {test['description']}")
            for name in names for group in _groups(name) for test in group["tests"]]


ALL_FILES = tuple(sorted(p.stem for p in CASES.glob("*.json")))


@pytest.mark.parametrize(("name", "group", "test"), _cases(ALL_FILES))
def test_the_expected_verdict_is_jsonschemas_and_the_fast_path_never_contradicts_it(name, group, test):
    registry, uri = _registry(group["schema"])
    assert _jsonschema_says(group["schema"], registry, test["data"]) is test["valid"]
    if FastPath(registry).certainly_valid(uri, test["data"]):
        assert test["valid"]


@pytest.mark.parametrize("name", HANDLED_FILES)
def test_the_fast_path_answers_for_most_valid_cases_of_the_keywords_it_handles(name):
    answered = total = 0
    for group in _groups(name):
        registry, uri = _registry(group["schema"])
        fast = FastPath(registry)
        valid = [test["data"] for test in group["tests"] if test["valid"]]
        total += len(valid)
        answered += sum(fast.certainly_valid(uri, data) for data in valid)
    assert answered >= total * 0.6, (answered, total)


def test_the_fast_path_defers_on_every_keyword_it_does_not_handle():
    for group in _groups("deferred_keywords"):
        registry, uri = _registry(group["schema"])
        assert not any(FastPath(registry).certainly_valid(uri, test["data"]) for test in group["tests"]), group


def test_the_fast_path_defers_on_the_cases_a_root_only_resolver_gets_wrong():
    by_description = {group["description"]: group for group in _groups("ref")}
    group = by_description["relative ref inside a subschema with its own $id resolves against that $id"]
    registry, uri = _registry(group["schema"])
    assert not FastPath(registry).certainly_valid(uri, "x")
    group = by_description["percent-encoded ref"]
    registry, uri = _registry(group["schema"])
    assert FastPath(registry).certainly_valid(uri, 1) and not FastPath(registry).certainly_valid(uri, "x")


def test_deep_documents_and_reference_cycles_defer_instead_of_raising():
    registry, uri = _registry({"$schema": DRAFT_2020_12, "type": "object", "additionalProperties": {"$ref": "#"}})
    deep: dict = {}
    for _ in range(5000):
        deep = {"a": deep}
    assert FastPath(registry).certainly_valid(uri, deep) is False
    cycle = {"$schema": DRAFT_2020_12, "$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    registry, uri = _registry(cycle)
    assert FastPath(registry).certainly_valid(uri, 1) is False


def test_a_pattern_that_is_not_ecma_262_defers_instead_of_raising():
    registry, uri = _registry({"$schema": DRAFT_2020_12, "pattern": "(?P<name>a)"})
    assert FastPath(registry).certainly_valid(uri, "a") is False


def test_a_branch_with_its_own_id_is_never_taken_as_certainly_failing_by_a_ref_read_against_the_outer_base():
    # By the spec the inner ref names the inner integer, so 1 matches both branches and oneOf fails.
    # jsonschema 4.26 checks later oneOf branches (and not, if) with evolve(), which does not enter
    # the subresource, and reads the ref against the root (a string): it says valid. Not a vendored
    # case, because the two disagree; the fast path must not decide it either way.
    schema = {"$schema": DRAFT_2020_12, "$id": "http://localhost:1234/draft2020-12/oneof.json",
              "$defs": {"n": {"type": "string"}},
              "oneOf": [{"type": "integer"}, {"$id": "nested/oneof.json", "$defs": {"n": {"type": "integer"}},
                                              "$ref": "#/$defs/n"}]}
    registry, uri = _registry(schema)
    assert FastPath(registry).certainly_valid(uri, 1) is False
