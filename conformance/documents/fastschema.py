"""A fast, conservative "certainly valid" check in front of the full JSON Schema validator.

Most documents are valid (a CI run's manifests, an implementation's protocol messages), and
for them jsonschema's error machinery is the slowest part of checking them. This module
walks the schema directly for the keywords the bundled schemas use (manifests, host
configs, protocol messages; local and cross-file ``$ref``s). It answers True only when the
document is certainly valid; any failure, and anything it does not handle exactly like jsonschema (an
unknown keyword, a remote ``$ref``, an integer written as a float, unique items that are not
strings), answers False, and the caller then runs the real validator
(:func:`conformance.documents.schemas.check_against`), which produces the problems. So it can make a
run faster, never different. ``format`` is delegated to jsonschema's own format checker.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

_ANNOTATIONS = frozenset({"title", "description", "examples", "default", "$schema", "$id", "$comment", "$defs"})
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
}


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    """One bundled schema by short name (``plugin-manifest``, ``protocol/run-response``)."""
    import yaml

    from reference_impl.spec_files import schema_path

    with open(schema_path(name), encoding="utf-8") as stream:
        return yaml.load(stream, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@functools.cache
def _schemas_by_id() -> dict[str, dict[str, Any]]:
    """Every bundled schema by its ``$id``: the targets of cross-file ``$ref``s."""
    from reference_impl.spec_files import spec_dir

    folder = spec_dir() / "schemas"
    names = (str(p.relative_to(folder))[: -len(".schema.yaml")] for p in folder.rglob("*.schema.yaml"))
    return {schema["$id"]: schema for schema in map(_schema, names) if "$id" in schema}


@functools.cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _same(a: Any, b: Any) -> bool:
    # Containers could hide True == 1 inside; jsonschema tells those apart, so leave them to it.
    return type(a) is type(b) and not isinstance(a, (list, dict)) and a == b


_URI_CHECKERS = ("rfc3987", "rfc3986_validator")


def _conforms(instance: str, fmt: str) -> bool:
    if fmt in ("uri", "uri-reference", "iri", "iri-reference"):
        import importlib.util

        # jsonschema checks these formats only when one of these optional libraries is installed;
        # without them the answer is always "conforms", so skip importing jsonschema (~0.1 s).
        if not any(importlib.util.find_spec(name) for name in _URI_CHECKERS):
            return True
    from jsonschema import Draft202012Validator

    return Draft202012Validator.FORMAT_CHECKER.conforms(instance, fmt)


def _resolve(ref: str, root: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The subschema ``ref`` names and the schema document it sits in; (None, root) when unknown.

    Local refs (``#/...``) and refs to another bundled schema (``common.schema.json#/...``,
    relative to the root's ``$id``) are followed; anything else is left to jsonschema.
    """
    target, _, fragment = ref.partition("#")
    if target:
        from urllib.parse import urljoin

        root = _schemas_by_id().get(urljoin(root.get("$id", ""), target))
        if root is None:
            return None, {}
    if fragment and not fragment.startswith("/"):
        return None, root
    node: Any = root
    for token in fragment[1:].split("/") if fragment else ():
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return None, root
        node = node[token]
    return node, root


def _may_have_type(kind: str, instance: Any) -> bool:
    """Whether ``instance`` could satisfy ``type: kind`` (jsonschema counts 2.0 as an integer)."""
    if kind == "integer" and isinstance(instance, float):
        return instance.is_integer()
    return kind not in _TYPES or _TYPES[kind](instance)


def _certainly_fails(schema: Any, instance: Any, root: dict[str, Any]) -> bool:
    """True only if ``instance`` certainly fails ``schema``: ``false``, or a ``type`` it cannot have."""
    if schema is False:
        return True
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        target, target_root = _resolve(schema["$ref"], root)
        if target is not None and _certainly_fails(target, instance, target_root):
            return True
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    return bool(kinds) and not any(_may_have_type(k, instance) for k in kinds)


