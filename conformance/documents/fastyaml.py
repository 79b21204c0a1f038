"""The YAML fast path: ``yaml-rs`` (Rust, YAML 1.2) reads a document the event loader would read the same way.

The event loader (:mod:`conformance.documents.loader`, libyaml's parser and a Python builder)
records a line and column for every value, which costs about ten times what yaml-rs takes to read
a manifest. Most documents are read only to hear that they are fine, so :func:`fast_value` reads
them with yaml-rs and hands back the value only when nothing about the document needs the event
loader: no problem to report, nothing the two could read differently. Otherwise it answers None
and the event loader reads the text (and says what is wrong, with line and column). It declines:

- text with a tag or an anchor (alias bombs and tag refusals stay the event loader's; with no anchor,
  an alias is one yaml-rs refuses, so text such as ``- **bold**`` in a description is kept),
  a merge key, a directive, a character YAML does not allow or reads as a line break only in
  YAML 1.1 (NEL, LS, PS), a BOM, a tab, a surrogate pair written as escapes, a colon right before
  ``] } , ? :``, a block scalar that ends the text, and a line that leaves a bracket open unless
  its text lies within one string of the value (a flow collection over several lines);
- text yaml-rs refuses (a syntax error, a duplicate key ...), an empty document, and a list or a scalar at
  the top (it may be several documents);
- a value deeper than the depth limit or with more values than the node limit;
- a key that is not a string, and a string that may read otherwise when written plain (one of
  :data:`~conformance.documents.plain.NOT_PLAIN_WORDS`, a number, a YAML 1.1 trap such as ``yes``,
  or starting with an indicator character): it may have been quoted, or be read differently (but a
  plain decimal such as ``"1.0"``, which as a string can only have been quoted, is kept);
- a float unless the text writes it, and every other number-shaped word with a point or an exponent, as
  Python's repr would (``2.5``, ``-0.25``: no exponent, no trailing zero; ``1.10`` is a version that lost a
  digit, which only the text tells; see :func:`_plain_floats`), and an integer or a float whose text
  yaml-rs reads as a number where PAS reads a string (``1_000``, ``0b11``, ``0X1F``).

An empty string is kept (a value, not a key): written plain, nothing reads as ``''`` in either loader
(an empty value is null), so it was quoted or an empty block scalar, read alike.

Each rule stands for a difference found by comparing the two loaders on generated and damaged YAML.
Tests compare the two loaders on the project's documents and on generated and damaged YAML
(tests/conformance/documents/test_fast_yaml.py).
"""

from __future__ import annotations

import re
from typing import Any

from conformance.documents.plain import NOT_PLAIN_WORDS, NUMBER_LIKE, NUMBER_STARTS

# YAML's indicator characters: no plain scalar starts with one unless the event loader reads it so, and
# yaml-rs reads some in flow style ("[?x]", "[|x]", "[:x]") where libyaml refuses them or reads a mapping.
# The reserved indicators "@" and "`" are not among them: both loaders refuse a plain scalar starting with
# one, so such a string was quoted or a block scalar's and reads the same in both (a scenario's description
# starting with `code` keeps the fast path).
_INDICATORS = "-?:,[]{}#&*!|>'\"%"
_SUSPECT_STARTS = NUMBER_STARTS + _INDICATORS
# A key that starts with one, in the keys joined by NUL (see _plain_keys).
_SUSPECT_KEY_START = re.compile("\x00[" + re.escape(_SUSPECT_STARTS) + "]")

