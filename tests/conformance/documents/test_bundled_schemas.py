"""The bundled schemas as data: 2020-12 vocabulary only, every $ref resolves, ECMA-262 patterns that
reject a trailing newline, and the fast path (jsonschema-rs) compiles them and reads their patterns as ECMA-262 does."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema_specifications import REGISTRY as METASCHEMAS

from conformance.documents import fastschema
from conformance.documents.ecma import compile_pattern, search
from conformance.documents.schemas import registry, store
from reference_impl.spec_files import spec_dir

FOLDER = spec_dir() / "schemas"
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_VALUES = ("items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not",
                 "unevaluatedItems", "unevaluatedProperties", "contentSchema")
#: Keywords no JSON Schema draft defines that editors read: hover text in markdown and snippets
#: (the YAML language server, VS Code). Validators ignore them; the manifest schema has them.
EDITOR_KEYWORDS = frozenset({"markdownDescription", "defaultSnippets"})
VOCABULARY = frozenset(key for uri in METASCHEMAS if "/draft/2020-12/meta/" in uri
                       for key in METASCHEMAS.contents(uri).get("properties", {})) | EDITOR_KEYWORDS


def _bundled() -> list[tuple[str, dict]]:
    uris = sorted(uri for uri in registry() if uri.startswith("https://plugin-activation-spec.org/"))
    return [(uri, registry().contents(uri)) for uri in uris]


def _subschemas(schema: Any, pointer: str = "", base: str = "") -> Iterator[tuple[str, str, dict]]:
    """(pointer, base URI, schema object) for ``schema`` and every subschema, by the 2020-12 applicators."""
    if not isinstance(schema, dict):
        return
    base = urldefrag(urljoin(base, schema["$id"])).url if isinstance(schema.get("$id"), str) else base
    yield pointer, base, schema
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _subschemas(sub, f"{pointer}/{key}/{name}", base)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _subschemas(sub, f"{pointer}/{key}/{index}", base)
        elif key in SCHEMA_VALUES:
            yield from _subschemas(value, f"{pointer}/{key}", base)


def _patterns() -> list[tuple[str, str]]:
    found = []
    for uri, contents in _bundled():
        for pointer, _, schema in _subschemas(contents, base=uri):
            if isinstance(schema.get("pattern"), str):
                found.append((f"{uri}#{pointer}/pattern", schema["pattern"]))
            found.extend((f"{uri}#{pointer}/patternProperties", key) for key in schema.get("patternProperties", {}))
    return found


def test_the_store_holds_every_schema_file():
    assert len(_bundled()) == len(list(FOLDER.rglob("*.schema.yaml"))) > 30


@pytest.mark.parametrize(("uri", "contents"), _bundled(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_bundled_schema_is_valid_against_the_2020_12_metaschema_and_uses_only_its_vocabulary(uri, contents):
    Draft202012Validator.check_schema(contents)
    unknown = [f"{pointer}/{key}" for pointer, _, schema in _subschemas(contents, base=uri)
               for key in schema if key not in VOCABULARY]
    assert unknown == [], f"not 2020-12 keywords (a comma inside a YAML {{...}} mapping?): {unknown}"


def test_every_schema_file_reads_the_same_with_pyyaml_and_with_yaml_rs():
    import yaml

    from conformance.documents.schemas import _paths, _read

    for path in _paths().values():
        assert _read(path) == yaml.safe_load(path.read_text(encoding="utf-8")), path


def test_the_vocabulary_check_finds_a_key_made_by_a_comma_in_a_flow_mapping():
    import yaml

    broken = yaml.safe_load('patternProperties:\n  "^x-": {description: Extension data, ignored by PAS.}\n')
    assert [f"{p}/{k}" for p, _, s in _subschemas(broken) for k in s if k not in VOCABULARY] == [
        "/patternProperties/^x-/ignored by PAS."]


def test_every_ref_in_every_bundled_schema_resolves():
    refs = [(base, schema["$ref"]) for uri, contents in _bundled()
            for pointer, base, schema in _subschemas(contents, base=uri) if "$ref" in schema]
    assert len(refs) > 100
    for base, ref in refs:
        registry().resolver(base).lookup(ref)  # raises Unresolvable


@pytest.mark.parametrize(("uri", "contents"), _bundled(), ids=lambda value: value if isinstance(value, str) else "")
def test_the_fast_path_compiles_every_bundled_schema(uri, contents):
    # A schema jsonschema-rs could not compile would send every document of its kind to jsonschema.
    fast = fastschema.FastPath(store())
    fast.certainly_valid(uri, None)
    assert fast._validators[uri] is not fastschema._never, f"jsonschema-rs cannot compile {uri}"


def test_no_bundled_pattern_uses_a_word_boundary():
    # jsonschema-rs reads \b over Unicode letters, ECMA-262 over ASCII ones (see fastschema's docstring).
    assert [where for where, pattern in _patterns() if "\\b" in pattern or "\\B" in pattern] == []


@pytest.mark.parametrize(("where", "pattern"), _patterns(), ids=[where.rsplit("/", 1)[-1] for where, _ in _patterns()])
def test_every_bundled_pattern_is_ecma_262(where, pattern):
    compile_pattern(pattern)


END_ANCHORED = sorted({pattern for _, pattern in _patterns() if pattern.endswith("$")})


def test_the_end_anchored_patterns_are_all_the_patterns_that_constrain_a_whole_string():
    # The others are prefixes ("^x-" extension keys; "^[^@]", a tool name that is no loader token), which
    # accept anything after, newline included.
    assert len(END_ANCHORED) >= 6
    assert all(pattern.endswith("$") or not pattern.startswith("^") or pattern in ("^x-", "^[^@]")
               for _, pattern in _patterns())


@settings(max_examples=60, deadline=None)
@given(data=st.data(), pattern=st.sampled_from(END_ANCHORED))
def test_every_bundled_end_anchored_pattern_rejects_a_trailing_newline(data, pattern):
    text = data.draw(st.from_regex(pattern, fullmatch=True))
    assume(search(pattern, text))  # Python's \d also draws non-ASCII digits, which ECMA-262 rightly refuses
    assert not search(pattern, text + "\n")
    assert not search(pattern, text + "\r\n")


ALL_PATTERNS = sorted({pattern for _, pattern in _patterns()})


@settings(max_examples=200, deadline=None)
@given(data=st.data(), pattern=st.sampled_from(ALL_PATTERNS))
def test_the_fast_path_reads_every_bundled_pattern_as_ecma_262_does(data, pattern):
    import jsonschema_rs

    text = data.draw(st.from_regex(pattern) | st.text(alphabet="aZ_-09x\n\r \u0661\uff10\u212a", max_size=12))
    text += data.draw(st.sampled_from(["", "\n", "\r\n", "\u0661", "\u00e9"]))
    fast = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})
    assert fast.is_valid(text) is search(pattern, text), (pattern, text)


def _optional_imports(module: Any) -> set[str]:
    """Modules ``module`` imports below its top level (in try/suppress blocks): its optional format libraries."""
    tree = ast.parse(inspect.getsource(module))
    top = set(map(id, tree.body))
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in top:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_format_table_was_read_against_jsonschemas_own_optional_imports():
    import jsonschema._format

    # If this set changes, re-read jsonschema/_format.py and update fastschema.FORMAT_LIBRARIES.
    assert _optional_imports(jsonschema._format) == {
        "fqdn", "idna", "rfc3987", "rfc3986_validator", "rfc3987_syntax", "rfc3339_validator", "webcolors",
        "jsonpointer", "uri_template", "isoduration"}
    for fmt in fastschema.FORMAT_LIBRARIES:
        checked = fmt in Draft202012Validator.FORMAT_CHECKER.checkers
        assert (fastschema.format_check(fmt) is not None) == checked, fmt


@pytest.mark.parametrize(("installed", "checked"), [
    ((), set()),
    (("rfc3987_syntax",), {"iri", "iri-reference"}),
    (("rfc3986_validator",), {"uri", "uri-reference"}),
    (("rfc3987",), set(fastschema.FORMAT_LIBRARIES)),
])
def test_the_fast_path_asks_jsonschema_about_a_format_whenever_a_library_for_it_is_installed(monkeypatch, installed,
                                                                                             checked):
    import importlib.util

    asked = set()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name in installed else None)
    monkeypatch.setattr(Draft202012Validator.FORMAT_CHECKER, "checkers",
                        {fmt: (lambda value: asked.add(value) or True, ()) for fmt in fastschema.FORMAT_LIBRARIES})
    fastschema.format_check.cache_clear()
    try:
        deciding = {fmt for fmt in fastschema.FORMAT_LIBRARIES if fastschema.format_check(fmt) is not None}
    finally:
        fastschema.format_check.cache_clear()
    assert deciding == checked
