"""The overview's picture of a plugin's life over runs, drawn from the reference engine's observations.

``observe`` runs a small script on the reference engine and keeps, per run, each plugin's view
and the calls the model made during that run; ``timeline_svg`` draws that as an SVG. Nothing in
the picture is drawn by hand: change the rules and the picture changes with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from reference_impl.engine import Engine
from reference_impl.events import Activate, CallObservation, Event, Extend, PluginView, RunObservation, StartRun
from reference_impl.model import HostConfig, Manifest

_CELL_W, _CELL_H, _LABEL_W, _TOP, _GAP = 112, 44, 110, 34, 6
_FILL = {"always_awake": ("#3949ab", "#ffffff"), "active": ("#2e7d32", "#ffffff"), "sleeping": ("#eceff1", "#37474f")}


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineRun:
    """One run: the view of every shown plugin, and the calls made during the run (as text)."""

    views: Mapping[str, PluginView]
    calls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """The words of the picture, in one language."""

    title: str
    run: str  # "run {n}"
    state: Mapping[str, str]
    detail_full: str
    detail_left: str  # "{n} left"
    detail_hint: str  # "{n} left · hint"
    detail_brief: str
    legend: Mapping[str, str] = field(default_factory=dict)


EN = Labels(
    title="A plugin's life over runs (reference engine)", run="run {n}",
    state={"always_awake": "always awake", "active": "active", "sleeping": "sleeping"},
    detail_full="full block", detail_left="{n} runs left", detail_hint="1 left · hint", detail_brief="brief only",
)
ZH = Labels(
    title="插件在各轮中的状态（参考实现）", run="第 {n} 轮",
    state={"always_awake": "常驻", "active": "激活", "sleeping": "休眠"},
    detail_full="完整插件块", detail_left="剩 {n} 轮", detail_hint="剩 1 轮 · 提示", detail_brief="仅摘要",
)


def example() -> tuple[tuple[Manifest, ...], HostConfig, tuple[Event, ...]]:
    """The overview's script: weather is activated for 3 runs during run 1, then goes back to sleep."""
    manifests = tuple(Manifest.from_json(doc) for doc in (
        {"name": "Basic messaging", "module_name": "basic", "version": "1.0.0", "description": "Send messages.",
         "builtin": True, "allow_sleep": False},
        {"name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Weather forecasts.",
         "allow_sleep": True, "sleep_brief": "Weather for any city. Activate when the user asks about weather."},
        {"name": "Notes", "module_name": "note", "version": "1.0.0", "description": "Manage notes.",
         "allow_sleep": True, "sleep_brief": "Manages the user's notes. Activate when notes are mentioned."},
    ))
    host = HostConfig(enabled=("weather", "note"))
    run = StartRun(conversation="main")
    events = (run, Activate(conversation="main", module_name="weather", rounds=3), run, run, run, run, run)
    return manifests, host, events


def observe(manifests: Sequence[Manifest], host: HostConfig, events: Sequence[Event]) -> tuple[TimelineRun, ...]:
    """Run ``events`` on a fresh reference engine; one TimelineRun per StartRun event."""
    engine = Engine(text=False)
    engine.start(manifests, host)
    runs: list[TimelineRun] = []
    for event in events:
        observation = engine.apply(event)
        if isinstance(observation, RunObservation):
            runs.append(TimelineRun(views={v.module_name: v for v in observation.plugins}))
        elif isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)) and runs:
            rounds = "" if observation.rounds is None else f", rounds={observation.rounds}"
            call = f"{event.method}('{event.module_name}'{rounds}) → {observation.outcome.value}"
            runs[-1] = TimelineRun(views=runs[-1].views, calls=runs[-1].calls + (call,))
    return tuple(runs)


def _detail(view: PluginView, labels: Labels) -> str:
    if view.state == "sleeping":
        return labels.detail_brief
    if view.rounds_left is None:
        return labels.detail_full
    return labels.detail_hint if view.hint else labels.detail_left.format(n=view.rounds_left)


def _text(x: float, y: float, content: str, **attrs: str) -> str:
    extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    return f'<text x="{x:g}" y="{y:g}"{extra}>{escape(content)}</text>'


def _cell(x: float, y: float, view: PluginView | None, labels: Labels) -> list[str]:
    if view is None:
        return []
    fill, ink = _FILL[view.state]
    out = [f'<rect x="{x:g}" y="{y:g}" width="{_CELL_W - _GAP}" height="{_CELL_H - _GAP}" rx="6" fill="{fill}"'
           + (' stroke="#90a4ae" stroke-dasharray="4 3"' if view.state == "sleeping" else "") + "/>"]
    middle = x + (_CELL_W - _GAP) / 2
    out.append(_text(middle, y + 16, labels.state[view.state], fill=ink, font_weight="bold", text_anchor="middle"))
    out.append(_text(middle, y + 31, _detail(view, labels), fill=ink, font_size="11", text_anchor="middle"))
    if view.hint:
        out.append(f'<circle cx="{x + _CELL_W - _GAP - 7:g}" cy="{y + 7:g}" r="4" fill="#ffca28"/>')
    return out


