"""docs/hosts/<host>.md: what users of one progressive-disclosure host will hit, from the suite's real runs.

A pure function of the data file (the host's configurations and their results), the host's hazards
(docs/data/host-hazards.yaml, :mod:`conformance.docs_gen.host_hazards`) and the titles of the
divergence entries its expected-failures reasons link (``examples/<host>/README.md#anchor``, read by
:func:`divergence_titles`). Written in the current language of :mod:`conformance.docs_gen.i18n`: the
fixed strings through the vocabulary, the hazards in the language the file gives, the runs' reasons
as recorded (English, with file:line in the host's installed package).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.docs_gen._md import code, table
from conformance.docs_gen.host_hazards import Hazard, HostHazards, declining, entries_of, failing_on
from conformance.docs_gen.i18n import current, t
from conformance.docs_gen.implementations_page import (
    GENERATED,
    command_text,
    matrix_columns,
    matrix_row,
    scenario_link,
    spec_link,
)

#: An expected-failures reason that starts with the divergence entry explaining it.
DIVERGENCE = re.compile(r"^(examples/[\w.-]+/README\.md)#([\w-]+): (.*)$", re.S)
_HEADING = re.compile(r"^#{1,6} +(.+?) *$")
_ANCHOR = re.compile(r'^<a id="([\w-]+)"></a>\s*$')


def slug(heading: str) -> str:
    """The anchor GitHub gives a README heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def divergence_titles(readme: str) -> dict[str, str]:
    """Every anchor of a README (a heading's own, or an ``<a id>`` line before a heading) -> the heading's text."""
    titles: dict[str, str] = {}
    pending: list[str] = []
    for line in readme.splitlines():
        if anchor := _ANCHOR.match(line):
            pending.append(anchor.group(1))
        elif heading := _HEADING.match(line):
            text = heading.group(1)
            for name in [*pending, slug(text)]:
                titles.setdefault(name, text)
            pending = []
    return titles


def divergence_of(reason: str) -> tuple[str, str, str] | None:
    """(README path, anchor, the rest of the reason) of a reason that starts with its divergence entry."""
    match = DIVERGENCE.match(reason)
    return (match.group(1), match.group(2), match.group(3)) if match else None


def _text(hazard: Hazard, field: str) -> str:
    return str(getattr(hazard, field + "_zh" if current().suffix else field))


def _label(entry: Mapping[str, Any]) -> str:
    return code(entry["configuration"] or entry["implementation"]["version"])


def _on(where: Sequence[Mapping[str, Any]], entries: Sequence[Mapping[str, Any]]) -> str:
    """" on `a`, `b`" naming the configurations ``where`` out of ``entries``; "" for a host of one configuration."""
    return "" if len(entries) == 1 else t(" on {configurations}").format(configurations=t(", ").join(_label(e) for e in where))


