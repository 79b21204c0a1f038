"""Agent Skills folders as PAS manifests: the catalogue line is the brief, the body the full block.

A skill is a folder holding ``SKILL.md``: YAML frontmatter between ``---`` lines, then a
Markdown body. Clients show the model every skill's ``name`` and ``description`` (the
catalogue) and load the body when the skill is used: progressive disclosure, which is what a
sleeping PAS plugin is. So one skill is one plugin (docs/guides/skills.md#mapping):

- ``name`` is the skill's name, ``module_name`` the same made an identifier
  (:func:`~conformance.tools.extract.names.module_name_from`: ``pdf-processing`` ->
  ``pdf_processing``), ``version`` is ``metadata.version`` when it is a string (``0.0.0``
  otherwise, listed in ``x-pas-guessed``);
- ``sleep_brief`` is the skill's description: the catalogue line; ``allow_sleep: true``, so a
  skill sleeps until it is needed; ``description`` (for people) is the same line followed by
  where the skill was read;
- the body is the full block: one method named like the module, of kind ``tool``, whose
  description is the whole body (trimmed), marked ``x-skill-body: true``. A host shows it when
  the plugin wakes; it is not a callable. A skill without a body has no method;
- the other frontmatter keys are kept in ``x-skill-frontmatter``, the file in ``x-skill-path``.

Files under ``scripts/``, ``references/`` and ``assets/`` are loaded by clients only when the
body points at them: they are not part of either block and are not counted.

The frontmatter is checked against the specification (:mod:`~conformance.tools.extract.
skill_rules`); a skill it rejects is reported and not written. Problems are at ``SKILL.md``'s
line, with the JSON pointer into the frontmatter.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument, parse_documents
from conformance.tools.extract.drafts import Draft
from conformance.tools.extract.names import module_name_from
from conformance.tools.extract.skill_rules import BODY_LINES, SPEC_KEYS, check_frontmatter
from reference_impl.problems import Problem, Severity, SourceLocation

SKILL_FILE = "SKILL.md"
_SKIPPED = frozenset({"node_modules", "__pycache__", "site-packages"})


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillFile:
    """One ``SKILL.md`` split: the frontmatter (with its lines) and the body (with its first line)."""

    path: str
    folder: str
    front: YamlDocument
    body: str
    body_line: int


def skill_files(paths: Iterable[str]) -> tuple[list[Path], list[Problem]]:
    """Every ``SKILL.md`` the paths name: a skill folder, its ``SKILL.md``, or a folder searched for skills."""
    found: dict[str, Path] = {}
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            hits = [path]
        elif (path / SKILL_FILE).is_file():
            hits = [path / SKILL_FILE]
        elif path.is_dir():
            hits = _search(path)
        else:
            problems.append(Problem(code="path-not-found", message="no such file or folder", source=SourceLocation(path=raw)))
            continue
        if not hits:
            problems.append(Problem(code="path-not-found", message=f"no {SKILL_FILE} in this folder or below it",
                                    source=SourceLocation(path=raw)))
        found.update({str(hit.resolve()): hit for hit in hits})
    return list(found.values()), problems


def _search(folder: Path) -> list[Path]:
    """The skills under ``folder``, sorted; a skill's own folders are not searched (its references are no skills)."""
    hits: list[Path] = []
    for root, dirs, names in os.walk(folder):
        if SKILL_FILE in names and Path(root) != folder:
            hits.append(Path(root, SKILL_FILE))
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED and not d.startswith("."))
    return sorted(hits)


