"""Which of the mutants the suite kills ``pas fuzz`` finds too, within a fixed budget.

    python bench/fuzz_mutants.py SESSION [SESSION ...] [--max-examples N] [--time-budget S] [--jobs J]

SESSION is a finished session folder of bench/mutation.py (its ``results.json`` and ``tree/``).
Every mutant the suite killed there is rebuilt on its own: the session's ``reference_impl`` copied
into a temporary folder with the mutant's diff applied (``patch``). It is then served over the
stdio protocol (``python -P -m conformance serve-reference`` with only that folder on
``PYTHONPATH`` before the project, so the server runs the mutant) and fuzzed by ``pas fuzz`` from
this checkout (``conformance.fuzz.search.fuzz``), whose reference is the oracle, with one seed
and budget for all. A mutant is
*found* when the search reports a disagreement, an errored step or a failed hello (as
bench/fuzz_finds.py counts; the finding is not shrunk, only found).

Mutants of every module are fuzzed, the host-profile ones too: the served reference claims every
profile, so ``pas fuzz`` sends it activation, disclosure and host cases in turn. The session must have been run on a
commit whose ``reference_impl`` equals this checkout's (the oracle must be the unmutated code;
``spec/`` is this checkout's for both sides); the script refuses otherwise, and also when the
session's code, served the same way but unmutated (the control), is not found clean. Prints a
count per module, the mutants not found with their diffs, and the total; a script, not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SEED = 0


@dataclass(frozen=True)
class Mutant:
    """One killed mutant of a session: where it is and its diff."""

    session: Path
    module: str
    line: int
    operator: str
    code: str
    diff: str

    @property
    def name(self) -> str:
        return f"{self.module}:{self.line} {self.operator}"


def killed_mutants(session: Path) -> list[Mutant]:
    """The mutants a finished bench/mutation.py session killed."""
    data = json.loads((session / "results.json").read_text(encoding="utf-8"))
    return [Mutant(session, m["module"], m["line"], m["operator"], m["code"], m["diff"])
            for m in data["mutants"] if m["result"] == "killed"]


def same_reference(session: Path) -> str | None:
    """Why the session's reference differs from this checkout's, or None when it does not."""
    commit = json.loads((session / "meta.json").read_text(encoding="utf-8"))["commit"]
    changed = subprocess.run(["git", "diff", "--name-only", commit, "--", "reference_impl"],
                             cwd=ROOT, capture_output=True, text=True)
    if changed.returncode:
        return f"cannot compare with commit {commit[:12]}: {changed.stderr.strip()}"
    tracked = subprocess.run(["git", "status", "--porcelain", "--", "reference_impl"],
                             cwd=ROOT, capture_output=True, text=True).stdout
    if changed.stdout.strip() or tracked.strip():
        return (f"{session} was run at {commit[:12]}, whose reference_impl differs from this "
                f"checkout's; run the mutation session again at HEAD")
    return None


def build(mutant: Mutant, folder: Path) -> str | None:
    """Copy the session's reference_impl into ``folder`` and apply the mutant; an error or None."""
    shutil.copytree(mutant.session / "tree" / "reference_impl", folder / "reference_impl")
    (folder / "spec").symlink_to(ROOT / "spec")
    diff = mutant.diff.split("\n", 1)[1] if mutant.diff.startswith("--- mutation diff ---") else mutant.diff
    if not diff.strip():
        return None  # the control: the session's code unmutated
    applied = subprocess.run(["patch", "-p1", "-s", "-d", str(folder)], input=diff.rstrip("\n") + "\n",
                             capture_output=True, text=True)
    return None if applied.returncode == 0 else f"patch failed: {applied.stdout}{applied.stderr}".strip()


