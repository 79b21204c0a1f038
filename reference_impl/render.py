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
from collections import OrderedDict
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


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool = False) -> str:
    """One ``<plugin>`` block; ``with_injection`` adds ``<injected_prompt>`` (activation replies)."""
    return _block(escape_manifest(manifest), view, with_injection)


def render_runtime_context(manifest: Manifest) -> str:
    """A ``<plugin_runtime_context>`` block for an injecting awake or active plugin (TXT-BLOCK-6, TXT-LAYOUT-7)."""
    return escape_manifest(manifest).runtime_context


class TextCache:
    """Rendered blocks of one catalogue, owned by the caller (an Engine) and bounded.

    ``render_run`` and ``render_reply`` give the same text with or without one. It holds the
    manifests it was bound to (compared by identity), each escaped once when bound, and at
    most ``size`` blocks (default: twice the catalogue, plus 256), least recently used dropped
    first. A block is keyed by the view it renders and whether the injection text is included:
    with the catalogue, that is everything a block depends on. In front of that, the blocks of
    the very view objects seen in earlier runs (the scheduler's cached resting views) are
    found by identity, each entry holding its view so that an identity cannot be reused;
    that table is emptied when it outgrows the same bound. Raises ValueError when ``size`` is
    below 1.
    """

    def __init__(self, size: int | None = None) -> None:
        if size is not None and size < 1:
            raise ValueError(f"a TextCache holds at least one block, not {size}")
        self._size = size
        self._limit = 256 if size is None else size
        self._manifests: Mapping[str, Manifest] | None = None
        self._escaped: dict[str, EscapedManifest] = {}
        self._blocks: OrderedDict[tuple[PluginView, bool], str] = OrderedDict()
        self._seen: dict[int, tuple[PluginView, str, str | None]] = {}
        self.hits = 0
        self.misses = 0

    def bind(self, manifests: Mapping[str, Manifest]) -> None:
        """Hold the text of ``manifests`` (every manifest escaped now, once); forget another catalogue's."""
        if manifests is self._manifests:
            return
        self._manifests = manifests
        self._escaped = {name: escape_manifest(m) for name, m in manifests.items()}
        self._blocks.clear()
        self._seen.clear()
        self._limit = self._size if self._size is not None else 2 * len(manifests) + 256

    def block(self, manifests: Mapping[str, Manifest], view: PluginView, with_injection: bool) -> str:
        """The block of ``view`` (a plugin of ``manifests``), from the cache when it has it."""
        self.bind(manifests)
        key = (view, with_injection)
        text = self._blocks.get(key)
        if text is not None:
            self.hits += 1
            self._blocks.move_to_end(key)
            return text
        self.misses += 1
        text = self._blocks[key] = _block(self._escaped[view.module_name], view, with_injection)
        if len(self._blocks) > self._limit:
            self._blocks.popitem(last=False)
        return text

    def run_parts(self, manifests: Mapping[str, Manifest], views: Iterable[PluginView]) -> tuple[list[str], list[str]]:
        """The blocks of a run's ``views`` and the runtime contexts of those that inject a prompt."""
        self.bind(manifests)
        seen, blocks, contexts = self._seen, [], []
        for view in views:
            entry = seen.get(id(view))
            if entry is None or entry[0] is not view:
                context = self._escaped[view.module_name].runtime_context if view.injection_called else None
                if len(seen) >= self._limit:
                    seen.clear()
                entry = seen[id(view)] = (view, self.block(manifests, view, False), context)
            else:
                self.hits += 1
            blocks.append(entry[1])
            if entry[2] is not None:
                contexts.append(entry[2])
        return blocks, contexts

    def __len__(self) -> int:
        return len(self._blocks)


def render_run(manifests: Mapping[str, Manifest], observation: RunObservation, *, cache: TextCache | None = None) -> str:
    """The plugin part of the prompt for one run: blocks, then runtime contexts (TXT-LAYOUT-6, TXT-LAYOUT-7).

    ``cache`` (owned by the caller) only saves work between runs; the text is the same without.
    """
    views = observation.plugins
    if cache is None:
        escaped = {v.module_name: escape_manifest(manifests[v.module_name]) for v in views}
        blocks = [_block(escaped[v.module_name], v, False) for v in views]
        contexts = [escaped[v.module_name].runtime_context for v in views if v.injection_called]
    else:
        blocks, contexts = cache.run_parts(manifests, views)
    # One join, one allocation: the text of 10,000 plugins is megabytes.
    return "\n\n".join(blocks + contexts)


def render_reply(
    manifests: Mapping[str, Manifest], call: Call, reply: CallObservation, *, cache: TextCache | None = None
) -> str:
    """The sentence(s) a method call returns to the model (TXT-REPLY-1..6, TXT-LAYOUT-8).

    ``cache`` (owned by the caller) only saves work; the text is the same without.

    Raises ValueError for a reply the scheduler never produces (an unknown outcome, or
    ``activated`` without its block).
    """
    m = reply.module_name
    match reply.outcome:
        case OutcomeKind.ACTIVATED:
            if reply.block is None:
                raise ValueError(f"an activated reply for {m!r} carries no block")
            if cache is None:
                block = render_block(manifests[m], reply.block, with_injection=True)
            else:
                block = cache.block(manifests, reply.block, True)
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
