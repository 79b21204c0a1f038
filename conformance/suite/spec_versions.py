"""Spec versions: which requirements and scenarios each version of the spec holds, frozen per release.

Every requirement (spec/requirements.yaml) and every scenario of the bundled suite says which
spec version introduced it (``introduced_in``, major.minor). Version V's set is everything
introduced in V or before; ``pas run --spec-version V`` runs exactly that set. Each version has
a release file, ``spec/releases/<V>.yaml``, listing its requirement and scenario ids, each with
a hash of its meaning, so a released version's set cannot change unnoticed
(tests/spec/test_spec_versions.py compares the tree with every release file).

What is hashed (the first 16 hex digits of SHA-256 over canonical JSON):

- a requirement: its ``level``, ``profile``, ``text`` (white space runs folded to one space) and
  the disclosure options it ``applies_when`` or is ``declined_by``; not its title, source or
  rationale.
- a scenario: everything it sends and expects (``covers``, ``profiles``, the plugins with their
  fixtures merged in, host, conversations, environment, overrides, behaviour, tools, requires,
  and every step but its ``note``); not its title, description, source or YAML comments.

``python -m conformance.suite.spec_versions`` (re)writes the release file of the current
version (spec/VERSION's major.minor); released versions are older ones, and never rewritten.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.suite.scenario import SUITE_DIR, find_scenario_files, plugin_documents
from reference_impl.spec_files import spec_dir, spec_version

#: Scenario keys that only explain (not hashed); a step's ``note`` likewise.
_WORDS = frozenset({"$schema", "title", "description", "source", "introduced_in"})
_REQUIREMENT_KEYS = ("level", "profile", "text", "applies_when", "declined_by")


class UnknownSpecVersion(ValueError):
    """A spec version no release file describes; ``known`` lists the versions that exist."""

    def __init__(self, version: str, known: Sequence[str]) -> None:
        self.version, self.known = version, tuple(known)
        super().__init__(f"unknown spec version {version!r}; known versions: {', '.join(known)}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Release:
    """One version's set: requirement id -> hash and scenario id -> hash, in file order."""

    version: str
    requirements: Mapping[str, str]
    scenarios: Mapping[str, str]


def version_key(version: str) -> tuple[int, ...]:
    """``"1.10"`` -> ``(1, 10)``: versions compare as numbers, not as text."""
    return tuple(int(part) for part in version.split("."))


def current_version() -> str:
    """The version under work: spec/VERSION's major.minor (``1.1.0`` -> ``1.1``)."""
    return ".".join(spec_version().split(".")[:2])


def full_version(version: str) -> str:
    """The spec version a runner names in ``hello`` when it runs ``version``'s set (``1.0`` -> ``1.0.0``).

    The current version is spec/VERSION; an older one is its first release, ``X.Y.0``: a released
    version's set never changes (a fix is a new scenario of the next version), so it has no later one.
    """
    return spec_version() if version == current_version() else f"{version}.0"


def releases_dir() -> Path:
    """spec/releases (inside the wheel: reference_impl/_spec/releases)."""
    return spec_dir() / "releases"


def known_versions() -> tuple[str, ...]:
    """Every version with a release file, oldest first."""
    return tuple(sorted((p.stem for p in releases_dir().glob("*.yaml")), key=version_key))


def resolve(version: str | None) -> str:
    """``version`` checked against the release files, or the newest when None.

    Raises UnknownSpecVersion (naming the known versions) for a version without a release file.
    """
    known = known_versions()
    if version is None:
        return known[-1]
    if version not in known:
        raise UnknownSpecVersion(version, known)
    return version


def within(introduced_in: str, version: str) -> bool:
    """Whether an item introduced in ``introduced_in`` belongs to ``version``'s set ('' belongs to every one)."""
    return not introduced_in or version_key(introduced_in) <= version_key(version)


def digest(content: Any) -> str:
    """The first 16 hex digits of SHA-256 over ``content`` as canonical JSON."""
    import hashlib  # here: every pas run imports this module, and only release checks hash (OpenSSL loads in 3 ms)

    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def requirement_hash(entry: Mapping[str, Any]) -> str:
    """The hash of a requirement entry's meaning (level, profile, folded text, options)."""
    content = {key: entry[key] for key in _REQUIREMENT_KEYS if key in entry}
    content["text"] = " ".join(str(entry.get("text", "")).split())
    return digest(content)


