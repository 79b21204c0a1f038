"""From extracted NekroAgent plugins to PAS manifest YAML files, schema-checked before writing.

Field mapping: ``name``, ``module_name``, ``version``, ``description``, ``author``, ``url``,
``support_adapter``, ``allow_sleep`` and ``sleep_brief`` keep their names, ``is_builtin``
becomes ``builtin``; ``description``, ``version`` and ``url`` are stripped as NekroAgent
strips them. Defaults (``allow_sleep: None``, ``is_builtin=False``, no adapters) are left
out. A manifest that does not pass the plugin-manifest schema (say, its version was built
at run time) is not written: its problems say why; neither is a plugin whose
``NekroPlugin(...)`` call NekroAgent rejects (it never loads).

Each method is what NekroAgent shows the model: ``name`` is the function's name,
``description`` exactly ``__doc__.strip()`` (the whole docstring, inner indentation kept as
written, no dedent: that is NekroAgent 2.4.0's rendering), ``parameters`` the signature as a
JSON Schema. The mount's ``description=`` (WebUI only) becomes ``label``, its ``name=``
``x-nekro-name``. Multi-line descriptions are written as YAML literal blocks (``|-``).

Beside the manifests, ``write_outputs`` writes a source map (:mod:`conformance.documents.
source_map`): for each manifest, where in the Python source each field and method came from,
so that ``pas validate`` reports a problem at the ``.py`` line.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.documents import source_map
from conformance.tools.extract.model import Plugin
from reference_impl.problems import Problem, Severity, SourceLocation

MODELINE = "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json"
_RENAMED = {"is_builtin": "builtin"}
_STRIPPED = frozenset({"description", "version", "url"})
_ORDER = ("name", "module_name", "version", "description", "author", "url", "builtin", "support_adapter",
          "allow_sleep", "sleep_brief")


@dataclass(frozen=True, slots=True, kw_only=True)
class Output:
    """One manifest ready to write: where, the YAML text, and the plugin it came from."""

    filename: str
    text: str
    module_name: str
    source: SourceLocation
    sources: Mapping[str, SourceLocation] = field(default_factory=dict)  # JSON pointer -> where it was written


def manifest_doc(plugin: Plugin) -> dict[str, Any]:
    """The PAS manifest document of an extracted plugin (only the fields that were resolved)."""
    values: dict[str, Any] = {}
    for key, located in plugin.fields.items():
        value = located.value
        if key in _STRIPPED and isinstance(value, str):
            value = value.strip()
        values[_RENAMED.get(key, key)] = value
    doc: dict[str, Any] = {"kind": "plugin-manifest"}
    for key in _ORDER:
        value = values.get(key)
        if value is None or (key == "builtin" and value is False) or (key == "support_adapter" and value == []):
            continue
        doc[key] = value
    if plugin.injects_prompt:
        doc["injects_prompt"] = True
    if plugin.methods:
        doc["methods"] = [_method_doc(m) for m in plugin.methods]
    return doc


def _method_doc(method: Any) -> dict[str, Any]:
    doc = {"name": method.name, "kind": method.kind, "description": method.description}
    if method.label:
        doc["label"] = method.label
    if method.parameters:
        doc["parameters"] = dict(method.parameters)
    if method.display_name:
        doc["x-nekro-name"] = method.display_name
    return doc


def source_pointers(plugin: Plugin) -> dict[str, SourceLocation]:
    """JSON pointer into the manifest -> where it was written: the call, each field, each method's ``def``."""
    found = {"": plugin.source}
    found.update({f"/{_RENAMED.get(key, key)}": located.source for key, located in plugin.fields.items()})
    found.update({f"/methods/{index}": method.source for index, method in enumerate(plugin.methods)})
    return found


def _field_source(plugin: Plugin, pointer: str) -> SourceLocation:
    """Where the value at ``pointer`` was written in the Python source (the call when unknown)."""
    return source_map.origin(source_pointers(plugin), pointer) or plugin.source


def check_manifest(plugin: Plugin, doc: Mapping[str, Any]) -> list[Problem]:
    """Schema problems of ``doc``, located in the plugin's Python source.

    The YAML text that would be written is read back by the one loader
    (:func:`conformance.documents.sets.load_text`), as ``pas validate`` and ``pas simulate`` will
    read the file: it must hold one document, of kind plugin-manifest, equal to ``doc``.
    """
    from conformance.documents.kinds import Kind
    from conformance.documents.sets import load_text
    from conformance.documents.walk import Target

    loaded = load_text(render_yaml(doc, plugin), Target(path=f"<generated {doc.get('module_name')}.yaml>"))
    documents = loaded.documents
    if loaded.problems or len(documents) != 1 or documents[0].kind is not Kind.MANIFEST or documents[0].doc.value != doc:
        return [Problem(code="internal-error", message="the generated YAML does not read back as the manifest "
                        "(a bug in pas extract; please report it)", source=plugin.source)]
    return [Problem(code="invalid-manifest", message=f"the manifest would not be valid: {p.message}", pointer=p.pointer,
                    source=_field_source(plugin, p.pointer), severity=Severity.ERROR) for p in documents[0].problems]


def render_yaml(doc: Mapping[str, Any], plugin: Plugin) -> str:
    """The manifest as YAML: modeline, provenance comment, then the document in field order."""
    import yaml

    source = plugin.source
    header = [MODELINE, f"# Extracted by `pas extract nekro` from {source.path}:{source.line} ({plugin.variable or 'NekroPlugin(...)'})."]
    body = yaml.dump(dict(doc), Dumper=_dumper(), allow_unicode=True, sort_keys=False, width=1_000_000,
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



def plan_outputs(plugins: Sequence[Plugin]) -> tuple[list[Output], list[Problem]]:
    """The files to write, one per valid plugin; problems for invalid and duplicate ones."""
    outputs: list[Output] = []
    problems: list[Problem] = []
    taken: dict[str, SourceLocation] = {}
    for plugin in plugins:
        if plugin.rejected:  # already reported: NekroAgent never loads it
            continue
        doc = manifest_doc(plugin)
        found = check_manifest(plugin, doc)
        if found:
            problems += found
            continue
        module = doc["module_name"]
        if module in taken:
            problems.append(Problem(code="duplicate-module-name", message=f"module_name '{module}' was already "
                                    f"extracted from {taken[module]}; this plugin is not written", source=plugin.source))
            continue
        taken[module] = plugin.source
        outputs.append(Output(filename=f"{module}.yaml", text=render_yaml(doc, plugin), module_name=module,
                              source=plugin.source, sources=source_pointers(plugin)))
    return outputs, problems


def write_outputs(outputs: Iterable[Output], directory: Path) -> list[Path]:
    """Write every output into ``directory`` (created if needed), then the source map; raises OSError when it cannot."""
    directory.mkdir(parents=True, exist_ok=True)
    written, entries = [], {}
    for output in outputs:
        path = directory / output.filename
        path.write_text(output.text, encoding="utf-8")
        written.append(path)
        entries[output.filename] = (source_map.digest(path.read_bytes()), output.sources)
    if entries:
        source_map.write(directory, entries)
    return written
