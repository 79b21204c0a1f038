"""The reference text (profile text): block shapes, escaping, the hint, every reply sentence."""

from __future__ import annotations

import pytest
from support.refimpl_builders import CONV, plugin, protected, sleeper

from reference_impl.engine import Engine
from reference_impl.events import OMITTED, Activate, CallObservation, Extend, PluginView, StartRun
from reference_impl.model import HostConfig, Manifest, Method, MethodKind, OutcomeKind, PluginState
from reference_impl.render import method_list, render_reply, render_run
from reference_impl.render import render_block as _render_block

RUN = StartRun(conversation=CONV)
SLEEPING = PluginView(module_name="w", state=PluginState.SLEEPING, rounds_left=None, hint=False, brief_shown=True,
                      methods_shown=False, injection_called=False)
AWAKE = PluginView(module_name="w", state=PluginState.ALWAYS_AWAKE, rounds_left=None, hint=False, brief_shown=False,
                   methods_shown=True, injection_called=True)


def render_block(manifest: Manifest, view: PluginView, *, with_injection: bool = False) -> str:
    return _render_block(manifest, view, with_injection=with_injection)


def _active(rounds: int) -> PluginView:
    return PluginView(module_name="w", state=PluginState.ACTIVE, rounds_left=rounds, hint=rounds == 1, brief_shown=False,
                      methods_shown=True, injection_called=True)


MANIFESTS = (sleeper("weather", injects_prompt=True), sleeper("draw"), protected("core", builtin=True, injects_prompt=True),
             plugin("calc"))


def _engine() -> Engine:
    engine = Engine()
    engine.start(MANIFESTS, HostConfig(enabled=("weather", "draw", "calc")))
    return engine


def test_a_sleeping_block_is_the_frame_with_the_trimmed_brief_and_the_rule_TXT_BLOCK_1_3_TXT_LAYOUT_3():
    """Covers: TXT-BLOCK-1, TXT-BLOCK-3, TXT-LAYOUT-1, TXT-LAYOUT-2, TXT-LAYOUT-3, TXT-LAYOUT-4."""
    manifest = plugin("w", name="Weather", allow_sleep=True, sleep_brief="  Forecasts.\n")
    assert render_block(manifest, SLEEPING) == (
        '\n<plugin name="Weather" module_name="w" call_priority="auto" state="sleeping" rounds_left="0">\n\n'
        "\n<capability_brief>\nForecasts.\n</capability_brief>\n\n\n"
        "\n<activation_rule>\nSummary only. Do not guess hidden details. Activate if needed.\n</activation_rule>\n"
        "\n\n\n\n\n\n\n</plugin>\n"
    )


def test_an_always_awake_block_is_the_frame_with_only_the_methods_TXT_BLOCK_1_5_TXT_LAYOUT_3():
    """Covers: TXT-BLOCK-1, TXT-BLOCK-5, TXT-LAYOUT-3, TXT-LAYOUT-5."""
    manifest = plugin("w", name="Weather", methods=(Method(name="get", kind=MethodKind.TOOL, description="Get it."),
                                                     Method(name="ask", kind=MethodKind.AGENT, description="Ask.")))
    assert render_block(manifest, AWAKE) == (
        '\n<plugin name="Weather" module_name="w" call_priority="auto" state="always_awake">' + "\n" * 10
        + "<predefined_methods>\n* get\nGet it.\n* ask - **[AGENT METHOD - STOP AFTER CALL]**\nAsk.\n"
        "</predefined_methods>\n\n\n</plugin>\n"
    )


@pytest.mark.parametrize("rounds", [2, 20])
def test_an_active_block_without_the_hint_is_laid_out_like_an_always_awake_one_TXT_LAYOUT_3(rounds):
    """Covers: TXT-BLOCK-1, TXT-LAYOUT-3."""
    text = render_block(sleeper("w", name="Weather"), _active(rounds))
    assert text == (f'\n<plugin name="Weather" module_name="w" call_priority="auto" state="active" rounds_left="{rounds}">'
                    + "\n" * 10 + "<predefined_methods>\n* use_w\nUse w.\n</predefined_methods>\n\n\n</plugin>\n")


