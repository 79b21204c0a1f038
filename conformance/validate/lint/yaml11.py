"""YAML 1.1 look-alikes: values that other tools read differently from PAS."""

from __future__ import annotations

from collections.abc import Iterator

from conformance.documents.loader import YamlDocument
from conformance.validate.lint.facts import make_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem, SourceLocation


def check_document(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """One warning per ambiguous plain scalar the loader recorded (``yes``, ``off``, ``1.10`` ...)."""
    del options
    for item in doc.ambiguous:
        source = SourceLocation(path=doc.path, line=item.line, column=item.column)
        yield make_problem("ambiguous-yaml-value", item.reason, item.pointer, source)
