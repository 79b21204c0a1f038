"""The specification page (spec/requirements.yaml) and the decision tables (spec/semantics.yaml)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.docs_gen._md import code, header, link, linkify, one_line, table, value
from conformance.docs_gen.i18n import current, t

LEVELS = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY")
FAMILIES = {
    "ELIG": "Sleep eligibility", "STATE": "States and what the model sees", "SCHED": "The scheduler switch",
    "COUNT": "Counting runs", "ARG": "The rounds argument", "ACTIVATE": "activate_plugin",
    "EXTEND": "extend_plugin_activation", "ORDER": "Ordering", "ADMIN": "Admin changes",
    "BLOCK": "Plugin blocks", "LAYOUT": "Layout", "REPLY": "Replies", "LOAD": "Loading", "REG": "Registration",
    "VAL": "Validation", "LIFE": "Lifecycle", "CFG": "Configuration", "HOOK": "Hooks",
    "CONV": "Conversations",
}

_CONVENTIONS = """\
## Conventions { #conventions }

The key words MUST, MUST NOT, SHOULD, SHOULD NOT and MAY are to be interpreted as described in
RFC 2119 and RFC 8174 when, and only when, they appear in capitals. Every rule has a stable ID
(`ACT-ELIG-3`: profile prefix, family, number). IDs are never renamed or reused; scenarios cite
them in `covers`, reports name them, and each has an anchor on this page
(`specification/#ACT-ELIG-3`).

A **run** is one whole agent execution, from a user message to the final answer, however many
inner agent steps it takes. A **conversation** keeps its own **stored counters**, one per active
plugin. At the start of every run each plugin is shown in one of three **states**:
`always_awake`, `active` (with `rounds_left`) or `sleeping` (the brief only); see the
[decision tables](decision-tables.md).

An implementation claims **profiles**. `activation` is required of every implementation; `text`
and `host` are optional, and scenarios of a profile that is not claimed are skipped. The
structured view is normative in every profile; the exact prompt text is normative only for an
implementation that claims `text`.
"""


SOURCES = "../sources.md"  # from docs/generated/
_SOURCE_NAMES = re.compile(r"\b(seed 000|seed 003|NekroAgent 2\.4\.0 code|design\.md)")
_SOURCE_ANCHORS = {"seed 000": "seed-000", "seed 003": "seed-003", "NekroAgent 2.4.0 code": "nekroagent-code",
                   "design.md": "design"}


def source_text(source: str) -> str:
    """A requirement's ``source`` with each source document linked to its entry on the sources page."""
    return _SOURCE_NAMES.sub(lambda m: link(m.group(1), f"{SOURCES}#{_SOURCE_ANCHORS[m.group(1)]}"), one_line(source))


def _family(requirement_id: str) -> str:
    return requirement_id.split("-")[1]


def _level_matrix(profiles: Mapping[str, Any], requirements: Sequence[Mapping[str, Any]]) -> list[str]:
    used = [level for level in LEVELS if any(r["level"] == level for r in requirements)]
    rows = []
    for name, profile in profiles.items():
        mine = [r for r in requirements if r["profile"] == name]
        counts = [str(sum(r["level"] == level for r in mine)) for level in used]
        rows.append([link(current().profile(name, profile)["title"], f"#profile-{name}"), *counts, str(len(mine))])
    totals = [str(sum(r["level"] == level for r in requirements)) for level in used]
    rows.append([t("**All profiles**"), *totals, str(len(requirements))])
    return table([t("Profile"), *used, t("Total")], rows, align="l" + "r" * (len(used) + 1))


def _index_table(mine: Sequence[Mapping[str, Any]], coverage: Mapping[str, Sequence[str]]) -> list[str]:
    rows = [
        [link(code(r["id"]), f"#{r['id']}"), r["level"], current().requirement(r)["title"],
         str(len(coverage.get(r["id"], ())))]
        for r in mine
    ]
    return table(["ID", t("Level"), t("Title"), t("Scenarios")], rows, align="lllr")