# Characters YAML does not allow (C0 and C1 controls but tab and line breaks, U+FFFE, U+FFFF), NEL,
# LS and PS (line breaks in YAML 1.1 only) and the byte-order mark. Each is looked for alone (a
# single-character search is a memchr, many times faster than a regular expression here).
_ASCII_REFUSED = tuple(chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F))
_REFUSED = _ASCII_REFUSED + tuple(map(chr, range(0x80, 0xA0))) + ("\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff")
# What may stand just before a tag (!) or an anchor (&) that starts a node (a line break or
# indentation, "- ", ": ", "[", "{", ",", and ":" after a quoted key in flow style).
_NODE_START = frozenset(" \t\r\n[{,:")
# Integers yaml-rs reads that PAS's YAML 1.2 core schema reads as strings: digit separators, binary,
# upper-case radix prefixes, separators after a radix prefix.
# A high surrogate written as an escape: libyaml refuses "\\ud800\\udc00", yaml-rs joins the pair.
_SURROGATE_ESCAPE = re.compile(r"\\(?:u[dD][89abAB]|U0000[dD][89abAB])")
# A colon right before "]", "}", ",", "?" or ":": libyaml refuses "[x:]" and "{a:?b}", yaml-rs reads them.
_BARE_COLON = re.compile(r":[\]},?:]")
_RUST_ONLY_INT = (re.compile(r"_(?<=[0-9]_)"), re.compile(r"0(?=[bBOX]|[xo][0-9a-fA-F]*_)"))
# A float as repr writes it with no exponent and no trailing zero, and what yaml-rs might read as a float: a
# word of digits, underscores, signs, a point or an exponent (see _plain_floats).
_CANONICAL_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]*[1-9]").fullmatch
_WORDS = re.compile(r"[0-9A-Za-z_.+-]+")
_NUMBER_SHAPED = re.compile(r"[-+]?[0-9_]*\.?[0-9_]*(?:[eE][-+]?[0-9_]+)?").fullmatch
# A decimal both loaders read as a number when written plain: as a string it can only have been quoted
# (``introduced_in: "1.0"``), so it reads the same either way.
_QUOTED_ONLY = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?").fullmatch


def fast_value(text: str, *, max_depth: int, max_nodes: int) -> Any:
    """The value of the one document in ``text`` when the event loader would read the same with nothing
    to report; None when it declines (the event loader must read ``text``). Never raises."""
    if _awkward(text):
        return None
    import yaml_rs

    try:
        value = yaml_rs.loads(text, parse_datetime=False)
    except Exception:  # noqa: BLE001 - whatever yaml-rs refuses, the event loader reads and explains
        return None
    if type(value) is not dict:  # a list may be several documents; a scalar or nothing is no PAS document
        return None
    strings: list[str] = []
    floats: list[float] = []
    found = _walk(value, max_depth, max_nodes, strings, floats)
    if found is None or ((found or floats) and any(pattern.search(text) for pattern in _RUST_ONLY_INT)):
        return None
    if floats and not _plain_floats(text, floats):
        return None
    open_lines = _open_bracket_lines(text)
    return value if not open_lines or _inside_strings(open_lines, strings) else None


def _awkward(text: str) -> bool:
    """Whether ``text`` holds anything only the event loader reads right (see the module docstring)."""
    for character in _ASCII_REFUSED if text.isascii() else _REFUSED:
        if character in text:
            return True
    if "\t" in text:  # libyaml refuses a tab in many places yaml-rs takes it as a space
        return True
    if "<" in text and "<<" in text or "%" in text and ("\n%" in text or text.startswith("%")):
        return True
    if "\\" in text and _SURROGATE_ESCAPE.search(text):
        return True
    if _BARE_COLON.search(text):
        return True
    # A block scalar (| or >) that ends the text: yaml-rs keeps a line break libyaml drops.
    last = text.rstrip()
    last = last[last.rfind("\n") + 1:]
    if ("|" in last or ">" in last) or not text.endswith("\n") and ("|" in text or ">" in text):
        return True
    # No "*": an alias needs an anchor, and yaml-rs refuses an alias to none (the fast path declines what it refuses).
    for indicator in "!&":
        at = text.find(indicator)
        while at >= 0:
            # An anchor has a name right after it ("x & y" is text); any "!" may be a tag.
            if (at == 0 or text[at - 1] in _NODE_START) and (indicator == "!" or text[at + 1:at + 2].strip()):
                return True
            at = text.find(indicator, at + 1)
    return False


def _open_bracket_lines(text: str) -> list[str]:
    """The lines (stripped) that hold a "[" or "{" and leave brackets open: a flow collection over several
    lines, whose indentation libyaml checks more strictly than yaml-rs, or text inside a scalar."""
    found = []
    for opener in "[{":
        at = text.find(opener)
        while at >= 0:
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            line = text[text.rfind("\n", 0, at) + 1:end]
            if line.count("[") != line.count("]") or line.count("{") != line.count("}"):
                found.append(line.strip())
            at = text.find(opener, end)
    return found


