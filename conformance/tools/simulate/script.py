"""The ``pas simulate`` script language: text in, scheduler events out, every problem at line:col.

A script is a list of commands (see :data:`USAGE`), one per line or separated by ``;``,
with ``#`` comments. ``conversation`` and ``adapter`` change the defaults of later
commands; the others each become one scheduler event. ROUNDS is read as JSON when it
parses as JSON (``2.5`` and ``"x"`` reach the scheduler as a float and a string, so they
test ``invalid_argument``), otherwise as the bare word. Names may be double-quoted JSON
strings. :func:`parse_script` returns every problem, not only the first.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.problems import Problem, SourceLocation

DEFAULT_CONVERSATION = "main"

# One token: a comment, a separator, a JSON string, a bare word, or a stray quote.
_TOKEN = re.compile(r'\s*(?:(?P<comment>#.*)|(?P<semi>;)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<word>[^\s;#"]+)|(?P<bad>"))')


@dataclass(frozen=True, slots=True, kw_only=True)
class ScriptCommand:
    """One script command that becomes a scheduler event, with where it was written."""

    line: int
    column: int
    text: str
    event: Event


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


def _rounds(token: _Token) -> Any:
    try:
        value = json.loads(token.text)
    except ValueError:
        return token.text
    # NaN and Infinity are not JSON: keep them as words so --format json stays valid JSON.
    return token.text if isinstance(value, float) and not math.isfinite(value) else value


def _arity(name: _Token, args: Sequence[_Token], wanted: Sequence[str], optional: int = 0) -> None:
    """Check the argument count; ``wanted`` names the arguments, the last ``optional`` may be left out."""
    if len(args) < len(wanted) - optional:
        raise _ScriptError("missing-argument", f"'{name.text}' needs {wanted[len(args)]}", name.column)
    if len(args) > len(wanted):
        extra = args[len(wanted)]
        raise _ScriptError("unexpected-argument", f"'{name.text}' takes no argument {extra.text!r} here", extra.column)


def _call(event_type: type, name: _Token, args: list[_Token], ctx: _Context) -> Event:
    """``activate|extend MODULE [ROUNDS] [in CONV]``."""
    _arity(name, args[:1], ["MODULE"])
    rest = args[1:]
    rounds: Any = OMITTED
    if rest and rest[0].text != "in":
        rounds, rest = _rounds(rest[0]), rest[1:]
    conversation = ctx.conversation
    if rest:
        if rest[0].text != "in":
            raise _ScriptError("unexpected-argument", f"expected 'in CONV', not {rest[0].text!r}", rest[0].column)
        _arity(rest[0], rest[1:], ["CONV"])
        conversation = rest[1].word
    return event_type(conversation=conversation, module_name=args[0].word, rounds=rounds, adapter=ctx.adapter)


def _run(name: _Token, args: list[_Token], ctx: _Context) -> Event:
    _arity(name, args, ["CONV"], optional=1)
    conversation = args[0].word if args else ctx.conversation
    return StartRun(conversation=conversation, adapter=ctx.adapter)


def _strategy(name: _Token, args: list[_Token], ctx: _Context) -> Event:
    _arity(name, args, ["MODULE", "VALUE"])
    return SetStrategy(module_name=args[0].word, strategy=args[1].word)


def _scheduler(name: _Token, args: list[_Token], ctx: _Context) -> Event:
    _arity(name, args, ["on|off"])
    if args[0].text not in ("on", "off"):
        raise _ScriptError("bad-value", f"'scheduler' takes on or off, not {args[0].text!r}", args[0].column)
    return SetScheduler(enabled=args[0].text == "on")


def _admin(event_type: type) -> Callable[[_Token, list[_Token], _Context], Event]:
    def handler(name: _Token, args: list[_Token], ctx: _Context) -> Event:
        _arity(name, args, ["MODULE"])
        return event_type(module_name=args[0].word)

    return handler


def _restart(name: _Token, args: list[_Token], ctx: _Context) -> Event:
    _arity(name, args, [])
    return Restart()


def _conversation(name: _Token, args: list[_Token], ctx: _Context) -> None:
    _arity(name, args, ["CONV"])
    ctx.conversation = args[0].word


def _adapter(name: _Token, args: list[_Token], ctx: _Context) -> None:
    _arity(name, args, ["NAME|none"])
    ctx.adapter = None if args[0].text == "none" else args[0].word


_COMMANDS: dict[str, Callable[[_Token, list[_Token], _Context], Event | None]] = {
    "run": _run,
    "activate": lambda name, args, ctx: _call(Activate, name, args, ctx),
    "extend": lambda name, args, ctx: _call(Extend, name, args, ctx),
    "strategy": _strategy,
    "enable": _admin(Enable),
    "disable": _admin(Disable),
    "scheduler": _scheduler,
    "restart": _restart,
    "conversation": _conversation,
    "adapter": _adapter,
}
COMMANDS = tuple(_COMMANDS)
USAGE = {
    "run": "run [CONV]",  # start a run (in the default conversation unless CONV)
    "activate": "activate MODULE [ROUNDS] [in CONV]",  # the model calls activate_plugin
    "extend": "extend MODULE [ROUNDS] [in CONV]",  # the model calls extend_plugin_activation
    "strategy": "strategy MODULE auto|allow_sleep|forbid_sleep",  # an admin sets a strategy
    "enable": "enable MODULE",
    "disable": "disable MODULE",
    "scheduler": "scheduler on|off",  # switch the plugin_activation scheduler
    "restart": "restart",  # the host restarts; persisted counters survive
    "conversation": "conversation CONV",  # default conversation of later commands (main)
    "adapter": "adapter NAME|none",  # adapter of later runs and calls (none: any)
}


def _unknown(token: _Token) -> _ScriptError:
    close = difflib.get_close_matches(token.text, COMMANDS, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return _ScriptError("unknown-command", f"unknown command {token.text!r}; {hint}commands: {', '.join(COMMANDS)}",
                        token.column)


def _command(tokens: list[_Token], line: str, number: int, ctx: _Context) -> ScriptCommand | None:
    """One command; None for the ones that only change defaults. Raises _ScriptError."""
    head, args = tokens[0], tokens[1:]
    handler = _COMMANDS.get(head.text)
    if handler is None:
        raise _unknown(head)
    try:
        event = handler(head, args, ctx)
    except _ScriptError as error:
        if error.code in ("missing-argument", "unexpected-argument"):
            error.message += f" (usage: {USAGE[head.text]})"
        raise
    if event is None:
        return None
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
