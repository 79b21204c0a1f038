"""The parts under ``pas validate`` and the stdio protocol, library against library, in one process.

    python bench/loaders.py [--count N] [--runs R] [--quick]

Per document (microseconds of CPU, the median of R runs over the same N documents):

- YAML, on the bundled weather.yaml (3.7 KB) and on a small generated manifest: PyYAML's libyaml
  ``CSafeLoader`` (load; compose, which keeps line marks), PAS's event loader (libyaml events built
  into values with a mark for every part), PAS's ``parse_documents`` (yaml-rs with the checks that
  keep the event loader's verdicts, the event loader for what it declines) and yaml-rs alone; other
  Rust or C++ parsers when installed (``ryaml``, ``py-yaml12``, ``rapidyaml``: none keeps duplicate
  keys out and line marks both, so PAS uses none of them);
- schema, the same manifest: jsonschema's validator to the end (what ``check_against`` runs for a
  document with a problem) against jsonschema-rs's ``is_valid`` (the fast path);
- JSON, one response of the reference to a ``run`` (about 700 bytes): the standard library against
  msgspec (PAS's codec, with the standard library behind it) and orjson (when installed), read and write.

This is a script, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

RESPONSE = (b'{"id":12,"ok":true,"result":{"events":[{"kind":"activated","module_name":"weather","rounds":3}],'
            b'"plugins":{"weather":{"state":"active","rounds_left":3,"methods":["get_weather","get_forecast"]},'
            b'"draw":{"state":"sleeping","rounds_left":null,"methods":[]},"github":{"state":"absent"}},'
            b'"shown":["weather","draw"],"problems":[],"prompt":"You can use these plugins: weather (Current weather '
            b'and forecasts for any city), draw (Draw pictures from a description) and more text of a realistic '
            b'length for a message of the protocol, as the reference writes them in a run."}}')


def per_item(function: Callable[[Any], Any], items: list[Any], runs: int) -> float:
    """Median CPU microseconds per item of ``function`` over ``items``, after one warm-up pass."""
    for item in items[:5]:
        function(item)
    samples = []
    for _ in range(runs):
        began = time.process_time()
        for item in items:
            function(item)
        samples.append((time.process_time() - began) / len(items) * 1e6)
    return statistics.median(samples)


def _optional(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


def yaml_rows(count: int, runs: int) -> list[tuple[str, str, float]]:
    """(document, loader, µs) for each YAML loader on both documents."""
    import yaml
    import yaml_rs
    from validate import small_manifest

    from conformance.documents.events import parse_events
    from conformance.documents.loader import parse_documents

    loaders: dict[str, Callable[[str], Any]] = {
        "PyYAML CSafeLoader, load": lambda t: yaml.load(t, Loader=yaml.CSafeLoader),
        "PyYAML CSafeLoader, compose (marks)": lambda t: yaml.compose(t, Loader=yaml.CSafeLoader),
        "PAS event loader (marks, checks)": lambda t: parse_events(t, "x.yaml"),
        "PAS parse_documents (yaml-rs path)": lambda t: parse_documents(t, "x.yaml"),
        "yaml-rs alone": lambda t: yaml_rs.loads(t, parse_datetime=False),
    }
    if (ryaml := _optional("ryaml")) is not None:
        loaders["ryaml alone"] = ryaml.loads
    if (yaml12 := _optional("yaml12")) is not None:
        loaders["py-yaml12 alone (no duplicate check)"] = yaml12.parse_yaml
    if (ryml := _optional("ryml")) is not None:
        loaders["rapidyaml, tree only (no values)"] = lambda t: ryml.parse_in_arena(t.encode())
    documents = {"weather.yaml (3.7 KB)": (ROOT / "conformance/examples/plugins/weather.yaml").read_text(encoding="utf-8"),
                 "small manifest (0.7 KB)": small_manifest(7)}
    return [(doc, name, per_item(load, [text] * count, runs)) for doc, text in documents.items()
            for name, load in loaders.items()]


def schema_rows(count: int, runs: int) -> list[tuple[str, str, float]]:
    """(document, validator, µs) for jsonschema and jsonschema-rs on weather.yaml."""
    from conformance.documents.loader import load_documents
    from conformance.documents.schemas import certainly_valid, validator

    (doc,), _ = load_documents(ROOT / "conformance/examples/plugins/weather.yaml")
    full = validator("plugin-manifest")
    return [("weather.yaml", "jsonschema, iter_errors to the end", per_item(lambda v: list(full.iter_errors(v)),
                                                                              [doc.value] * count, runs)),
            ("weather.yaml", "jsonschema-rs is_valid (fast path)", per_item(
                lambda v: certainly_valid("plugin-manifest", v), [doc.value] * count, runs))]


def json_rows(count: int, runs: int) -> list[tuple[str, str, float]]:
    """(direction, codec, µs) for one response line."""
    import msgspec

    from conformance.adapters.protocol import wire

    doc = json.loads(RESPONSE)
    stdlib_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    rows = [("read", "standard library", per_item(lambda b: json.loads(b), [RESPONSE] * count, runs)),
            ("read", "msgspec", per_item(msgspec.json.Decoder().decode, [RESPONSE] * count, runs)),
            ("read", "wire.decode (msgspec, stdlib behind)", per_item(wire.decode, [RESPONSE] * count, runs)),
            ("write", "standard library", per_item(lambda d: stdlib_encoder.encode(d).encode(), [doc] * count, runs)),
            ("write", "msgspec", per_item(msgspec.json.Encoder().encode, [doc] * count, runs)),
            ("write", "wire.encode (msgspec, stdlib behind)", per_item(wire.encode, [doc] * count, runs))]
    if (orjson := _optional("orjson")) is not None:
        rows[2:2] = [("read", "orjson (big integers read as floats)", per_item(orjson.loads, [RESPONSE] * count, runs))]
        rows.append(("write", "orjson (NaN written as null)", per_item(orjson.dumps, [doc] * count, runs)))
    return rows


def main() -> None:
    """Measure and print three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="documents per run (default 300)")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--quick", action="store_true", help="100 documents, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.count, args.runs = 100, 3
    print(f"CPU µs per document, median of {args.runs} runs of {args.count}")
    for title, rows in (("YAML", yaml_rows(args.count, args.runs)), ("schema", schema_rows(args.count, args.runs)),
                        ("JSON line", json_rows(args.count, args.runs))):
        print(f"\n{title}")
        for what, name, micros in rows:
            print(f"  {what:24} {name:40} {micros:9.1f}")


if __name__ == "__main__":
    main()
