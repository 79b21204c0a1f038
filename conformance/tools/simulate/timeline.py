"""A run x plugin picture of plugin states, drawn from the reference engine's observations.

``observe`` runs events on the reference engine and keeps, per run, each plugin's view and the
calls the model made during that run; ``timeline_svg`` draws that as an SVG (one row per plugin,
one column per run), ``timeline_narrow_svg`` turned for phones. The overview page's picture
(``conformance.docs_gen.timeline``), ``pas simulate --format svg`` and ``pas budget --chart``
all draw with it. Nothing in the picture is drawn by hand: change the rules and it changes too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from xml.sax.saxutils import escape, quoteattr

from reference_impl.engine import Engine
from reference_impl.events import (
    Activate,
    CallObservation,
    Event,
    Extend,
    PluginView,
    RunObservation,
    StartRun,
)
from reference_impl.model import HostConfig, Manifest

_CELL_W, _CELL_H, _LABEL_W, _TOP, _GAP, _NOTE_H = 112, 44, 110, 34, 6, 14
_MONO_W = 8  # px per character of the monospace labels, generously (13 px text)
_FILL = {"always_awake": ("#3949ab", "#ffffff"), "active": ("#2e7d32", "#ffffff"), "sleeping": ("#eceff1", "#37474f")}


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineRun:
    """One run: the view of every shown plugin, and the calls made during the run (as text).

    ``heading`` replaces the column's "run {n}" (``pas simulate`` names the conversation), and
    ``note`` is a second, smaller line under it (``pas budget`` puts the run's tokens there).
    """

    views: Mapping[str, PluginView]
    calls: tuple[str, ...] = ()
    heading: str = ""
    note: str = ""


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


def call_text(event: Activate | Extend, observation: CallObservation) -> str:
    """A call as the picture notes it: ``activate_plugin('weather', rounds=3) → activated``."""
    rounds = "" if observation.rounds is None else f", rounds={observation.rounds}"
    return f"{event.method}('{event.module_name}'{rounds}) → {observation.outcome.value}"


def timeline_runs(steps: Iterable[tuple[Event, object]]) -> tuple[TimelineRun, ...]:
    """One TimelineRun per run observed in ``steps``, in order.

    A call is noted on the latest run of its conversation (before the conversation's first run:
    on that first run). With more than one conversation each column is headed by its
    conversation and its run number there.
    """
    steps = list(steps)
    conversations = {getattr(event, "conversation", None) for event, _ in steps} - {None}
    runs: list[TimelineRun] = []
    latest: dict[str, int] = {}
    pending: dict[str, tuple[str, ...]] = {}
    numbers: Counter[str] = Counter()
    for event, observation in steps:
        if isinstance(observation, RunObservation) and isinstance(event, StartRun):
            numbers[event.conversation] += 1
            heading = f"{event.conversation} {numbers[event.conversation]}" if len(conversations) > 1 else ""
            latest[event.conversation] = len(runs)
            runs.append(TimelineRun(views={v.module_name: v for v in observation.plugins}, heading=heading,
                                    calls=pending.pop(event.conversation, ())))
        elif isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
            call = call_text(event, observation)
            if event.conversation in latest:
                run = runs[latest[event.conversation]]
                runs[latest[event.conversation]] = replace(run, calls=(*run.calls, call))
            else:
                pending[event.conversation] = (*pending.get(event.conversation, ()), call)
    return tuple(runs)


def observe(manifests: Sequence[Manifest], host: HostConfig, events: Sequence[Event]) -> tuple[TimelineRun, ...]:
    """Run ``events`` on a fresh reference engine; one TimelineRun per StartRun event."""
    engine = Engine(text=False)
    engine.start(manifests, host)
    return timeline_runs((event, engine.apply(event)) for event in events)


def plugin_rows(runs: Iterable[TimelineRun]) -> list[str]:
    """Every plugin shown in any of ``runs``, in the order it is first shown: the picture's rows."""
    return list(dict.fromkeys(module for run in runs for module in run.views))


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
    label_w = max(_LABEL_W, 16 + _MONO_W * max(map(len, rows), default=0))  # long module names stay readable
    calls = [(n, call) for n, run in enumerate(runs) for call in run.calls]
    width = max([label_w + _CELL_W * len(runs) + 12,
                 *(label_w + _CELL_W * n + 24 + _MONO_W * len(call) for n, call in calls)])
    top = _TOP + (_NOTE_H if any(run.note for run in runs) else 0)
    grid_bottom = top + _CELL_H * len(rows)
    height = grid_bottom + 22 * len(calls) + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, sans-serif" font-size="12" role="img">',
           f"<title>{escape(labels.title)}</title>",
           f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff"/>']
    for n, run in enumerate(runs):
        x = label_w + _CELL_W * n + (_CELL_W - _GAP) / 2
        out.append(_text(x, 22, run.heading or labels.run.format(n=n + 1), fill="#546e7a", text_anchor="middle"))
        if run.note:
            out.append(_text(x, 22 + _NOTE_H, run.note, fill="#78909c", font_size="10.5", text_anchor="middle"))
    for r, module in enumerate(rows):
        y = top + _CELL_H * r
        out.append(_text(10, y + 23, module, fill="#263238", font_family="ui-monospace, monospace", font_size="13"))
        for n, run in enumerate(runs):
            out += _cell(label_w + _CELL_W * n, y, run.views.get(module), labels)
    for i, (n, call) in enumerate(calls):
        x, y = label_w + _CELL_W * n + 4, grid_bottom + 16 + 22 * i
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
