"""Which requirements each stdio protocol message serves: from the protocol schemas and the suite.

A message serves a requirement when its schema's description cites the requirement's ID, or
when a scenario step that sends it checks the requirement (the step's ``covers``, else its
scenario's: the same rule the runner uses to blame a failed step).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conformance.docs_gen._md import code, header, link, table
from conformance.docs_gen.i18n import t

_ID = re.compile(r"\b(?:ACT|TXT|HOST)-[A-Z]+-[0-9]+\b")
SPEC = "specification.md"


def _cited(node: Any) -> set[str]:
    """Requirement IDs cited in the descriptions anywhere inside a schema."""
    if isinstance(node, Mapping):
        found = set(_ID.findall(node["description"])) if isinstance(node.get("description"), str) else set()
        for child in node.values():
            found |= _cited(child)
        return found
    if isinstance(node, list):
        return set().union(*map(_cited, node)) if node else set()
    return set()


def _expects_something(step: Any) -> bool:
    return bool(step.expect) or any(getattr(step, k) is not None for k in ("shown", "order", "text", "host"))


def message_requirements(commands: Iterable[str], schemas: Mapping[str, Mapping[str, Any]],
                         scenarios: Sequence[Any], known: Iterable[str]) -> dict[str, tuple[list[str], list[str]]]:
    """Command -> (IDs its schemas cite, IDs checked by the steps that send it), each in spec order.

    ``schemas`` maps a schema name (``protocol/run-request``) to its contents; ``scenarios`` are the
    bundled suite's; ``known`` lists the requirement IDs in the order of spec/requirements.yaml.
    """
    order = {rid: n for n, rid in enumerate(known)}
    checked: dict[str, set[str]] = {}
    for scenario in scenarios:
        for step in scenario.steps:
            if not _expects_something(step):
                continue  # nothing is compared on this step: no requirement can be reported through it
            cmd = step.event_json().get("cmd")
            checked.setdefault(cmd, set()).update(step.covers or scenario.covers)
    result = {}
    for cmd in commands:
        cited = _cited(schemas.get(f"protocol/{cmd}-request", {})) | _cited(schemas.get(f"protocol/{cmd}-response", {}))
        result[cmd] = (sorted((i for i in cited if i in order), key=order.__getitem__),
                       sorted((i for i in checked.get(cmd, ()) if i in order), key=order.__getitem__))
    return result


def _ids(ids: Sequence[str]) -> str:
    return ", ".join(f"{link(code(i), f'{SPEC}#{i}')}{{ .pas-id }}" for i in ids) or "—"


def protocol_requirements_page(served: Mapping[str, tuple[list[str], list[str]]]) -> str:
    """The table: one row per wire command, with its two schemas and the requirement IDs it serves."""
    lines = header(t("Protocol messages and requirements"), "spec/schemas/protocol/ and conformance/suite/scenarios/",
                   intro=t(
        "Which requirements each message of the [stdio protocol](../protocol.md) serves. *Cited* are the "
        "IDs its request and response schemas name; *checked* are the IDs that the suite's steps sending "
        "this message check (a step's `covers`, else its scenario's), so a wrong answer to this message "
        "is reported against them. `hello`, `start` and `bye` frame a session and serve no rule of their own."))
    rows = []
    for cmd, (cited, checked) in served.items():
        schemas = f"[{t('request')}](schemas/protocol.md#{cmd}-request-top), [{t('response')}](schemas/protocol.md#{cmd}-response-top)"
        rows.append([code(cmd), schemas, _ids(cited), _ids([i for i in checked if i not in cited])])
    lines += table([t("Command"), t("Schemas"), t("Cited by the schemas"), t("Also checked through it")], rows)
    return "\n".join(lines).rstrip() + "\n"