def test_an_active_block_at_one_run_carries_the_hint_in_its_own_slot_TXT_BLOCK_4_TXT_LAYOUT_3():
    """Covers: TXT-BLOCK-1, TXT-BLOCK-4, TXT-LAYOUT-3, ACT-STATE-6."""
    text = render_block(sleeper("w", name="Weather"), _active(1))
    assert text == (
        '\n<plugin name="Weather" module_name="w" call_priority="auto" state="active" rounds_left="1">' + "\n" * 7
        + "<activation_rule>\nLast visible run. Call extend_plugin_activation('w') now if you still need it next run.\n"
        "</activation_rule>\n\n\n\n\n<predefined_methods>\n* use_w\nUse w.\n</predefined_methods>\n\n\n</plugin>\n"
    )


def test_the_activation_reply_block_fills_the_injected_prompt_slot_TXT_LAYOUT_3():
    """Covers: TXT-LAYOUT-3, TXT-REPLY-1."""
    text = render_block(sleeper("w", name="Weather"), _active(2), with_injection=True)
    assert text == (
        '\n<plugin name="Weather" module_name="w" call_priority="auto" state="active" rounds_left="2">' + "\n" * 9
        + "<injected_prompt>\n[prompt injected by w]\n</injected_prompt>\n\n\n"
        "<predefined_methods>\n* use_w\nUse w.\n</predefined_methods>\n\n\n</plugin>\n"
    )


def test_method_entries_mark_stopping_kinds_trim_descriptions_and_skip_empty_ones_TXT_LAYOUT_5():
    """Covers: TXT-LAYOUT-5: every kind, a multi-line description, a blank one, an empty one."""
    methods = (Method(name="t", kind=MethodKind.TOOL, description="  Tool.\n  second line\n"),
               Method(name="b", kind=MethodKind.BEHAVIOR, description="Behaviour."),
               Method(name="a", kind=MethodKind.AGENT, description="Agent."),
               Method(name="mm", kind=MethodKind.MULTIMODAL_AGENT, description="Multimodal."),
               Method(name="skipped", kind=MethodKind.TOOL, description=""),
               Method(name="blank", kind=MethodKind.TOOL, description=" \u3000"))
    assert method_list(plugin("w", methods=methods)) == (
        "* t\nTool.\n  second line\n* b\nBehaviour.\n* a - **[AGENT METHOD - STOP AFTER CALL]**\nAgent.\n"
        "* mm - **[AGENT METHOD - STOP AFTER CALL]**\nMultimodal.\n* blank\n")


def test_a_plugin_whose_methods_all_lack_a_description_has_no_methods_element_TXT_LAYOUT_3():
    """Covers: TXT-LAYOUT-3, TXT-LAYOUT-5."""
    manifest = plugin("w", methods=(Method(name="x", kind=MethodKind.TOOL, description=""),))
    assert render_block(manifest, AWAKE) == (
        '\n<plugin name="W" module_name="w" call_priority="auto" state="always_awake">' + "\n" * 11 + "</plugin>\n")


def test_text_values_are_xml_escaped_TXT_BLOCK_2():
    """Covers: TXT-BLOCK-2 for element text: briefs and method descriptions."""
    brief = 'Use <b> & "quotes"'
    manifest = plugin("w", allow_sleep=True, sleep_brief=brief,
                      methods=(Method(name="m", kind=MethodKind.TOOL, description="a < b && c > d"),))
    assert "<capability_brief>\nUse &lt;b&gt; &amp; \"quotes\"\n</capability_brief>" in render_block(manifest, SLEEPING)
    assert "* m\na &lt; b &amp;&amp; c &gt; d\n" in render_block(manifest, AWAKE)


def _open_tag_line(text: str) -> str:
    return text.split("\n")[1]


