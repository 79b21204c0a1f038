"""The releases of one implementation as a trend, for the Implementations page.

Pure functions of the data file's entries (see :mod:`conformance.docs_gen.implementations`):
the verdict of each release per profile, the scenarios whose verdict changed from one release
to the next (computed from the recorded runs), and the rule changes each release made (written
from its source, carried by the entry's ``changes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.docs_gen._md import code, table
from conformance.docs_gen.i18n import current, t

PASSING = frozenset({"passed"})
FAILING = frozenset({"xfailed", "failed", "errored", "stale"})

def groups(entries: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Entries with a ``release_of``, by product, in the data's order (oldest release first)."""
    found: dict[str, list[Mapping[str, Any]]] = {}
    for entry in entries:
        if entry.get("release_of"):
            found.setdefault(entry["release_of"], []).append(entry)
    return found


def verdict_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """(scenarios failing in ``before`` that pass in ``after``, scenarios passing in ``before`` that fail)."""
    old, new = before["results"], after["results"]
    gained = sorted(s for s, o in new.items() if o in PASSING and old.get(s) in FAILING)
    lost = sorted(s for s, o in new.items() if o in FAILING and old.get(s) in PASSING)
    return gained, lost


def _ids(ids: list[str], limit: int = 40) -> str:
    if not ids:
        return ""
    shown = ", ".join(code(s) for s in ids[:limit])
    return f" ({shown}{', …' if len(ids) > limit else ''})"


def _cell(entry: Mapping[str, Any], profile: str, counts: Any) -> str:
    tally = counts(entry, profile)
    return f"{tally['passed']} · {tally['expected']} · {tally['failed']}"


def _row(entry: Mapping[str, Any], counts: Any) -> list[str]:
    link = f"[{entry['implementation']['version'] if entry['installed'] else entry['title']}](#{entry['key']})"
    changes = entry.get("changes") or ["", ""]
    changed = changes[1] if current().suffix else changes[0]
    if not entry["installed"]:
        return [link, t("not run here"), t("not run here"), "", changed]
    claimed = [s for s, o in entry["results"].items() if o != "skipped"]
    passed = sum(1 for s in claimed if entry["results"][s] in PASSING)
    share = t("{passed} of {n} ({share})").format(passed=passed, n=len(claimed), share=f"{passed / len(claimed):.0%}") \
        if claimed else ""
    return [link, _cell(entry, "activation", counts), _cell(entry, "text", counts), share, changed]


def render_trend(product: str, entries: Sequence[Mapping[str, Any]], counts: Any) -> list[str]:
    """The trend section of one product, in the current language: its table, then the verdicts that changed."""
    anchor = product.lower().replace(" ", "-") + "-releases"
    lines = [f"## {t('{product} across its releases').format(product=product)} {{ #{anchor} }}", "",
             t("Every release of {product} that has activation scheduling, run under today's suite with its own "
               "expected-failures file. Counts are passed · expected failures · failed, per profile; *Changed* "
               "is what the release changed in the rules the suite tests, read in its source.").format(product=product),
             ""]
    columns = [t("Release"), "`activation`", "`text`", t("Passed"), t("Changed")]
    lines += table(columns, [_row(e, counts) for e in entries])
    ran = [e for e in entries if e["installed"]]
    if len(ran) > 1:
        lines += ([] if lines[-1] == "" else [""]) + [t("Verdicts that changed from one release to the next (from the runs):"), ""]
        for before, after in zip(ran, ran[1:]):
            gained, lost = verdict_changes(before, after)
            names = {"before": before["implementation"]["version"], "after": after["implementation"]["version"]}
            if not gained and not lost:
                lines.append("- " + t("{before} → {after}: no scenario changed its verdict.").format(**names))
            else:
                lines.append("- " + t("{before} → {after}: {gained} now pass{gained_ids}; {lost} now fail{lost_ids}.")
                             .format(**names, gained=len(gained), gained_ids=_ids(gained), lost=len(lost),
                                     lost_ids=_ids(lost)))
    return lines + [""]
