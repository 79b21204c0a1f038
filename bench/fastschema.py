"""The schema fast path against jsonschema, side by side in one process, per kind of document.

    python bench/fastschema.py [--runs N] [--count N]

For each kind (manifests, manifests with a ``url``, host configs, protocol messages: every
response the reference gives over the bundled suite, as JSON; scenarios: the suite's files) it
times, on the same valid documents, A = the fast path (``fastschema.certainly_valid``) and
B = what ``check_against`` runs without it (jsonschema's ``iter_errors`` to the end), in turn,
A B A B ..., after one warm-up each (so caches, imports and compiled validators are paid
before timing). It prints the median time per document of each and the median of the pairwise
B/A ratios: above 1 the fast path pays. It also reports the share of documents the fast path
accepted (the rest go to jsonschema anyway, after it), and, on the same documents each with one
mistake, what the fast path adds before jsonschema runs. This is a script, not a test.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conformance.documents.schemas import certainly_valid, validator

Corpus = list[tuple[str, object]]


def manifests(count: int, *, url: bool) -> Corpus:
    """``count`` valid, real-looking manifests (two methods, hooks, a brief), with or without ``url``."""
    found = []
    for index in range(count):
        doc = {
            "name": f"Plugin {index}", "module_name": f"plugin_{index}", "version": f"1.{index % 7}.{index % 13}",
            "description": f"Plugin number {index}, generated for the benchmark.", "author": "bench",
            "dependencies": [f"plugin_{index - 1}"] if index % 10 and index else [],
            "methods": [
                {"name": "get_forecast", "kind": "tool", "description": "Returns the forecast for a city.",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
                {"name": "set_units", "kind": "behavior", "description": "Switches units."},
            ],
            "injects_prompt": bool(index % 2), "hooks": ["before_tool_call"], "allow_sleep": True,
            "sleep_brief": "Weather forecasts for any city. Activate when the user asks about the weather.",
        }
        if url:
            doc["url"] = f"https://example.org/plugins/{index}"
        found.append(("plugin-manifest", doc))
    return found


def host_configs(count: int) -> Corpus:
    """``count`` valid host configs of a few dozen plugins each."""
    found = []
    for index in range(count):
        names = [f"plugin_{i}" for i in range(index % 40 + 5)]
        found.append(("host-config", {
            "kind": "host-config", "enabled": names, "disabled": [], "scheduler_enabled": True,
            "strategies": {name: ("allow_sleep", "forbid_sleep", "auto")[i % 3] for i, name in enumerate(names)},
            "config": {name: {"units": "metric", "retries": i} for i, name in enumerate(names[:10])},
        }))
    return found


def protocol_messages() -> Corpus:
    """Every response the reference gives over the bundled suite, as the stdio adapter checks them."""
    from conformance.adapters.protocol import response_schema
    from conformance.suite.runner import not_applicable
    from conformance.suite.scenario import load_suite
    from reference_impl.engine import Engine

    scenarios, _ = load_suite()
    found = []
    for scenario in scenarios:
        if not_applicable(scenario, None):  # a disclosure scenario the reference's default options do not meet
            continue
        engine, events = Engine(), [step.event for step in scenario.steps]
        if scenario.is_disclosure:
            events.insert(0, scenario.opening)  # its catalogue first, as the runner sends it
        else:
            engine.start(scenario.plugins, scenario.host)
        for event in events:
            response = json.loads(json.dumps({"id": 1, "ok": True, "result": engine.apply(event).to_json()}))
            found.append((response_schema(event.cmd, response), response))
    return found


def scenarios() -> Corpus:
    """The bundled suite's scenario files as loaded values."""
    from conformance.documents.loader import load_documents

    folder = ROOT / "conformance" / "suite" / "scenarios"
    return [("scenario", doc.value) for path in sorted(folder.rglob("*.yaml")) for doc in load_documents(path)[0]]


def damaged(corpus: Corpus) -> Corpus:
    """The same documents, each with one mistake at the top (an unknown key)."""
    return [(name, {**copy.deepcopy(doc), "bogus_key": 1}) for name, doc in corpus]


def _fast(corpus: Corpus) -> None:
    for name, doc in corpus:
        if not certainly_valid(name, doc):
            list(validator(name).iter_errors(doc))


def _full(corpus: Corpus) -> None:
    for name, doc in corpus:
        list(validator(name).iter_errors(doc))


def _timed(run: Callable[[Corpus], None], corpus: Corpus) -> float:
    started = time.perf_counter()
    run(corpus)
    return time.perf_counter() - started


def compare(corpus: Corpus, runs: int) -> tuple[float, float, float]:
    """(fast-path seconds per document, jsonschema seconds per document, median B/A ratio)."""
    _fast(corpus), _full(corpus)
    fast, full, ratios = [], [], []
    for _ in range(runs):
        a, b = _timed(_fast, corpus), _timed(_full, corpus)
        fast.append(a), full.append(b), ratios.append(b / a)
    return statistics.median(fast) / len(corpus), statistics.median(full) / len(corpus), statistics.median(ratios)


def main() -> None:
    """Print one line per kind of document: time per document with and without the fast path."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--count", type=int, default=300, help="generated manifests and host configs per kind")
    args = parser.parse_args()
    kinds = {
        "manifests": manifests(args.count, url=False),
        "manifests with url": manifests(args.count, url=True),
        "host configs": host_configs(args.count),
        "protocol messages": protocol_messages(),
        "scenarios": scenarios(),
    }
    print(f"{'kind':<20} {'docs':>5} {'accepted':>8} {'fast µs':>9} {'jsonschema µs':>14} {'ratio':>6} "
          f"{'invalid: ratio':>15}")
    for kind, corpus in kinds.items():
        accepted = sum(certainly_valid(name, doc) for name, doc in corpus) / len(corpus)
        fast, full, ratio = compare(corpus, args.runs)
        _, _, bad_ratio = compare(damaged(corpus), max(3, args.runs // 3))
        print(f"{kind:<20} {len(corpus):>5} {accepted:>8.0%} {fast * 1e6:>9.1f} {full * 1e6:>14.1f} {ratio:>5.1f}x "
              f"{bad_ratio:>14.2f}x")


if __name__ == "__main__":
    main()