def _problem(path: str, code: str, message: str, line: int = 1, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(code=code, message=message, severity=severity, source=SourceLocation(path=path, line=line, column=1))


def split_skill(path: Path) -> tuple[SkillFile | None, list[Problem]]:
    """Read ``SKILL.md`` and split it at its frontmatter; problems when it cannot be read or has none."""
    name = path.as_posix()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        return None, [Problem(code="unreadable", message=f"cannot read it: {getattr(error, 'strerror', None) or error}",
                              source=SourceLocation(path=name))]
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != "---":
        return None, [_problem(name, "skill-frontmatter", "SKILL.md must start with YAML frontmatter: a '---' line, "
                               "name: and description:, then a closing '---' line")]
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        return None, [_problem(name, "skill-frontmatter", "the frontmatter has no closing '---' line")]
    # A leading newline keeps the loader's line numbers equal to the file's (the '---' is line 1).
    documents, problems = parse_documents("\n" + "".join(lines[1:end]), name)
    if problems:
        return None, problems
    front = documents[0] if documents else YamlDocument(value=None, path=name)
    if not isinstance(front.value, dict):
        return None, [_problem(name, "skill-frontmatter", "the frontmatter must be a mapping of keys to values", 2)]
    first = next((i for i in range(end + 1, len(lines)) if lines[i].strip()), end + 1)
    return SkillFile(path=name, folder=path.parent.name, front=front, body="".join(lines[end + 1:]).strip(),
                     body_line=first + 1), []


def _findings(skill: SkillFile) -> list[Problem]:
    found = []
    for finding in check_frontmatter(skill.front.value, skill.folder):
        named_key = finding.pointer.count("/") == 1 and finding.pointer[1:] not in SPEC_KEYS  # the key is the problem
        where = skill.front.where(finding.pointer, key=named_key)
        if finding.client is None:
            code, severity = "skill-frontmatter", Severity.ERROR if finding.error else Severity.WARNING
            message = finding.message
        else:
            code, severity = "skill-client-difference", Severity.WARNING
            message = f"{finding.message}: {finding.client.clients} (seen in {finding.client.source})"
        found.append(Problem(code=code, severity=severity, message=message, pointer=finding.pointer, source=where))
    return found


def _body_problems(skill: SkillFile) -> list[Problem]:
    where = SourceLocation(path=skill.path, line=skill.body_line, column=1)
    if not skill.body:
        return [Problem(code="skill-body", severity=Severity.WARNING, source=where, message="the skill has no body: "
                        "nothing is loaded when it is used, so its plugin has no method and waking it shows nothing")]
    count = skill.body.count("\n") + 1
    if count > BODY_LINES:
        return [Problem(code="skill-body", severity=Severity.WARNING, source=where, message=f"the body is {count} "
                        f"lines; the specification asks for under {BODY_LINES}: move reference material into "
                        "references/ (loaded only when needed)")]
    return []


def _doc(skill: SkillFile, module: str) -> dict[str, Any]:
    front: dict[str, Any] = skill.front.value
    description = front["description"].strip()
    metadata = front.get("metadata")
    raw_version = metadata.get("version") if isinstance(metadata, dict) else None
    version = raw_version.strip() if isinstance(raw_version, str) else ""
    guessed = [] if version else ["version"]
    human = f"{description}\n\nAgent Skill {front['name'].strip()}, from {skill.path}."
    doc: dict[str, Any] = {"kind": "plugin-manifest", "name": front["name"].strip(), "module_name": module,
                           "version": version or "0.0.0", "description": human, "allow_sleep": True,
                           "sleep_brief": description}
    if skill.body:
        doc["methods"] = [{"name": module, "kind": "tool", "description": skill.body, "x-skill-body": True}]
    rest = {key: value for key, value in front.items() if key not in ("name", "description")}
    if rest:
        doc["x-skill-frontmatter"] = rest
    doc["x-skill-path"] = skill.path
    if guessed:
        doc["x-pas-guessed"] = guessed
    return doc


def draft_of(skill: SkillFile) -> tuple[Draft | None, list[Problem]]:
    """The manifest of one skill and the problems found; no draft when the specification rejects the skill."""
    problems = _findings(skill) + _body_problems(skill)
    module = module_name_from(str(skill.front.value.get("name") or ""), digit_prefix="skill_")
    if module is None or any(p.severity is Severity.ERROR for p in problems):
        return None, problems
    doc = _doc(skill, module)
    front = skill.front
    sources = {"": SourceLocation(path=skill.path, line=1, column=1), "/name": front.where("/name"),
               "/module_name": front.where("/name"), "/description": front.where("/description"),
               "/sleep_brief": front.where("/description"),
               "/methods/0": SourceLocation(path=skill.path, line=skill.body_line, column=1)}
    return Draft(doc=doc, origin=f"`pas extract skills` from {skill.path}", source=sources[""], sources=sources), problems


def extract_skills(paths: Iterable[str]) -> tuple[list[Draft], list[Problem], int]:
    """Drafts for every skill the paths name, the problems met, and how many ``SKILL.md`` files were read."""
    files, problems = skill_files(paths)
    drafts: list[Draft] = []
    for path in files:
        skill, found = split_skill(path)
        problems += found
        if skill is not None:
            draft, found = draft_of(skill)
            problems += found
            drafts += [draft] if draft is not None else []
    return drafts, problems, len(files)