def _inside_strings(lines: list[str], strings: list[str]) -> bool:
    """Whether each line's text lies within one of ``strings`` (the value's, gathered by :func:`_walk`): then
    it is a scalar's text (a docstring in a block scalar, say), not flow syntax, which no single scalar can
    hold whole."""
    joined = "\x00".join(strings)  # NUL is refused in the text, so no line can span two strings
    return all(line in joined for line in lines)


def _plain_floats(text: str, floats: list[float]) -> bool:
    """Whether each float was written as repr writes it, so that the event loader reads it alike with nothing to say.

    yaml-rs reads a float only from a word of digits, signs, underscores, a point or an exponent
    (and inf or nan, which repr writes without a digit); a plain scalar is a whole word of the text (YAML's
    separators are no word characters). So each such word of the text with a point or an exponent, the
    float's own among them, is a decimal with no exponent or trailing zero that repr writes back the same,
    and each float's repr is one of them: the event loader's ``float`` of that text is the same value, and
    no trailing zero (``1.10``) makes it report the text as a version. A word between two like quotes
    (``"1.0"``) is not looked at: no plain scalar starts right after a quote (yaml-rs refuses ``"a"1.0``). Other
    words inside strings count too (a false alarm only declines).
    """
    written = set()
    for match in _WORDS.finditer(text):
        word, start, end = match.group(), match.start(), match.end()
        if any(c in word for c in ".eE") and any(c.isdigit() for c in word) and _NUMBER_SHAPED(word):
            if start and text[start - 1] in "'\"" and text[end:end + 1] == text[start - 1]:
                continue
            if not _CANONICAL_FLOAT(word) or repr(float(word)) != word:
                return False
            written.add(word)
    return all(repr(value) in written for value in floats)


def _walk(root: dict[str, Any], max_depth: int, max_nodes: int, strings: list[str], floats: list[float]) -> bool | None:
    """None to decline (see the module docstring), else whether ``root`` holds an integer; appends every
    string value (keys not) to ``strings``, for :func:`_inside_strings`, so the value is walked once, and
    every float to ``floats``, for :func:`_plain_floats`.

    Values are counted as the event loader counts them (every value, keys not). Keys are gathered and
    looked at together at the end (:func:`_plain_keys`), which costs less than one by one.
    """
    words, number, starts, indicators = NOT_PLAIN_WORDS, NUMBER_LIKE.fullmatch, _SUSPECT_STARTS, _INDICATORS
    quoted_only, keep, keep_float = _QUOTED_ONLY, strings.append, floats.append
    keys: list[Any] = []
    stack: list[tuple[Any, int]] = [(root, 0)]
    count, integers = 1, False
    while stack:
        node, depth = stack.pop()
        if depth >= max_depth and node:
            return None  # its values would lie deeper than the limit
        if type(node) is dict:
            keys.extend(node)
            values = node.values()
        else:
            values = node
        count += len(values)
        for value in values:
            kind = type(value)
            if kind is str:  # every word is at most five characters: a longer string is not hashed here
                if value and (len(value) < 6 and value in words or value[0] in starts and (
                        value[0] in indicators or number(value) and not quoted_only(value))):
                    return None
                keep(value)
            elif kind is dict or kind is list:
                stack.append((value, depth + 1))
            elif kind is int:
                integers = True
            elif kind is float:
                keep_float(value)
            elif kind is not bool and value is not None:
                return None
    return None if count > max_nodes or not _plain_keys(keys) else integers


def _plain_keys(keys: list[Any]) -> bool:
    """Whether every key is a string that reads the same written plain or quoted (as for a string value,
    but a key that reads as a number is never kept)."""
    try:
        joined = "\x00" + "\x00".join(keys)  # a key that is not a string stops the join
    except TypeError:
        return False
    if not NOT_PLAIN_WORDS.isdisjoint(keys):
        return False
    # One search for a key starting with a suspect character (every key follows a NUL; a key holding a NUL,
    # from a "\0" escape, can only add a false alarm), then each key, only when that search finds one.
    if not _SUSPECT_KEY_START.search(joined):
        return True
    number = NUMBER_LIKE.fullmatch
    return not any(key[:1] in _SUSPECT_STARTS and (key[0] in _INDICATORS or number(key)) for key in keys)
