"""Blame on the part of the text that differs (issue 30, item 4): conformance/suite/text_parts.py.

The reference's text of a step is rendered as pieces labelled with the layout part that writes
them; a wrong text is blamed on the parts its differences fall in, or on what the difference is
(escapes, "1 run", a brief trimmed otherwise), and spec/attribution.yaml maps each part to its rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.suite.attribution import StepFacts, blame
from conformance.suite.expectations import Mismatch
from conformance.suite.text_parts import text_parts
from reference_impl.events import Activate, CallObservation, Extend, RunObservation
from reference_impl.model import Manifest, Method, MethodKind, OutcomeKind, PluginState
from reference_impl.render import joined, reply_pieces, run_pieces
from reference_impl.scheduler import plugin_view
from reference_impl.semantics import load_semantics

SEMANTICS = load_semantics()


def plugin(module_name: str, **fields: Any) -> Manifest:
    """A manifest with the fields a test needs."""
    return Manifest(name=fields.pop("name", module_name.title()), module_name=module_name, version="1.0.0",
                    description="A plugin.", **fields)


TOOLBOX = plugin("toolbox", name="Bob's tools", allow_sleep=None, injects_prompt=True,
                 methods=(Method(name="look", kind=MethodKind.TOOL, description="Look it up."),
                          Method(name="ask", kind=MethodKind.AGENT, description="Ask the user.")))
NOTE = plugin("note", allow_sleep=True, sleep_brief="Notes. Activate for notes.")
MANIFESTS = {m.module_name: m for m in (TOOLBOX, NOTE)}
RUN = RunObservation(plugins=(plugin_view(TOOLBOX, PluginState.ALWAYS_AWAKE, None, SEMANTICS),
                              plugin_view(NOTE, PluginState.SLEEPING, None, SEMANTICS)))
PIECES = run_pieces(MANIFESTS, RUN)
TEXT = joined(PIECES)


def parts(actual: str) -> list[str]:
    return text_parts(PIECES, TEXT, actual, check="equals")


@pytest.mark.parametrize(("wrong", "right", "part"), [
    ('state="always_awake">\n\n', 'state="always_awake">\n', "frame"),  # the example: not TXT-BLOCK-1/3
    (' call_priority="auto"', "", "call_priority"),
    ("</plugin>\n\n\n\n<plugin", "</plugin>\n\n\n<plugin", "block_join"),
    ("Look it up.", "Look it up", "method_entry"),
    ("Summary only.", "Summary:", "sleeping_rule"),
    ("\n<plugin_runtime_context", "\n<plugin_context", "runtime_context"),
    ("\n<capability_brief>\nNotes. Activate for notes.\n</capability_brief>\n", "", "brief"),
    ("<capability_brief>\nNotes.", "<capability_brief>\n\ufeffNotes.", "brief_trim"),
    ("Bob's", "Bob&#39;s", "extra_escaping"),
])
def test_a_difference_is_named_by_the_part_of_the_layout_it_falls_in(wrong, right, part):
    assert wrong in TEXT
    assert parts(TEXT.replace(wrong, right, 1)) == [part]


def test_a_text_written_without_escapes_is_escaping():
    pieces = run_pieces({"amp": plugin("amp", name="A & B")}, RunObservation(
        plugins=(plugin_view(plugin("amp", name="A & B"), PluginState.ALWAYS_AWAKE, None, SEMANTICS),)))
    text = joined(pieces)
    assert text_parts(pieces, text, text.replace("&amp;", "&"), check="equals") == ["escaping"]


def test_a_whole_missing_methods_element_is_the_methods_part_not_its_line_feeds():
    element = "\n<predefined_methods>\n* look\nLook it up.\n* ask - **[AGENT METHOD - STOP AFTER CALL]**\nAsk the user.\n</predefined_methods>\n"
    assert parts(TEXT.replace(element, "")) == ["methods"]


def test_a_contains_check_is_placed_where_its_piece_lies_in_the_reference_text():
    piece = "<capability_brief>\nNotes. Activate for notes.\n</capability_brief>"
    actual = TEXT.replace("Notes. Activate", "Notes.  Activate")
    assert text_parts(PIECES, piece, actual, check="contains") == ["brief_value"]
    assert text_parts(PIECES, "not in the reference", actual, check="contains") == []


def _reply(call: Activate | Extend, outcome: OutcomeKind, rounds: int | None = None) -> tuple[list, str]:
    block = plugin_view(NOTE, PluginState.ACTIVE, rounds, SEMANTICS) if outcome is OutcomeKind.ACTIVATED else None
    reply = CallObservation(outcome=outcome, module_name=call.module_name, rounds=rounds, block=block,
                            ends_step=isinstance(call, Activate))
    pieces = reply_pieces(MANIFESTS, call, reply)
    return pieces, joined(pieces)


def test_reply_sentences_name_their_outcome_the_called_name_and_one_run():
    pieces, text = _reply(Extend(conversation="main", module_name="note", rounds=1), OutcomeKind.EXTENDED, 1)
    assert text_parts(pieces, text, text.replace("1 runs remain", "1 run remains"), check="equals") == ["plural"]
    assert text_parts(pieces, text, text.replace("visibility extended", "extended"), check="equals") == ["sentence_extended"]
    odd = Activate(conversation="main", module_name="<b>&")
    pieces, text = _reply(odd, OutcomeKind.NOT_FOUND)
    assert text_parts(pieces, text, text.replace("<b>&", "&lt;b&gt;&amp;"), check="equals") == ["called_name"]
    pieces, text = _reply(Activate(conversation="main", module_name="note", rounds=2), OutcomeKind.ACTIVATED, 2)
    assert text_parts(pieces, text, text.replace("step.\n\n\n<plugin", "step.\n\n<plugin"), check="equals") == ["reply_layout"]


def test_the_table_blames_the_rule_of_the_part_and_not_the_scenarios_covers():
    missing_line_feed = Mismatch(field="text", pointer="/text", expected=TEXT,
                                 actual=TEXT.replace('state="always_awake">\n\n', 'state="always_awake">\n', 1))
    facts = StepFacts(action="run", pieces=tuple(PIECES), covered=frozenset({"TXT-BLOCK-1", "TXT-BLOCK-3", "TXT-LAYOUT-3"}))
    assert blame([missing_line_feed], facts) == ("TXT-LAYOUT-3",)
    assert blame([missing_line_feed], StepFacts(action="run", covered=facts.covered)) == ("TXT-BLOCK-1", "TXT-BLOCK-3",
                                                                                         "TXT-LAYOUT-3")


def test_a_change_across_two_blocks_is_no_whole_element_of_either():
    """Each element is numbered by its block: the end of one brief and the start of the next are not one element."""
    other = plugin("other", allow_sleep=True, sleep_brief="Other. Activate for others.")
    run = RunObservation(plugins=(plugin_view(NOTE, PluginState.SLEEPING, None, SEMANTICS),
                                  plugin_view(other, PluginState.SLEEPING, None, SEMANTICS)))
    pieces = run_pieces({"note": NOTE, "other": other}, run)
    text = joined(pieces)
    start = text.index("</capability_brief>")
    end = text.index("<capability_brief>", start) + len("<capability_brief>")
    found = text_parts(pieces, text, text[:start] + text[end:], check="equals")
    # the sleeping rule of the first block goes whole; each brief loses only one of its tags
    assert found == ["brief", "open_tag", "call_priority", "sleeping_rule"]