@pytest.mark.parametrize(("name", "written"), [
    pytest.param("Tom & Jerry <3", "Tom &amp; Jerry &lt;3", id="ampersand-and-angle"),
    pytest.param("it's", "it's", id="apostrophe"),
    pytest.param("a'b\"c", "a'b&quot;c", id="both-quotes"),
])
def test_attribute_values_are_escaped_inside_double_quotes_TXT_BLOCK_2(name, written):
    """Covers: TXT-BLOCK-1, TXT-BLOCK-2."""
    text = render_block(plugin("w", name=name), AWAKE)
    assert _open_tag_line(text) == f'<plugin name="{written}" module_name="w" call_priority="auto" state="always_awake">'


def test_a_double_quote_in_an_attribute_value_is_written_as_quot_TXT_BLOCK_2():
    """Covers: TXT-BLOCK-1, TXT-BLOCK-2."""
    text = render_block(plugin("w", name='Say "hi"'), AWAKE)
    assert _open_tag_line(text) == '<plugin name="Say &quot;hi&quot;" module_name="w" call_priority="auto" state="always_awake">'


def test_runtime_context_follows_the_blocks_only_for_injecting_awake_or_active_plugins_TXT_BLOCK_6():
    """Covers: TXT-BLOCK-6, TXT-LAYOUT-7, ACT-STATE-4."""
    engine = _engine()
    engine.apply(Activate(conversation=CONV, module_name="draw", rounds=2))
    text = engine.apply(RUN).text
    blocks, contexts = text.rsplit("</plugin>\n", 1)
    assert contexts == '\n\n<plugin_runtime_context name="Core" module_name="core">\n[prompt injected by core]\n</plugin_runtime_context>'
    engine.apply(Activate(conversation=CONV, module_name="weather", rounds=2))
    assert engine.apply(RUN).text.endswith(
        '[prompt injected by core]\n</plugin_runtime_context>\n\n<plugin_runtime_context name="Weather" module_name="weather">'
        "\n[prompt injected by weather]\n</plugin_runtime_context>")


def test_blocks_are_joined_by_a_blank_line_each_starting_and_ending_with_a_newline_TXT_LAYOUT_6():
    """Covers: TXT-LAYOUT-1, TXT-LAYOUT-6."""
    engine = Engine()
    engine.start([sleeper("a"), sleeper("b")], HostConfig(enabled=("a", "b")))
    text = engine.apply(RUN).text
    assert text.startswith("\n<plugin ") and text.endswith("</plugin>\n")
    assert text.count("</plugin>\n\n\n\n<plugin ") == 1
    empty = Engine()
    empty.start([], HostConfig())
    assert empty.apply(RUN).text == ""


def test_injected_prompt_appears_only_in_the_activation_reply_TXT_REPLY_1():
    """Covers: TXT-REPLY-1, TXT-BLOCK-6."""
    engine = _engine()
    reply = engine.apply(Activate(conversation=CONV, module_name="weather", rounds=2)).text
    block = reply.split("\n\n", 1)[1]
    assert "\n<injected_prompt>\n[prompt injected by weather]\n</injected_prompt>\n" in block
    assert "<injected_prompt>" not in engine.apply(RUN).text
    quiet = engine.apply(Activate(conversation=CONV, module_name="draw", rounds=1)).text
    assert "<injected_prompt>" not in quiet and "Last visible run." in quiet


def _reply(call, observation: CallObservation) -> str:
    manifests = {"weather": sleeper("weather")}
    return render_reply(manifests, call, observation)


ACTIVATE = Activate(conversation=CONV, module_name="weather")
EXTEND = Extend(conversation=CONV, module_name="weather")


