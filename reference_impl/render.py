"""The reference text (profile ``text``): plugin blocks, call replies and the last-run hint.

Shapes follow NekroAgent 2.4.0 (see nekro-agent-facts.md) with one deliberate difference:
attribute values and text are XML-escaped (TXT-BLOCK-2). The structured views are
normative; this text is checked only for implementations that claim the text profile.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from reference_impl.events import Activate, Call, CallObservation, PluginView, RunObservation
from reference_impl.model import Manifest, OutcomeKind, PluginState

def escape(text: str) -> str:
    """XML-escape text content (TXT-BLOCK-2); plain replaces keep start-up free of xml.sax."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(value: str) -> str:
    """A double-quoted, escaped XML attribute value (TXT-BLOCK-1, TXT-BLOCK-2)."""
    return '"' + escape(value).replace('"', "&quot;") + '"'


SLEEPING_RULE = "Summary only. Do not guess hidden details. Activate if needed."


def last_run_hint(module_name: str) -> str:
    """The activation hint shown while an active plugin has one visible run left (TXT-BLOCK-4)."""
    return f"Last visible run. Call extend_plugin_activation('{module_name}') now if you still need it next run."


def injected_placeholder(module_name: str) -> str:
    """Stand-in for a plugin's injected prompt: the reference host runs no plugin code."""
    return f"[prompt injected by {module_name}]"


def _open_tag(manifest: Manifest, view: PluginView) -> str:
    attributes = [("name", manifest.name), ("module_name", manifest.module_name), ("state", view.state.value)]
    if view.state is PluginState.ACTIVE:
        attributes.append(("rounds_left", str(view.rounds_left)))
    elif view.state is PluginState.SLEEPING:
        attributes.append(("rounds_left", "0"))
    return "<plugin " + " ".join(f"{key}={quoteattr(value)}" for key, value in attributes) + ">"


def _methods(manifest: Manifest) -> list[str]:
    lines = ["  <predefined_methods>"]
    lines += [f"    - {escape(m.name)} ({m.kind.value}): {escape(m.description)}" for m in manifest.methods]
    lines.append("  </predefined_methods>")
    return lines


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool = False) -> str:
    """One ``<plugin>`` block; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    lines = [_open_tag(manifest, view)]
    if view.state is PluginState.SLEEPING:
        lines.append(f"  <capability_brief>{escape(manifest.brief)}</capability_brief>")
        lines.append(f"  <activation_rule>{SLEEPING_RULE}</activation_rule>")
    else:
        if view.hint:
            lines.append(f"  <activation_rule>{escape(last_run_hint(manifest.module_name))}</activation_rule>")
        if with_injection and view.injection_called:
            lines.append(f"  <injected_prompt>{escape(injected_placeholder(manifest.module_name))}</injected_prompt>")
        lines += _methods(manifest)
    lines.append("</plugin>")
    return "\n".join(lines)


def render_runtime_context(manifest: Manifest) -> str:
    """A ``<plugin_runtime_context>`` block for an injecting awake or active plugin (TXT-BLOCK-6)."""
    name, module = quoteattr(manifest.name), quoteattr(manifest.module_name)
    body = escape(injected_placeholder(manifest.module_name))
    return f"<plugin_runtime_context name={name} module_name={module}>{body}</plugin_runtime_context>"


def render_run(manifests: Mapping[str, Manifest], observation: RunObservation) -> str:
    """The plugin part of the prompt for one run: blocks in order, then runtime contexts."""
    parts = [render_block(manifests[v.module_name], v) for v in observation.plugins]
    parts += [render_runtime_context(manifests[v.module_name]) for v in observation.plugins if v.injection_called]
    return "\n".join(parts)


def render_reply(manifests: Mapping[str, Manifest], call: Call, reply: CallObservation) -> str:
    """The sentence(s) a method call returns to the model (TXT-REPLY-1..6).

    Raises ValueError for a reply the scheduler never produces (an unknown outcome, or
    ``activated`` without its block).
    """
    m = reply.module_name
    match reply.outcome:
        case OutcomeKind.ACTIVATED:
            if reply.block is None:
                raise ValueError(f"an activated reply for {m!r} carries no block")
            block = render_block(manifests[m], reply.block, with_injection=True)
            return (
                f"Plugin `{m}` is now activated for the next {reply.rounds} runs. The full plugin block is "
                "returned below and is now the source of truth for this capability. Stop here and continue "
                f"in the next agent step.\n\n{block}"
            )
        case OutcomeKind.ALREADY_ACTIVE:
            return (
                f"Plugin `{m}` is already active with {reply.rounds} runs remaining. "
                "Use `extend_plugin_activation(module_name, rounds)` to keep it visible longer."
            )
        case OutcomeKind.ALWAYS_AWAKE:
            need = "need activation" if isinstance(call, Activate) else "need to be extended"
            return f"Plugin `{m}` is always visible and does not {need}."
        case OutcomeKind.NOT_FOUND:
            return f"Plugin `{m}` is missing or disabled."
        case OutcomeKind.EXTENDED:
            return f"Plugin `{m}` visibility extended. {reply.rounds} runs remain."
        case OutcomeKind.INVALID_ARGUMENT:
            # JSON spelling, so that every implementation language can produce the same text.
            return f"Invalid rounds value {json.dumps(call.rounds, separators=(',', ':'), ensure_ascii=False)}: rounds must be an integer."
    raise ValueError(f"unknown outcome {reply.outcome!r}")
