"""The ``pas simulate`` script language: commands, arguments, defaults and errors with line:col."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.documents.step_form import ArgKind, StepContext
from conformance.documents.step_table import SCRIPT_ROWS
from conformance.tools.simulate.script import COMMANDS, USAGE, command_help, parse_script
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)


def _events(text: str) -> list:
    commands, problems = parse_script(text)
    assert problems == ()
    return [c.event for c in commands]


def _problems(text: str, name: str = "script") -> list[str]:
    commands, problems = parse_script(text, name)
    return [f"{p.source}: {p.code}" for p in problems]


def test_semicolons_and_newlines_both_separate_commands_and_hash_starts_a_comment():
    text = "run; activate weather\n# a comment line\nrun  # trailing comment\n;;\nrestart"
    assert _events(text) == [
        StartRun(conversation="main"),
        Activate(conversation="main", module_name="weather"),
        StartRun(conversation="main"),
        Restart(),
    ]


def test_each_command_remembers_its_line_column_and_text():
    commands, _ = parse_script("run\n  activate weather 2 ; run other")
    assert [(c.line, c.column, c.text) for c in commands] == [
        (1, 1, "run"),
        (2, 3, "activate weather 2"),
        (2, 24, "run other"),
    ]


@pytest.mark.parametrize(
    ("written", "rounds"),
    [
        ("", OMITTED),
        (" 5", 5),
        (" 0", 0),
        (" -4", -4),
        (" 2.5", 2.5),
        (' "x"', "x"),
        (" x", "x"),
        (" null", None),
        (" true", True),
        (" NaN", "NaN"),
        (" -Infinity", "-Infinity"),
    ],
)
def test_rounds_are_read_as_json_when_they_parse_and_as_the_bare_word_otherwise(written, rounds):
    (event,) = _events(f"activate weather{written}")
    assert (event.rounds, type(event.rounds)) == (rounds, type(rounds))


def test_in_conv_sends_a_call_to_another_conversation_without_changing_the_default():
    assert _events("extend note 2 in family; extend note in family; run") == [
        Extend(conversation="family", module_name="note", rounds=2),
        Extend(conversation="family", module_name="note"),
        StartRun(conversation="main"),
    ]


def test_conversation_and_adapter_commands_change_the_defaults_of_later_commands():
    events = _events("conversation chat2; adapter minecraft; run; activate weather; adapter none; run other")
    assert events == [
        StartRun(conversation="chat2", adapter="minecraft"),
        Activate(conversation="chat2", module_name="weather", adapter="minecraft"),
        StartRun(conversation="other"),
    ]


def test_admin_commands_become_admin_events_with_the_raw_strategy_value():
    events = _events("strategy dice allow_sleep; strategy dice sometimes; enable a; disable b; scheduler off; scheduler on")
    assert events == [
        SetStrategy(module_name="dice", strategy="allow_sleep"),
        SetStrategy(module_name="dice", strategy="sometimes"),
        Enable(module_name="a"),
        Disable(module_name="b"),
        SetScheduler(enabled=False),
        SetScheduler(enabled=True),
    ]


def test_quoted_names_are_json_strings_so_they_may_hold_spaces_and_semicolons():
    assert _events('run "team chat; 2"; activate "weather" in "team chat; 2"') == [
        StartRun(conversation="team chat; 2"),
        Activate(conversation="team chat; 2", module_name="weather"),
    ]


def test_an_unknown_command_is_reported_at_its_column_with_a_suggestion():
    commands, problems = parse_script("run; actvate weather")
    assert len(commands) == 1
    (problem,) = problems
    assert (str(problem.source), problem.code) == ("script:1:6", "unknown-command")
    assert "did you mean 'activate'" in problem.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("activate", "script:1:1: missing-argument"),
        ("run\nstrategy dice", "script:2:1: missing-argument"),
        ("restart now", "script:1:9: unexpected-argument"),
        ("run a b", "script:1:7: unexpected-argument"),
        ("activate weather 2 at home", "script:1:20: unexpected-argument"),
        ("extend weather 2 in", "script:1:18: missing-argument"),
        ("scheduler maybe", "script:1:11: bad-value"),
        ('run "open', "script:1:5: unterminated-string"),
        ("# only a comment\n", "script:1:1: empty-script"),
    ],
)
def test_script_errors_name_line_and_column(text, expected):
    assert _problems(text) == [expected]


def test_every_error_of_a_script_is_reported_not_only_the_first():
    text = 'nope; activate\nrestart now; run "open'
    assert _problems(text, "tour.pas") == [
        "tour.pas:1:1: unknown-command",
        "tour.pas:1:7: missing-argument",
        "tour.pas:2:9: unexpected-argument",
        "tour.pas:2:18: unterminated-string",
    ]


def test_argument_errors_carry_the_usage_of_the_command():
    (problem,) = parse_script("activate")[1]
    assert USAGE["activate"] in problem.message


def test_every_command_has_a_usage_line():
    assert set(USAGE) == set(COMMANDS)


def test_script_commands_are_frozen():
    (command,), _ = parse_script("run")
    with pytest.raises(dataclasses.FrozenInstanceError):
        command.line = 2


def test_a_quoted_string_with_a_bad_escape_is_a_script_error_not_a_crash():
    assert _problems('run "a\\q"') == ["script:1:5: bad-string"]


_SAMPLES = {ArgKind.NAME: ("x1", "x1"), ArgKind.JSON: ("2", 2)}  # kind -> (token, value)


def _sample(arg) -> tuple[str, object]:
    """A token for one argument of a step-table command (a name, a JSON number or the first choice) and its value."""
    token, value = _SAMPLES[arg.kind] if arg.kind in _SAMPLES else arg.choices[0]
    return f"{arg.keyword} {token}".strip(), value


@pytest.mark.parametrize("word", list(SCRIPT_ROWS))
def test_every_step_table_command_becomes_its_rows_event_with_each_argument_in_place(word):
    row = SCRIPT_ROWS[word]
    line = " ".join([word, *(_sample(arg)[0] for arg in row.script.args)])
    (event,) = _events(line)
    assert type(event) is row.type
    written = row.write(event, StepContext())
    for arg in row.script.args:
        value = _sample(arg)[1]
        assert (written.get(arg.key) if isinstance(written, dict) else written) == value, (line, arg.key)


def test_the_help_lists_every_command_with_its_usage():
    text = command_help()
    assert all(f"  {USAGE[word]}" in text for word in COMMANDS)
    assert "enable MODULE" in text and "adapter NAME|none" in text