@pytest.mark.parametrize(("call", "outcome", "rounds", "sentence"), [
    pytest.param(ACTIVATE, OutcomeKind.ALREADY_ACTIVE, 4,
                 "Plugin `weather` is already active with 4 runs remaining. "
                 "Use `extend_plugin_activation(module_name, rounds)` if you need to keep it visible longer.", id="TXT-REPLY-2"),
    pytest.param(ACTIVATE, OutcomeKind.ALWAYS_AWAKE, None,
                 "Plugin `weather` is always visible and does not need activation. You can use its predefined methods directly.", id="TXT-REPLY-3-activate"),
    pytest.param(EXTEND, OutcomeKind.ALWAYS_AWAKE, None,
                 "Plugin `weather` is always visible and does not need to be extended. You can use its predefined methods directly.",
                 id="TXT-REPLY-3-extend"),
    pytest.param(ACTIVATE, OutcomeKind.NOT_FOUND, None, "Plugin `weather` is missing or disabled.", id="TXT-REPLY-4-activate"),
    pytest.param(EXTEND, OutcomeKind.NOT_FOUND, None, "Plugin `weather` is missing or disabled.", id="TXT-REPLY-4-extend"),
    pytest.param(EXTEND, OutcomeKind.EXTENDED, 9, "Plugin `weather` visibility extended. 9 runs remain.", id="TXT-REPLY-5"),
])
def test_each_reply_outcome_has_its_sentence(call, outcome, rounds, sentence):
    """Covers: TXT-REPLY-2, TXT-REPLY-3, TXT-REPLY-4, TXT-REPLY-5."""
    assert _reply(call, CallObservation(outcome=outcome, module_name="weather", rounds=rounds, ends_step=True)) == sentence


def test_the_activated_reply_is_the_sentence_a_blank_line_and_the_block_TXT_REPLY_1():
    """Covers: TXT-REPLY-1."""
    engine = _engine()
    text = engine.apply(Activate(conversation=CONV, module_name="draw", rounds=5)).text
    sentence, block = text.split("\n\n", 1)
    assert sentence == ("Plugin `draw` is now activated for the next 5 runs. The full plugin block is returned below "
                        "and is now the source of truth for this capability. Stop here and continue in the next agent step.")
    assert block.startswith('\n<plugin name="Draw" module_name="draw" call_priority="auto" state="active" rounds_left="5">\n')
    assert block.endswith("</plugin>\n")


@pytest.mark.parametrize(("rounds", "written"), [
    pytest.param(2.5, "2.5", id="fraction"),
    pytest.param("five", '"five"', id="string"),
    pytest.param(True, "true", id="true"),
    pytest.param([1], "[1]", id="one-item-list"),
    pytest.param({}, "{}", id="empty-object"),
])
def test_the_invalid_argument_reply_writes_the_value_as_json_TXT_REPLY_6(rounds, written):
    """Covers: TXT-REPLY-6."""
    text = _engine().apply(Activate(conversation=CONV, module_name="weather", rounds=rounds)).text
    assert text == f"Invalid rounds value {written}: rounds must be an integer."


@pytest.mark.parametrize(("rounds", "written"), [([1, 2], "[1,2]"), ({"a": 1, "b": [2]}, '{"a":1,"b":[2]}'), ("五", '"五"')],
                         ids=["list", "object", "non-ascii-string"])
def test_the_invalid_argument_reply_writes_compact_json_without_spaces_TXT_REPLY_6(rounds, written):
    """Covers: TXT-REPLY-6."""
    text = _engine().apply(Activate(conversation=CONV, module_name="weather", rounds=rounds)).text
    assert text == f"Invalid rounds value {written}: rounds must be an integer."


def test_run_text_is_the_blocks_in_view_order():
    """Covers: ACT-ORDER-1 applied to the text, TXT-BLOCK-1."""
    engine = _engine()
    observation = engine.apply(RUN)
    tags = [line for line in observation.text.splitlines() if line.startswith("<plugin ")]
    assert tags
    assert [t.split('module_name="')[1].split('"')[0] for t in tags] == [v.module_name for v in observation.plugins]
    assert observation.text == render_run({m.module_name: m for m in MANIFESTS}, observation)


def test_an_engine_without_text_returns_bare_observations():
    """Engine(text=False) serves implementations that do not claim the text profile."""
    engine = Engine(text=False)
    engine.start([sleeper("weather")], HostConfig(enabled=("weather",)))
    assert engine.apply(RUN).text is None
    assert engine.apply(Activate(conversation=CONV, module_name="weather", rounds=OMITTED)).text is None
