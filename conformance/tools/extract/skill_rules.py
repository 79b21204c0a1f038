"""The Agent Skills specification's frontmatter rules, and where known clients differ from it.

The specification (agentskills.io/specification; its text is ``docs/specification.mdx`` of
the agentskills/agentskills repository) gives six frontmatter keys and these rules, checked
here as errors (``skill-frontmatter``):

- ``name``: required, 1-64 characters, lowercase letters, digits and hyphens, not starting or
  ending with a hyphen, no ``--``, equal to the skill's folder name;
- ``description``: required, non-empty, at most 1024 characters;
- ``compatibility``: optional, 1-500 characters;
- ``metadata``: optional, a map (of strings to strings: a non-string value is a warning);
- ``allowed-tools``: optional, a space-delimited string or a list of strings;
- ``license``: optional, a string.

Clients differ from it, and from each other; each difference is a warning
(``skill-client-difference``) naming the clients and the source that shows it
(:data:`CLIENT_RULES`). Only observed behaviour is listed, with its source.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

SPEC_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
NAME_MAX, DESCRIPTION_MAX, COMPATIBILITY_MAX = 64, 1024, 500
BODY_LINES = 500  # the specification: "Keep your main SKILL.md under 500 lines"
_ASCII_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Claude Code's own frontmatter extensions (anthropics/skills pull request 1434 lists them from its docs).
CLAUDE_CODE_KEYS = frozenset({"user-invocable", "disable-model-invocation", "argument-hint", "model", "hooks"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientRule:
    """One known way clients treat a frontmatter differently from the specification, and who says so."""

    key: str
    clients: str  # who rejects (or accepts) what
    source: str  # where it was observed


CLIENT_RULES: Mapping[str, ClientRule] = {rule.key: rule for rule in (
    ClientRule(key="unknown-key", clients="skills-ref validate (the specification's reference validator) and the "
               "skill-creator's quick_validate.py of anthropics/skills reject the whole skill for any key outside the "
               "six; Codex's quick_validate.py too", source="agentskills/agentskills skills-ref/src/skills_ref/"
               "validator.py (ALLOWED_FIELDS); anthropics/skills skills/skill-creator/scripts/quick_validate.py "
               "(ALLOWED_PROPERTIES); anthropics/claude-code#83804; mattpocock/skills#360"),
    ClientRule(key="claude-code-key", clients="Claude Code reads it as its own extension; skills-ref validate, "
               "anthropics/skills' quick_validate.py and Codex's quick_validate.py reject the skill",
               source="anthropics/skills#1434; mattpocock/skills#360; higgsfield-ai/cli#80"),
    ClientRule(key="compatibility", clients="Codex's quick_validate.py allows only name, description, license, "
               "allowed-tools and metadata, so it rejects a skill with compatibility",
               source="mattpocock/skills#360; higgsfield-ai/cli#80"),
    ClientRule(key="angle-brackets", clients="anthropics/skills' quick_validate.py rejects a description holding "
               "< or >", source="anthropics/skills skills/skill-creator/scripts/quick_validate.py"),
    ClientRule(key="unicode-name", clients="skills-ref validate accepts Unicode lowercase letters (NFKC, "
               "str.isalnum); anthropics/skills' quick_validate.py (^[a-z0-9-]+$) rejects them",
               source="agentskills/agentskills skills-ref/src/skills_ref/validator.py; anthropics/skills "
               "skills/skill-creator/scripts/quick_validate.py"),
    ClientRule(key="too-long", clients="Codex skips the skill at start-up (\"invalid description: exceeds maximum "
               "length of 1024 characters\", the same for a name over 64)",
               source="openai/codex#25996; garrytan/gstack#230; pproenca/dot-skills#9"),
    ClientRule(key="folder-name", clients="skills-ref validate rejects the skill; Cursor skips it",
               source="vercel-labs/agent-skills#80; planetscale/skills#34"),
)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One rule broken: where (a JSON pointer into the frontmatter), what, and a client rule when it is one."""

    pointer: str
    message: str
    client: ClientRule | None = None  # None: the specification's own rule
    advice: bool = False  # a "should" of the specification: a warning, not an error

    @property
    def error(self) -> bool:
        """Whether the specification itself rejects this (client differences and advice are warnings)."""
        return self.client is None and not self.advice


