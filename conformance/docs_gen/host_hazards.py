"""docs/data/host-hazards.yaml: what users of each disclosure host will hit, and the check that the runs show it.

Each hazard says in plain words (English and Chinese) what the host's users meet and names where
the suite shows it: scenarios that fail on one of the host's configurations, or the SHOULD a declared
option declines (with the scenarios that check the declared behaviour), or why no scenario reaches
it. :func:`check` holds the file against the recorded runs (docs/data/implementations.json): every
piece of evidence is there, and every failing scenario and declined SHOULD of the host's runs
belongs to one of its hazards, so a host page cannot leave out something the suite found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.docs_gen.implementation_list import ROOT

HAZARDS = ROOT / "docs" / "data" / "host-hazards.yaml"
FAILING = frozenset({"xfailed", "failed", "errored"})
# A space after or before a Chinese punctuation mark, or between two Chinese characters (a folded line break).
_CJK_SPACE = re.compile(r"(?<=[\u3000-\u303f\uff00-\uffef]) | (?=[\u3000-\u303f\uff00-\uffef])"
                        r"|(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])")
_TEXTS = ("title", "title_zh", "says", "says_zh", "not_reached", "not_reached_zh")


@dataclass(frozen=True, slots=True, kw_only=True)
class Hazard:
    """One thing a host's users will hit, and where the suite shows it."""

    id: str
    title: str
    title_zh: str
    says: str
    says_zh: str
    facts: int | None = None  # its number among the hosts facts notes' hazards of the host, if it is one
    scenarios: tuple[str, ...] = ()
    declined: str = ""  # a requirement id
    not_reached: str = ""
    not_reached_zh: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class HostHazards:
    """A host (the key of its entries in the data and of its page) and its hazards in page order."""

    key: str
    name: str
    hazards: tuple[Hazard, ...]


def load(path: Path = HAZARDS) -> tuple[tuple[HostHazards, ...], list[str]]:
    """The hosts of ``path`` and every problem of its shape, each ``file:line: [pointer] what to change``."""
    from conformance.documents.loader import load_mapping

    doc, loaded = load_mapping(path)
    if doc is None:
        return (), [str(p) for p in loaded]
    problems: list[str] = []
    hosts = []
    for h, host in enumerate(doc.value.get("hosts") or []):
        if not isinstance(host, Mapping) or not host.get("key") or not host.get("name"):
            problems.append(f"{doc.where(f'/hosts/{h}')}: [/hosts/{h}] a host needs a key and a name")
            continue
        hazards = []
        for z, item in enumerate(host.get("hazards") or []):
            pointer = f"/hosts/{h}/hazards/{z}"
            found = _shape(item)
            problems += [f"{doc.where(pointer)}: [{pointer}] {message}" for message in found]
            if not found:
                hazards.append(Hazard(id=item["id"], facts=item.get("facts"), scenarios=tuple(item.get("scenarios") or ()),
                                      declined=item.get("declined", ""),
                                      **{k: _one_line(str(item.get(k, ""))) for k in _TEXTS}))
        hosts.append(HostHazards(key=host["key"], name=host["name"], hazards=tuple(hazards)))
    return tuple(hosts), problems


def _one_line(text: str) -> str:
    """Folded YAML text on one line: no space left beside Chinese punctuation or between Chinese characters."""
    return _CJK_SPACE.sub("", " ".join(text.split()))


def _shape(item: Any) -> list[str]:
    """What is wrong with one hazard's fields (empty when nothing is)."""
    if not isinstance(item, Mapping):
        return ["a hazard is a mapping (id, title, says, ...)"]
    problems = [f"needs {key}" for key in ("id", "title", "title_zh", "says", "says_zh") if not item.get(key)]
    unknown = set(item) - {"id", "facts", "scenarios", "declined", *_TEXTS}
    problems += [f"{key} is not a hazard field (id, title, says, facts, scenarios, declined, not_reached, each text "
                 "with its _zh twin)" for key in sorted(unknown)]
    if bool(item.get("not_reached")) != bool(item.get("not_reached_zh")):
        problems.append("not_reached and not_reached_zh go together")
    if item.get("not_reached") and (item.get("scenarios") or item.get("declined")):
        problems.append("a hazard not reached names no scenarios and declines nothing")
    if not (item.get("not_reached") or item.get("scenarios") or item.get("declined")):
        problems.append("name the scenarios that show it, the SHOULD it declines, or why nothing reaches it (not_reached)")
    return problems


def entries_of(data: Mapping[str, Any], host: str) -> list[Mapping[str, Any]]:
    """The data's entries of ``host`` (its configurations) that ran somewhere."""
    return [e for e in data["implementations"] if e.get("host") == host and e["installed"]]


def failing_on(entries: Sequence[Mapping[str, Any]], scenario: str) -> list[Mapping[str, Any]]:
    """The entries on which ``scenario`` failed, errored or failed as expected."""
    return [e for e in entries if e["results"].get(scenario) in FAILING]


def declining(entries: Sequence[Mapping[str, Any]], requirement: str) -> list[Mapping[str, Any]]:
    """The entries whose declaration declines ``requirement``."""
    return [e for e in entries if requirement in (e.get("declined") or {})]


def check(hosts: Sequence[HostHazards], data: Mapping[str, Any]) -> list[str]:
    """Every way the hazards and the recorded runs disagree (empty when the pages can be written)."""
    suite = {s["id"] for s in data["suite"]}
    problems = []
    for host in hosts:
        entries = entries_of(data, host.key)
        if not entries:
            problems.append(f"{host.key}: no run of this host in the data")
            continue
        facts = [z.facts for z in host.hazards if z.facts is not None]
        if sorted(facts) != list(range(1, len(facts) + 1)):
            problems.append(f"{host.key}: the facts numbers are {sorted(facts)}, not 1 to {len(facts)}")
        for hazard in host.hazards:
            problems += [f"{host.key}/{hazard.id}: {p}" for p in _evidence(hazard, entries, suite)]
        problems += [f"{host.key}: {p}" for p in _unclaimed(host, entries)]
    return problems


def _evidence(hazard: Hazard, entries: Sequence[Mapping[str, Any]], suite: set[str]) -> list[str]:
    problems = [f"{sid} is not a scenario of the suite" for sid in hazard.scenarios if sid not in suite]
    if hazard.declined:
        decliners = declining(entries, hazard.declined)
        if not decliners:
            return problems + [f"no configuration declines {hazard.declined}"]
        problems += [f"{sid} did not run on a configuration that declines {hazard.declined}"
                     for sid in hazard.scenarios
                     if sid in suite and all(e["results"].get(sid) in (None, "skipped") for e in decliners)]
    elif hazard.scenarios and not any(failing_on(entries, sid) for sid in hazard.scenarios):
        problems.append(f"none of {', '.join(hazard.scenarios)} fails on any configuration")
    return problems


def _unclaimed(host: HostHazards, entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """Failing scenarios and declined SHOULDs of the host's runs that no hazard names."""
    shown = {sid for z in host.hazards if not z.declined for sid in z.scenarios}
    declined = {z.declined for z in host.hazards if z.declined}
    failing = {sid for e in entries for sid, outcome in e["results"].items() if outcome in FAILING}
    found = sorted({rid for e in entries for rid in e.get("declined") or {}} - declined)
    return ([f"{sid} fails on a configuration but no hazard names it" for sid in sorted(failing - shown)]
            + [f"{rid} is declined by a configuration but no hazard names it" for rid in found])
