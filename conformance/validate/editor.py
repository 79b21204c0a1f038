"""What ``pas lsp`` asks of ``pas validate``: open documents checked in their set, and the fixes rules have.

An editor's buffers are checked as ``pas validate ROOT`` would check the folder, with each open
buffer's text in place of its file: the schema, every document rule and the set rules
(dependency cycles, duplicate module names, strategies) across the folder, the suppressions and
``.pas.yaml`` of the folder. Files that are not open are read from disk once and kept until they
change (their modification time and size), so a keystroke re-checks one buffer, not the folder.

:func:`fixes` turns a problem into edits where its rule has a mechanical fix; positions are
0-based lines and columns in code points (the language server converts them to its encoding).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from conformance.documents.walk import Target, collect_targets
from conformance.validate.check import FileResult, Settings, check_file, check_text, finish
from conformance.validate.suppress import Config, ConfigError, find_config, load_config
from reference_impl.problems import Problem


@dataclass(frozen=True, slots=True, kw_only=True)
class Edit:
    """Replace the text from (line, column) to (end_line, end_column) with ``text``; 0-based, code points."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Fix:
    """A fix offered for one problem: a title for the menu and the edits that make it."""

    title: str
    edits: tuple[Edit, ...]


def _key(path: str | Path) -> str:
    return os.path.realpath(path)


class Workspace:
    """The documents under one folder, validated together; caches the results of files not open in the editor."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.config_error: str | None = None
        self.settings = Settings(config=self._config())
        self._cache: dict[str, tuple[tuple[int, int], FileResult]] = {}

    def _config(self) -> Config:
        path = find_config(self.root)
        try:
            return load_config(path) if path else Config()
        except ConfigError as error:  # the editor still gets the schema and the rules, with the defaults
            self.config_error = str(error)
            return Config()

    def _from_disk(self, target: Target) -> FileResult:
        try:
            stat = os.stat(target.path)
        except OSError:
            return check_file(target, self.settings)  # reports the file as unreadable
        stamp, key = (stat.st_mtime_ns, stat.st_size), _key(target.path)
        cached = self._cache.get(key)
        if cached is None or cached[0] != stamp:
            cached = (stamp, check_file(target, self.settings))
            self._cache[key] = cached
        return cached[1]

    def check(self, buffers: Mapping[str, str]) -> dict[str, list[Problem]]:
        """The problems of the folder with each buffer (path -> text) in place of its file, by path: every
        buffer's path (an empty list when it has none), and every other file that has a problem."""
        targets, problems = collect_targets([str(self.root)])
        texts = {_key(path): text for path, text in buffers.items()}
        known = {_key(t.path) for t in targets}
        targets += [Target(path=str(path), explicit=False) for path in buffers if _key(path) not in known]
        results = [check_text(t, texts[_key(t.path)], self.settings) if _key(t.path) in texts else self._from_disk(t)
                   for t in targets]
        validation = finish(targets, problems, results, self.settings)
        found: dict[str, list[Problem]] = {path: [] for path in buffers}
        by_key = {_key(path): path for path in buffers}
        for problem in validation.problems:
            if problem.source is not None:
                found.setdefault(by_key.get(_key(problem.source.path), problem.source.path), []).append(problem)
        return found


# --- fixes ------------------------------------------------------------------------------------

_KEY = r"^(?P<indent>[ \t]*)(?P<key>{name})[ \t]*:(?P<rest>.*)$"


def _key_line(lines: list[str], name: str, near: int) -> tuple[int, re.Match[str]] | None:
    """The line (0-based) of the top-level key ``name`` nearest above ``near`` (or anywhere), and its match."""
    pattern = re.compile(_KEY.format(name=re.escape(name)))
    order = [*range(min(near, len(lines) - 1), -1, -1), *range(near + 1, len(lines))]
    for index in order:
        match = pattern.match(lines[index])
        if match and not match["indent"]:
            return index, match
    return None


def _set_allow_sleep(lines: list[str], problem_line: int) -> Fix | None:
    """``allow_sleep: true``: the value replaced where the key exists, else a line added above ``sleep_brief``."""
    found = _key_line(lines, "allow_sleep", problem_line)
    if found is not None:
        index, match = found
        value_at = match.start("rest")
        return Fix(title="Let the plugin sleep: allow_sleep: true",
                   edits=(Edit(line=index, column=value_at, end_line=index, end_column=len(lines[index]), text=" true"),))
    brief = _key_line(lines, "sleep_brief", problem_line)
    at = brief[0] if brief else 0
    return Fix(title="Let the plugin sleep: add allow_sleep: true",
               edits=(Edit(line=at, column=0, end_line=at, end_column=0, text="allow_sleep: true\n"),))


def _remove_brief(lines: list[str], problem_line: int) -> Fix | None:
    """Delete the ``sleep_brief`` key and its value (every more-indented or blank line after it)."""
    found = _key_line(lines, "sleep_brief", problem_line)
    if found is None:
        return None
    start = end = found[0]
    while end + 1 < len(lines) and (not lines[end + 1].strip() or lines[end + 1][:1] in (" ", "\t")):
        end += 1
    while end > start and not lines[end].strip():  # keep the blank lines that separate the next key
        end -= 1
    return Fix(title="Remove sleep_brief (the model never sees it)",
               edits=(Edit(line=start, column=0, end_line=end + 1, end_column=0, text=""),))


_PLAIN_END = re.compile(r"[ \t]+#|[ \t]*$")


def _quote_value(lines: list[str], problem_line: int, column: int) -> Fix | None:
    """Quote the plain scalar at (line, column) so every YAML version reads the same string."""
    if problem_line >= len(lines) or column >= len(lines[problem_line]):
        return None
    line = lines[problem_line]
    if line[column] in "'\"|>[{":
        return None
    end = column + _PLAIN_END.search(line[column:]).start()  # type: ignore[union-attr]  # the pattern matches at $
    value = line[column:end]
    quoted = "'" + value.replace("'", "''") + "'"
    return Fix(title=f"Quote {value} as a string: {quoted}",
               edits=(Edit(line=problem_line, column=column, end_line=problem_line, end_column=end, text=quoted),))


_FIXERS: dict[str, tuple[Callable[[list[str], int, int], Fix | None], ...]] = {
    "brief-without-allow-sleep": (lambda lines, line, _: _set_allow_sleep(lines, line),),
    "allow-sleep-without-brief": (),  # a brief has to be written by someone who knows the plugin
    "protected-brief": (lambda lines, line, _: _set_allow_sleep(lines, line),
                        lambda lines, line, _: _remove_brief(lines, line)),
    "ambiguous-yaml-value": (_quote_value,),
}


def fixes(problem: Problem, text: str) -> list[Fix]:
    """The fixes for ``problem`` in the document ``text``, if its rule has any (none without a line)."""
    source = problem.source
    if source is None or source.line is None or problem.code not in _FIXERS:
        return []
    if problem.code in ("brief-without-allow-sleep", "protected-brief") and problem.pointer != "/sleep_brief":
        return []  # a brief inside a multi-document list or elsewhere: no safe edit
    lines = text.splitlines()
    found = (fixer(lines, source.line - 1, (source.column or 1) - 1) for fixer in _FIXERS[problem.code])
    return [fix for fix in found if fix is not None]


def fixable_codes() -> frozenset[str]:
    """The codes that have at least one fix."""
    return frozenset(code for code, fixers in _FIXERS.items() if fixers)
