"""The schemas editors read validate the same under draft-07, which the most-used YAML language server applies.

The YAML language server (VS Code's YAML extension, Neovim, Helix, JetBrains) validates with
draft-07 semantics whatever ``$schema`` says. PAS's schemas are 2020-12; they mean the same to
that server only while every keyword in them is one draft-07 knows (or an editor annotation),
no ``$ref`` carries an assertion beside it (draft-07 ignores a ``$ref``'s siblings), every
``$ref`` is a path or a JSON pointer (draft-07 has no ``$anchor``), and ``items`` is one schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
from jsonschema_specifications import REGISTRY as METASCHEMAS

from conformance.documents.schemas import registry

EDITOR_SCHEMAS = ("plugin-manifest", "host-config", "scenario")
BASE = "https://plugin-activation-spec.org/schemas/1.0/"
DRAFT_07 = frozenset(METASCHEMAS.contents("http://json-schema.org/draft-07/schema")["properties"])
#: $defs is no draft-07 keyword, but a JSON-pointer $ref reaches into it under any draft; the rest are
#: the editors' own annotations.
ALLOWED = DRAFT_07 | {"$defs", "markdownDescription", "defaultSnippets"}
ANNOTATIONS = frozenset({"title", "description", "markdownDescription", "examples", "default", "$comment"})
MAPS, LISTS = ("properties", "patternProperties", "$defs", "definitions"), ("allOf", "anyOf", "oneOf")
VALUES = ("items", "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains")


def _walk(schema: Any, where: str) -> Iterator[tuple[str, dict]]:
    if not isinstance(schema, dict):
        return
    yield where, schema
    for key, value in schema.items():
        if key in MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _walk(sub, f"{where}/{key}/{name}")
        elif key in LISTS and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _walk(sub, f"{where}/{key}/{index}")
        elif key in VALUES:
            yield from _walk(value, f"{where}/{key}")


def editor_schemas() -> dict[str, dict]:
    """The editor-facing schemas and every bundled schema they reference, by URI."""
    found: dict[str, dict] = {}
    todo = [f"{BASE}{name}.schema.json" for name in EDITOR_SCHEMAS]
    while todo:
        uri = todo.pop()
        if uri in found:
            continue
        found[uri] = registry().contents(uri)
        for _, schema in _walk(found[uri], ""):
            if isinstance(schema.get("$ref"), str):
                target = urldefrag(urljoin(uri, schema["$ref"])).url
                if target != uri:
                    todo.append(target)
    return found


def draft07_problems(uri: str, schema: dict) -> list[str]:
    """Where ``schema`` would mean something else, or nothing, to a draft-07 validator."""
    problems = []
    for where, sub in _walk(schema, ""):
        problems += [f"{uri}#{where}: {key} is no draft-07 keyword" for key in sub if key not in ALLOWED]
        if "$ref" in sub:
            ignored = set(sub) - ANNOTATIONS - {"$ref"}
            if ignored:
                problems.append(f"{uri}#{where}: draft-07 ignores {sorted(ignored)} beside $ref")
            fragment = urldefrag(sub["$ref"]).fragment
            if fragment and not fragment.startswith("/"):
                problems.append(f"{uri}#{where}: $ref to an anchor ({sub['$ref']}); draft-07 needs a JSON pointer")
        if isinstance(sub.get("items"), list):
            problems.append(f"{uri}#{where}: items is a list (a tuple in draft-07)")
    return problems


def test_the_editor_schemas_and_what_they_reference_are_found():
    assert {f"{BASE}{name}.schema.json" for name in EDITOR_SCHEMAS} <= set(editor_schemas())


@pytest.mark.parametrize("uri", sorted(editor_schemas()))
def test_every_editor_schema_means_the_same_under_draft_07(uri):
    assert draft07_problems(uri, editor_schemas()[uri]) == []


@pytest.mark.parametrize(("schema", "problem"), [
    ({"prefixItems": [{"type": "string"}]}, "prefixItems is no draft-07 keyword"),
    ({"properties": {"a": {"$ref": "#/$defs/x", "minLength": 1}}}, "ignores ['minLength'] beside $ref"),
    ({"$ref": "#name"}, "needs a JSON pointer"),
    ({"items": [{"type": "string"}]}, "items is a list"),
    ({"dependentRequired": {"a": ["b"]}}, "dependentRequired is no draft-07 keyword"),
])
def test_the_check_finds_what_draft_07_reads_differently(schema, problem):
    assert any(problem in found for found in draft07_problems("x", schema))
