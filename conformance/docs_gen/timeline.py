"""The overview's picture of a plugin's life over runs: a small script drawn by the shared timeline.

``example`` is the overview's script (weather activated for 3 runs), ``overview_timelines`` draws
it in English and Chinese, wide and narrow, with :mod:`conformance.tools.simulate.timeline`.
"""

from __future__ import annotations

from conformance.tools.simulate.timeline import EN, ZH, observe, timeline_narrow_svg, timeline_svg
from reference_impl.events import Activate, Event, StartRun
from reference_impl.model import HostConfig, Manifest

__all__ = ["example", "observe", "overview_timelines"]


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


def overview_timelines() -> dict[str, str]:
    """The overview's pictures by file name: English and Simplified Chinese labels, wide and narrow (phones)."""
    manifests, host, events = example()
    runs = observe(manifests, host, events)
    rows = [m.module_name for m in manifests]
    return {"timeline.svg": timeline_svg(runs, rows, EN), "timeline.zh.svg": timeline_svg(runs, rows, ZH),
            "timeline-narrow.svg": timeline_narrow_svg(runs, rows, EN),
            "timeline-narrow.zh.svg": timeline_narrow_svg(runs, rows, ZH)}
