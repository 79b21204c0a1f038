"""The reference text (profile ``text``): plugin blocks, call replies and the last-run hint.

The text is NekroAgent 2.4.0's own rendering, byte for byte (its plugin-block template
``templates/j2/plugin.j2``, ``templates/plugin.py`` and the replies of
``plugins/builtin/plugin_activation.py``), reproduced here by our own code from the layout
rules TXT-LAYOUT-1..8, with one deliberate difference: attribute values and text are
XML-escaped (TXT-BLOCK-2; docs/divergences.md#escaping-in-blocks). The structured views are
normative; this text is checked only for implementations that claim the text profile.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from reference_impl.events import Activate, Call, CallObservation, PluginView, RunObservation
from reference_impl.frozen import thaw
from reference_impl.model import WHITE_SPACE, Manifest, Method, MethodKind, OutcomeKind, PluginState

#: The ``call_priority`` attribute: PAS has no call-priority setting, so every block carries
#: NekroAgent's default (TXT-LAYOUT-2).
CALL_PRIORITY = "auto"

SLEEPING_RULE = "Summary only. Do not guess hidden details. Activate if needed."

#: Written after the name of an agent or multimodal_agent method (TXT-LAYOUT-5).
AGENT_MARKER = " - **[AGENT METHOD - STOP AFTER CALL]**"

_STOPPING_KINDS = frozenset({MethodKind.AGENT, MethodKind.MULTIMODAL_AGENT})


def escape(text: str) -> str:
    """XML-escape text content (TXT-BLOCK-2); plain replaces keep start-up free of xml.sax."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(value: str) -> str:
    """A double-quoted, escaped XML attribute value (TXT-BLOCK-1, TXT-BLOCK-2)."""
    return '"' + escape(value).replace('"', "&quot;") + '"'


def last_run_hint(module_name: str) -> str:
    """The activation hint shown while an active plugin has one visible run left (TXT-BLOCK-4)."""
    return f"Last visible run. Call extend_plugin_activation('{module_name}') now if you still need it next run."


def injected_placeholder(module_name: str) -> str:
    """Stand-in for a plugin's injected prompt: the reference host runs no plugin code."""
    return f"[prompt injected by {module_name}]"


def _open_tag(manifest: Manifest, view: PluginView) -> str:
    """``<plugin name=.. module_name=.. call_priority="auto" state=..>``, with rounds_left but when always awake."""
    tag = (f"<plugin name={quoteattr(manifest.name)} module_name={quoteattr(manifest.module_name)} "
           f"call_priority={quoteattr(CALL_PRIORITY)} state={quoteattr(view.state.value)}")
    if view.state is PluginState.ACTIVE:
        tag += " rounds_left=" + quoteattr(str(view.rounds_left))
    elif view.state is PluginState.SLEEPING:
        tag += ' rounds_left="0"'
    return tag + ">"


def method_entry(method: Method) -> str:
    """One method's entry: ``* name`` (plus the agent marker), then its trimmed description (TXT-LAYOUT-5)."""
    marker = AGENT_MARKER if method.kind in _STOPPING_KINDS else ""
    return f"* {escape(method.name)}{marker}\n{escape(method.description.strip(WHITE_SPACE))}"


def method_list(manifest: Manifest) -> str:
    """The methods' entries joined by one newline; a method with an empty description is left out (TXT-LAYOUT-5)."""
    return "\n".join(method_entry(m) for m in manifest.methods if m.description)


def _element(tag: str, value: str) -> str:
    """One optional slot of the frame: empty when there is no value (TXT-LAYOUT-3, TXT-LAYOUT-4)."""
    return f"\n<{tag}>\n{value}\n</{tag}>\n" if value else ""


def _frame(open_tag: str, *, brief: str = "", rule: str = "", hint: str = "", injected: str = "", methods: str = "") -> str:
    """The block frame of TXT-LAYOUT-3: five slots, each empty or one element, with fixed separators."""
    slots = [_element("capability_brief", brief), _element("activation_rule", rule), _element("activation_rule", hint),
             _element("injected_prompt", injected), _element("predefined_methods", methods)]
    return ("\n" + open_tag + "\n\n" + slots[0] + "\n\n" + slots[1] + "\n\n" + slots[2] + "\n\n" + slots[3] + "\n"
            + slots[4] + "\n\n</plugin>\n")


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool) -> str:
    """One ``<plugin>`` block; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    open_tag = _open_tag(manifest, view)
    if view.state is PluginState.SLEEPING:
        return _frame(open_tag, brief=escape(manifest.brief), rule=SLEEPING_RULE)
    hint = escape(last_run_hint(manifest.module_name)) if view.hint else ""
    injected = escape(injected_placeholder(manifest.module_name)) if with_injection and view.injection_called else ""
    return _frame(open_tag, hint=hint, injected=injected, methods=method_list(manifest))


def runtime_context(manifest: Manifest) -> str:
    """The ``<plugin_runtime_context>`` of a plugin whose prompt a run injects (TXT-LAYOUT-7)."""
    name, module = quoteattr(manifest.name), quoteattr(manifest.module_name)
    injected = escape(injected_placeholder(manifest.module_name))
    return f"<plugin_runtime_context name={name} module_name={module}>\n{injected}\n</plugin_runtime_context>"


def render_run(manifests: Mapping[str, Manifest], observation: RunObservation) -> str:
    """The plugin part of the prompt for one run: blocks, then runtime contexts (TXT-LAYOUT-6, TXT-LAYOUT-7)."""
    views = observation.plugins
    blocks = [render_block(manifests[view.module_name], view, with_injection=False) for view in views]
    contexts = [runtime_context(manifests[view.module_name]) for view in views if view.injection_called]
    return "\n\n".join(blocks + contexts)


def render_reply(manifests: Mapping[str, Manifest], call: Call, reply: CallObservation) -> str:
    """The sentence(s) a method call returns to the model (TXT-REPLY-1..6, TXT-LAYOUT-8).

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
                "Use `extend_plugin_activation(module_name, rounds)` if you need to keep it visible longer."
            )
        case OutcomeKind.ALWAYS_AWAKE:
            need = "need activation" if isinstance(call, Activate) else "need to be extended"
            return f"Plugin `{m}` is always visible and does not {need}. You can use its predefined methods directly."
        case OutcomeKind.NOT_FOUND:
            return f"Plugin `{m}` is missing or disabled."
        case OutcomeKind.EXTENDED:
            return f"Plugin `{m}` visibility extended. {reply.rounds} runs remain."
        case OutcomeKind.INVALID_ARGUMENT:
            # JSON spelling, so that every implementation language can produce the same text.
            return f"Invalid rounds value {json.dumps(thaw(call.rounds), separators=(',', ':'), ensure_ascii=False)}: rounds must be an integer."
    raise ValueError(f"unknown outcome {reply.outcome!r}")
