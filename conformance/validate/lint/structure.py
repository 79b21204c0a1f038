"""Rules about the shape of one manifest that JSON Schema cannot express."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from conformance.documents.loader import YamlDocument
from conformance.validate.lint.facts import doc_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem, pointer_of


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Duplicate method names, and keys left without a value inside the free-form schemas."""
    del options  # no options; same signature as the other families
    yield from _duplicate_methods(doc)
    yield from _null_schema_keys(doc)


def _free_form_schemas(doc: YamlDocument) -> Iterator[tuple[tuple[str | int, ...], object]]:
    """The parts of a manifest no schema of ours constrains, by path: method parameters, the config schema."""
    methods = doc.value.get("methods")
    for index, method in enumerate(methods if isinstance(methods, list) else ()):
        if isinstance(method, dict) and "parameters" in method:
            yield ("methods", index, "parameters"), method["parameters"]
    config = doc.value.get("config")
    if isinstance(config, dict) and "schema" in config:
        yield ("config", "schema"), config["schema"]


def _null_schema_keys(doc: YamlDocument) -> Iterator[Problem]:
    """``{description: a, b}`` is the key ``b`` with no value: YAML splits flow mappings at commas."""
    schemas = list(_free_form_schemas(doc))
    if not any(_holds_null(value) for _, value in schemas):
        return  # the usual case, found without building a path for every mapping and list
    # Paths are kept as tuples and joined into a pointer only for a key that is reported.
    stack = schemas
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            for key, child in value.items():
                if child is None and key not in ("default", "const", "examples"):
                    yield doc_problem("schema-key-without-value",
                                      f"'{key}' is a key with no value, most likely text cut at a comma in a "
                                      "{...} mapping; quote the text", doc, pointer_of((*path, key)), key=True)
                elif isinstance(child, (dict, list)):
                    stack.append(((*path, key), child))
        elif isinstance(value, list):
            stack.extend(((*path, index), child) for index, child in enumerate(value) if isinstance(child, (dict, list)))


def _holds_null(root: object) -> bool:
    """Whether a mapping anywhere in ``root`` has a null value (under any key): a cheap first look."""
    stack, containers = [root], (dict, list)
    push = stack.append
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            values: Iterable[object] = node.values()
            if None in values:
                return True
        elif isinstance(node, list):
            values = node
        else:
            continue
        for child in values:
            if isinstance(child, containers):
                push(child)
    return False


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