def fuzz(mutant: Mutant, args: argparse.Namespace) -> tuple[Mutant, str, float]:
    """("found" | "not found" | an error, seconds) for one mutant; runs in a worker process."""
    from conformance.adapters.select import adapter_for
    from conformance.fuzz.search import FuzzOptions
    from conformance.fuzz.search import fuzz as search

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pas-fuzz-mutant-") as tmp:
        folder = Path(tmp)
        problem = build(mutant, folder)
        if problem:
            return mutant, problem, 0.0
        # Only the mutant's folder on PYTHONPATH, and -P: no current directory, so the server imports
        # the mutated reference_impl and this checkout's conformance (through the installed project).
        adapter = adapter_for(f"cmd:env PYTHONPATH={folder} {args.python} -P -m conformance serve-reference",
                              timeout=args.timeout)
        try:
            # Found or not is all that counts here: no time spent shrinking what was found.
            result = search(adapter, FuzzOptions(max_examples=args.max_examples, seed=args.seed,
                                                 time_budget=args.time_budget, shrink_budget=0.0))
        finally:
            adapter.close()
    found = result.finding is not None or result.hello_error is not None
    return mutant, "found" if found else "not found", time.monotonic() - began


def main() -> int:
    """Fuzz every killed mutant of the sessions and print what was not found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sessions", nargs="+", type=Path, help="finished bench/mutation.py session folders")
    parser.add_argument("--max-examples", type=int, default=300, help="cases per mutant (default: 300)")
    parser.add_argument("--time-budget", type=float, default=5.0, help="search seconds per mutant (default: 5)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the seed of every search (default: {SEED})")
    parser.add_argument("--timeout", type=float, default=2.0, help="per-step timeout (default: 2)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants fuzzed at once (default: 2)")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs pas (default: this one)")
    parser.add_argument("--limit", type=int, help="only the first N mutants (a quick look)")
    parser.add_argument("--modules", help="comma-separated module names under reference_impl (default: all)")
    args = parser.parse_args()
    for session in args.sessions:
        if why := same_reference(session):
            print(f"fuzz_mutants: {why}", file=sys.stderr)
            return 2
    # The control: served the same way but unmutated, the session's reference must show nothing;
    # otherwise every "found" below could come from the set-up rather than the mutant.
    _, control, _ = fuzz(Mutant(args.sessions[0], "-", 0, "control", "", ""), args)
    if control != "not found":
        print(f"fuzz_mutants: the unmutated reference served as the mutants are gave {control!r}", file=sys.stderr)
        return 2
    mutants = [m for s in args.sessions for m in killed_mutants(s)]
    wanted = {f"{m.removesuffix('.py')}.py" for m in args.modules.split(",")} if args.modules else None
    targets = [m for m in mutants if wanted is None or Path(m.module).name in wanted][:args.limit]
    print(f"budget per mutant: {args.max_examples} cases or {args.time_budget:g} s of search, seed {args.seed}; "
          f"{len(targets)} killed mutants fuzzed over stdio\n")
    per: dict[str, Counter[str]] = {}
    missed: list[tuple[Mutant, str]] = []
    began = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for mutant, outcome, _seconds in pool.map(partial(fuzz, args=args), targets):
            per.setdefault(Path(mutant.module).name, Counter())[
                "found" if outcome == "found" else "missed"] += 1
            if outcome != "found":
                missed.append((mutant, outcome))
    print("| module | fuzzed | found | not found |")
    print("| --- | ---: | ---: | ---: |")
    for module in sorted(per):
        c = per[module]
        print(f"| {module} | {c['found'] + c['missed']} | {c['found']} | {c['missed']} |")
    found = sum(c["found"] for c in per.values())
    print(f"| **all** | {len(targets)} | {found} | {len(targets) - found} |")
    for mutant, outcome in missed:
        print(f"\nNOT FOUND ({outcome}) {mutant.name}  ({mutant.code})")
        print(mutant.diff.rstrip())
    print(f"\nfound by pas fuzz: {found} of {len(targets)} killed mutants "
          f"({time.monotonic() - began:.0f} s with {args.jobs} at once)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