def scenario_hash(doc: YamlDocument) -> str:
    """The hash of what a scenario document sends and expects (fixtures merged; words and notes left out)."""
    content = {key: value for key, value in doc.value.items() if key not in _WORDS and not key.startswith("x-")}
    content["plugins"] = plugin_documents(doc)
    content["steps"] = [{k: v for k, v in step.items() if k != "note"} for step in doc.value.get("steps", ())]
    return digest(content)


def _introduced(docs: Iterable[Mapping[str, Any]], version: str) -> dict[str, Mapping[str, Any]]:
    return {d["id"]: d for d in docs if isinstance(d.get("introduced_in"), str) and within(d["introduced_in"], version)}


def tree_release(version: str) -> Release:
    """``version``'s set as the tree holds it now: spec/requirements.yaml and the bundled suite.

    Raises OSError or ValueError when a file cannot be read (the project's own files).
    """
    requirements, scenarios = tree_documents()
    by_id = {doc.value["id"]: doc for doc in scenarios}
    return Release(version=version,
                   requirements={i: requirement_hash(e) for i, e in _introduced(requirements, version).items()},
                   scenarios={i: scenario_hash(by_id[i]) for i in _introduced((d.value for d in scenarios), version)})


def tree_documents() -> tuple[list[Mapping[str, Any]], list[YamlDocument]]:
    """The requirement entries of spec/requirements.yaml and the documents of the bundled suite.

    Raises ValueError naming the file when one cannot be read.
    """
    docs = [_read(path) for path in [spec_dir() / "requirements.yaml", *find_scenario_files([SUITE_DIR])[0]]]
    return list(docs[0].value["requirements"]), docs[1:]


def _read(path: Path) -> YamlDocument:
    doc, problems = load_mapping(path)
    if doc is None:
        raise ValueError(f"{path}: {'; '.join(p.message for p in problems)}")
    return doc


def load_release(version: str) -> Release:
    """The frozen set of ``version`` from spec/releases/<version>.yaml.

    Raises ValueError when the file is missing or unreadable.
    """
    value = _read(releases_dir() / f"{version}.yaml").value
    return Release(version=str(value["version"]), requirements=dict(value.get("requirements") or {}),
                   scenarios=dict(value.get("scenarios") or {}))


def differences(frozen: Release, tree: Release) -> list[str]:
    """What the tree changed in a version's set: each id added, removed or changed in meaning."""
    found: list[str] = []
    for kind, was, now in (("requirement", frozen.requirements, tree.requirements),
                           ("scenario", frozen.scenarios, tree.scenarios)):
        found += [f"spec {frozen.version}: {kind} {i} is not in the release file (added)" for i in now if i not in was]
        found += [f"spec {frozen.version}: {kind} {i} of the release file is gone (removed)" for i in was if i not in now]
        found += [f"spec {frozen.version}: {kind} {i} changed its meaning (hash {was[i]} -> {now[i]})"
                  for i in was if i in now and was[i] != now[i]]
    return found


def render_release(release: Release) -> str:
    """The release file's text: a header saying what it is, then the two id -> hash maps."""
    lines = [f"# Spec {release.version}: every requirement and scenario of this version, each with the hash of its",
             "# meaning (conformance/suite/spec_versions.py says what is hashed). Written by",
             "# `python -m conformance.suite.spec_versions` while the version is current; frozen once released.",
             f'version: "{release.version}"']
    for name, items in (("requirements", release.requirements), ("scenarios", release.scenarios)):
        lines.append(f"{name}:")
        lines += [f"  {item}: \"{value}\"" for item, value in items.items()]
    return "\n".join(lines) + "\n"


def write_current() -> Path:
    """(Re)write the release file of the current version from the tree; returns its path."""
    version = current_version()
    path = releases_dir() / f"{version}.yaml"
    path.write_text(render_release(tree_release(version)), encoding="utf-8")
    return path


def main() -> int:
    """Write the current version's release file and say what it holds; 0, or 2 with a message on a read error."""
    try:
        path = write_current()
        release = load_release(current_version())
    except (OSError, ValueError) as error:
        print(f"spec_versions: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path}: spec {release.version}, {len(release.requirements)} requirements, "
          f"{len(release.scenarios)} scenarios")
    return 0


if __name__ == "__main__":
    sys.exit(main())
