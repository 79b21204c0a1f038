"""A chart of a budget: tokens per run, scheduled against every plugin awake, and what each run showed.

SVG is written by hand (no dependency): two ``<polyline>`` elements, axes, ticks and a
legend, and under them the run x plugin timeline of the scheduled side
(:mod:`conformance.tools.simulate.timeline`, the overview page's picture): each plugin's state
in each run, the run's tokens under its heading, the activations under the grid. PNG needs
matplotlib and draws the curves only; without it :func:`write_chart` raises ChartUnavailable.
"""

from __future__ import annotations

import re
from pathlib import Path

from conformance.tools.budget.measure import Budget
from reference_impl.errors import PasError
from reference_impl.render import escape, quoteattr

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 64, 60
SCHEDULED_COLOR, AWAKE_COLOR = "#1f77b4", "#d62728"
SUFFIXES = (".svg", ".png")
PNG_NEEDS = "PNG needs matplotlib (pip install matplotlib); an .svg chart needs nothing"


class ChartUnavailable(PasError, ValueError):
    """The chart cannot be written in the format asked for (unknown suffix, or PNG without matplotlib)."""

    def __init__(self, *, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write the chart {path}: {reason}")


def _series(budget: Budget) -> tuple[list[int], list[int]]:
    return [r.scheduled.tokens for r in budget.runs], [r.all_awake.tokens for r in budget.runs]


def _title(budget: Budget) -> str:
    return (f"Prompt tokens per run: saving {budget.saving:.1%} "
            f"({'estimated, no tokenizer' if budget.tokenizer.estimate else budget.tokenizer.name}, "
            f"{len(budget.runs)} runs)")  # the label of an estimate is too long for the chart's width


def _nice_top(value: int) -> int:
    """A round axis maximum at or above ``value``."""
    step = 1
    while step * 10 < max(value, 1):
        step *= 10
    return max(step, -(-max(value, 1) // step) * step)


def _points(values: list[int], top: int) -> str:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = max(len(values) - 1, 1)
    return " ".join(f"{LEFT + plot_w * i / count:.1f},{TOP + plot_h * (1 - v / top):.1f}" for i, v in enumerate(values))


def _axes(runs: int, top: int, unit: str) -> list[str]:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bottom_y = TOP + plot_h
    lines = [f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom_y}" stroke="#333"/>',
             f'<line x1="{LEFT}" y1="{bottom_y}" x2="{WIDTH - RIGHT}" y2="{bottom_y}" stroke="#333"/>']
    for k in range(5):
        value, y = top * k // 4, bottom_y - plot_h * k / 4
        lines.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        lines.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    count = max(runs - 1, 1)
    for i in range(runs):
        if runs <= 20 or i % max(runs // 10, 1) == 0:
            x = LEFT + plot_w * i / count
            lines.append(f'<text x="{x:.1f}" y="{bottom_y + 18}" text-anchor="middle">{i + 1}</text>')
    lines.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 15}" text-anchor="middle">run</text>')
    lines.append(f'<text x="18" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
                 f'transform="rotate(-90 18 {TOP + plot_h / 2:.1f})">{unit}</text>')
    return lines


def timeline(budget: Budget) -> str:
    """The scheduled side as a run x plugin timeline (an SVG document): a column per run headed by
    its conversation and its tokens scheduled / all awake, a row per plugin, the calls under the grid."""
    from dataclasses import replace

    from conformance.tools.simulate.timeline import EN, TimelineRun, plugin_rows, timeline_svg

    unit = "est." if budget.tokenizer.estimate else "tok"
    runs = [TimelineRun(views={v.module_name: v for v in run.views}, calls=run.calls,
                        heading=f"run {run.index} · {run.conversation}",
                        note=f"{run.scheduled.tokens} / {run.all_awake.tokens} {unit}") for run in budget.runs]
    title = "What the model sees of each plugin, run by run (with scheduling); tokens: scheduled / all awake"
    return timeline_svg(runs, plugin_rows(runs), replace(EN, title=title))


def render_svg(budget: Budget) -> str:
    """The chart as a standalone SVG document: the curves, and the timeline under them."""
    curves, grid = render_curves(budget), timeline(budget)
    size = re.search(r'width="([\d.]+)" height="([\d.]+)"', grid)
    assert size is not None  # timeline_svg writes both on its root element
    grid_w, grid_h = float(size[1]), float(size[2])
    width, height = max(WIDTH, grid_w), HEIGHT + grid_h
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}">',
        f"<title>{escape(_title(budget))}</title>",
        curves.replace("<svg ", '<svg x="0" y="0" ', 1).rstrip(),
        grid.replace("<svg ", f'<svg x="0" y="{HEIGHT}" ', 1).rstrip(),
        "</svg>",
    ]) + "\n"