def _combinations(schema: dict[str, Any], instance: Any, root: dict[str, Any]) -> bool:
    """anyOf: one branch certainly valid; oneOf: one certainly valid and every other certainly failing;
    not: the negated schema certainly failing."""
    if "anyOf" in schema and not any(_valid(branch, instance, root) for branch in schema["anyOf"]):
        return False
    if "oneOf" in schema:
        branches = schema["oneOf"]
        valid = [i for i, branch in enumerate(branches) if _valid(branch, instance, root)]
        if len(valid) != 1 or not all(_certainly_fails(branch, instance, root)
                                      for i, branch in enumerate(branches) if i != valid[0]):
            return False
    return "not" not in schema or _certainly_fails(schema["not"], instance, root)


def _number(schema: dict[str, Any], instance: int | float) -> bool:
    return (instance >= schema.get("minimum", instance) and instance <= schema.get("maximum", instance)
            and ("exclusiveMinimum" not in schema or instance > schema["exclusiveMinimum"])
            and ("exclusiveMaximum" not in schema or instance < schema["exclusiveMaximum"]))


def _object(schema: dict[str, Any], instance: dict[str, Any], root: dict[str, Any]) -> bool:
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extra = schema.get("additionalProperties", True)
    if any(key not in instance for key in schema.get("required", ())):
        return False
    if not schema.get("minProperties", 0) <= len(instance) <= schema.get("maxProperties", len(instance)):
        return False
    names = schema.get("propertyNames")
    for key, value in instance.items():
        if names is not None and not _valid(names, key, root):
            return False
        matched = False
        if key in properties:
            matched = True
            if not _valid(properties[key], value, root):
                return False
        for pattern, subschema in patterns.items():
            if _regex(pattern).search(key):
                matched = True
                if not _valid(subschema, value, root):
                    return False
        if not matched and not _valid(extra, value, root):
            return False
    return True


def _string(schema: dict[str, Any], instance: str) -> bool:
    if len(instance) < schema.get("minLength", 0) or len(instance) > schema.get("maxLength", len(instance)):
        return False
    if "pattern" in schema and not _regex(schema["pattern"]).search(instance):
        return False
    return "format" not in schema or _conforms(instance, schema["format"])


def _array(schema: dict[str, Any], instance: list[Any], root: dict[str, Any]) -> bool:
    if schema.get("uniqueItems") is True:
        if not all(isinstance(item, str) for item in instance) or len(set(instance)) != len(instance):
            return False
    items = schema.get("items", True)
    return all(_valid(items, item, root) for item in instance)


_HANDLED = _ANNOTATIONS | {"type", "enum", "const", "$ref", "properties", "patternProperties", "additionalProperties",
                           "required", "propertyNames", "minLength", "maxLength", "pattern", "format", "items",
                           "uniqueItems", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "anyOf", "oneOf", "not", "minProperties", "maxProperties"}


def _valid(schema: Any, instance: Any, root: dict[str, Any]) -> bool:
    """True only if ``instance`` certainly satisfies ``schema`` (a subschema of ``root``)."""
    if schema is True:
        return True
    if not isinstance(schema, dict) or not _HANDLED.issuperset(schema):
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
        target, target_root = _resolve(schema["$ref"], root)
        if not _valid(target, instance, target_root):
            return False
    if not _combinations(schema, instance, root):
        return False
    if isinstance(instance, dict):
        return _object(schema, instance, root)
    if isinstance(instance, str):
        return _string(schema, instance)
    if isinstance(instance, list):
        return _array(schema, instance, root)
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        return _number(schema, instance)
    return True


def certainly_valid(name: str, instance: Any) -> bool:
    """Whether ``instance`` is certainly valid against the bundled schema ``name``; False means "ask jsonschema"."""
    root = _schema(name)
    return _valid(root, instance, root)
