"""Semantic rules of ``pas validate``, one module per family, and the registry of codes.

Document rules see one schema-checked document at a time; set rules see the small,
picklable summaries (:mod:`conformance.validate.lint.facts`) of every document in the validated set.
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance.documents.loader import YamlDocument
from conformance.validate.lint import authoring, brief, controller, graph, strategies, structure, yaml11
from conformance.validate.lint.facts import HostFacts, ManifestFacts
from conformance.validate.lint.registry import RULES, LintOptions, Rule, rule
from reference_impl.problems import Problem

MANIFEST, HOST_CONFIG = "plugin-manifest", "host-config"

__all__ = ["RULES", "LintOptions", "Rule", "rule", "check_document", "check_set", "MANIFEST", "HOST_CONFIG"]


def check_document(kind: str, doc: YamlDocument, options: LintOptions) -> list[Problem]:
    """Semantic problems of one mapping document of ``kind``, in line order."""
    problems = list(yaml11.check_document(doc, options))
    if kind == MANIFEST:
        problems.extend(brief.check_manifest(doc, options))
        problems.extend(structure.check_manifest(doc, options))
        problems.extend(authoring.check_manifest(doc, options))
        problems.extend(controller.check_manifest(doc, options))
    elif kind == HOST_CONFIG:
        problems.extend(controller.check_host_config(doc, options))
    return sorted(problems, key=_position)


def check_set(manifests: Sequence[ManifestFacts], hosts: Sequence[HostFacts], options: LintOptions) -> list[Problem]:
    """Cross-file problems of the whole set; none when ``options.cross_file`` is off."""
    if not options.cross_file:
        return []
    problems = [*graph.check_set(manifests, options), *strategies.check_set(manifests, hosts, options)]
    return sorted(problems, key=lambda p: (p.source.path, *_position(p)) if p.source else ("", 0, 0))


def _position(problem: Problem) -> tuple[int, int]:
    source = problem.source
    return (source.line or 0, source.column or 0) if source else (0, 0)
