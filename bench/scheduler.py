"""Benchmark: the reference scheduler's run-start cost with 10, 100, 1,000 and 10,000 installed plugins.

    python bench/scheduler.py [--sizes 10,100,1000,10000] [--min-time 0.3]

For each size it builds a plugin set in memory (10% protected, 20% with a brief but no
opt-in, 70% sleep-eligible, every 50th forbidden to sleep by the host, every 20th only on
one adapter; two methods each, a third inject a prompt), enables all of it, and times one
``StartRun`` through ``reference_impl.fast.FastScheduler.step`` (what the ``Engine`` steps
through: the rules of ``reference_impl.scheduler`` with caches keyed by value) in a
conversation with two active plugins:

* **first run after a config change**: each call runs under a host config the scheduler has
  not seen recently (the host config with one more plugin forbidden to sleep, a different one
  each call, cycling through more configs than the scheduler keeps), built inside the timed
  call, so the lineup of that config misses and is rebuilt from the per-catalogue facts that
  stay cached (name order, the plugins eligible under ``auto``, resting views): the plugins
  the config names a strategy for (every 50th here) are decided again, availability and the
  two groups are set operations over names;
* **steady state**: the same host config run after run (the cached lineup is reused);
* **steady + text**: steady state plus the reference prompt text (``step(..., text=True)``),
  as the ``Engine`` does for implementations that claim the text profile: the resting blocks
  of the lineup are kept with it, a run renders only the blocks of its active plugins;
* **first + text**: the first run after a config change, with its text.

Then the caches' hit rates under a realistic mix, played as the ``Engine`` plays it (text on)
on the 1,000-plugin set, through a FastScheduler subclass here that counts what it computes
(the product keeps no counters): ``--mix-events`` events (default 3,000) in 12 conversations
on 3 adapters; 80% runs, 17% activations and extensions, 2% admin changes (a strategy, a
plugin disabled or enabled again, the scheduler off and on) and 1% restarts, from a fixed
seed. A lineup lookup is a run; it misses when the lineup of its (host config, adapter) is
built. A block lookup is a block a run shows; it misses when the block is rendered.

Each figure is the median of repeated calls in one process (at least 5, and at least
``--min-time`` seconds). Per plugin = per run / plugins. Growth check: the per-plugin cost at
the largest size over the one at 100 (1.0 = linear). Goals at 10,000 plugins: the first run
at most 20 ms, steady + text at most 30 ms (3 µs per plugin). Timing one function in a process is what this script does; the
whole-process figures in bench/README.md come from the other scripts.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference_impl.catalogue import Catalogue
from reference_impl.events import (
    Activate,
    CallObservation,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.fast import LINEUPS, FastScheduler
from reference_impl.model import HostConfig, Manifest, Strategy
from reference_impl.render import render_reply
from reference_impl.scheduler import SchedulerState
from reference_impl.semantics import load_semantics

GOAL_MS = 20.0
TEXT_GOAL_MS = 30.0


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
    fast = FastScheduler(load_semantics())
    event = StartRun(conversation="c")
    # More configs than the scheduler keeps lineups of, each naming one more plugin: every one misses.
    names = [n for i, n in enumerate(catalogue.manifests) if i % 50 != 5][: 2 * LINEUPS]
    variants = itertools.cycle([{**state.host.strategies, n: Strategy.FORBID_SLEEP} for n in names])

    def run(now: SchedulerState, text: bool) -> RunObservation:
        observation = fast.step(catalogue, now, event, text=text)[1]
        assert isinstance(observation, RunObservation)
        return observation

    def first_run() -> RunObservation:
        return run(replace(state, host=replace(state.host, strategies=next(variants))), False)

    def steady() -> RunObservation:
        return run(state, False)

    def steady_text() -> RunObservation:
        return run(state, True)

    def first_text() -> RunObservation:
        return run(replace(state, host=replace(state.host, strategies=next(variants))), True)

    observation = steady_text()  # before timing, as the Engine's first run does: the catalogue's facts and resting blocks
    assert sum(v.state.value == "active" for v in observation.plugins) == 2, "the world should have 2 active plugins"
    return {
        "first": median_seconds(first_run, min_time),
        "steady": median_seconds(steady, min_time),
        "text": median_seconds(steady_text, min_time),
        "first_text": median_seconds(first_text, min_time),
    }


def mix(rng: random.Random, names: list[str], count: int) -> list[Event]:
    """A realistic stream of events (see the module docstring): runs, calls, admin changes, restarts."""
    conversations = [(f"conv-{i}", ("qq", "discord", "minecraft")[i % 3]) for i in range(12)]
    events: list[Event] = []
    for _ in range(count):
        conversation, adapter = rng.choice(conversations)
        roll = rng.random()
        if roll < 0.80:
            events.append(StartRun(conversation=conversation, adapter=adapter))
        elif roll < 0.97:
            call = Activate if rng.random() < 0.7 else Extend
            events.append(call(conversation=conversation, module_name=rng.choice(names), rounds=rng.randint(1, 5),
                               adapter=adapter))
        elif roll < 0.99:
            name = rng.choice(names)
            events.extend(rng.choice([
                [SetStrategy(module_name=name, strategy="forbid_sleep")],
                [SetStrategy(module_name=name, strategy="auto")],
                [Disable(module_name=name)],
                [Enable(module_name=name)],
                [SetScheduler(enabled=False), StartRun(conversation=conversation, adapter=adapter), SetScheduler(enabled=True)],
            ]))
        else:
            events.append(Restart())
    return events


class CountingScheduler(FastScheduler):
    """The Engine's FastScheduler, counting the lineups it builds and the blocks it renders."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lineups_built = self.blocks_rendered = self.facts_built = 0

    def new_facts(self, catalogue):
        self.facts_built += 1
        return super().new_facts(catalogue)

    def new_lineup(self, facts, host, adapter):
        self.lineups_built += 1
        return super().new_lineup(facts, host, adapter)

    def render_block(self, manifest, view):
        self.blocks_rendered += 1
        return super().render_block(manifest, view)