def _requirement(req: Mapping[str, Any], coverage: Mapping[str, Sequence[str]], known: frozenset[str],
                 pages: Mapping[str, str]) -> list[str]:
    req = current().requirement(req)
    lines = [f"#### {req['id']} · {req['title']} {{ #{req['id']} }}", ""]
    lines += [f"**{req['level']}** · {t('profile')} `{req['profile']}` · {t('since spec')} {req['introduced_in']}", "",
              one_line(req["text"]), ""]
    if req.get("rationale"):
        lines += [f"*{t('Rationale.')}* {linkify(req['rationale'], known, page='')}", ""]
    lines += [f"*{t('Source.')}* {source_text(req['source'])}", ""]
    scenarios = coverage.get(req["id"], ())
    covered = ", ".join(link(code(s), f"{pages[s]}#{s}") for s in scenarios) if scenarios else t("none yet")
    return lines + [f"*{t('Checked by.')}* {covered}", ""]


def specification_page(doc: Mapping[str, Any], coverage: Mapping[str, Sequence[str]], version: str,
                       pages: Mapping[str, str]) -> str:
    """The specification page: conventions, the level table, then every requirement by profile.

    ``coverage`` maps a requirement ID to the ids of the scenarios that cover it, and ``pages``
    a scenario id to its catalogue page (relative to docs/generated/).
    """
    profiles, requirements = doc["profiles"], doc["requirements"]
    known = frozenset(r["id"] for r in requirements)
    lines = header(t("Specification {version}").format(version=version), "spec/requirements.yaml", intro=t(
        "PAS {version} defines which plugins an AI agent sees in full at each run, which only as a "
        "one-line brief, and how the model wakes them. This page is the normative text: every rule "
        "of the specification, {count} in all, grouped by profile and family. Where a rule comes "
        "from is explained on the [sources](../sources.md) page.").format(version=version, count=len(requirements)))
    lines += [t(_CONVENTIONS), t("## Requirements by profile and level { #by-level }"), ""]
    lines += _level_matrix(profiles, requirements)
    for name, profile in profiles.items():
        mine = [r for r in requirements if r["profile"] == name]
        shown = current().profile(name, profile)
        lines += [t("## {title} profile {{ #profile-{name} }}").format(title=shown["title"], name=name), "",
                  one_line(shown["description"]), ""]
        lines += _index_table(mine, coverage)
        family = None
        for req in mine:
            if _family(req["id"]) != family:
                family = _family(req["id"])
                title = t(FAMILIES[family]) if family in FAMILIES else family.title()
                lines += [f"### {title} {{ #{name}-{family.lower()} }}", ""]
            lines += _requirement(req, coverage, known, pages)
    lines += _free(doc.get("free", ()), known)
    return "\n".join(lines).rstrip() + "\n"


def _free(decisions: Sequence[Mapping[str, Any]], known: frozenset[str]) -> list[str]:
    """The behaviours left to the implementation, each with the reason it is free."""
    if not decisions:
        return []
    lines = [t("## Left to the implementation { #free }"), "",
             t("What the specification deliberately leaves open, each with the reason. No scenario depends on "
               "these choices, so two implementations that make them differently both conform."), ""]
    for entry in decisions:
        entry = current().decision(entry)
        lines += [f"### {entry['title']} {{ #free-{entry['id']} }}", "", linkify(one_line(entry["text"]), known, page=""), ""]
    return lines


def _condition(when: Mapping[str, Any], key: str) -> str:
    if key not in when:
        return t("any")
    return code(when[key]) if isinstance(when[key], str) else value(when[key])


