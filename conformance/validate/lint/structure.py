"""Rules about the shape of one manifest that JSON Schema cannot express."""

from __future__ import annotations

from collections.abc import Iterator

from conformance.documents.loader import YamlDocument
from conformance.validate.lint.facts import doc_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem, pointer_join


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Duplicate method names, and keys left without a value inside the free-form schemas."""
    del options  # no options; same signature as the other families
    yield from _duplicate_methods(doc)
    yield from _null_schema_keys(doc)


def _free_form_schemas(doc: YamlDocument) -> Iterator[tuple[str, object]]:
    """The parts of a manifest no schema of ours constrains: method parameters, the config schema."""
    methods = doc.value.get("methods")
    for index, method in enumerate(methods if isinstance(methods, list) else ()):
        if isinstance(method, dict) and "parameters" in method:
            yield f"/methods/{index}/parameters", method["parameters"]
    config = doc.value.get("config")
    if isinstance(config, dict) and "schema" in config:
        yield "/config/schema", config["schema"]


def _null_schema_keys(doc: YamlDocument) -> Iterator[Problem]:
    """``{description: a, b}`` is the key ``b`` with no value: YAML splits flow mappings at commas."""
    stack = list(_free_form_schemas(doc))
    while stack:
        pointer, value = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            child_pointer = pointer_join(pointer, key)
            if child is None and isinstance(value, dict) and key not in ("default", "const", "examples"):
                yield doc_problem("schema-key-without-value",
                                  f"'{key}' is a key with no value, most likely text cut at a comma in a "
                                  "{...} mapping; quote the text", doc, child_pointer, key=True)
            else:
                stack.append((child_pointer, child))


def _duplicate_methods(doc: YamlDocument) -> Iterator[Problem]:
    methods = doc.value.get("methods")
    if not isinstance(methods, list):
        return
    seen: dict[str, int] = {}
    for index, method in enumerate(methods):
        name = method.get("name") if isinstance(method, dict) else None
        if not isinstance(name, str):
            continue
        if name in seen:
            first = doc.where(f"/methods/{seen[name]}/name")
            yield doc_problem("duplicate-method-name",
                              f"method name '{name}' is already used by /methods/{seen[name]} "
                              f"(line {first.line}); rename or remove one", doc, f"/methods/{index}/name")
        else:
            seen[name] = index
