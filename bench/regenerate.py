"""Rerun every benchmark in a quick mode and rewrite the figures in bench/README.md.

    python bench/regenerate.py [--only NAME ...] [--list] [--dry-run]

Each ``bench/NAME.py`` that can run quickly is run once, in a child process, with the
arguments in :data:`QUICK` (``--quick`` for a script that has that option and no entry
there). Its output replaces the section of bench/README.md between ``<!-- bench:NAME -->``
and ``<!-- /bench:NAME -->``, under a line saying the command, the date, the CPU count,
the Python version and the load average; the ``machine`` section is rewritten too. A script
that fails keeps its old section and makes the exit status 1; a script with neither an
entry nor ``--quick`` is listed as skipped (add one or the other). The whole run takes at
most about five minutes on a two-core machine: the quick modes trade precision for time,
so the regenerated figures are medians of few runs; rerun a script with its defaults for
figures of record.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
README = BENCH / "README.md"


@dataclass(frozen=True)
class Recipe:
    """How to run one script quickly, and how its output goes into the README."""

    args: tuple[str, ...] = ("--quick",)
    markdown: bool = False  # the script prints markdown tables: inserted as is, not in a code block
    env: tuple[tuple[str, str], ...] = ()
    timeout: float = 150.0


#: Quick arguments of scripts without a ``--quick`` option (or that need more than it).
QUICK: dict[str, Recipe] = {
    "validate": Recipe(args=("--sizes", "1,1000", "--runs", "3")),
    "suite": Recipe(args=("--runs", "5"), timeout=300.0),
    "xdist": Recipe(args=("--quick",), timeout=600.0),
    "scheduler": Recipe(args=("--sizes", "10,100,1000,10000", "--min-time", "0.1")),
    "budget": Recipe(args=()),
    "budget_accuracy": Recipe(args=()),
    "budget_estimate": Recipe(args=()),
    "fastschema": Recipe(args=("--runs", "3", "--count", "100")),
    "memory": Recipe(args=("--format", "json")),
    "attribution": Recipe(args=(), markdown=True),
    "caches": Recipe(args=()),
    "fuzz_finds": Recipe(args=("--quick",), markdown=True),
    "nekro_runstart": Recipe(args=("--rounds", "2", "--runs", "5")),
    # measures the servers installed in its cache folder (python bench/mcp_budget.py installs them)
    "mcp_budget": Recipe(args=("--no-install",), markdown=True, timeout=300.0),
}
#: Scripts that cannot run in minutes, and why (their sections are not regenerated).
SLOW: dict[str, str] = {
    "mutation": "a mutation campaign over reference_impl takes about an hour on 2 shared cores and needs cosmic-ray (see its section)",
    "testrun": "one run is the README's whole test command, about four minutes on two cores (see its section)",
    "fuzz_mutants": "needs a finished mutation session of bench/mutation.py at this commit (see its section)",
}
_SECTION = re.compile(r"(<!-- bench:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /bench:(?P=name) -->)", re.S)


def machine() -> str:
    """The machine line of every section: date, CPU count and model, Python, load average."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal")).split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError, IndexError):
        pass
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    day = datetime.date.today().isoformat()
    return (f"{day}, {os.cpu_count()} CPUs ({model}){memory}, Python {platform.python_version()} "
            f"({platform.python_implementation()}), load average {load}")


def recipes() -> tuple[dict[str, Recipe], dict[str, str]]:
    """Every bench script: (runnable recipes by name, skipped scripts with the reason)."""
    runnable, skipped = {}, {}
    for path in sorted(BENCH.glob("*.py")):
        name = path.stem
        if name == "regenerate" or name.startswith("_"):
            continue
        if name in SLOW:
            skipped[name] = SLOW[name]
        elif name in QUICK:
            runnable[name] = QUICK[name]
        elif "--quick" in path.read_text(encoding="utf-8"):
            runnable[name] = Recipe()
        else:
            skipped[name] = "no --quick option and no entry in regenerate.QUICK"
    return runnable, skipped


def run(name: str, recipe: Recipe) -> tuple[int, str, float]:
    """(exit status, output, seconds) of one script; a timeout is status 124."""
    command = [sys.executable, str(BENCH / f"{name}.py"), *recipe.args]
    began = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=recipe.timeout,
                              env={**os.environ, **dict(recipe.env)}, cwd=BENCH.parent)
    except subprocess.TimeoutExpired as error:
        return 124, f"timed out after {recipe.timeout:g} s\n{error.stdout or ''}", time.monotonic() - began
    output = done.stdout if done.returncode == 0 else done.stdout + done.stderr
    return done.returncode, output.strip(), time.monotonic() - began


def section(name: str, recipe: Recipe, output: str, when: str) -> str:
    """The regenerated body of one section."""
    command = " ".join(("python", f"bench/{name}.py", *recipe.args))
    head = f"Regenerated by `python bench/regenerate.py`: `{command}`, {when}.\n\n"
    return head + (f"{output}\n" if recipe.markdown else f"```text\n{output}\n```\n")


def rewrite(text: str, bodies: dict[str, str]) -> tuple[str, set[str]]:
    """``text`` with the given sections' bodies replaced; also the names that had no markers."""
    seen: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in bodies:
            return match[0]
        seen.add(name)
        return f"{match[1]}{bodies[name]}{match[4]}"

    return _SECTION.sub(replace, text), set(bodies) - seen


def main() -> int:
    """Run the scripts, rewrite the README, print what happened; 1 when a script failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="regenerate only this script's section")
    parser.add_argument("--list", action="store_true", help="list what would run, and what is skipped")
    parser.add_argument("--dry-run", action="store_true", help="run the scripts, print, leave the README alone")
    args = parser.parse_args()
    runnable, skipped = recipes()
    if args.only:
        runnable = {n: r for n, r in runnable.items() if n in args.only}
    if args.list:
        for name, recipe in runnable.items():
            print(f"run   {name}: {' '.join(recipe.args) or '(no arguments)'}")
        for name, why in skipped.items():
            print(f"skip  {name}: {why}")
        return 0
    when = machine()
    bodies = {"machine": f"{when}.\n"}
    failed = []
    for name, recipe in runnable.items():
        status, output, seconds = run(name, recipe)
        print(f"{name}: exit {status} in {seconds:.0f} s", file=sys.stderr)
        if status != 0:
            failed.append(name)
            print(output, file=sys.stderr)
            continue
        bodies[name] = section(name, recipe, output, when)
    text, unmarked = rewrite(README.read_text(encoding="utf-8"), bodies)
    if args.dry_run:
        print(text)
    else:
        README.write_text(text, encoding="utf-8")
    for name in sorted(unmarked):
        print(f"{name}: no <!-- bench:{name} --> section in {README.name}; add one", file=sys.stderr)
    for name, why in skipped.items():
        print(f"{name}: skipped: {why}", file=sys.stderr)
    return 1 if failed or unmarked else 0


if __name__ == "__main__":
    sys.exit(main())
