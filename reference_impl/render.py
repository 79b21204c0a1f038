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
from collections.abc import Iterable, Mapping
from typing import NamedTuple

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


class Piece(NamedTuple):
    """A run of characters of a text, with the part of the layout that writes it.

    ``part`` names what the layout rules say about those characters (``frame``,
    ``element_layout``, ``brief_value``, ``method_entry``, ``called_name`` ...); ``slot`` names the
    element they belong to (``3/methods``: the methods element of the fourth block), empty
    outside elements. :mod:`conformance.suite.text_parts` maps a difference to these parts.
    """

    text: str
    part: str
    slot: str = ""


def joined(pieces: Iterable[Piece]) -> str:
    """The text the pieces make."""
    return "".join(piece.text for piece in pieces)


def _open_tag(manifest: Manifest, view: PluginView) -> list[Piece]:
    """``<plugin name=.. module_name=.. call_priority="auto" state=..>``, with rounds_left but when always awake."""
    tag = [Piece("<plugin name=", "open_tag"), Piece(quoteattr(manifest.name), "open_tag"),
           Piece(" module_name=", "open_tag"), Piece(quoteattr(manifest.module_name), "open_tag"),
           Piece(f" call_priority={quoteattr(CALL_PRIORITY)}", "call_priority"),
           Piece(f" state={quoteattr(view.state.value)}", "open_tag")]
    if view.state is PluginState.ACTIVE:
        tag.append(Piece(" rounds_left=" + quoteattr(str(view.rounds_left)), "open_tag"))
    elif view.state is PluginState.SLEEPING:
        tag.append(Piece(' rounds_left="0"', "open_tag"))
    return [*tag, Piece(">", "open_tag")]


def method_entry(method: Method) -> str:
    """One method's entry: ``* name`` (plus the agent marker), then its trimmed description (TXT-LAYOUT-5)."""
    marker = AGENT_MARKER if method.kind in _STOPPING_KINDS else ""
    return f"* {escape(method.name)}{marker}\n{escape(method.description.strip(WHITE_SPACE))}"


def method_list(manifest: Manifest) -> str:
    """The methods' entries joined by one newline; a method with an empty description is left out (TXT-LAYOUT-5)."""
    return "\n".join(method_entry(m) for m in manifest.methods if m.description)


def _element(tag: str, value: str, part: str, slot: str) -> list[Piece]:
    """One optional slot of the frame: nothing when there is no value (TXT-LAYOUT-3, TXT-LAYOUT-4)."""
    if not value:
        return []
    line = Piece("\n", "element_layout", slot)
    value_part = {"brief": "brief_value", "methods": "method_entry"}.get(part, part)
    return [line, Piece(f"<{tag}>", part, slot), line, Piece(value, value_part, slot), line,
            Piece(f"</{tag}>", part, slot), line]


def _frame(open_tag: list[Piece], *, brief: str = "", rule: str = "", hint: str = "", injected: str = "",
           methods: str = "") -> list[Piece]:
    """The block frame of TXT-LAYOUT-3: five slots, each empty or one element, with fixed separators."""
    two = Piece("\n\n", "frame")
    return [Piece("\n", "block_start"), *open_tag, two,
            *_element("capability_brief", brief, "brief", "brief"), two,
            *_element("activation_rule", rule, "sleeping_rule", "sleeping_rule"), two,
            *_element("activation_rule", hint, "hint", "hint"), two,
            *_element("injected_prompt", injected, "injected_prompt", "injected_prompt"), Piece("\n", "frame"),
            *_element("predefined_methods", methods, "methods", "methods"), two, Piece("</plugin>\n", "block_end")]


def block_pieces(manifest: Manifest, view: PluginView, *, with_injection: bool) -> list[Piece]:
    """One ``<plugin>`` block as pieces; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    open_tag = _open_tag(manifest, view)
    if view.state is PluginState.SLEEPING:
        return _frame(open_tag, brief=escape(manifest.brief), rule=SLEEPING_RULE)
    hint = escape(last_run_hint(manifest.module_name)) if view.hint else ""
    injected = escape(injected_placeholder(manifest.module_name)) if with_injection and view.injection_called else ""
    return _frame(open_tag, hint=hint, injected=injected, methods=method_list(manifest))


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool) -> str:
    """One ``<plugin>`` block; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    return joined(block_pieces(manifest, view, with_injection=with_injection))


