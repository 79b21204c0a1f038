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
# markdownDescription and defaultSnippets are the editors' annotations (the YAML language server, VS Code).
_ANNOTATIONS = frozenset({"title", "description", "examples", "default", "$schema", "$id", "$comment", "$defs",
                          "markdownDescription", "defaultSnippets"})
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
Check = Callable[[Any], bool]  # a compiled subschema: whether an instance certainly satisfies it
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


def _always(instance: Any) -> bool:
    return True


def _never(instance: Any) -> bool:
    return False


def _keeps_base(schema: dict[str, Any], base: str) -> bool:
    """False for an embedded resource: a subschema whose own ``$id`` gives its refs another base URI."""
    return "$id" not in schema or urldefrag(urljoin(base, schema["$id"])).url == base


class FastPath:
    """The "certainly valid" walk over a set of schemas (contents by URI, embedded resources included).

    Each (subschema, base URI) is compiled once, at its first use, into a check that reads the
    instance only: its keywords are looked up, its ``$ref``s resolved and its subschemas compiled
    then, not at every visit. So build one per set and keep it.
    """

    def __init__(self, schemas: Mapping[str, Any]) -> None:
        self._schemas = schemas
        self._targets: dict[tuple[str, str], tuple[Any, str] | None] = {}
        self._compiled: dict[tuple[int, str], Check] = {}

    def certainly_valid(self, uri: str, instance: Any) -> bool:
        """Whether ``instance`` certainly satisfies the schema at ``uri``; False means "ask jsonschema".

        Raises KeyError when no schema has that URI.
        """
        root = self._schemas[uri]
        if isinstance(root, dict) and root.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
            return False
        try:
            return self._check(root, uri)(instance)
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


    # ------------------------------------------------------------------ compiling

    def _check(self, schema: Any, base: str) -> Check:
        """The compiled ``schema`` (refs resolved against ``base``): True only if an instance certainly satisfies it."""
        if schema is True:
            return _always
        key = (id(schema), base)  # every schema lives in the store this object keeps: ids stay unique
        check = self._compiled.get(key)
        if check is None:
            walkable = isinstance(schema, dict) and HANDLED_KEYWORDS.issuperset(schema) and _keeps_base(schema, base)
            check = self._compiled[key] = self._compile(schema, base) if walkable else _never
        return check

    def _compile(self, schema: dict[str, Any], base: str) -> Check:
        """Every keyword of a walkable ``schema`` as one check, in the order the keywords are weighed."""
        checks = [self._type(schema["type"])] if schema.get("type") is not None else []
        if "enum" in schema:
            options = schema["enum"]
            checks.append(lambda instance: any(_same(option, instance) for option in options))
        if "const" in schema:
            const = schema["const"]
            checks.append(lambda instance: _same(const, instance))
        if "$ref" in schema:
            checks.append(self._ref(schema["$ref"], base))
        checks.extend(self._combinations(schema, base))
        on_object, on_string = self._object(schema, base), _string(schema)
        on_array, on_number = self._array(schema, base), _number(schema)

        def check(instance: Any) -> bool:
            for each in checks:
                if not each(instance):
                    return False
            kind = type(instance)  # what JSON decodes to, exactly; subclasses take the isinstance way
            if kind is dict:
                return on_object is None or on_object(instance)
            if kind is str:
                return on_string is None or on_string(instance)
            if kind is bool or instance is None:
                return True
            if isinstance(instance, dict):
                return on_object is None or on_object(instance)
            if isinstance(instance, str):
                return on_string is None or on_string(instance)
            if isinstance(instance, list):
                return on_array is None or on_array(instance)
            if isinstance(instance, (int, float)) and not isinstance(instance, bool):
                return on_number is None or on_number(instance)
            return True

        return check

    @staticmethod
    def _type(kind: Any) -> Check:
        kinds = kind if isinstance(kind, list) else [kind]
        tests = [_TYPES[k] for k in kinds if k in _TYPES]
        if len(tests) == 1:
            return tests[0]
        return lambda instance: any(test(instance) for test in tests)

    def _ref(self, ref: str, base: str) -> Check:
        """The check of the subschema ``ref`` names, compiled at its first use (so that cycles terminate)."""
        target: Check | None = None

        def check(instance: Any) -> bool:
            nonlocal target
            if target is None:
                found = self._target(ref, base)
                target = _never if found is None else self._check(found[0], found[1])
            return target(instance)

        return check

    def _combinations(self, schema: dict[str, Any], base: str) -> list[Check]:
        """anyOf: one branch certainly valid; oneOf: one certainly valid and every other certainly
        failing; not: the negated schema certainly failing."""
        checks: list[Check] = []
        if "anyOf" in schema:
            any_of = [self._check(branch, base) for branch in schema["anyOf"]]
            checks.append(lambda instance: any(branch(instance) for branch in any_of))
        if "oneOf" in schema:
            branches = schema["oneOf"]
            one_of = [self._check(branch, base) for branch in branches]

            def exactly_one(instance: Any) -> bool:
                valid = [i for i, branch in enumerate(one_of) if branch(instance)]
                return len(valid) == 1 and all(self._certainly_fails(branch, instance, base)
                                               for i, branch in enumerate(branches) if i != valid[0])

            checks.append(exactly_one)
        if "not" in schema:
            negated = schema["not"]
            checks.append(lambda instance: self._certainly_fails(negated, instance, base))
        return checks

    def _object(self, schema: dict[str, Any], base: str) -> Check | None:
        """The object keywords as one check; None when there are none (every object passes them)."""
        if not _OBJECT_KEYWORDS.intersection(schema):
            return None
        properties = {key: self._check(sub, base) for key, sub in schema.get("properties", {}).items()}
        patterns = [(pattern, self._check(sub, base)) for pattern, sub in schema.get("patternProperties", {}).items()]
        extra = self._check(schema.get("additionalProperties", True), base)
        required = tuple(schema.get("required", ()))
        fewest, most = schema.get("minProperties", 0), schema.get("maxProperties")
        names = self._check(schema["propertyNames"], base) if schema.get("propertyNames") is not None else None

        def check(instance: dict[str, Any]) -> bool:
            for key in required:
                if key not in instance:
                    return False
            if not fewest <= len(instance) <= (len(instance) if most is None else most):
                return False
            for key, value in instance.items():
                if names is not None and not names(key):
                    return False
                matched = key in properties
                if matched and not properties[key](value):
                    return False
                for pattern, sub in patterns:
                    if search(pattern, key):
                        matched = True
                        if not sub(value):
                            return False
                if not matched and not extra(value):
                    return False
            return True

        return check

    def _array(self, schema: dict[str, Any], base: str) -> Check | None:
        """The array keywords as one check; None when there are none."""
        if not _ARRAY_KEYWORDS.intersection(schema):
            return None
        fewest, most = schema.get("minItems", 0), schema.get("maxItems")
        unique = schema.get("uniqueItems") is True
        items = self._check(schema.get("items", True), base)

        def check(instance: list[Any]) -> bool:
            if not fewest <= len(instance) <= (len(instance) if most is None else most):
                return False
            if unique and (not all(isinstance(item, str) for item in instance) or len(set(instance)) != len(instance)):
                return False
            return all(items(item) for item in instance)

        return check


