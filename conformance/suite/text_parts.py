"""Which part of the reference text a wrong text differs in: the key the attribution table maps to a rule.

The reference renders every text as :class:`~reference_impl.render.Piece` s, each labelled with
the part of the layout that writes it (``frame``, ``element_layout``, ``brief_value``,
``method_entry``, ``called_name``, ``sentence_extended`` ...). :func:`text_parts` compares the
reference text with the implementation's, character by character, and returns the parts of
the pieces the differences fall in; spec/attribution.yaml (``by: text_part``) gives each part
its requirement. Some differences are named by what they are rather than where: missing or
extra XML escapes (``escaping``, ``extra_escaping``), ``1 run`` for ``1 runs`` (``plural``),
non-ASCII characters written as escapes (``non_ascii``), a brief trimmed of other characters
than White_Space (``brief_trim``).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from reference_impl.model import WHITE_SPACE
from reference_impl.render import Piece, joined

#: Parts made of line feeds only: where a missing or extra line feed is ambiguous, the frame wins.
LAYOUT_PARTS = frozenset({"block_start", "frame", "element_layout", "block_end", "block_join", "context_layout",
                          "reply_layout"})
#: Parts of a reply sentence (outside any block).
SENTENCE_PARTS = frozenset({"called_name", "sentence_activated", "sentence_already_active", "sentence_always_awake",
                            "sentence_not_found", "sentence_extended", "sentence_invalid_argument"})
#: Element tags, by the part an element of that tag stands for when it is missing or extra as a whole.
ELEMENTS = {"capability_brief": "brief", "predefined_methods": "methods", "injected_prompt": "injected_prompt",
            "plugin_runtime_context": "runtime_context"}
_ESCAPES = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"), ("&#x27;", "'"), ("&apos;", "'"),
            ("&amp;", "&"))
_CHARACTER_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|&#x([0-9a-fA-F]+);|&#([0-9]+);")
#: Characters some language's trim removes although they are not White_Space (U+FEFF, U+001C..U+001F ...).
TRIMMED_ELSEWHERE = WHITE_SPACE + "\ufeff\u001c\u001d\u001e\u001f\u180e\u200b"
_CHARACTERS = 1_000  # differing runs up to this long are compared character by character (difflib is quadratic)
_WINDOW = 8_000  # of a longer differing middle, only the start is compared


def unescaped(text: str) -> str:
    """``text`` with every XML escape a writer may use undone (those of TXT-BLOCK-2 and the apostrophe's)."""
    for escaped, raw in _ESCAPES:
        text = text.replace(escaped, raw)
    return text


def _escapes(text: str) -> int:
    return sum(text.count(escaped) for escaped, _ in _ESCAPES)


def _characters(text: str) -> str:
    """``text`` with ``\\uXXXX`` and numeric character references turned back into characters."""
    def back(match: re.Match[str]) -> str:
        code = int(match[1] or match[2], 16) if match[1] or match[2] else int(match[3])
        return chr(code) if code <= 0x10FFFF else match[0]

    return _CHARACTER_ESCAPE.sub(back, text)


def difference_kind(expected: str, actual: str, *, whole: bool) -> str | None:
    """What the difference is when it has a name: ``escaping``, ``extra_escaping``, ``plural``, ``non_ascii``.

    ``whole``: ``expected`` is the whole text (an ``equals`` check), else a piece ``actual`` should contain.
    """
    def holds(wanted: str, got: str = actual) -> bool:
        return wanted == got if whole else wanted in got

    if unescaped(expected) != expected or unescaped(actual) != actual:
        if holds(unescaped(expected)):
            return "escaping"  # written without (some of) the escapes of TXT-BLOCK-2
        if holds(unescaped(expected), unescaped(actual)):
            return "extra_escaping" if not whole or _escapes(actual) > _escapes(expected) else "escaping"
    if "1 runs" in expected and holds(expected, _plural(actual)):
        return "plural"
    if not expected.isascii() and _characters(actual) != actual and holds(expected, _characters(actual)):
        return "non_ascii"
    return None


def _plural(text: str) -> str:
    """``text`` with one run put back in the plural the sentences use: ``1 run remains`` -> ``1 runs remain``."""
    return re.sub(r"\b1 run\b", "1 runs", re.sub(r"\b1 run remains\b", "1 runs remain", text))


class _Layout:
    """The reference text's pieces with their offsets, to find the pieces around a position."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = list(pieces)
        self.text = joined(pieces)
        self.starts = []
        at = 0
        for piece in self.pieces:
            self.starts.append(at)
            at += len(piece.text)

    def within(self, start: int, end: int) -> list[int]:
        """Indexes of the pieces overlapping ``[start, end)``."""
        first = max(bisect.bisect_right(self.starts, start) - 1, 0)
        found = []
        for index in range(first, len(self.pieces)):
            if self.starts[index] >= end:
                break
            if self.starts[index] + len(self.pieces[index].text) > start:
                found.append(index)
        return found

    def at_boundary(self, position: int, inserted: str) -> list[int]:
        """The piece an insertion at ``position`` belongs to: a line feed to the layout, text to the content
        (the piece before it, between two)."""
        around = self.within(max(position - 1, 0), min(position + 1, len(self.text)))
        if len(around) < 2:
            return around
        layout = [i for i in around if self.pieces[i].part in LAYOUT_PARTS]
        content = [i for i in around if self.pieces[i].part not in LAYOUT_PARTS]
        chosen = layout if set(inserted) <= {"\n"} else content[:1]  # text continues the piece before it
        return chosen or around


#: Where a difference could be placed in more than one piece (a line feed in a run of line feeds),
#: the frame and the joins between blocks win over a block's ends, and those over an element's own line feeds.
_TIERS = {"frame": 0, "block_join": 0, "context_layout": 0, "reply_layout": 0, "block_start": 1, "block_end": 1,
          "element_layout": 2}


def _placements(text: str, start: int, end: int, added: str) -> list[tuple[int, int, str]]:
    """Every place an insertion or a deletion could be, for the same result: (start, end, inserted)."""
    found = [(start, end, added)]
    for step in (-1, 1):
        s, e, a = start, end, added
        while True:
            if a:  # an insertion slides while the character it passes is the one it moves to its other end
                if step < 0 and s > 0 and text[s - 1] == a[-1]:
                    s, e, a = s - 1, e - 1, a[-1] + a[:-1]
                elif step > 0 and s < len(text) and text[s] == a[0]:
                    s, e, a = s + 1, e + 1, a[1:] + a[0]
                else:
                    break
            elif step < 0 and s > 0 and text[s - 1] == text[e - 1]:
                s, e = s - 1, e - 1
            elif step > 0 and e < len(text) and text[s] == text[e]:
                s, e = s + 1, e + 1
            else:
                break
            found.append((s, e, a))
    return found


class Change(NamedTuple):
    """One difference: ``[start, end)`` of the reference text became ``added``, at ``at`` in the actual text."""

    start: int
    end: int
    removed: str
    added: str
    at: int


def _changes(reference: str, actual: str) -> list[Change]:
    """Each difference of ``actual`` from ``reference``.

    The common prefix and suffix are set aside first; what is left (its first :data:`_WINDOW`
    characters) is compared line by line, and each changed run of lines character by character
    when it is short (:data:`_CHARACTERS`).
    """
    head = len(_common_prefix(reference, actual))
    tail = len(_common_prefix(reference[head:][::-1], actual[head:][::-1]))
    ours, theirs = reference[head:len(reference) - tail], actual[head:len(actual) - tail]
    if not ours and not theirs:
        return []
    if len(ours) + len(theirs) <= _CHARACTERS:
        return _character_changes(ours, theirs, head, head)
    if len(ours) + len(theirs) > _WINDOW:  # a long text wrong in many places: its first differences say enough
        ours, theirs = ours[:_WINDOW // 2], theirs[:_WINDOW // 2]
    ours_lines, theirs_lines = ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, ours_lines, theirs_lines)
    found: list[Change] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, at = head + sum(map(len, ours_lines[:i1])), head + sum(map(len, theirs_lines[:j1]))
        removed, added = "".join(ours_lines[i1:i2]), "".join(theirs_lines[j1:j2])
        if len(removed) + len(added) <= _CHARACTERS:
            found += _character_changes(removed, added, start, at)
        else:
            found.append(Change(start, start + len(removed), removed, added, at))
    return found


def _character_changes(ours: str, theirs: str, offset: int, at: int) -> list[Change]:
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    return [Change(offset + i1, offset + i2, ours[i1:i2], theirs[j1:j2], at + j1)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _common_prefix(a: str, b: str) -> str:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return a[:length]


def _parts_at(layout: _Layout, start: int, end: int, removed: str, added: str) -> list[str]:
    """The parts of the pieces a difference at exactly ``[start, end)`` falls in (see the module docstring)."""
    indexes = layout.within(start, end) if end > start else layout.at_boundary(start, added)
    whole = _whole_elements(layout, indexes, removed)
    extra = [ELEMENTS[tag] for tag in re.findall(r"<(\w+)[ >]", added) if tag in ELEMENTS and f"</{tag}>" in added]
    parts = [layout.pieces[i].part for i in indexes if layout.pieces[i].slot not in whole]
    parts += [_slot_part(layout, slot) for slot in sorted(whole)] + extra
    if whole or extra:  # an element missing or extra as a whole: its presence, not the line feeds around it
        parts = [p for p in parts if p not in LAYOUT_PARTS]
    if "brief_value" in parts and _trimmed_alike(removed, added) and _at_an_end(layout, indexes, start, end):
        parts = ["brief_trim" if p == "brief_value" else p for p in parts]
    return list(dict.fromkeys(parts))


def _parts_of_change(layout: _Layout, change: Change) -> list[str]:
    """The parts one difference falls in; an insertion or deletion that could be in several places
    is placed where it touches the fewest parts, line feeds preferring the frame (:data:`_TIERS`)."""
    start, end, removed, added = change.start, change.end, layout.text[change.start:change.end], change.added
    if removed and added:
        return _parts_at(layout, start, end, removed, added)
    newlines = set(removed + added) <= {"\n"}

    def rank(parts: list[str]) -> tuple[int, int]:
        tiers = [_TIERS.get(p, 3) for p in parts] or [3]
        return len(parts), min(tiers) if newlines else -max(tiers)

    placed = [_parts_at(layout, s, e, layout.text[s:e], a) for s, e, a in _placements(layout.text, start, end, added)]
    return min(placed, key=rank)


def _whole_elements(layout: _Layout, indexes: Iterable[int], removed: str) -> set[str]:
    """The slots of the elements whose opening and closing tags both lie in the removed text."""
    slots = {layout.pieces[i].slot for i in indexes if layout.pieces[i].slot}
    return {slot for slot in slots
            if sum(1 for i in indexes if layout.pieces[i].slot == slot and layout.pieces[i].text.startswith("<")
                   and layout.pieces[i].text in removed) >= 2}


def _slot_part(layout: _Layout, slot: str) -> str:
    return next(p.part for p in layout.pieces if p.slot == slot and p.text.startswith("<"))


def _at_an_end(layout: _Layout, indexes: Iterable[int], start: int, end: int) -> bool:
    """Whether ``[start, end)`` touches the start or the end of the brief's value."""
    for index in indexes:
        if layout.pieces[index].part == "brief_value":
            first = layout.starts[index]
            return start <= first or end >= first + len(layout.pieces[index].text)
    return False


def _trimmed_alike(removed: str, added: str) -> bool:
    """Whether the difference is only characters some trim removes: the brief was trimmed otherwise."""
    return bool(removed + added) and not (removed + added).strip(TRIMMED_ELSEWHERE)


def text_parts(pieces: Sequence[Piece], expected: str, actual: str, *, check: str = "equals") -> list[str]:
    """The parts of the reference text where ``actual`` differs from it, or the named kind of the difference.

    ``pieces`` are the reference's text of the step. ``check`` is how the step compared:
    ``equals`` (``expected`` is the whole text), ``contains`` (``expected`` is a piece of it
    that ``actual`` should contain) or ``not_contains`` (``expected`` a piece ``actual`` should
    not contain). An empty list when the difference cannot be placed in the reference text.
    """
    layout = _Layout(pieces)
    whole = check != "contains"
    kind = difference_kind(layout.text if check == "not_contains" else expected, actual, whole=whole)
    if not layout.text:
        return ["empty_text"] if whole and actual else [kind] if kind else []
    found = list(dict.fromkeys(part for change in _placed(layout, expected, actual, check)
                               for part in _parts_of_change(layout, change)))
    if kind in ("escaping", "extra_escaping") and found and all(p in SENTENCE_PARTS for p in found):
        return found  # escapes in a reply sentence, which is not markup: how the name is quoted (TXT-REPLY-9)
    return [kind] if kind else found


def _placed(layout: _Layout, expected: str, actual: str, check: str) -> list[Change]:
    """The differences the check is about: all of them, those inside the expected piece, or those
    that wrote the forbidden piece, clipped to it."""
    changes = _changes(layout.text, actual)
    if check == "equals":
        return changes
    if check == "not_contains":
        spans = [(m.start(), m.end()) for m in re.finditer(re.escape(expected), actual)] if expected else []
        return [c for c in changes if any(c.at < b and c.at + len(c.added) > a or a <= c.at < b for a, b in spans)]
    at = layout.text.find(expected)
    if at < 0:
        return []
    low, high = at, at + len(expected)
    return [c._replace(start=max(c.start, low), end=min(c.end, high) if c.end > c.start else c.start)
            for c in changes if low <= c.end and c.start <= high and not (c.start < c.end and (c.end == low or c.start == high))]
