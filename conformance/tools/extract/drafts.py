"""Manifests an extractor has built, checked by the one loader, then written with their source map.

Every extractor (``nekro``, ``mcp``, ``skills``) turns what it read into :class:`Draft` values:
the manifest document, a header line saying where it came from, and, for JSON pointers into
the manifest, the place in the source each value came from. :func:`plan` renders each draft as
YAML, reads the text back through the one loader (:func:`conformance.documents.sets.load_text`)
exactly as ``pas validate`` and ``pas simulate`` will read the file, and keeps the valid ones;
:func:`write` writes them and the source map (:mod:`conformance.documents.source_map`), so that
``pas validate`` reports a problem in a generated manifest at the source line it came from.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.documents import source_map
from reference_impl.problems import Problem, Severity, SourceLocation

MODELINE = "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class Draft:
    """One manifest an extractor built: the document, where it came from, and where each part was read."""

    doc: Mapping[str, Any]
    origin: str  # the header comment's words: "`pas extract mcp` from servers/fetch.json"
    source: SourceLocation  # the plugin as a whole (a call, a file, a server)
    sources: Mapping[str, SourceLocation] = field(default_factory=dict)  # JSON pointer -> where it was read


@dataclass(frozen=True, slots=True, kw_only=True)
class Output:
    """One manifest ready to write: where, the YAML text, and the plugin it came from."""

    filename: str
    text: str
    module_name: str
    source: SourceLocation
    sources: Mapping[str, SourceLocation] = field(default_factory=dict)  # JSON pointer -> where it was written


def render_yaml(draft: Draft) -> str:
    """The manifest as YAML: modeline, provenance comment, then the document in the draft's key order."""
    import yaml

    header = [MODELINE, f"# Extracted by {draft.origin}."]
    body = yaml.dump(dict(draft.doc), Dumper=_dumper(), allow_unicode=True, sort_keys=False, width=1_000_000,
                     default_flow_style=False)
    return "\n".join(header) + "\n" + body


def _literal_blocks(dumper: Any, value: str) -> Any:
    """Multi-line text as a ``|-`` block (PyYAML falls back to quoting when a block cannot hold it)."""
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


@functools.cache
def _dumper() -> type:
    import yaml

    class Dumper(yaml.SafeDumper):
        """SafeDumper writing multi-line strings as literal blocks."""

    Dumper.add_representer(str, _literal_blocks)
    return Dumper


def _field_source(draft: Draft, pointer: str) -> SourceLocation:
    """Where the value at ``pointer`` was read (the plugin's own place when unknown)."""
    return source_map.origin(draft.sources, pointer) or draft.source


def check(draft: Draft) -> list[Problem]:
    """Schema problems of the draft's manifest, located in its source.

    The YAML text that would be written is read back by the one loader, as ``pas validate`` and
    ``pas simulate`` will read the file: it must hold one document, of kind plugin-manifest,
    equal to the draft's; when it does not, that is a bug of pas extract (``internal-error``).
    """
    from conformance.documents.kinds import Kind
    from conformance.documents.sets import load_text
    from conformance.documents.walk import Target

    doc = draft.doc
    loaded = load_text(render_yaml(draft), Target(path=f"<generated {doc.get('module_name')}.yaml>"))
    documents = loaded.documents
    if loaded.problems or len(documents) != 1 or documents[0].kind is not Kind.MANIFEST or documents[0].doc.value != doc:
        return [Problem(code="internal-error", message="the generated YAML does not read back as the manifest "
                        "(a bug in pas extract; please report it)", source=draft.source)]
    return [Problem(code="invalid-manifest", message=f"the manifest would not be valid: {p.message}", pointer=p.pointer,
                    source=_field_source(draft, p.pointer), severity=Severity.ERROR) for p in documents[0].problems]


def plan(drafts: Iterable[Draft]) -> tuple[list[Output], list[Problem]]:
    """The files to write, one per valid draft; problems for invalid drafts and repeated module names."""
    outputs: list[Output] = []
    problems: list[Problem] = []
    taken: dict[str, SourceLocation] = {}
    for draft in drafts:
        found = check(draft)
        if found:
            problems += found
            continue
        module = draft.doc["module_name"]
        if module in taken:
            problems.append(Problem(code="duplicate-module-name", message=f"module_name '{module}' was already "
                                    f"extracted from {taken[module]}; this plugin is not written", source=draft.source))
            continue
        taken[module] = draft.source
        outputs.append(Output(filename=f"{module}.yaml", text=render_yaml(draft), module_name=module,
                              source=draft.source, sources=draft.sources))
    return outputs, problems


def write(outputs: Sequence[Output], directory: Path) -> list[Path]:
    """Write every output into ``directory`` (created if needed), then the source map; raises OSError when it cannot."""
    directory.mkdir(parents=True, exist_ok=True)
    written, entries = [], {}
    for output in outputs:
        path = directory / output.filename
        path.write_text(output.text, encoding="utf-8")
        written.append(path)
        if output.sources:
            entries[output.filename] = (source_map.digest(path.read_bytes()), output.sources)
    if entries:
        source_map.write(directory, entries)
    return written
