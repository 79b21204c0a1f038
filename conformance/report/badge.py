"""Badges: a shields.io endpoint JSON and a self-contained SVG, from a run's results.

``pas run --format badge --output pas-badge.json`` writes the endpoint JSON, to publish and
point shields.io at (``https://img.shields.io/endpoint?url=...``); ``--format badge-svg``
writes the SVG itself, to commit or publish as is. ``pas report badge RESULTS.jsonl --output
FILE`` makes either from a saved JSON-lines report (``.svg`` -> SVG, anything else -> JSON),
so one run can give both.

The message counts *claimed* scenarios: those not skipped. A scenario counts toward the most
specific profile it needs (``text`` for a text scenario, even though it needs ``activation``
too), and passes when it passed (a ``stale`` expected failure passed too). With one profile
under test the message reads ``130/130 passed``; with several, ``activation 130/130 · text
27/27``. The colour follows the pass rate over all claimed scenarios.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reference_impl.model import Profile

if TYPE_CHECKING:
    from conformance.suite.results import RunResult

LABEL = "PAS"
PROFILE_ORDER = tuple(p.value for p in Profile)
_PASSED = frozenset({"passed", "stale"})
# shields.io's named colours and the hex values its badges draw them with.
COLORS = {"brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
          "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}
_RATE_COLORS = ((1.0, "brightgreen"), (0.9, "green"), (0.75, "yellowgreen"), (0.5, "yellow"), (1e-9, "orange"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """How many claimed scenarios of one profile passed."""

    profile: str
    passed: int = 0
    claimed: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Badge:
    """What a badge says: label, message, a shields.io colour name, and whether it reports an error."""

    label: str
    message: str
    color: str
    is_error: bool = False

    def to_endpoint(self) -> dict[str, object]:
        """The shields.io endpoint document (schemaVersion 1); no other keys, shields refuses them."""
        doc: dict[str, object] = {"schemaVersion": 1, "label": self.label, "message": self.message, "color": self.color}
        if self.is_error:
            doc["isError"] = True
        return doc


def main_profile(profiles: Iterable[str]) -> str:
    """The most specific profile a scenario needs: the last of activation, text, host, disclosure it names."""
    needed = set(profiles)
    return next((p for p in reversed(PROFILE_ORDER) if p in needed), "activation")


def tally(entries: Iterable[tuple[str, Iterable[str]]], profiles: Iterable[str]) -> tuple[Tally, ...]:
    """Per profile under test, passed and claimed counts of ``(outcome, scenario profiles)`` entries."""
    counts: dict[str, list[int]] = {p: [0, 0] for p in profiles}
    for outcome, needs in entries:
        if outcome == "skipped":
            continue
        row = counts.setdefault(main_profile(needs), [0, 0])
        row[1] += 1
        row[0] += outcome in _PASSED
    ordered = sorted(counts, key=lambda p: (PROFILE_ORDER.index(p) if p in PROFILE_ORDER else len(PROFILE_ORDER), p))
    return tuple(Tally(profile=p, passed=counts[p][0], claimed=counts[p][1]) for p in ordered)


def color_for(passed: int, claimed: int) -> str:
    """brightgreen for all passed, down through green, yellowgreen, yellow, orange to red for none."""
    rate = passed / claimed if claimed else 0.0
    return next((color for floor, color in _RATE_COLORS if rate >= floor), "red")


def make_badge(tallies: Iterable[Tally], *, said_hello: bool = True, interrupted: bool = False,
               spec_version: str = "") -> Badge:
    """The badge for these tallies; a failed hello or an interrupted run says so instead of counting.

    The label names the spec version run (``PAS 1.1``), or is ``PAS`` when ``spec_version`` is ''.
    """
    label = f"{LABEL} {spec_version}" if spec_version else LABEL
    if interrupted:
        return Badge(label=label, message="interrupted", color="lightgrey")
    if not said_hello:
        return Badge(label=label, message="hello failed", color="red", is_error=True)
    rows = [t for t in tallies if t.claimed]
    if not rows:
        return Badge(label=label, message="no scenarios", color="lightgrey")
    passed, claimed = sum(t.passed for t in rows), sum(t.claimed for t in rows)
    if len(rows) == 1:
        message = f"{passed}/{claimed} passed"
    else:
        message = " · ".join(f"{t.profile} {t.passed}/{t.claimed}" for t in rows)
    return Badge(label=label, message=message, color=color_for(passed, claimed))


def badge_of_run(run: RunResult) -> Badge:
    """The badge of a finished run."""
    entries = ((r.outcome.value, r.profiles) for r in run.results)
    return make_badge(tally(entries, run.profiles), said_hello=run.info is not None, interrupted=run.interrupted,
                      spec_version=run.spec_version)


def endpoint_json(badge: Badge) -> str:
    """The endpoint document as pretty JSON with a final newline."""
    return json.dumps(badge.to_endpoint(), ensure_ascii=False, indent=2) + "\n"


# Advance widths of Verdana at 11 px (shields.io's font), for sizing the two halves of the SVG.
_WIDTHS: Mapping[str, float] = {
    " ": 3.9, "/": 4.9, ".": 4.0, ",": 4.0, ":": 4.6, "·": 4.0, "(": 5.0, ")": 5.0, "-": 4.6,
    "i": 3.0, "l": 3.0, "j": 3.6, "f": 3.9, "t": 4.3, "r": 4.7, "m": 10.7, "w": 8.9, "c": 5.7, "s": 5.7, "z": 5.6,
    "I": 4.6, "M": 9.2, "W": 10.9,
}


def text_width(text: str) -> float:
    """The approximate rendered width of ``text`` in pixels (wide CJK characters count 11)."""
    total = 0.0
    for char in text:
        if char in _WIDTHS:
            total += _WIDTHS[char]
        elif char.isdigit() or char.islower():
            total += 6.8
        elif char.isupper():
            total += 7.6
        else:
            total += 11.0 if ord(char) > 0x2E80 else 7.0
    return total


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svg(badge: Badge) -> str:
    """A flat, self-contained SVG badge (no external fonts or links), shields.io style."""
    left, right = round(text_width(badge.label) + 10), round(text_width(badge.message) + 10)
    width, fill = left + right, COLORS.get(badge.color, badge.color)
    label, message = _xml(badge.label), _xml(badge.message)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{label}: {message}">',
        f"<title>{label}: {message}</title>",
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        '<stop offset="1" stop-opacity=".1"/></linearGradient>',
        f'<clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>',
        f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{_xml(fill)}"/>'
        f'<rect width="{width}" height="20" fill="url(#s)"/></g>',
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
        f'<text x="{left / 2:g}" y="15" fill="#010101" fill-opacity=".3">{label}</text>',
        f'<text x="{left / 2:g}" y="14">{label}</text>',
        f'<text x="{left + right / 2:g}" y="15" fill="#010101" fill-opacity=".3">{message}</text>',
        f'<text x="{left + right / 2:g}" y="14">{message}</text>',
        "</g></svg>",
    ]
    return "\n".join(parts) + "\n"


def render(run: RunResult, *, color: bool = False) -> str:
    """The shields.io endpoint JSON of ``run``; ``color`` (terminal colour) is ignored."""
    return endpoint_json(badge_of_run(run))
