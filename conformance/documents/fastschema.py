"""A fast, conservative "certainly valid" check in front of the full JSON Schema validator.

Most documents are valid (a CI run's manifests, an implementation's protocol messages), and for
them jsonschema's error machinery is the slowest part of checking them. This module walks the
schema directly for the keywords in :data:`HANDLED_KEYWORDS`. It answers True only when the
document is certainly valid; anything it does not handle exactly like jsonschema answers False
("ask jsonschema"), and the caller then runs the real validator
(:func:`conformance.documents.schemas.check_against`), which produces the problems. So it can make a
run faster, never different. It defers on:

- a keyword outside :data:`HANDLED_KEYWORDS`, a type it cannot tell apart exactly (an integer
  written as a float, ``enum`` members that are containers, unique items that are not strings);
- a ``$ref`` that is not a JSON pointer, does not resolve, or crosses a subschema with its own
  ``$id`` (an embedded resource has its own base URI); refs resolve over the same schema store
  jsonschema's registry wraps, joined and percent-decoded as ``referencing`` does;
- a pattern that is not ECMA-262, and a schema or document deep enough to exhaust the stack;
- a root whose ``$schema`` is not draft 2020-12.

Patterns are ECMA-262 (:mod:`conformance.documents.ecma`), as in the full validator. ``format`` is
delegated to jsonschema's own format checker; for the URI formats it first asks whether any
library jsonschema would check them with is installed, once per process, so that a valid document
does not import jsonschema (~0.1 s) only to hear "conforms".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from conformance.documents.ecma import PatternError, search

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_ANNOTATIONS = frozenset({"title", "description", "examples", "default", "$schema", "$id", "$comment", "$defs"})
HANDLED_KEYWORDS = _ANNOTATIONS | {
    "type", "enum", "const", "$ref", "properties", "patternProperties", "additionalProperties", "required",
    "propertyNames", "minLength", "maxLength", "pattern", "format", "items", "uniqueItems", "minItems", "maxItems",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf", "not", "minProperties",
    "maxProperties",
}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
}
# The libraries jsonschema (4.x, jsonschema/_format.py) checks these formats with; with none of
# them installed it checks nothing. A test compares this table with jsonschema's own imports.
FORMAT_LIBRARIES: dict[str, tuple[str, ...]] = {
    "uri": ("rfc3987", "rfc3986_validator"),
    "uri-reference": ("rfc3987", "rfc3986_validator"),
    "iri": ("rfc3987", "rfc3987_syntax"),
    "iri-reference": ("rfc3987", "rfc3987_syntax"),
}


@functools.cache
def format_check(fmt: str) -> Callable[[str], bool] | None:
    """How jsonschema checks strings of format ``fmt``: a predicate, or None when it does not check it."""
    import importlib.util

    libraries = FORMAT_LIBRARIES.get(fmt)
    if libraries is not None and not any(importlib.util.find_spec(name) for name in libraries):
        return None
    from jsonschema import Draft202012Validator

    checker = Draft202012Validator.FORMAT_CHECKER
    return functools.partial(_conforms, checker, fmt) if fmt in checker.checkers else None


def _conforms(checker: Any, fmt: str, instance: str) -> bool:
    return checker.conforms(instance, fmt)


def _same(a: Any, b: Any) -> bool:
    # Containers could hide True == 1 inside; jsonschema tells those apart, so leave them to it.
    return type(a) is type(b) and not isinstance(a, (list, dict)) and a == b


def _kind(value: Any) -> type:
    if isinstance(value, bool) or value is None or isinstance(value, (str, list, dict)):
        return type(value)
    return float if isinstance(value, (int, float)) else object


def _could_equal(a: Any, b: Any) -> bool:
    """False only when jsonschema's equality certainly says no: different JSON kinds, or different strings."""
    return _kind(a) is _kind(b) and _kind(a) is not object and (not isinstance(a, str) or a == b)


