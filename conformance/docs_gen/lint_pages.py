"""The lint rules index and the rules table of the validating guide, from the registry ``pas validate`` reports from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from conformance.docs_gen._md import code, header, link, table
from conformance.docs_gen.i18n import t

FAMILY_ORDER = ("loader", "schema", "kind", "brief", "structure", "yaml", "graph", "host", "suppression")


def lint_rules_page(rules: Iterable[Any]) -> str:
    """One table per rule family: code (linked to its page), default severity, suppressible, summary.

    ``rules`` are ``conformance.validate.lint.registry.Rule`` values (code, severity, family, summary,
    suppressible).
    """
    by_family: dict[str, list[Any]] = {}
    for rule in rules:
        by_family.setdefault(rule.family, []).append(rule)
    families = [f for f in FAMILY_ORDER if f in by_family] + sorted(f for f in by_family if f not in FAMILY_ORDER)
    total = sum(len(v) for v in by_family.values())
    lines = header(t("Lint rules"), "conformance/validate/lint/registry.py", intro=t(
        "Every problem code `pas validate` can report, {total} in all, with its default severity. "
        "Each code has its own page: what it means, why it matters and how to fix it. Codes are "
        "stable; suppressible ones can be silenced with a `# pas: disable=CODE` comment or in the "
        "configuration (see [validating in CI](../guides/validating.md)).").format(total=total))
    for family in families:
        lines += [f"## {t(family.capitalize())} {{ #family-{family} }}", ""]
        rows = [[link(code(r.code), f"../rules/{r.code}.md"), str(getattr(r.severity, "value", r.severity)),
                 t("yes") if r.suppressible else t("no"), t(r.summary)] for r in by_family[family]]
        lines += table([t("Code"), t("Severity"), t("Suppressible"), t("Summary")], rows)
    return "\n".join(lines).rstrip() + "\n"


def rules_table(rules: Iterable[Any]) -> str:
    """The table of docs/guides/validating.md: every code in registry order, as ``pas validate --list-rules`` lists them.

    Columns: code (linked to its page), default severity, suppressible, summary (in the current language).
    """
    rows = [[link(code(r.code), f"../rules/{r.code}.md"), str(getattr(r.severity, "value", r.severity)),
             t("yes") if r.suppressible else t("no"), t(r.summary)] for r in rules]
    return "\n".join(table([t("code"), t("default severity"), t("suppressible"), t("what")], rows))