def _context_pieces(manifest: Manifest) -> list[Piece]:
    """The ``<plugin_runtime_context>`` of a plugin whose prompt a run injects, as pieces (TXT-LAYOUT-7)."""
    name, module = quoteattr(manifest.name), quoteattr(manifest.module_name)
    line = Piece("\n", "context_layout")
    return [Piece(f"<plugin_runtime_context name={name} module_name={module}>", "runtime_context"), line,
            Piece(escape(injected_placeholder(manifest.module_name)), "runtime_context"), line,
            Piece("</plugin_runtime_context>", "runtime_context")]


def runtime_context(manifest: Manifest) -> str:
    """The ``<plugin_runtime_context>`` of a plugin whose prompt a run injects (TXT-LAYOUT-7)."""
    return joined(_context_pieces(manifest))


def _numbered(pieces: list[Piece], index: int) -> list[Piece]:
    return [piece._replace(slot=f"{index}/{piece.slot}") if piece.slot else piece for piece in pieces]


def run_pieces(manifests: Mapping[str, Manifest], observation: RunObservation) -> list[Piece]:
    """The plugin part of the prompt for one run, as pieces: blocks, then runtime contexts (TXT-LAYOUT-6, -7)."""
    views = observation.plugins
    pieces: list[Piece] = []
    for index, view in enumerate(views):
        if index:
            pieces.append(Piece("\n\n", "block_join"))
        pieces += _numbered(block_pieces(manifests[view.module_name], view, with_injection=False), index)
    for view in (v for v in views if v.injection_called):
        pieces += [Piece("\n\n", "context_layout"), *_context_pieces(manifests[view.module_name])]
    return pieces


def render_run(manifests: Mapping[str, Manifest], observation: RunObservation) -> str:
    """The plugin part of the prompt for one run: blocks, then runtime contexts (TXT-LAYOUT-6, TXT-LAYOUT-7)."""
    return joined(run_pieces(manifests, observation))


def _sentence(outcome: str, *parts: str | tuple[str, str]) -> list[Piece]:
    """A reply sentence: fixed words (the outcome's sentence), with the called name and counts as their own pieces."""
    return [Piece(p, f"sentence_{outcome}") if isinstance(p, str) else Piece(p[0], p[1]) for p in parts]


def reply_pieces(manifests: Mapping[str, Manifest], call: Call, reply: CallObservation) -> list[Piece]:
    """The sentence(s) a method call returns to the model, as pieces (TXT-REPLY-1..9, TXT-LAYOUT-8).

    Raises ValueError for a reply the scheduler never produces (an unknown outcome, or
    ``activated`` without its block).
    """
    m = (reply.module_name, "called_name")
    rounds = f"{reply.rounds}"
    match reply.outcome:
        case OutcomeKind.ACTIVATED:
            if reply.block is None:
                raise ValueError(f"an activated reply for {reply.module_name!r} carries no block")
            return [*_sentence("activated", "Plugin `", m, "` is now activated for the next ", rounds, " runs. The full "
                               "plugin block is returned below and is now the source of truth for this capability. "
                               "Stop here and continue in the next agent step."),
                    Piece("\n\n", "reply_layout"),
                    *_numbered(block_pieces(manifests[reply.module_name], reply.block, with_injection=True), 0)]
        case OutcomeKind.ALREADY_ACTIVE:
            return _sentence("already_active", "Plugin `", m, "` is already active with ", rounds, " runs remaining. "
                             "Use `extend_plugin_activation(module_name, rounds)` if you need to keep it visible longer.")
        case OutcomeKind.ALWAYS_AWAKE:
            need = "need activation" if isinstance(call, Activate) else "need to be extended"
            return _sentence("always_awake", "Plugin `", m, f"` is always visible and does not {need}. "
                             "You can use its predefined methods directly.")
        case OutcomeKind.NOT_FOUND:
            return _sentence("not_found", "Plugin `", m, "` is missing or disabled.")
        case OutcomeKind.EXTENDED:
            return _sentence("extended", "Plugin `", m, "` visibility extended. ", rounds, " runs remain.")
        case OutcomeKind.INVALID_ARGUMENT:
            # JSON spelling, so that every implementation language can produce the same text.
            spelled = json.dumps(thaw(call.rounds), separators=(',', ':'), ensure_ascii=False)
            return _sentence("invalid_argument", "Invalid rounds value ", spelled, ": rounds must be an integer.")
    raise ValueError(f"unknown outcome {reply.outcome!r}")


def render_reply(manifests: Mapping[str, Manifest], call: Call, reply: CallObservation) -> str:
    """The sentence(s) a method call returns to the model (TXT-REPLY-1..6, TXT-LAYOUT-8).

    Raises ValueError for a reply the scheduler never produces (an unknown outcome, or
    ``activated`` without its block).
    """
    return joined(reply_pieces(manifests, call, reply))
