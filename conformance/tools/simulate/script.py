"""The ``pas simulate`` script language: text in, scheduler events out, every problem at line:col.

A script is a list of commands (see :data:`USAGE`), one per line or separated by ``;``,
with ``#`` comments. ``conversation`` and ``adapter`` change the defaults of later
commands (a conversation is also the thread of the disclosure commands); the others each
become one event. The model's calls of a disclosure model step are commands of their own
(``load``, ``unload``, ``search``, ``list``, ``invoke``: :data:`~conformance.documents.step_table.CALL_SCRIPTS`);
``load weather & invoke clock in b`` is one step of two parallel calls in thread ``b``. Those come from the step table
(conformance.documents.step_table): a row's ``script`` gives its word and arguments, which fill
the keys of a scenario step that the row then reads, so a command means what the same step in a
scenario file means. ROUNDS is read as JSON when it parses as JSON (``2.5`` and ``"x"`` reach
the scheduler as a float and a string, so they test ``invalid_argument``), otherwise as the bare
word. Names may be double-quoted JSON strings. :func:`parse_script` returns every problem, not
only the first.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from conformance.documents.step_form import Arg, ArgKind, Script, StepContext, StepRow
from conformance.documents.step_table import CALL_JOINER, CALL_SCRIPTS, DEFAULT_CONVERSATION, ROWS, SCRIPT_ROWS
from reference_impl.disclosure_commands import DisclosureEvent, ModelStep
from reference_impl.errors import MalformedDocument
from reference_impl.events import Event
from reference_impl.host_commands import HOST_COMMAND_TYPES
from reference_impl.problems import Problem, SourceLocation

# One token: a comment, a separator, a JSON string, a bare word, or a stray quote.
_TOKEN = re.compile(r'\s*(?:(?P<comment>#.*)|(?P<semi>;)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<word>[^\s;#"]+)|(?P<bad>"))')


@dataclass(frozen=True, slots=True, kw_only=True)
class ScriptCommand:
    """One script command that becomes a scheduler event, with where it was written."""

    line: int
    column: int
    text: str
    event: Event | DisclosureEvent


@dataclass(frozen=True, slots=True)
class _Token:
    text: str  # as written
    column: int
    word: str  # as a name: a quoted token decoded as a JSON string


class _ScriptError(Exception):
    """Internal: one command is wrong; becomes a Problem at ``column``."""

    def __init__(self, code: str, message: str, column: int) -> None:
        self.code, self.message, self.column = code, message, column


@dataclass(slots=True)
class _Context:
    """Defaults that ``conversation`` and ``adapter`` commands change for later commands."""

    conversation: str = DEFAULT_CONVERSATION
    adapter: str | None = None


def _tokenize(line: str) -> tuple[list[list[_Token]], _ScriptError | None]:
    """Split one line into commands (lists of tokens); a stray quote ends the line with an error."""
    commands: list[list[_Token]] = [[]]
    position = 0
    while position < len(line) and line[position:].strip():
        match = _TOKEN.match(line, position)
        assert match is not None  # every non-blank character starts a comment, ;, string, stray quote or word
        if match.group("comment") is not None:
            break
        if match.group("bad") is not None:
            error = _ScriptError("unterminated-string", "this string has no closing quote", match.start("bad") + 1)
            return [tokens for tokens in commands[:-1] if tokens], error
        if match.group("semi") is not None:
            commands.append([])
        elif match.group("word") is not None:
            commands[-1].append(_Token(match.group("word"), match.start("word") + 1, match.group("word")))
        else:
            column = match.start("string") + 1
            try:
                word = json.loads(match.group("string"))
            except ValueError:
                return [tokens for tokens in commands if tokens], _ScriptError(
                    "bad-string", "this string is not valid JSON (check its backslash escapes)", column)
            commands[-1].append(_Token(match.group("string"), column, word))
        position = match.end()
    return [tokens for tokens in commands if tokens], None


def _json_or_word(token: _Token) -> Any:
    try:
        value = json.loads(token.text)
    except ValueError:
        return token.text
    # NaN and Infinity are not JSON: keep them as words so --format json stays valid JSON.
    return token.text if isinstance(value, float) and not math.isfinite(value) else value


def _arity(name: _Token, args: Sequence[_Token], wanted: Sequence[str]) -> None:
    """Check the argument count of a command whose arguments are all required."""
    if len(args) < len(wanted):
        raise _ScriptError("missing-argument", f"'{name.text}' needs {wanted[len(args)]}", name.column)
    if len(args) > len(wanted):
        extra = args[len(wanted)]
        raise _ScriptError("unexpected-argument", f"'{name.text}' takes no argument {extra.text!r} here", extra.column)


def _value(arg: Arg, token: _Token, command: str) -> Any:
    """One argument's value, read as its kind says."""
    if arg.kind is ArgKind.JSON:
        return _json_or_word(token)
    if arg.kind is ArgKind.CHOICE:
        for word, value in arg.choices:
            if token.text == word:
                return value
        words = " or ".join(word for word, _ in arg.choices)
        raise _ScriptError("bad-value", f"'{command}' takes {words}, not {token.text!r}", token.column)
    return token.word


