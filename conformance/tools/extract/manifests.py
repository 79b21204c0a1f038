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
``x-nekro-name``. Multi-line descriptions are written as YAML literal blocks (``|-``). A
prompt injection whose function only returns a string literal injects that text every run:
it is kept in ``x-nekro-injected-text``, which ``pas budget`` counts.

Beside the manifests, ``write_outputs`` writes a source map (:mod:`conformance.documents.
source_map`): for each manifest, where in the Python source each field and method came from,
so that ``pas validate`` reports a problem at the ``.py`` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from conformance.tools.extract import drafts
from conformance.tools.extract.drafts import Output
from conformance.tools.extract.model import Plugin
from reference_impl.problems import Problem, SourceLocation

__all__ = ["Output", "draft_of", "manifest_doc", "plan_outputs", "source_pointers", "write_outputs"]

_RENAMED = {"is_builtin": "builtin"}
_STRIPPED = frozenset({"description", "version", "url"})
_ORDER = ("name", "module_name", "version", "description", "author", "url", "builtin", "support_adapter",
          "allow_sleep", "sleep_brief")


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
    if plugin.injected_text is not None:
        doc["x-nekro-injected-text"] = plugin.injected_text
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


def draft_of(plugin: Plugin) -> drafts.Draft:
    """The draft of one extracted plugin: its manifest, provenance and the source of every field and method."""
    origin = f"`pas extract nekro` from {plugin.source.path}:{plugin.source.line} ({plugin.variable or 'NekroPlugin(...)'})"
    return drafts.Draft(doc=manifest_doc(plugin), origin=origin, source=plugin.source, sources=source_pointers(plugin))


def plan_outputs(plugins: Sequence[Plugin]) -> tuple[list[Output], list[Problem]]:
    """The files to write, one per valid plugin; problems for invalid and duplicate ones.

    A plugin whose ``NekroPlugin(...)`` call NekroAgent rejects is skipped: it was reported
    already, and NekroAgent never loads it.
    """
    return drafts.plan(draft_of(plugin) for plugin in plugins if not plugin.rejected)


def write_outputs(outputs: Iterable[Output], directory: Path) -> list[Path]:
    """Write every output into ``directory`` (created if needed), then the source map; raises OSError when it cannot."""
    return drafts.write(list(outputs), directory)
