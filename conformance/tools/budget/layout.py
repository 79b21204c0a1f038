"""The plugin text of one run as ``pas budget`` measures it: what each plugin contributes, and in which order.

Three choices, each a parameter of :class:`Layout`:

* **method text**: the reference text (``reference_impl.render``: each shown method as its
  name and description, NekroAgent's layout), optionally followed by each shown method's
  parameter schema as compact JSON (``parameters``); or, with ``declarations``, each shown
  method as the tool declaration an MCP host sends a model provider,
  ``{"name", "description", "input_schema"}`` in compact JSON, one per line after the blocks,
  the blocks keeping their frame, brief and hint but not their method lists. The tool's own
  name (``x-mcp-name``) is used when the manifest kept one.
* **injections**: a plugin that injects a prompt (``injects_prompt``) gets a
  ``<plugin_runtime_context>`` block after all plugin blocks in each run it is awake
  (TXT-LAYOUT-7). When its manifest gives the text (``x-nekro-injected-text``: ``pas extract
  nekro`` writes it for an injection that returns a string literal) the block is counted with
  that text. Otherwise its text is only known at run time: it is not counted, and, as it may
  change every run, a cached prefix can reach no further than where it starts.
* **order** of the blocks: ``reference`` is ACT-ORDER-1 (always-awake plugins, then active and
  sleeping ones together, each by module_name); ``stable`` puts the blocks that change from run
  to run last: always-awake, then sleeping, then active (whose ``rounds_left`` changes every
  run); only the order changes. ``appended`` is not an order of the same blocks but a
  different layout, measured for comparison: the catalogue stays as it is (every plugin that
  can sleep keeps its sleeping block, awake or not) and each active plugin's full block is
  appended after it, as the tool-search features of model providers append loaded tools;
  with ``declarations``, the shown tools come right after the catalogue and the active
  blocks (whose ``rounds_left`` changes every run) last.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reference_impl.events import Call, CallObservation, PluginView, RunObservation
from reference_impl.frozen import thaw
from reference_impl.model import Manifest, PluginState
from reference_impl.render import escape, quoteattr, render_block, render_reply

REFERENCE, STABLE, APPENDED = "reference", "stable", "appended"
ORDERS = (REFERENCE, STABLE, APPENDED)
INJECTED_TEXT_KEY = "x-nekro-injected-text"
_STATE_RANK = {PluginState.ALWAYS_AWAKE: 0, PluginState.SLEEPING: 1, PluginState.ACTIVE: 2}


@dataclass(frozen=True, slots=True, kw_only=True)
class Prompt:
    """A run's plugin text, and how much of its start can be a cached prefix (up to the first text known only at run time)."""

    text: str
    cacheable: int  # characters


def parameters_text(manifests: Mapping[str, Manifest], views: Iterable[PluginView]) -> str:
    """The parameter schemas of every shown method, one compact JSON object per line."""
    return "\n".join(
        json.dumps(thaw(method.parameters), separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        for view in views if view.methods_shown
        for method in manifests[view.module_name].methods if method.parameters
    )


def _asleep(view: PluginView) -> PluginView:
    return PluginView(module_name=view.module_name, state=PluginState.SLEEPING, rounds_left=None, hint=False,
                      brief_shown=True, methods_shown=False, injection_called=False)


def ordered(views: Sequence[PluginView], order: str) -> list[PluginView]:
    """The views in ``order``: as given (``reference``), with the blocks that change last (``stable``), or the
    catalogue kept whole and the active blocks after it (``appended``)."""
    if order == STABLE:
        return sorted(views, key=lambda view: _STATE_RANK[view.state])  # sorted() is stable: by name within a group
    if order == APPENDED:
        awake = [v for v in views if v.state is PluginState.ALWAYS_AWAKE]
        catalogue = [v if v.state is PluginState.SLEEPING else _asleep(v) for v in views
                     if v.state is not PluginState.ALWAYS_AWAKE]
        return awake + catalogue + [v for v in views if v.state is PluginState.ACTIVE]
    return list(views)


class Layout:
    """Renders runs and replies for one plugin set, in one of the measured forms (see the module docstring)."""

    def __init__(self, manifests: Mapping[str, Manifest], docs: Mapping[str, Any] | None = None, *,
                 parameters: bool = False, declarations: bool = False) -> None:
        self.manifests, self.parameters, self.declarations = manifests, parameters, declarations
        docs = docs or {}
        self._docs = {name: docs[name] for name in manifests if isinstance(docs.get(name), Mapping)}
        self._framed = {name: replace(m, methods=()) for name, m in manifests.items()} if declarations else manifests

    def _declarations(self, views: Iterable[PluginView]) -> str:
        lines = []
        for view in views:
            if not view.methods_shown:
                continue
            written = self._docs.get(view.module_name, {}).get("methods") or []
            for index, method in enumerate(self.manifests[view.module_name].methods):
                extra = written[index] if index < len(written) and isinstance(written[index], Mapping) else {}
                name = extra.get("x-mcp-name") if isinstance(extra.get("x-mcp-name"), str) else method.name
                declaration = {"name": name, "description": method.description,
                               "input_schema": thaw(method.parameters) or {"type": "object", "properties": {}}}
                lines.append(json.dumps(declaration, separators=(",", ":"), ensure_ascii=False))
        return "\n".join(lines)

    def _methods(self, views: Sequence[PluginView]) -> str:
        if self.declarations:
            return self._declarations(views)
        return parameters_text(self.manifests, views) if self.parameters else ""

    def injected_text(self, module_name: str) -> str | None:
        """The static text a plugin injects every awake run, when its manifest gives it."""
        value = self._docs.get(module_name, {}).get(INJECTED_TEXT_KEY)
        return value if isinstance(value, str) else None

    def _context(self, module_name: str, text: str) -> str:
        manifest = self.manifests[module_name]
        return (f"<plugin_runtime_context name={quoteattr(manifest.name)} module_name={quoteattr(module_name)}>\n"
                f"{escape(text)}\n</plugin_runtime_context>")

    def run(self, observation: RunObservation, order: str = REFERENCE) -> Prompt:
        """The run's measured text in ``order``, and where text known only at run time would begin."""
        views = ordered(observation.plugins, order)
        # appended, with declarations: the active blocks (their rounds_left changes every run) go after the tools
        last = [v for v in views if order == APPENDED and self.declarations and v.state is PluginState.ACTIVE]
        parts = [render_block(self._framed[v.module_name], v, with_injection=False) for v in views if v not in last]
        methods = self._methods([v for v in views if v.methods_shown])
        if last:
            parts = ["\n\n".join(parts) + "\n" + methods if methods else "\n\n".join(parts)]
            parts += [render_block(self._framed[v.module_name], v, with_injection=False) for v in last]
            methods = ""
        volatile = None
        for view in views:
            if not view.injection_called:
                continue
            static = self.injected_text(view.module_name)
            if static is None:
                volatile = len("\n\n".join(parts)) if volatile is None else volatile
            else:
                parts.append(self._context(view.module_name, static))
        text = "\n\n".join(parts)
        text = f"{text}\n{methods}" if methods else text
        return Prompt(text=text, cacheable=len(text) if volatile is None else volatile)

    def reply(self, call: Call, observation: CallObservation) -> str:
        """An activate/extend reply as measured: the reference reply (its block in this layout's method text)."""
        text = render_reply(self._framed, call, observation)
        methods = self._methods((observation.block,)) if observation.block else ""
        return f"{text}\n{methods}" if methods else text