def timeline_svg(runs: Sequence[TimelineRun], rows: Sequence[str], labels: Labels) -> str:
    """An SVG with one row per plugin in ``rows`` and one column per run; calls are noted under the grid."""
    width = _LABEL_W + _CELL_W * len(runs) + 12
    calls = [(n, call) for n, run in enumerate(runs) for call in run.calls]
    grid_bottom = _TOP + _CELL_H * len(rows)
    height = grid_bottom + 22 * len(calls) + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, sans-serif" font-size="12" role="img">',
           f"<title>{escape(labels.title)}</title>",
           f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff"/>']
    for n in range(len(runs)):
        x = _LABEL_W + _CELL_W * n + (_CELL_W - _GAP) / 2
        out.append(_text(x, 22, labels.run.format(n=n + 1), fill="#546e7a", text_anchor="middle"))
    for r, module in enumerate(rows):
        y = _TOP + _CELL_H * r
        out.append(_text(10, y + 23, module, fill="#263238", font_family="ui-monospace, monospace", font_size="13"))
        for n, run in enumerate(runs):
            out += _cell(_LABEL_W + _CELL_W * n, y, run.views.get(module), labels)
    for i, (n, call) in enumerate(calls):
        x, y = _LABEL_W + _CELL_W * n + 4, grid_bottom + 16 + 22 * i
        out.append(f'<path d="M{x + 2:g} {y - 14:g} l4 -6 l4 6 z" fill="#ef6c00"/>')
        out.append(_text(x + 14, y, call, fill="#bf360c", font_family="ui-monospace, monospace", font_size="11.5"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


_NARROW_LABEL_W, _NARROW_CELL_W, _NARROW_CELL_H = 52, 96, 40
NARROW_WIDTH = _NARROW_LABEL_W + 3 * _NARROW_CELL_W  # 340: fits a 375 px phone screen at full size


def timeline_narrow_svg(runs: Sequence[TimelineRun], columns: Sequence[str], labels: Labels) -> str:
    """The same picture turned for phones: one row per run, one column per plugin, drawn at full size
    up to three plugins; calls are noted under the grid, one per line."""
    width = _NARROW_LABEL_W + _NARROW_CELL_W * len(columns)
    calls = [(n, call) for n, run in enumerate(runs) for call in run.calls]
    grid_bottom = _TOP + _NARROW_CELL_H * len(runs)
    height = grid_bottom + 34 * len(calls) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, sans-serif" font-size="12" role="img">',
           f"<title>{escape(labels.title)}</title>",
           f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff"/>']
    for c, module in enumerate(columns):
        x = _NARROW_LABEL_W + _NARROW_CELL_W * c + (_NARROW_CELL_W - _GAP) / 2
        out.append(_text(x, 22, module, fill="#263238", font_family="ui-monospace, monospace", font_size="12.5",
                         text_anchor="middle"))
    for n, run in enumerate(runs):
        y = _TOP + _NARROW_CELL_H * n
        out.append(_text(4, y + 22, labels.run.format(n=n + 1), fill="#546e7a", font_size="11.5"))
        for c, module in enumerate(columns):
            out += _narrow_cell(_NARROW_LABEL_W + _NARROW_CELL_W * c, y, run.views.get(module), labels)
    for i, (n, call) in enumerate(calls):  # the run on one line, the call under it: both fit 340 px
        y = grid_bottom + 16 + 34 * i
        out.append(_text(4, y, labels.run.format(n=n + 1), fill="#bf360c", font_size="11", font_weight="bold"))
        out.append(_text(4, y + 15, call, fill="#bf360c", font_family="ui-monospace, monospace", font_size="11"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _narrow_cell(x: float, y: float, view: PluginView | None, labels: Labels) -> list[str]:
    if view is None:
        return []
    fill, ink = _FILL[view.state]
    w, h = _NARROW_CELL_W - _GAP, _NARROW_CELL_H - _GAP
    out = [f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="6" fill="{fill}"'
           + (' stroke="#90a4ae" stroke-dasharray="4 3"' if view.state == "sleeping" else "") + "/>"]
    out.append(_text(x + w / 2, y + 15, labels.state[view.state], fill=ink, font_weight="bold", text_anchor="middle"))
    out.append(_text(x + w / 2, y + 29, _detail(view, labels), fill=ink, font_size="10.5", text_anchor="middle"))
    if view.hint:
        out.append(f'<circle cx="{x + w - 7:g}" cy="{y + 7:g}" r="4" fill="#ffca28"/>')
    return out


def overview_timelines() -> dict[str, str]:
    """The overview's pictures by file name: English and Simplified Chinese labels, wide and narrow (phones)."""
    manifests, host, events = example()
    runs = observe(manifests, host, events)
    rows = [m.module_name for m in manifests]
    return {"timeline.svg": timeline_svg(runs, rows, EN), "timeline.zh.svg": timeline_svg(runs, rows, ZH),
            "timeline-narrow.svg": timeline_narrow_svg(runs, rows, EN),
            "timeline-narrow.zh.svg": timeline_narrow_svg(runs, rows, ZH)}
