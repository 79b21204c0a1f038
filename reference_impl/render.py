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
from dataclasses import dataclass

from reference_impl.events import Activate, Call, CallObservation, PluginView, RunObservation
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


def _open_tag(escaped: EscapedManifest, view: PluginView) -> str:
    tag = escaped.open_tag_prefix + quoteattr(view.state.value)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class EscapedManifest:
    """The pieces of one manifest's text, escaped once (TXT-BLOCK-2) and reused by every block."""

    open_tag_prefix: str  # '<plugin name="..." module_name="..." call_priority="auto" state='
    brief: str
    methods: str
    hint: str
    injected: str
    runtime_context: str


def escape_manifest(manifest: Manifest) -> EscapedManifest:
    """Escape every attribute value and text of ``manifest`` that a block or runtime context shows."""
    name, module = quoteattr(manifest.name), quoteattr(manifest.module_name)
    injected = escape(injected_placeholder(manifest.module_name))
    return EscapedManifest(
        open_tag_prefix=f"<plugin name={name} module_name={module} call_priority={quoteattr(CALL_PRIORITY)} state=",
        brief=escape(manifest.brief),
        methods=method_list(manifest),
        hint=escape(last_run_hint(manifest.module_name)),
        injected=injected,
        runtime_context=f"<plugin_runtime_context name={name} module_name={module}>\n{injected}\n</plugin_runtime_context>",
    )


def _element(tag: str, value: str) -> str:
    """One optional slot of the frame: empty when there is no value (TXT-LAYOUT-3, TXT-LAYOUT-4)."""
    return f"\n<{tag}>\n{value}\n</{tag}>\n" if value else ""


def _frame(open_tag: str, *, brief: str = "", rule: str = "", hint: str = "", injected: str = "", methods: str = "") -> str:
    """The block frame of TXT-LAYOUT-3: five slots, each empty or one element, with fixed separators."""
    slots = [_element("capability_brief", brief), _element("activation_rule", rule), _element("activation_rule", hint),
             _element("injected_prompt", injected), _element("predefined_methods", methods)]
    return ("\n" + open_tag + "\n\n" + slots[0] + "\n\n" + slots[1] + "\n\n" + slots[2] + "\n\n" + slots[3] + "\n"
            + slots[4] + "\n\n</plugin>\n")


def _block(escaped: EscapedManifest, view: PluginView, with_injection: bool) -> str:
    open_tag = _open_tag(escaped, view)
    if view.state is PluginState.SLEEPING:
        return _frame(open_tag, brief=escaped.brief, rule=SLEEPING_RULE)
    hint = escaped.hint if view.hint else ""
    injected = escaped.injected if with_injection and view.injection_called else ""
    return _frame(open_tag, hint=hint, injected=injected, methods=escaped.methods)


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool) -> str:
    """One ``<plugin>`` block; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    return _block(escape_manifest(manifest), view, with_injection)


class TextCache:
    """The text of one catalogue's runs, owned by the caller (an Engine) and kept between runs.

    ``render_run`` gives the same text with a new TextCache as with one kept since the first
    run. Bound to a catalogue's manifests (compared by identity), it escapes each manifest
    once, and keeps the blocks and runtime contexts of the last run it rendered, found again
    by the identity of their views: the scheduler hands out the same view object for a
    plugin at rest run after run, and a view is a frozen value, so its block cannot change.
    Each entry holds its view, so an identity cannot be reused by a new view while the entry
    lives; holding only the last run bounds the cache by the size of one run.
    """

    def __init__(self) -> None:
        self._manifests: Mapping[str, Manifest] = {}
        self._escaped: dict[str, EscapedManifest] = {}
        self._last: dict[int, tuple[PluginView, str, str | None]] = {}
        self.hits = self.misses = 0

    def bind(self, manifests: Mapping[str, Manifest]) -> None:
        """Hold the text of ``manifests`` (every manifest escaped now, once); forget another catalogue's."""
        if manifests is not self._manifests:
            self._manifests = manifests
            self._escaped = {name: escape_manifest(m) for name, m in manifests.items()}
            self._last = {}

    def run_parts(self, manifests: Mapping[str, Manifest], views: Iterable[PluginView]) -> tuple[list[str], list[str]]:
        """The blocks of a run's ``views`` and the runtime contexts of those that inject a prompt."""
        self.bind(manifests)
        last, blocks, contexts = self._last, [], []
        kept: dict[int, tuple[PluginView, str, str | None]] = {}
        for view in views:
            entry = last.get(id(view))
            if entry is None:
                self.misses += 1
                escaped = self._escaped[view.module_name]
                entry = (view, _block(escaped, view, False), escaped.runtime_context if view.injection_called else None)
            else:
                self.hits += 1
            kept[id(view)] = entry
            blocks.append(entry[1])
            if entry[2] is not None:
                contexts.append(entry[2])
        self._last = kept
        return blocks, contexts

    def __len__(self) -> int:
        return len(self._last)


def render_run(manifests: Mapping[str, Manifest], observation: RunObservation, cache: TextCache) -> str:
    """The plugin part of the prompt for one run: blocks, then runtime contexts (TXT-LAYOUT-6, TXT-LAYOUT-7).

    ``cache`` is the caller's, kept between runs to save work; a new one gives the same text.
    """
    blocks, contexts = cache.run_parts(manifests, observation.plugins)
    # One join, one allocation: the text of 10,000 plugins is megabytes.
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
            return f"Invalid rounds value {json.dumps(call.rounds, separators=(',', ':'), ensure_ascii=False)}: rounds must be an integer."
    raise ValueError(f"unknown outcome {reply.outcome!r}")
