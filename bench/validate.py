"""Benchmark: ``pas validate`` against check-jsonschema on the same schema and the same files.

Generates 1, 1,000 and 10,000 valid, real-looking plugin manifests (methods, briefs in several
scripts, dependencies between them) into a temporary folder, converts the bundled YAML schema
to JSON for check-jsonschema, then runs the two tools in turn (A B A B ...) as whole processes
and prints each one's median wall time and the ratio pas / check-jsonschema (median of the
pairwise ratios, so drift in machine speed cancels out). Semantic rules stay on for pas.

check-jsonschema is not a PAS dependency. Install it anywhere, for example in its own venv:

    python -m venv /tmp/cj && /tmp/cj/bin/pip install check-jsonschema
    PAS_BENCH_CHECK_JSONSCHEMA=/tmp/cj/bin/check-jsonschema python bench/validate.py

Without the variable it is looked up on PATH. ``PAS_BENCH_PAS`` replaces the pas command
(default: this Python running ``-m conformance validate`` from the checkout).
Usage: python bench/validate.py [--sizes 1,1000,10000] [--runs 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BRIEFS = (
    "Weather forecasts for any city. Activate when the user asks about the weather.",
    "管理用户笔记，支持创建、查阅、修改和删除笔记条目。当用户明确提到需要记笔记时激活。",
    "Rolls dice and draws cards for games 🎲. Activate when the user wants something random.",
)


def manifest(index: int) -> str:
    """One valid manifest; every tenth depends on the one before it, so the set has edges."""
    deps = f"dependencies: [plugin_{index - 1}]\n" if index % 10 and index else ""
    return (
        f"# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json\n"
        f"name: Plugin {index}\nmodule_name: plugin_{index}\nversion: 1.{index % 7}.{index % 13}\n"
        f"description: Plugin number {index}, generated for the benchmark.\nauthor: bench\n"
        f"url: https://example.org/plugins/{index}\n{deps}"
        "methods:\n"
        "  - name: get_forecast\n    kind: tool\n    description: Returns the forecast for a city.\n"
        "    parameters: {type: object, properties: {city: {type: string}}, required: [city]}\n"
        "  - name: set_units\n    kind: behavior\n    description: Switches between metric and imperial units.\n"
        f"injects_prompt: {'true' if index % 2 else 'false'}\nhooks: [before_tool_call]\n"
        f"allow_sleep: true\nsleep_brief: {BRIEFS[index % len(BRIEFS)]}\n"
    )


def generate(folder: Path, count: int) -> list[str]:
    """Write ``count`` manifests into ``folder`` and return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"plugin_{index:05}.yaml"
        path.write_text(manifest(index), encoding="utf-8")
        paths.append(str(path))
    return paths


def schema_json(folder: Path) -> str:
    """The bundled manifest schema converted to JSON, for check-jsonschema."""
    sys.path.insert(0, str(ROOT))
    from conformance.documents.schemas import schema

    path = folder / "plugin-manifest.schema.json"
    path.write_text(json.dumps(schema("plugin-manifest")), encoding="utf-8")
    return str(path)


def check_jsonschema() -> list[str]:
    """The check-jsonschema command, from PAS_BENCH_CHECK_JSONSCHEMA or PATH; exits with advice if absent."""
    found = os.environ.get("PAS_BENCH_CHECK_JSONSCHEMA") or shutil.which("check-jsonschema")
    if not found:
        sys.exit("check-jsonschema not found: pip install check-jsonschema (in any venv) and put it on PATH, "
                 "or set PAS_BENCH_CHECK_JSONSCHEMA to its path")
    return shlex.split(found)


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and exit status of one whole-process run (output discarded)."""
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, check=False)
    return time.perf_counter() - start, result.returncode


def compare(pas: list[str], other: list[str], runs: int) -> tuple[float, float, float]:
    """Median seconds of each command and the median pairwise ratio, after one warm-up each."""
    for command in (pas, other):
        _, status = timed(command)
        if status != 0:
            sys.exit(f"warm-up failed with exit status {status}: {shlex.join(command[:6])} ...")
    a_times, b_times = [], []
    for _ in range(runs):
        a_times.append(timed(pas)[0])
        b_times.append(timed(other)[0])
    ratios = [a / b for a, b in zip(a_times, b_times)]
    return statistics.median(a_times), statistics.median(b_times), statistics.median(ratios)


def main() -> None:
    """Generate, run, print one row per size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,1000,10000", help="comma-separated file counts")
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each tool per size")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep the files")
    args = parser.parse_args()
    pas = shlex.split(os.environ["PAS_BENCH_PAS"]) if "PAS_BENCH_PAS" in os.environ else [
        sys.executable, "-m", "conformance", "validate"]
    other = check_jsonschema()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(args.keep or scratch)
        base.mkdir(parents=True, exist_ok=True)
        schema = schema_json(base)
        print(f"{'files':>7}  {'pas (s)':>9}  {'check-jsonschema (s)':>21}  {'ratio':>6}  goal")
        for size in (int(s) for s in args.sizes.split(",")):
            paths = generate(base / f"set_{size}", size)
            goal = 1.0 if size == 1 else 0.35
            a, b, ratio = compare([*pas, "-q", *paths], [*other, "--schemafile", schema, *paths], args.runs)
            verdict = "ok" if ratio <= goal else "MISSED"
            print(f"{size:>7}  {a:>9.3f}  {b:>21.3f}  {ratio:>6.2f}  <= {goal:.2f} {verdict}", flush=True)


if __name__ == "__main__":
    main()
