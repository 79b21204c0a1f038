"""Rules about the shape of one manifest that JSON Schema cannot express."""

from __future__ import annotations

from collections.abc import Iterator

from conformance._yaml import YamlDocument
from conformance.lint.facts import doc_problem
from conformance.lint.registry import LintOptions
from conformance.problems import Problem


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Duplicate method names: the model calls a method by name, so a second one is unreachable."""
    del options  # no options; same signature as the other families
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
