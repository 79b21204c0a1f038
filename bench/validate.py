"""Benchmark: ``pas validate`` against check-jsonschema at its fastest, on the same schema and the same files.

Two corpora of valid manifests, written into a temporary folder:

- *small*: generated, about 0.7 KB each (two methods, briefs in several scripts, dependencies);
- *realistic*: copies of the bundled example ``weather.yaml`` (3.7 KB: three methods with long
  docstring descriptions), each with its own ``module_name``.

For each corpus and size (1, 1,000 and 10,000 files by default) the two tools run in turn (A B A B
...) as whole processes after one warm-up each; the script prints each one's median CPU seconds (user +
sys of the process and its children) and wall seconds, and the median of the pairwise CPU ratios
pas / check-jsonschema, against the goals of issue 28. The bundled YAML schema is converted to JSON
for check-jsonschema; pas also runs its semantic rules. Python's bytecode cache is on for both, as
after a pip install (PYTHONDONTWRITEBYTECODE is taken out of their environment).

check-jsonschema is not a PAS dependency. Its fastest configuration has ruamel.yaml's C parser,
``ruamel.yaml.clib``, which a plain ``pip install check-jsonschema`` does not always bring (without it
check-jsonschema parses about 4x slower); this script refuses to measure against it without the C
parser. Install both in a venv of their own:

    python -m venv /tmp/cj && /tmp/cj/bin/pip install check-jsonschema ruamel.yaml.clib
    PAS_BENCH_CHECK_JSONSCHEMA=/tmp/cj/bin/check-jsonschema python bench/validate.py

Without the variable it is looked up on PATH. ``PAS_BENCH_PAS`` replaces the pas command (default:
this Python running ``-m conformance validate`` from the checkout).
Usage: python bench/validate.py [--sizes 1,1000,10000] [--runs 5] [--corpus small,realistic] [--keep DIR]
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
WEATHER = ROOT / "conformance" / "examples" / "plugins" / "weather.yaml"
BRIEFS = (
    "Weather forecasts for any city. Activate when the user asks about the weather.",
    "管理用户笔记，支持创建、查阅、修改和删除笔记条目。当用户明确提到需要记笔记时激活。",
    "Rolls dice and draws cards for games 🎲. Activate when the user wants something random.",
)
#: CPU ratio pas / check-jsonschema (issue 28) at 1,000 files; 1 file and 10,000 files: no worse than
#: before this work (0.54 at 1 file, measured against the same configuration; the 1,000-file goal at 10,000).
GOALS = {("small", 1000): 0.15, ("realistic", 1000): 0.12, ("small", 10000): 0.15, ("realistic", 10000): 0.12}
ONE_FILE_GOAL = 0.54
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def small_manifest(index: int) -> str:
    """One valid generated manifest; every tenth depends on the one before it, so the set has edges."""
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


def realistic_manifest(index: int) -> str:
    """The bundled weather.yaml under a module name of its own."""
    text = WEATHER.read_text(encoding="utf-8")
    return text.replace("\nmodule_name: weather\n", f"\nmodule_name: weather_{index:05}\n", 1)


CORPORA = {"small": small_manifest, "realistic": realistic_manifest}


def generate(folder: Path, count: int, corpus: str) -> list[str]:
    """Write ``count`` manifests of ``corpus`` into ``folder`` and return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"plugin_{index:05}.yaml"
        path.write_text(CORPORA[corpus](index), encoding="utf-8")
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
    """The check-jsonschema command, with ruamel.yaml's C parser beside it; exits with advice otherwise."""
    found = os.environ.get("PAS_BENCH_CHECK_JSONSCHEMA") or shutil.which("check-jsonschema")
    if not found:
        sys.exit("check-jsonschema not found: pip install check-jsonschema ruamel.yaml.clib (in any venv) and put "
                 "it on PATH, or set PAS_BENCH_CHECK_JSONSCHEMA to its path")
    command = shlex.split(found)
    python = Path(command[0]).with_name("python")
    probe = "import ruamel.yaml.main as m; raise SystemExit(m.CParser is None)"
    if not python.exists() or subprocess.run([str(python), "-c", probe], check=False).returncode != 0:
        sys.exit(f"{found}: ruamel.yaml's C parser is missing beside it (or its python is not {python}); install it "
                 f"with {python.with_name('pip')} install ruamel.yaml.clib: without it check-jsonschema parses about "
                 "4x slower, and the comparison would flatter pas")
    return command


def timed(command: list[str]) -> tuple[float, float, int]:
    """CPU seconds (user + sys, children included), wall seconds and exit status of one whole-process run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start, process.returncode


def compare(pas: list[str], other: list[str], runs: int) -> tuple[list[float], list[float], list[float], list[float]]:
    """CPU and wall seconds of each command, ``runs`` times each, alternating, after one warm-up each."""
    for command in (pas, other):
        _, _, status = timed(command)
        if status != 0:
            sys.exit(f"warm-up failed with exit status {status}: {shlex.join(command[:6])} ...")
    a_cpu, a_wall, b_cpu, b_wall = [], [], [], []
    for _ in range(runs):
        cpu, wall, _ = timed(pas)
        a_cpu.append(cpu)
        a_wall.append(wall)
        cpu, wall, _ = timed(other)
        b_cpu.append(cpu)
        b_wall.append(wall)
    return a_cpu, a_wall, b_cpu, b_wall


def main() -> None:
    """Generate, run, print one row per corpus and size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,1000,10000", help="comma-separated file counts")
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each tool per size")
    parser.add_argument("--corpus", default="small,realistic", help="comma-separated: small, realistic")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep the files")
    args = parser.parse_args()
    pas = shlex.split(os.environ["PAS_BENCH_PAS"]) if "PAS_BENCH_PAS" in os.environ else [
        sys.executable, "-m", "conformance", "validate"]
    other = check_jsonschema()
    median = statistics.median
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(args.keep or scratch)
        base.mkdir(parents=True, exist_ok=True)
        schema = schema_json(base)
        print(f"check-jsonschema with ruamel.yaml's C parser; CPU = user + sys; {args.runs} runs each, alternating")
        print(f"{'corpus':>9}  {'files':>6}  {'pas cpu s':>9}  {'wall s':>7}  {'c-j cpu s':>9}  {'wall s':>7}  "
              f"{'cpu ratio':>9}  goal")
        for corpus in args.corpus.split(","):
            for size in (int(s) for s in args.sizes.split(",")):
                paths = generate(base / f"{corpus}_{size}", size, corpus)
                a_cpu, a_wall, b_cpu, b_wall = compare([*pas, "-q", *paths], [*other, "--schemafile", schema, *paths],
                                                       args.runs)
                ratio = median([a / b for a, b in zip(a_cpu, b_cpu)])
                goal = ONE_FILE_GOAL if size == 1 else GOALS.get((corpus, size))
                verdict = "" if goal is None else f"<= {goal:.2f} {'ok' if ratio <= goal else 'MISSED'}"
                print(f"{corpus:>9}  {size:>6}  {median(a_cpu):>9.3f}  {median(a_wall):>7.3f}  {median(b_cpu):>9.3f}  "
                      f"{median(b_wall):>7.3f}  {ratio:>9.3f}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