def _may_have_type(kind: str, instance: Any) -> bool:
    """Whether ``instance`` could satisfy ``type: kind`` (jsonschema counts 2.0 as an integer)."""
    if kind == "integer" and isinstance(instance, float):
        return instance.is_integer()
    return kind not in _TYPES or _TYPES[kind](instance)


def _number(schema: dict[str, Any], instance: int | float) -> bool:
    return (instance >= schema.get("minimum", instance) and instance <= schema.get("maximum", instance)
            and ("exclusiveMinimum" not in schema or instance > schema["exclusiveMinimum"])
            and ("exclusiveMaximum" not in schema or instance < schema["exclusiveMaximum"]))


def _string(schema: dict[str, Any], instance: str) -> bool:
    if not schema.get("minLength", 0) <= len(instance) <= schema.get("maxLength", len(instance)):
        return False
    if "pattern" in schema and not search(schema["pattern"], instance):
        return False
    check = format_check(schema["format"]) if "format" in schema else None
    return check is None or check(instance)


def _keeps_base(schema: dict[str, Any], base: str) -> bool:
    """False for an embedded resource: a subschema whose own ``$id`` gives its refs another base URI."""
    return "$id" not in schema or urldefrag(urljoin(base, schema["$id"])).url == base


class FastPath:
    """The "certainly valid" walk over a set of schemas (contents by URI, embedded resources included).

    Resolved ``$ref``s are cached per (ref, base URI), so build one per set and keep it.
    """

    def __init__(self, schemas: Mapping[str, Any]) -> None:
        self._schemas = schemas
        self._targets: dict[tuple[str, str], tuple[Any, str] | None] = {}
        self._walkable: dict[tuple[int, str], bool] = {}

    def certainly_valid(self, uri: str, instance: Any) -> bool:
        """Whether ``instance`` certainly satisfies the schema at ``uri``; False means "ask jsonschema".

        Raises KeyError when no schema has that URI.
        """
        root = self._schemas[uri]
        if isinstance(root, dict) and root.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
            return False
        try:
            return self._valid(root, instance, uri)
        except (RecursionError, PatternError):
            return False

    def _target(self, ref: str, base: str) -> tuple[Any, str] | None:
        key = (ref, base)
        if key not in self._targets:
            self._targets[key] = self._lookup(ref, base)
        return self._targets[key]

    def _lookup(self, ref: str, base: str) -> tuple[Any, str] | None:
        """The subschema ``ref`` names and its base URI; None when the fast path should defer.

        Resolves as ``referencing`` does (RFC 3986 joining, then an RFC 6901 pointer, percent-decoded),
        over the same schema objects, without importing it.
        """
        document, fragment = (base, ref[1:]) if ref.startswith("#") else urldefrag(urljoin(base, ref))
        if fragment and not fragment.startswith("/"):
            return None  # an anchor: resolved by jsonschema
        node = self._schemas.get(document)
        for token in unquote(fragment[1:]).split("/") if fragment else ():
            if isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            elif isinstance(node, dict) and token.replace("~1", "/").replace("~0", "~") in node:
                node = node[token.replace("~1", "/").replace("~0", "~")]
            else:
                return None
            if isinstance(node, dict) and "$id" in node:
                return None  # an embedded resource on the way: its refs resolve against its own $id
        return None if node is None else (node, document)

    def _certainly_fails(self, schema: Any, instance: Any, base: str) -> bool:
        """True only if ``instance`` certainly fails ``schema``: ``false``, a ``type`` it cannot have, a
        ``const`` or ``enum`` it cannot equal, or an object without a ``required`` property (so that a
        oneOf of alternatives with different shapes can be decided)."""
        if schema is False:
            return True
        if not isinstance(schema, dict):
            return False
        if "$ref" in schema and _keeps_base(schema, base):
            found = self._target(schema["$ref"], base)
            if found is not None and self._certainly_fails(found[0], instance, found[1]):
                return True
        if isinstance(instance, dict) and any(key not in instance for key in schema.get("required", ())):
            return True
        if "const" in schema and not _could_equal(schema["const"], instance):
            return True
        if isinstance(schema.get("enum"), list) and not any(_could_equal(m, instance) for m in schema["enum"]):
            return True
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
        return bool(kinds) and not any(_may_have_type(k, instance) for k in kinds)

    def _combinations(self, schema: dict[str, Any], instance: Any, base: str) -> bool:
        """anyOf: one branch certainly valid; oneOf: one certainly valid and every other certainly
        failing; not: the negated schema certainly failing."""
        if "anyOf" in schema and not any(self._valid(branch, instance, base) for branch in schema["anyOf"]):
            return False
        if "oneOf" in schema:
            branches = schema["oneOf"]
            valid = [i for i, branch in enumerate(branches) if self._valid(branch, instance, base)]
            if len(valid) != 1 or not all(self._certainly_fails(branch, instance, base)
                                          for i, branch in enumerate(branches) if i != valid[0]):
                return False
        return "not" not in schema or self._certainly_fails(schema["not"], instance, base)

    def _object(self, schema: dict[str, Any], instance: dict[str, Any], base: str) -> bool:
        properties = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = schema.get("additionalProperties", True)
        if any(key not in instance for key in schema.get("required", ())):
            return False
        if not schema.get("minProperties", 0) <= len(instance) <= schema.get("maxProperties", len(instance)):
            return False
        names = schema.get("propertyNames")
        for key, value in instance.items():
            if names is not None and not self._valid(names, key, base):
                return False
            matched = key in properties
            if matched and not self._valid(properties[key], value, base):
                return False
            for pattern, subschema in patterns.items():
                if search(pattern, key):
                    matched = True
                    if not self._valid(subschema, value, base):
                        return False
            if not matched and not self._valid(extra, value, base):
                return False
        return True

    def _array(self, schema: dict[str, Any], instance: list[Any], base: str) -> bool:
        if not schema.get("minItems", 0) <= len(instance) <= schema.get("maxItems", len(instance)):
            return False
        if schema.get("uniqueItems") is True:
            if not all(isinstance(item, str) for item in instance) or len(set(instance)) != len(instance):
                return False
        items = schema.get("items", True)
        return all(self._valid(items, item, base) for item in instance)

    @staticmethod
    def _can_walk(schema: Any, base: str) -> bool:
        """Whether the fast path handles every keyword of ``schema`` and its refs resolve against ``base``."""
        if not isinstance(schema, dict) or not HANDLED_KEYWORDS.issuperset(schema):
            return False
        return _keeps_base(schema, base)

    def _valid(self, schema: Any, instance: Any, base: str) -> bool:
        """True only if ``instance`` certainly satisfies ``schema``, whose refs resolve against ``base``."""
        if schema is True:
            return True
        key = (id(schema), base)  # every schema lives in the registry this object keeps: ids stay unique
        walkable = self._walkable.get(key)
        if walkable is None:
            walkable = self._walkable[key] = self._can_walk(schema, base)
        if not walkable:
            return False
        kind = schema.get("type")
        if kind is not None:
            kinds = kind if isinstance(kind, list) else [kind]
            if not any(k in _TYPES and _TYPES[k](instance) for k in kinds):
                return False
        if "enum" in schema and not any(_same(option, instance) for option in schema["enum"]):
            return False
        if "const" in schema and not _same(schema["const"], instance):
            return False
        if "$ref" in schema:
            found = self._target(schema["$ref"], base)
            if found is None or not self._valid(found[0], instance, found[1]):
                return False
        if not self._combinations(schema, instance, base):
            return False
        if isinstance(instance, dict):
            return self._object(schema, instance, base)
        if isinstance(instance, str):
            return _string(schema, instance)
        if isinstance(instance, list):
            return self._array(schema, instance, base)
        if isinstance(instance, (int, float)) and not isinstance(instance, bool):
            return _number(schema, instance)
        return True