def _configurations(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    rows = [matrix_row(entry, "disclosure", f"[{entry['configuration'] or entry['title']}](../implementations.md#"
                       f"{entry['key']})", "../") for entry in entries]
    columns = [t("Configuration"), *matrix_columns()[1:]]
    # Every row is of the disclosure profile: the matrix's profile column is left out.
    lines = [f"## {t('Configurations run')} {{ #configurations }}", "",
             *table(columns[:2] + columns[3:], [row[:2] + row[3:] for row in rows])]
    lines += [t("Each configuration ran with its expected-failures file (a listed scenario that fails is an expected "
                "failure, with the reason below); the command gives the same results on a machine with the host "
                "installed:"), ""]
    if len(entries) == 1:
        return lines + [f"- {command_text(entries[0])}", ""]
    return lines + [f"- {_label(e)}: {command_text(e)}" for e in entries] + [""]


def _failing(hazard: Hazard, entries: Sequence[Mapping[str, Any]], categories: Mapping[str, str],
             titles: Mapping[tuple[str, str], str]) -> list[str]:
    lines = []
    for sid in hazard.scenarios:
        by_reason: dict[str, list[Mapping[str, Any]]] = {}
        for entry in failing_on(entries, sid):
            by_reason.setdefault(entry["reasons"].get(sid, ""), []).append(entry)
        for reason, where in by_reason.items():
            lines.append("- " + t("{scenario} fails{on}.").format(scenario=scenario_link(sid, categories, "../"),
                                                                 on=_on(where, entries)))
            lines += _reason_lines(reason, titles)
    return lines


def _reason_lines(reason: str, titles: Mapping[tuple[str, str], str]) -> list[str]:
    if not reason:
        return ["    - " + t("It is not in the expected-failures file: a failure nobody has explained yet.")]
    found = divergence_of(reason)
    if found is None:
        return ["    - " + t("Reason: {reason}").format(reason=reason)]
    readme, anchor, rest = found
    title = titles.get((readme, anchor), anchor)
    return ["    - " + t("Divergence: **{title}** ({where}): {rest}").format(title=title, where=code(f"{readme}#{anchor}"),
                                                                           rest=rest)]


def _declined(hazard: Hazard, entries: Sequence[Mapping[str, Any]], categories: Mapping[str, str]) -> list[str]:
    lines = []
    decliners = declining(entries, hazard.declined)
    by_option: dict[str, list[Mapping[str, Any]]] = {}
    for entry in decliners:
        by_option.setdefault(entry["declined"][hazard.declined]["declined_by"], []).append(entry)
    for option, where in by_option.items():
        title = current().requirement({"id": hazard.declined, "title": where[0]["declined"][hazard.declined]["title"]})
        lines.append("- " + t("Declared {option}{on}, which declines {requirement} *{title}*.").format(
            option=code(option), on=_on(where, entries), requirement=spec_link(hazard.declined, "../"),
            title=title["title"]))
    outcomes = {"passed": t("passed"), "xfailed": t("failed (expected)"), "failed": t("failed"),
                "errored": t("errored"), "stale": t("passed, but listed as an expected failure")}
    for sid in hazard.scenarios:
        ran = [e for e in decliners if e["results"].get(sid) not in (None, "skipped")]
        said = "; ".join(outcomes[e["results"][sid]] if len(entries) == 1 else f"{_label(e)} {outcomes[e['results'][sid]]}"
                         for e in ran)
        lines.append("- " + t("{scenario} checks what the declaration means: {outcomes}.").format(
            scenario=scenario_link(sid, categories, "../"), outcomes=said))
    if not hazard.scenarios:
        lines.append("- " + t("No scenario of the suite checks it under these options: the declaration is what "
                              "shows it."))
    return lines


def _hazard(number: int, hazard: Hazard, entries: Sequence[Mapping[str, Any]], categories: Mapping[str, str],
            titles: Mapping[tuple[str, str], str]) -> list[str]:
    lines = [f"### {number}. {_text(hazard, 'title')} {{ #{hazard.id} }}", "", _text(hazard, "says"), ""]
    if hazard.not_reached:
        return lines + [t("Not reached by the suite: {why}").format(why=_text(hazard, "not_reached")), ""]
    shown = (_declined(hazard, entries, categories) if hazard.declined
             else _failing(hazard, entries, categories, titles))
    return lines + [t("Where the suite shows it:"), "", *shown, ""]


def render_host(host: HostHazards, data: Mapping[str, Any], titles: Mapping[tuple[str, str], str]) -> str:
    """The page of one host in the current language; ``titles`` maps (README path, anchor) to its heading."""
    entries = entries_of(data, host.key)
    categories = {s["id"]: s["category"] for s in data["suite"]}
    reached = [z for z in host.hazards if not z.not_reached]
    lines = [f"# {host.name} {{ #{host.key} }}", "",
             GENERATED.format(more=" and docs/data/host-hazards.yaml"), "",
             t("What users of {name}'s progressive tool disclosure will hit, as the PAS suite (profile `disclosure`) "
               "found it by running the released code through the adapter in `examples/{key}/` with a scripted "
               "model. Each hazard is a scenario that fails, with the reason from the adapter's expected-failures "
               "file and the divergence entry of its README that explains it (with the line in the installed "
               "package), or a SHOULD that an option the host declares gives up. Only the plain-words summaries are "
               "written by hand; everything else comes from the runs on [Implementations](../implementations.md).")
             .format(name=host.name, key=host.key), ""]
    lines += _configurations(entries)
    lines += [f"## {t('What its users will hit')} {{ #hazards }}", ""]
    for number, hazard in enumerate(reached, 1):
        lines += _hazard(number, hazard, entries, categories, titles)
    missed = [z for z in host.hazards if z.not_reached]
    if missed:
        lines += [f"## {t('What the suite does not reach')} {{ #not-reached }}", "",
                  t("Hazards seen when the released code was driven by hand that no scenario reaches with this "
                    "adapter:"), ""]
        for number, hazard in enumerate(missed, len(reached) + 1):
            lines += _hazard(number, hazard, entries, categories, titles)
    return "\n".join(lines).rstrip("\n") + "\n"
