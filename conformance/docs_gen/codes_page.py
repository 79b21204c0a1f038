"""The problem codes page, generated from the one registry (conformance.documents.codes)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from conformance.docs_gen._md import code, header, link, table
from conformance.docs_gen.i18n import t

PRODUCT_ORDER = ("loader", "validate", "host", "suite", "protocol", "adapters", "report", "simulate", "budget", "extract",
                 "fuzz")
PRODUCT_TITLES = {
    "loader": "Reading documents and paths", "validate": "pas validate", "host": "The host profile",
    "suite": "Scenario and expected-failures files", "protocol": "The stdio protocol",
    "adapters": "Python implementations (python:)", "report": "pas report",
    "simulate": "pas simulate", "budget": "pas budget", "extract": "pas extract nekro", "fuzz": "pas fuzz",
}


def problem_codes_page(codes: Iterable[Any], rule_pages: Mapping[str, str]) -> str:
    """One table per product: code (linked to its rule page when it has one), meaning, fix.

    ``codes`` are ``conformance.documents.codes.Code`` values; ``rule_pages`` maps a code to
    its page under docs/rules/ (the codes ``pas validate`` reports).
    """
    by_product: dict[str, list[Any]] = {}
    for entry in codes:
        by_product.setdefault(entry.product, []).append(entry)
    products = [p for p in PRODUCT_ORDER if p in by_product] + sorted(p for p in by_product if p not in PRODUCT_ORDER)
    total = sum(len(v) for v in by_product.values())
    lines = header(t("Problem codes"), "conformance/documents/codes.py", intro=t(
        "Every problem code PAS reports, {total} in all, registered once with what it means and what to "
        "change. Codes are stable and kebab-case; a test fails when the code emits one that is not "
        "listed here.").format(total=total))
    for product in products:
        lines += [f"## {t(PRODUCT_TITLES.get(product, product))} {{ #{product} }}", ""]
        rows = [[link(code(c.code), rule_pages[c.code]) if c.code in rule_pages else code(c.code), c.meaning, c.fix]
                for c in sorted(by_product[product], key=lambda c: c.code)]
        lines += table([t("Code"), t("Meaning"), t("Fix")], rows)
    return "\n".join(lines).rstrip() + "\n"
