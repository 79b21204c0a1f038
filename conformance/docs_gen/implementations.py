"""The Implementations pages from real runs: ``python -m conformance.docs_gen.implementations``.

One command runs the suite against every implementation of
:mod:`conformance.docs_gen.implementation_list` (the reference in-process, over stdio and under a
hazard declaration, the JavaScript example, NekroAgent 2.3.0 to 2.4.0, Microsoft Agent Framework,
LangGraph bigtool's default and working installs, Mastra's four configurations, the Vercel AI SDK),
one ``pas run -f json`` subprocess each with its expected-failures file, ``--jobs`` at a time, and
writes what they answered to ``docs/data/implementations.json``. Then it renders, from that file
and docs/data/host-hazards.yaml alone (plus the hosts' READMEs for the titles of their divergence
entries), ``docs/implementations.md`` (the matrix) and one page per disclosure host under
``docs/hosts/``, each with its Chinese twin. An implementation not installed here keeps the entry
of the last run where it was installed, and is recorded as not run when there is none.
``--render`` re-renders the pages from the committed data without running anything.

Rendering is a pure function of those files, so tests/docs/test_implementations_page.py can check
that the committed pages match the data and that the data's scenario ids are the current suite's
(a changed suite makes the pages stale until they are regenerated).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from conformance.docs_gen.implementation_list import IMPLEMENTATIONS, ROOT, Implementation

DATA = ROOT / "docs" / "data" / "implementations.json"
FORMAT = 2
Runner = Callable[[list[str]], str]


def scenario_profile(profiles: Sequence[str]) -> str:
    """The profile a scenario is counted under: disclosure, else host, else text, else activation."""
    return next((p for p in ("disclosure", "host", "text") if p in profiles), "activation")


def run_one(implementation: Implementation, runner: Runner | None = None) -> dict[str, Any]:
    """Run the suite against ``implementation`` with ``pas run -f json``; its entry of the data file."""
    entry: dict[str, Any] = {"key": implementation.key, "title": implementation.title,
                             "command": implementation.shown_command, "extra_args": list(implementation.extra_args),
                             "expected_failures_file": implementation.expected_failures,
                             "release_of": implementation.release_of, "changes": list(implementation.changes),
                             "host": implementation.host, "configuration": implementation.configuration}
    impl = implementation.impl()
    if impl is None:
        return {**entry, "installed": False, "missing": implementation.missing}
    args = [sys.executable, "-m", "conformance", "run", "-q", "-f", "json", "--impl", impl, *implementation.extra_args]
    if implementation.expected_failures:
        args += ["--expected-failures", str(ROOT / implementation.expected_failures)]
    lines = [json.loads(line) for line in (runner or _subprocess)(args).splitlines() if line.strip()]
    summary = next((line for line in lines if line.get("type") == "summary"), None)
    if summary is None:
        raise RuntimeError(f"{implementation.key}: pas run wrote no summary (command: {' '.join(args)})")
    results = {line["id"]: line for line in lines if line.get("type") == "result"}
    declined = {rid: {"title": row["title"], "declined_by": row.get("declined_by", "")}
                for rid, row in summary.get("requirements", {}).items() if row.get("status") == "declined"}
    return {**entry, "installed": True, "implementation": summary["implementation"], "declined": declined,
            "spec_version": summary.get("spec_version", ""),
            "results": {sid: r["outcome"] for sid, r in sorted(results.items())},
            "profiles_of": {sid: scenario_profile(r["profiles"]) for sid, r in sorted(results.items())},
            "reasons": {sid: r["reason"] for sid, r in sorted(results.items()) if r["outcome"] in ("xfailed", "stale")}}


def _subprocess(args: list[str]) -> str:
    # pas run exits 1 when something failed: that is a result to record, not an error here.
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False).stdout


def collect(suite: Sequence[tuple[str, str, str]], implementations: Sequence[Implementation] = IMPLEMENTATIONS,
            runner: Runner | None = None, jobs: int = 1) -> dict[str, Any]:
    """The whole data file: the suite's (id, category, title) and one entry per implementation, in order.

    ``jobs`` implementations run at once (each is its own ``pas run`` process). Raises RuntimeError
    when a run printed no summary (the implementation could not be started at all).
    """
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        entries = list(pool.map(lambda impl: _timed(impl, runner), implementations))
    return {"format": FORMAT, "suite": [{"id": sid, "category": cat, "title": title} for sid, cat, title in sorted(suite)],
            "implementations": entries}


def _timed(implementation: Implementation, runner: Runner | None) -> dict[str, Any]:
    started = time.monotonic()
    entry = run_one(implementation, runner)
    state = "ran" if entry["installed"] else f"not installed: {entry['missing']}"
    print(f"{implementation.key}: {state} ({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return entry


def keep_previous(data: dict[str, Any], previous: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each implementation not installed here replaced by its entry of ``previous``, if that one ran.

    A NekroAgent release whose venv is missing on this machine keeps the results of the last
    run where it was installed; if the suite changed since, the data is stale and a test says so.
    """
    before = {e["key"]: e for e in previous.get("implementations", []) if e.get("installed")}
    # A kept run takes what the list says of the implementation now (title, command, host) over what it said then.
    kept = [{**before[e["key"]], **{k: v for k, v in e.items() if k not in ("installed", "missing")}}
            if not e["installed"] and e["key"] in before else e for e in data["implementations"]]
    for entry, old in zip(data["implementations"], kept):
        if entry is not old:
            print(f"{entry['key']}: not installed here; kept from the last run where it was", file=sys.stderr)
    return {**data, "implementations": kept}


def current_suite() -> list[tuple[str, str, str]]:
    """(id, category folder, title) of every bundled scenario."""
    from conformance.suite.scenario import load_suite

    scenarios, _ = load_suite()
    return sorted((s.id, Path(s.path).parent.name, s.title) for s in scenarios)


def main(argv: Sequence[str] | None = None) -> int:
    """Run every implementation (or only ``--render``), write the data file, then every page from it.

    Exits 1, writing no page, when docs/data/host-hazards.yaml does not hold for the data (each
    problem printed).
    """
    from conformance.docs_gen.implementation_pages import write_all

    parser = argparse.ArgumentParser(prog="python -m conformance.docs_gen.implementations", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--render", action="store_true", help="only re-render the pages from the committed data")
    parser.add_argument("--jobs", type=int, default=2, help="implementations run at once (default 2)")
    args = parser.parse_args(argv)
    if not args.render:
        previous = json.loads(DATA.read_text(encoding="utf-8")) if DATA.is_file() else {}
        data = keep_previous(collect(current_suite(), jobs=args.jobs), previous)
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    problems = write_all(json.loads(DATA.read_text(encoding="utf-8")))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