def _arguments(script: Script, head: _Token, tokens: list[_Token]) -> dict[str, Any]:
    """The step keys a command's arguments fill, in the order of its usage; raises _ScriptError.

    An optional argument is left out when its token is missing or is a later keyword
    (``activate weather in side`` has no ROUNDS); a keyword argument is written ``in CONV``.
    """
    given: dict[str, Any] = {}
    rest = list(tokens)
    keywords = {arg.keyword for arg in script.args if arg.keyword}
    for arg in script.args:
        if arg.kind is ArgKind.NAMES:  # one or more, up to the next keyword
            taken = []
            while rest and rest[0].text not in keywords:
                taken.append(rest.pop(0).word)
            if not taken:
                raise _ScriptError("missing-argument", f"'{head.text}' needs {arg.usage}", head.column)
            given[arg.key] = taken
            continue
        if arg.keyword and rest and rest[0].text != arg.keyword:
            raise _ScriptError("unexpected-argument", f"expected '{arg.usage.strip('[]')}', not {rest[0].text!r}",
                               rest[0].column)
        if not rest or (not arg.keyword and arg.optional and rest[0].text in keywords):
            if arg.optional:
                continue
            raise _ScriptError("missing-argument", f"'{head.text}' needs {arg.usage}", head.column)
        if arg.keyword:
            keyword = rest.pop(0)
            if not rest:
                raise _ScriptError("missing-argument", f"'{keyword.text}' needs {arg.shown}", keyword.column)
        given[arg.key] = _value(arg, rest.pop(0), head.text)
    if rest:
        raise _ScriptError("unexpected-argument", f"'{head.text}' takes no argument {rest[0].text!r} here",
                           rest[0].column)
    return given


def _event(row: StepRow, head: _Token, tokens: list[_Token], ctx: _Context) -> Event | DisclosureEvent:
    """The event of a step-table command: its arguments, with the script's defaults, read by its row."""
    assert row.script is not None  # SCRIPT_ROWS holds rows with a script command only
    given = _arguments(row.script, head, tokens)
    keys = {key.name for key in row.keys}
    if "conversation" in keys:
        given.setdefault("conversation", ctx.conversation)
    if "thread" in keys:
        given.setdefault("thread", ctx.conversation)
    if "adapter" in keys and ctx.adapter is not None:
        given.setdefault("adapter", ctx.adapter)
    event = row.read(given, StepContext())  # a fresh context: the script's adapter is explicit above
    assert not isinstance(event, HOST_COMMAND_TYPES)  # host commands have no script command
    return event


def _step(head: _Token, tokens: list[_Token], ctx: _Context) -> DisclosureEvent:
    """A model step: calls joined by ``&``, the last one perhaps followed by ``in THREAD``."""
    thread = ctx.conversation
    if len(tokens) >= 2 and tokens[-2].text == "in":
        thread, tokens = tokens[-1].word, tokens[:-2]
    elif tokens and tokens[-1].text == "in":
        raise _ScriptError("missing-argument", "'in' needs THREAD", tokens[-1].column)
    groups: list[list[_Token]] = [[head]]
    for token in tokens:
        if token.text == CALL_JOINER:
            groups.append([])
        else:
            groups[-1].append(token)
    calls = []
    for group in groups:
        if not group or group[0].text not in CALL_SCRIPTS:
            where = group[0] if group else head
            raise _ScriptError("unexpected-argument", f"'{CALL_JOINER}' joins calls: load, unload, search, list or "
                               f"invoke must follow it", where.column)
        call = CALL_SCRIPTS[group[0].text]
        calls.append(call.call(_arguments(call.script, group[0], group[1:])))
    event = ROWS["model_step"].read({"thread": thread, "calls": calls}, StepContext())
    assert isinstance(event, ModelStep)  # the model_step row reads a model step
    return event


def _conversation(name: _Token, args: list[_Token], ctx: _Context) -> None:
    _arity(name, args, ["CONV"])
    ctx.conversation = args[0].word