def _eligibility(rows: Sequence[Mapping[str, Any]], known: frozenset[str]) -> list[str]:
    body = [
        [str(n), _condition(r["when"], "scheduler"), _condition(r["when"], "allow_sleep"),
         _condition(r["when"], "strategy"), _condition(r["when"], "brief"),
         t("**sleeps**") if r["sleep_eligible"] else t("never sleeps"), one_line(r["why"]),
         linkify(r["requirement"], known, page="specification.md")]
        for n, r in enumerate(rows, 1)
    ]
    return table(["#", t("scheduler plugin"), t("manifest allow_sleep"), t("admin strategy"), "sleep_brief", t("Decision"),
                  t("Why"), t("Rule")], body)


def _visibility(states: Mapping[str, Mapping[str, Any]]) -> list[str]:
    keys = ("shows", "brief_shown", "methods_shown", "injection_called", "rounds_left", "hint")
    yes_no = {True: t("yes"), False: t("no")}
    body = [[code(state)] + [yes_no.get(row[k], code(str(row[k]))) for k in keys] for state, row in states.items()]
    return table([t("State"), t("Shows"), t("Brief shown"), t("Methods shown"), t("Injection called"), "rounds_left",
                  t("Hint")], body)


def _outcomes(name: str, spec: Mapping[str, Any], known: frozenset[str]) -> list[str]:
    facts = ("argument", "plugin", "sleep_eligible", "stored")
    ends = t("A **{kind}** method: its reply ends the current agent step.") if spec["ends_step"] else t(
        "A **{kind}** method: its reply does not end the agent step.")
    lines = [f"### `{name}` {{ #{name} }}", "", ends.format(kind=spec["kind"]), ""]
    body = [[str(n)] + [_condition(r["when"], f) for f in facts] + [f"**{code(r['outcome'])}**",
            linkify(r["requirement"], known, page="specification.md")] for n, r in enumerate(spec["outcomes"], 1)]
    return lines + table([t("Check"), "argument", "plugin", "sleep_eligible", t("stored counter"), t("Outcome"), t("Rule")],
                         body)


def decision_tables_page(doc: Mapping[str, Any], schema: Mapping[str, Any], known: frozenset[str]) -> str:
    """The constants and the three decision tables of spec/semantics.yaml, as the reference runs them."""
    lines = header(t("Decision tables"), "spec/semantics.yaml", intro=t(
        "The declarative core of the specification. The reference implementation loads these very "
        "tables and executes them, so what you read here is what it does. Counting and state "
        "transitions are described by the [requirements](specification.md#profile-activation)."))
    described = schema["properties"]["constants"]["properties"]
    lines += [t("## Constants { #constants }"), ""]
    lines += table([t("Constant"), t("Value"), t("Meaning")], [
        [code(name), value(val), linkify(described.get(name, {}).get("description", ""), known)]
        for name, val in doc["constants"].items()
    ])
    lines += [t("## Sleep eligibility { #eligibility }"), "",
              t("Evaluated afresh for every plugin at the start of every run. Rows are checked top to "
              "bottom and the first row whose conditions all hold decides; `any` matches every value. "
              "After trimming white space (ACT-ELIG-6), a brief is `present` when something is left, "
              "`blank` when it held only white space and `empty` when it held nothing; the scheduler "
              "plugin is the one whose module_name is `scheduler_module`."), ""]
    lines += _eligibility(doc["eligibility"], known)
    lines += [t("## What the model sees in each state { #visibility }"), "",
              t("`hint` is the activation hint (\"last visible run\"): `last_run` means only when "
              "`rounds_left` is 1."), ""]
    lines += _visibility(doc["visibility"])
    lines += [t("## Call outcomes { #outcomes }"), "",
              t("The two methods the model calls. Checks run in order and the first whose conditions "
              "hold gives the outcome. `plugin: not_found` covers unknown, disabled and unavailable "
              "plugins; `stored` is the conversation's stored counter for the plugin."), ""]
    for name, spec in doc["methods"].items():
        lines += _outcomes(name, spec, known)
    return "\n".join(lines).rstrip() + "\n"