def render_curves(budget: Budget) -> str:
    """The curves alone as an SVG document (two polylines: scheduled and all awake)."""
    scheduled, awake = _series(budget)
    top = _nice_top(max(scheduled + awake, default=1))
    legend_x, legend_y = LEFT, TOP - 22
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(_title(budget))}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="10" y="24" font-size="13">{escape(_title(budget))}</text>',  # long with an estimate: from the left
        *_axes(len(scheduled), top, "tokens (estimate)" if budget.tokenizer.estimate else "tokens"),
        f'<polyline id="all-awake" fill="none" stroke="{AWAKE_COLOR}" stroke-width="2" '
        f'points={quoteattr(_points(awake, top))}/>',
        f'<polyline id="scheduled" fill="none" stroke="{SCHEDULED_COLOR}" stroke-width="2" '
        f'points={quoteattr(_points(scheduled, top))}/>',
        f'<line x1="{legend_x}" y1="{legend_y}" x2="{legend_x + 20}" y2="{legend_y}" stroke="{AWAKE_COLOR}" '
        'stroke-width="2"/>',
        f'<text x="{legend_x + 26}" y="{legend_y + 4}">every plugin awake (scheduler off)</text>',
        f'<line x1="{legend_x + 260}" y1="{legend_y}" x2="{legend_x + 280}" y2="{legend_y}" stroke="{SCHEDULED_COLOR}" '
        'stroke-width="2"/>',
        f'<text x="{legend_x + 286}" y="{legend_y + 4}">with scheduling (prompt + activation replies)</text>',
        "</svg>",
    ]
    return "\n".join(body) + "\n"


def check_chart_path(path: Path | str) -> None:
    """Raise ChartUnavailable now if :func:`write_chart` could not write this kind of file."""
    import importlib.util

    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ChartUnavailable(path=str(path), reason="the chart file must end in .svg or .png")
    if suffix == ".png" and importlib.util.find_spec("matplotlib") is None:
        raise ChartUnavailable(path=str(path), reason=PNG_NEEDS)


def _write_png(budget: Budget, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise ChartUnavailable(path=str(path), reason=PNG_NEEDS) from None
    scheduled, awake = _series(budget)
    runs = list(range(1, len(scheduled) + 1))
    figure, axes = pyplot.subplots(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    axes.plot(runs, awake, color=AWAKE_COLOR, label="every plugin awake")
    axes.plot(runs, scheduled, color=SCHEDULED_COLOR, label="with scheduling")
    axes.set(title=_title(budget), xlabel="run", ylabel="tokens (estimate)" if budget.tokenizer.estimate else "tokens",
             ylim=(0, None))
    axes.legend()
    figure.savefig(path)
    pyplot.close(figure)


def write_chart(budget: Budget, path: Path | str) -> None:
    """Write the chart to ``path`` (``.svg`` or ``.png``, by suffix).

    Raises ChartUnavailable for another suffix or PNG without matplotlib, OSError when the file cannot be written.
    """
    path = Path(path)
    check_chart_path(path)
    if path.suffix.lower() == ".png":
        _write_png(budget, path)
    else:
        path.write_text(render_svg(budget), encoding="utf-8")