def _name(value: Any, folder: str) -> Iterator[Finding]:
    if not isinstance(value, str) or not value.strip():
        yield Finding(pointer="/name", message="name is required: a non-empty string")
        return
    name = unicodedata.normalize("NFKC", value.strip())
    if len(name) > NAME_MAX:
        yield Finding(pointer="/name", message=f"name is {len(name)} characters; at most {NAME_MAX}")
        yield Finding(pointer="/name", message=f"name over {NAME_MAX} characters", client=CLIENT_RULES["too-long"])
    if not _ASCII_NAME.match(name):
        unicode_ok = name == name.lower() and all(c.isalnum() or c == "-" for c in name) \
            and not name.startswith("-") and not name.endswith("-") and "--" not in name
        if unicode_ok:
            yield Finding(pointer="/name", message=f"name {name!r} has letters outside a-z",
                          client=CLIENT_RULES["unicode-name"])
        else:
            yield Finding(pointer="/name", message=f"name {name!r} must be lowercase letters, digits and hyphens, "
                          "not starting or ending with a hyphen, without '--'")
    if folder and unicodedata.normalize("NFKC", folder) != name:
        yield Finding(pointer="/name", message=f"name {name!r} must equal the skill's folder name {folder!r}")
        yield Finding(pointer="/name", message="the folder name differs from name", client=CLIENT_RULES["folder-name"])


def _description(value: Any) -> Iterator[Finding]:
    if not isinstance(value, str) or not value.strip():
        yield Finding(pointer="/description", message="description is required: a non-empty string saying what the "
                      "skill does and when to use it")
        return
    if len(value) > DESCRIPTION_MAX:
        yield Finding(pointer="/description", message=f"description is {len(value)} characters; at most {DESCRIPTION_MAX}")
        yield Finding(pointer="/description", message=f"description over {DESCRIPTION_MAX} characters",
                      client=CLIENT_RULES["too-long"])
    if "<" in value or ">" in value:
        yield Finding(pointer="/description", message="description holds < or >", client=CLIENT_RULES["angle-brackets"])


def _optional(front: Mapping[str, Any]) -> Iterator[Finding]:
    if "compatibility" in front:
        value = front["compatibility"]
        if not isinstance(value, str) or not value.strip() or len(value) > COMPATIBILITY_MAX:
            yield Finding(pointer="/compatibility", message=f"compatibility must be 1-{COMPATIBILITY_MAX} characters")
        yield Finding(pointer="/compatibility", message="compatibility is set", client=CLIENT_RULES["compatibility"])
    if "license" in front and not isinstance(front["license"], str):
        yield Finding(pointer="/license", message="license must be a string (a licence name or a bundled file's name)")
    tools = front.get("allowed-tools")
    if "allowed-tools" in front and not (isinstance(tools, str) or (isinstance(tools, list)
                                                                      and all(isinstance(t, str) for t in tools))):
        yield Finding(pointer="/allowed-tools", message="allowed-tools must be a space-delimited string or a list of "
                      "strings")
    metadata = front.get("metadata")
    if "metadata" in front and not isinstance(metadata, dict):
        yield Finding(pointer="/metadata", message="metadata must be a map of keys to values")
    for key, value in (metadata.items() if isinstance(metadata, dict) else ()):
        if not isinstance(value, str):
            yield Finding(pointer=f"/metadata/{key}", message=f"metadata.{key} is a {type(value).__name__}; the "
                          "specification wants a map of strings to strings (quote it)", advice=True)


def check_frontmatter(front: Mapping[str, Any], folder: str) -> list[Finding]:
    """Every rule the frontmatter breaks: the specification's (``client`` None) and the clients' own."""
    found = [*_name(front.get("name"), folder), *_description(front.get("description")), *_optional(front)]
    for key in front:
        if key not in SPEC_KEYS:
            rule = CLIENT_RULES["claude-code-key" if key in CLAUDE_CODE_KEYS else "unknown-key"]
            found.append(Finding(pointer=f"/{key}", message=f"key {key!r} is not one of the specification's six "
                                 "(put your own data under metadata)", client=rule))
    return found