def hit_rates(size: int, count: int) -> dict[str, float]:
    """Play the realistic mix as the Engine does (text on); the share of lineup and block lookups that hit."""
    catalogue, state, _ = world(size)
    fast, state = CountingScheduler(load_semantics()), SchedulerState(host=state.host)
    names = [m.module_name for i, m in enumerate(catalogue.manifests.values()) if i % 10 >= 3][:200]
    runs = blocks = 0
    for event in mix(random.Random(18), names, count):
        state, observation = fast.step(catalogue, state, event, text=True)
        if isinstance(observation, RunObservation):
            runs, blocks = runs + 1, blocks + len(observation.plugins)
        elif isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
            render_reply(catalogue.manifests, event, observation)
    return {"lineup": 1 - fast.lineups_built / runs if runs else 0.0, "lineup_lookups": runs,
            "blocks": 1 - fast.blocks_rendered / blocks if blocks else 0.0, "block_lookups": blocks,
            "facts": fast.facts_built}


def main() -> None:
    """Measure every size and print one row each, then the growth check and the goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000", help="comma-separated plugin counts")
    parser.add_argument("--min-time", type=float, default=0.3, help="seconds of timed calls per figure (default 0.3)")
    parser.add_argument("--mix-events", type=int, default=3000, help="events of the hit-rate mix (default 3000; 0: skip)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'plugins':>8}  {'first run ms':>12}  {'µs/plugin':>9}  {'steady ms':>9}  {'µs/plugin':>9}  "
          f"{'steady+text ms':>14}  {'µs/plugin':>9}  {'first+text ms':>13}")
    results = {}
    for size in sizes:
        r = results[size] = measure(size, args.min_time)
        print(f"{size:>8}  {r['first'] * 1e3:>12.3f}  {r['first'] / size * 1e6:>9.2f}  {r['steady'] * 1e3:>9.3f}  "
              f"{r['steady'] / size * 1e6:>9.2f}  {r['text'] * 1e3:>14.3f}  {r['text'] / size * 1e6:>9.2f}  "
              f"{r['first_text'] * 1e3:>13.3f}", flush=True)
    largest = max(sizes)
    if 100 in results and largest > 100:
        for key, name in (("first", "first run"), ("steady", "steady"), ("text", "steady+text")):
            ratio = (results[largest][key] / largest) / (results[100][key] / 100)
            print(f"growth ({name}): per-plugin cost at {largest:,} / at 100 = {ratio:.2f} (1.00 = linear)")
    first_ms, text_ms = results[largest]["first"] * 1e3, results[largest]["text"] * 1e3
    verdict = "ok" if first_ms <= GOAL_MS else "MISSED"
    print(f"goal: first run at {largest:,} plugins <= {GOAL_MS:.0f} ms: {first_ms:.2f} ms {verdict}")
    verdict = "ok" if text_ms <= TEXT_GOAL_MS else "MISSED"
    print(f"goal: steady+text at {largest:,} plugins <= {TEXT_GOAL_MS:.0f} ms: {text_ms:.2f} ms {verdict}")
    if args.mix_events:
        rates = hit_rates(1000, args.mix_events)
        print(f"hit rates, {args.mix_events:,} events of the realistic mix at 1,000 plugins (as the Engine plays it, text on): "
              f"lineup {rates['lineup']:.1%} of {rates['lineup_lookups']:,} lookups, "
              f"text blocks {rates['blocks']:.1%} of {rates['block_lookups']:,}; catalogue facts built {rates['facts']}")


if __name__ == "__main__":
    main()
