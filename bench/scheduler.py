"""Benchmark: the reference scheduler's run-start cost with 10, 100, 1,000 and 10,000 installed plugins.

    python bench/scheduler.py [--sizes 10,100,1000,10000] [--min-time 0.3]

For each size it builds a plugin set in memory (10% protected, 20% with a brief but no
opt-in, 70% sleep-eligible, every 50th forbidden to sleep by the host, every 20th only on
one adapter; two methods each, a third inject a prompt), enables all of it, and times one
``StartRun`` through the pure ``reference_impl.scheduler.step`` in a conversation with two
active plugins:

* **first run after a config change**: the host config is a new object every time, so the
  per-config entry of the ordered lineup in the caller's ``LineupCache`` (passed to ``step``
  as the ``Engine`` does) misses and the lineup is rebuilt: eligibility and availability (the
  per-catalogue name order and resting views stay cached);
* **steady state**: the same host config run after run (the cached lineup is reused);
* **steady + text**: steady state plus the reference prompt text (``render_run``), as the
  ``Engine`` does for implementations that claim the text profile.

Each figure is the median of repeated calls in one process (at least 5, and at least
``--min-time`` seconds). Per plugin = per run / plugins. Growth check: the per-plugin cost at
the largest size over the one at 100 (1.0 = linear). Goal: the first-run cost at 10,000
plugins at most 20 ms. Timing one function in a process is what this script does; the
whole-process figures in bench/README.md come from the other scripts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference_impl.catalogue import Catalogue  # noqa: E402
from reference_impl.events import RunObservation, StartRun  # noqa: E402
from reference_impl.lineup_cache import LineupCache  # noqa: E402
from reference_impl.model import HostConfig, Manifest, Strategy  # noqa: E402
from reference_impl.render import render_run  # noqa: E402
from reference_impl.scheduler import SchedulerState, step  # noqa: E402
from reference_impl.semantics import load_semantics  # noqa: E402

GOAL_MS = 20.0


def manifest(index: int) -> Manifest:
    """One generated plugin; its kind (protected, unset, eligible) cycles with ``index``."""
    kind = index % 10
    doc = {
        "name": f"Plugin {index}", "module_name": f"plugin_{index:05}", "version": "1.0.0",
        "description": f"Generated plugin {index}.", "builtin": index < 4,
        "injects_prompt": index % 3 == 0,
        "support_adapter": ["minecraft"] if index % 20 == 7 else [],
        "sleep_brief": f"Does task {index}. Activate when the user asks for task {index}.",
        "methods": [
            {"name": "get_thing", "kind": "tool", "description": "Returns the thing for a query."},
            {"name": "set_option", "kind": "behavior", "description": "Changes one option of this plugin."},
        ],
    }
    if kind == 0:
        doc["allow_sleep"] = False
    elif kind >= 3:
        doc["allow_sleep"] = True
    return Manifest.from_json(doc)


def world(size: int) -> tuple[Catalogue, SchedulerState, str]:
    """The catalogue, a state with two active plugins in conversation ``c``, and the name of one eligible plugin."""
    manifests = [manifest(i) for i in range(size)]
    catalogue = Catalogue.of(manifests)
    host = HostConfig(
        enabled=tuple(m.module_name for m in manifests if not m.builtin),
        strategies={m.module_name: Strategy.FORBID_SLEEP for i, m in enumerate(manifests) if i % 50 == 5},
    )
    eligible = [m.module_name for i, m in enumerate(manifests) if i % 10 >= 3 and i % 20 != 7 and i % 50 != 5]
    counters = {"c": {name: 10 for name in eligible[:2]}}
    return catalogue, SchedulerState(host=host, counters=counters), eligible[0]


def median_seconds(call, min_time: float) -> float:
    """The median duration of ``call()`` over at least 5 calls and ``min_time`` seconds."""
    call()  # warm-up: imports, first allocations
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < 5 or time.perf_counter() - started < min_time:
        begin = time.perf_counter()
        call()
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def measure(size: int, min_time: float) -> dict[str, float]:
    """Seconds per run for one plugin-set size: first run after a config change, steady, steady + text."""
    catalogue, state, _ = world(size)
    semantics = load_semantics()
    cache = LineupCache()
    event = StartRun(conversation="c")

    def first_run() -> None:
        step(catalogue, replace(state, host=replace(state.host)), event, semantics, cache=cache)

    def steady() -> RunObservation:
        return step(catalogue, state, event, semantics, cache=cache)[1]

    def steady_text() -> None:
        render_run(catalogue.manifests, steady())

    observation = steady()
    assert sum(v.state.value == "active" for v in observation.plugins) == 2, "the world should have 2 active plugins"
    return {
        "first": median_seconds(first_run, min_time),
        "steady": median_seconds(steady, min_time),
        "text": median_seconds(steady_text, min_time),
    }


def main() -> None:
    """Measure every size and print one row each, then the growth check and the goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000", help="comma-separated plugin counts")
    parser.add_argument("--min-time", type=float, default=0.3, help="seconds of timed calls per figure (default 0.3)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'plugins':>8}  {'first run ms':>12}  {'µs/plugin':>9}  {'steady ms':>9}  {'µs/plugin':>9}  "
          f"{'steady+text ms':>14}  {'µs/plugin':>9}")
    results = {}
    for size in sizes:
        r = results[size] = measure(size, args.min_time)
        print(f"{size:>8}  {r['first'] * 1e3:>12.3f}  {r['first'] / size * 1e6:>9.2f}  {r['steady'] * 1e3:>9.3f}  "
              f"{r['steady'] / size * 1e6:>9.2f}  {r['text'] * 1e3:>14.3f}  {r['text'] / size * 1e6:>9.2f}", flush=True)
    largest = max(sizes)
    if 100 in results and largest > 100:
        for key, name in (("first", "first run"), ("steady", "steady"), ("text", "steady+text")):
            ratio = (results[largest][key] / largest) / (results[100][key] / 100)
            print(f"growth ({name}): per-plugin cost at {largest:,} / at 100 = {ratio:.2f} (1.00 = linear)")
    first_ms = results[largest]["first"] * 1e3
    verdict = "ok" if first_ms <= GOAL_MS else "MISSED"
    print(f"goal: first run at {largest:,} plugins <= {GOAL_MS:.0f} ms: {first_ms:.2f} ms {verdict}")


if __name__ == "__main__":
    main()