def _adapter(name: _Token, args: list[_Token], ctx: _Context) -> None:
    _arity(name, args, ["NAME|none"])
    ctx.adapter = None if args[0].text == "none" else args[0].word


#: The commands that only change the defaults of later commands: handler, usage and meaning.
_SETTINGS: Final[dict[str, tuple[Callable[[_Token, list[_Token], _Context], None], str, str]]] = {
    "conversation": (_conversation, "conversation CONV", "default conversation (and thread) for later commands (main)"),
    "adapter": (_adapter, "adapter NAME|none", "adapter of later runs and calls (none: any)"),
}
COMMANDS: Final = (*SCRIPT_ROWS, *CALL_SCRIPTS, *_SETTINGS)
_IN_THREAD: Final = " [& CALL ...] [in THREAD]"
#: Each command's usage line.
USAGE: Final = {**{word: row.script.usage for word, row in SCRIPT_ROWS.items() if row.script},
                **{word: call.script.usage + _IN_THREAD for word, call in CALL_SCRIPTS.items()},
                **{word: usage for word, (_, usage, _) in _SETTINGS.items()}}
_MEANING: Final = {**{word: row.script.meaning for word, row in SCRIPT_ROWS.items() if row.script},
                   **{word: call.script.meaning for word, call in CALL_SCRIPTS.items()},
                   **{word: meaning for word, (_, _, meaning) in _SETTINGS.items()}}
_USAGE_WIDTH: Final = 34


def command_help() -> str:
    """The script commands as ``pas simulate --help`` lists them: usage, then what it does."""
    lines = []
    for word in COMMANDS:
        usage, meaning = USAGE[word], _MEANING[word]
        if len(usage) > _USAGE_WIDTH:
            lines += [f"  {usage}", f"  {'':{_USAGE_WIDTH}}  {meaning}"]
        else:
            lines.append(f"  {usage:{_USAGE_WIDTH}}  {meaning}")
    return "\n".join(lines)


def _unknown(token: _Token) -> _ScriptError:
    close = difflib.get_close_matches(token.text, COMMANDS, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return _ScriptError("unknown-command", f"unknown command {token.text!r}; {hint}commands: {', '.join(COMMANDS)}",
                        token.column)


def _command(tokens: list[_Token], line: str, number: int, ctx: _Context) -> ScriptCommand | None:
    """One command; None for the ones that only change defaults. Raises _ScriptError."""
    head, args = tokens[0], tokens[1:]
    if head.text not in USAGE:
        raise _unknown(head)
    try:
        if head.text in _SETTINGS:
            _SETTINGS[head.text][0](head, args, ctx)
            return None
        event = _step(head, args, ctx) if head.text in CALL_SCRIPTS else _event(SCRIPT_ROWS[head.text], head, args, ctx)
    except MalformedDocument as error:  # a value of the right kind of token but not of the event's field
        raise _ScriptError("bad-value", f"'{head.text}': {error.field.rpartition('.')[2]} {error.reason}",
                           (args or [head])[0].column) from None
    except _ScriptError as error:
        if error.code in ("missing-argument", "unexpected-argument"):
            error.message += f" (usage: {USAGE[head.text]})"
        raise
    source = line[head.column - 1 : tokens[-1].column - 1 + len(tokens[-1].text)]
    return ScriptCommand(line=number, column=head.column, text=source, event=event)


def parse_script(text: str, name: str = "script") -> tuple[tuple[ScriptCommand, ...], tuple[Problem, ...]]:
    """Turn a script into commands; return every problem (``name:line:col``), not only the first."""
    commands: list[ScriptCommand] = []
    problems: list[Problem] = []
    ctx = _Context()
    for number, line in enumerate(text.splitlines(), start=1):
        groups, line_error = _tokenize(line)
        for tokens in groups:
            try:
                command = _command(tokens, line, number, ctx)
            except _ScriptError as error:
                problems.append(_script_problem(error, name, number))
                continue
            if command is not None:
                commands.append(command)
        if line_error is not None:
            problems.append(_script_problem(line_error, name, number))
    if not commands and not problems:
        problems.append(Problem(code="empty-script", message="the script has no commands; try 'run'",
                                source=SourceLocation(path=name, line=1, column=1)))
    return tuple(commands), tuple(problems)


def _script_problem(error: _ScriptError, name: str, line: int) -> Problem:
    return Problem(code=error.code, message=error.message, source=SourceLocation(path=name, line=line, column=error.column))