_OBJECT_KEYWORDS = frozenset({"properties", "patternProperties", "additionalProperties", "required",
                              "propertyNames", "minProperties", "maxProperties"})
_ARRAY_KEYWORDS = frozenset({"minItems", "maxItems", "uniqueItems", "items"})


def _number(schema: dict[str, Any]) -> Check | None:
    """The number keywords as one check; None when there are none."""
    if not {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}.intersection(schema):
        return None
    get = schema.get

    def check(instance: int | float) -> bool:
        return (instance >= get("minimum", instance) and instance <= get("maximum", instance)
                and ("exclusiveMinimum" not in schema or instance > schema["exclusiveMinimum"])
                and ("exclusiveMaximum" not in schema or instance < schema["exclusiveMaximum"]))

    return check


def _string(schema: dict[str, Any]) -> Check | None:
    """The string keywords as one check; None when there are none. ``format`` is looked up at the
    first string it sees (it may import jsonschema)."""
    if not {"minLength", "maxLength", "pattern", "format"}.intersection(schema):
        return None
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
    has_pattern, has_format = "pattern" in schema, "format" in schema
    pattern, fmt = schema.get("pattern", ""), schema.get("format", "")

    def check(instance: str) -> bool:
        if not shortest <= len(instance) <= (len(instance) if longest is None else longest):
            return False
        if has_pattern and not search(pattern, instance):
            return False
        test = format_check(fmt) if has_format else None
        return test is None or test(instance)

    return check
