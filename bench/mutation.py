"""Mutation score of the conformance suite over reference_impl, measured with cosmic-ray.

Runs on a snapshot of a commit (``git archive``), never on the work tree: other people import
reference_impl live from the checkout. Each mutant is one change to one module of the snapshot;
the test command is the whole suite against the reference twice, in-process and then over the
stdio protocol (``python bench/mutation.py --run-suite``: ``pas run -q -x``, then the same with
``--impl 'cmd:python -m conformance serve-reference'``, which is what reaches the wire parsers),
then the disclosure suite under 16 other declarations (``--run-declarations``: ``pas run``
declares the defaults only, and skips a scenario whose ``requires`` they do not meet); the host
scenarios and the text profile are part of it; a non-zero exit or a timeout kills the mutant.
Prints killed / survived / equivalent per module and overall, then every survivor with its diff.

Set-up (a venv of its own keeps cosmic-ray's dependencies out of the project's)::

    python -m venv /tmp/pas-mutation && /tmp/pas-mutation/bin/pip install 'cosmic-ray>=8.7,<9'
    .venv/bin/python bench/mutation.py --cosmic-ray /tmp/pas-mutation/bin/cosmic-ray

``--modules scheduler,render`` limits the run to some modules (a whole run is ~1,860 mutants,
over an hour on two cores shared with other work; cosmic-ray takes them in random order); ``--rerun DIR`` runs again, on a new snapshot, only the mutants that
were not killed in the finished session in DIR (matched by module, operator and line text), which
is how a new scenario is checked against its survivor in a minute; ``--summarise DIR`` prints the
table of a finished run again.

What counts:
- mutants inside annotations are equivalent by construction (every module has
  ``from __future__ import annotations``, and nothing reads them at run time); they are not run;
- cosmic-ray replaces a binary operator by each of ten others; only one replacement per
  operator is run (``+``->``-``, ``|``->``&``... see ``_BINARY_KEPT``), as mutmut does: the
  other nine break the same expression the same way;
- surviving mutants are explained in bench/mutation-equivalents/<module>.yaml (module, operator, the source
  line, why), each of one kind: ``equivalent`` (no input can tell it from the original),
  ``unobservable`` (a difference no scenario can express by design: a property of the Python value
  such as frozen or keyword-only; the wording of a message where scenarios compare codes; an error
  path behind a schema check, such as a malformed request the runner never sends; each names the
  pytest test that kills it where there is one), or ``unstated`` (a behaviour no requirement states,
  so no scenario may pin it; still counted against the score). ``not run``: mutants a stopped
  session did not reach.
Exit status: 0 when every mutant run was killed, equivalent or unobservable, 1 otherwise, 2 when the unmutated
snapshot fails the suite or the tool cannot run.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from reference_impl.disclosure_options import Options

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "bench" / "mutation-equivalents"
# One replacement per binary operator, the nearest in meaning.
_BINARY_KEPT = {
    "Add": "Sub", "Sub": "Add", "Mul": "Div", "Div": "Mul", "FloorDiv": "Div", "Mod": "FloorDiv",
    "Pow": "Mul", "LShift": "RShift", "RShift": "LShift", "BitOr": "BitAnd", "BitAnd": "BitOr",
    "BitXor": "BitOr",
}
_BINARY = re.compile(r"core/ReplaceBinaryOperator_(\w+?)_(\w+)$")


def snapshot(rev: str, dest: Path) -> str:
    """Extract the tracked files of ``rev`` into ``dest`` and return the full commit id."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    return commit


def annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions, 1-based lines, of every annotation in a module."""
    spans = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        found = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            found.append(node.returns)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            found.append(node.annotation)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        spans += [((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)) for a in found]
    return spans


def prune(db: Path, tree: Path) -> Counter[str]:
    """Delete the mutants that are not run: annotations, and binary replacements not kept."""
    con = sqlite3.connect(db)
    rows = con.execute("select job_id, module_path, operator_name, start_pos_row, start_pos_col "
                       "from mutation_specs").fetchall()
    spans: dict[str, list] = {}
    dropped: Counter[str] = Counter()
    for job, module, operator, row, col in rows:
        if module not in spans:
            source = (tree / module).read_text(encoding="utf-8")
            future = "from __future__ import annotations" in source
            spans[module] = annotation_spans(tree / module) if future else []
        reason = None
        if any(s <= (row, col) < e for s, e in spans[module]):
            reason = "annotation"
        elif (m := _BINARY.match(operator)) and _BINARY_KEPT.get(m[1]) != m[2]:
            reason = "binary-variant"
        if reason:
            dropped[f"{module}\0{reason}"] += 1
            con.execute("delete from mutation_specs where job_id = ?", (job,))
            con.execute("delete from work_items where job_id = ?", (job,))
    con.commit()
    con.close()
    return dropped


def load_equivalents() -> list[dict]:
    """The listed equivalent mutants (module, operator, code, why)."""
    listed = []
    for path in sorted(EQUIVALENTS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        listed += [{"module": data["module"], **item} for item in data.get("mutants") or ()]
    return listed


def is_listed(entry: dict, listed: list[dict]) -> dict | None:
    """The equivalents-file entry that names this mutant, matched by module, operator and line text."""
    for item in listed:
        if (item["module"] == entry["module"] and item["operator"] == entry["operator"]
                and item["code"].strip() == entry["code"]
                and item.get("occurrence_on_line", entry["on_line"]) == entry["on_line"]):
            return item
    return None


def collect(workdir: Path) -> dict:
    """Read a finished session into per-mutant entries and the pruned counts."""
    meta = json.loads((workdir / "meta.json").read_text(encoding="utf-8"))
    tree = workdir / "tree"
    con = sqlite3.connect(workdir / "session.sqlite")
    on_line = meta.get("on_line", {})
    rows = con.execute(
        "select s.job_id, s.module_path, s.operator_name, s.start_pos_row, s.start_pos_col, r.worker_outcome, "
        "r.test_outcome, r.diff, r.output from mutation_specs s left join work_results r using (job_id) "
        "order by s.module_path, s.start_pos_row, s.start_pos_col, s.operator_name").fetchall()
    listed = load_equivalents()
    line = line_reader(tree)
    seen: Counter[tuple] = Counter()
    mutants = []
    for job, module, operator, row, col, worker, test, diff, output in rows:
        code = line(module, row)
        seen[(module, operator, code)] += 1
        entry = {"module": module, "line": row, "col": col, "operator": operator, "code": code,
                 "on_line": on_line.get(job, seen[(module, operator, code)]), "diff": diff or "", "output": (output or "")[-400:]}
        if worker is None:
            entry["result"] = "not-run"
        elif (worker or "").upper() == "NORMAL" and (test or "").upper() == "SURVIVED":
            item = is_listed(entry, listed)
            entry["result"] = item.get("kind", "equivalent") if item else "survived"
        elif (worker or "").upper() == "NORMAL" and (test or "").upper() == "KILLED":
            entry["result"] = "killed"
        else:
            entry["result"] = f"{(worker or '').lower()}/{(test or '').lower()}"
        mutants.append(entry)
    return {"meta": meta, "mutants": mutants}


_KINDS = ("killed", "survived", "equivalent", "unobservable", "unstated", "not-run")


def table(session: dict) -> str:
    """The per-module table, in markdown."""
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for m in session["mutants"]:
        per[m["module"]][m["result"]] += 1
    for key, n in session["meta"]["pruned"].items():
        module, reason = key.split("\0")
        per[module][reason] += n
    head = ("| module | mutants | killed | survived | equivalent | unobservable | unstated rule | other | "
            "not run | score | annotations |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    out = [head]
    total: Counter[str] = Counter()
    for module in sorted(per):
        c = per[module]
        total.update(c)
        out.append(_row(Path(module).name, c))
    out.append(_row("**all**", total))
    return "\n".join(out)


def _row(name: str, c: Counter[str]) -> str:
    other = sum(v for k, v in c.items() if k not in (*_KINDS, "annotation", "binary-variant"))
    total = sum(c[k] for k in _KINDS) + other
    # The score: killed over the mutants run that are neither equivalent nor unobservable by the suite.
    scored = c["killed"] + c["survived"] + c["unstated"] + other
    score = f"{100 * c['killed'] / scored:.1f}%" if scored else "-"
    return (f"| {name} | {total} | {c['killed']} | {c['survived']} | {c['equivalent']} | {c['unobservable']} "
            f"| {c['unstated']} | {other} | {c['not-run']} | {score} | {c['annotation']} |")


def report(session: dict) -> int:
    """Print the table and the survivors; return the exit status."""
    meta = session["meta"]
    print(f"commit {meta['commit']}  cosmic-ray {meta['tool']}  test command: {meta['test_command']}")
    print(f"binary-operator variants not run (one replacement kept per operator): "
          f"{sum(n for k, n in meta['pruned'].items() if k.endswith('binary-variant'))}")
    print(table(session))
    bad = [m for m in session["mutants"] if m["result"] not in ("killed", "equivalent", "unobservable", "not-run")]
    for m in bad:
        print(f"\n{m['result'].upper()} {m['module']}:{m['line']}:{m['col']} {m['operator']}  ({m['code']})")
        print(m["diff"].rstrip())
    listed = load_equivalents()
    used = [m for m in session["mutants"] if m["result"] in ("equivalent", "unobservable", "unstated")]
    stale = [e for e in listed if e["module"] in meta["modules"] and not any(is_listed(m, [e]) for m in used)]
    for e in stale:
        print(f"\nnote: listed equivalent not met in this run: {e['module']}:{e.get('line')} {e['operator']}")
    return 1 if bad else 0


def run_suite(python: str) -> int:
    """The test command of a mutant: the suite in-process, then over stdio, then the disclosure suite
    under other declarations (:func:`run_declarations`); the first failure ends it."""
    for extra in ([], ["--impl", f"cmd:{python} -m conformance serve-reference"]):
        status = subprocess.run([python, "-m", "conformance", "run", "-q", "-x", *extra]).returncode
        if status:
            return status
    return subprocess.run([python, str(Path(__file__).resolve()), "--run-declarations"]).returncode


def declarations() -> list[Options]:
    """The disclosure declarations a mutant is tested under: one combination in 79 of the 960 the spec
    allows, 13 that hold every value of every option (tests/conformance/suite/test_disclosure_suite.py
    runs the same sample over stdio), then the defaults under each other state scope (the sample's one
    ``messages`` declaration has no model-side unload). Other pairs of values the sample does not hold are not tried."""
    from reference_impl.disclosure_options import Options, Scope, every_combination

    # and the defaults under each other scope: the sample's one messages declaration has no model-side unload
    return [*list(every_combination())[::79], *(Options(state_scope=scope) for scope in Scope if scope is not Scope.THREAD)]


def _over_stdio(argv: list[str], suite: list[Any]) -> Any:
    """The run of ``suite`` against the implementation ``argv`` starts, over the stdio protocol."""
    from conformance.adapters.stdio import StdioAdapter
    from conformance.suite.runner import run_suite as run_scenarios

    with StdioAdapter(argv, timeout=30.0) as adapter:
        return run_scenarios(adapter, suite)


def run_declarations() -> int:
    """The disclosure suite, in-process, under each of :func:`declarations` (the first also over stdio, where the
    declaration travels in ``hello``); 1 at the first scenario that
    fails or errors (the one run by ``pas run`` declares the defaults only, and a scenario whose
    ``requires`` the defaults do not meet is skipped there)."""
    sys.path.insert(0, str(ROOT))  # the snapshot's reference_impl, not an installed one
    from conformance.adapters.inprocess import reference_adapter
    from conformance.suite.results import Outcome
    from conformance.suite.runner import run_suite as run_scenarios
    from conformance.suite.scenario import SUITE_DIR, load_suite

    suite, problems = load_suite([SUITE_DIR / "disclosure"], check_schema=False)
    if problems:
        print(f"the disclosure suite does not load: {problems[0]}", file=sys.stderr)
        return 2
    sample = declarations()
    # The first over stdio too: a declaration that is not the defaults must travel in hello.
    argv = [sys.executable, "-m", "conformance", "serve-reference", "--disclosure", sample[0].to_text()]
    runs: list[tuple[Options, Callable[[], Any]]] = [
        (options, lambda options=options: run_scenarios(reference_adapter(options), suite)) for options in sample]
    runs.append((sample[0], lambda: _over_stdio(argv, suite)))
    for options, run in runs:
        for result in run().results:
            if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
                print(f"{result.id} {result.outcome.value} under {options.to_text() or 'the defaults'}: "
                      f"{result.reason}", file=sys.stderr)
                return 1
    return 0


def line_reader(tree: Path) -> Callable[[str, int], str]:
    """``code(module, row)``: the stripped text of a 1-based line of a module of ``tree``, each file read once."""
    files: dict[str, list[str]] = {}

    def code(module: str, row: int) -> str:
        if module not in files:
            files[module] = (tree / module).read_text(encoding="utf-8").splitlines()
        return files[module][row - 1].strip()

    return code


def occurrences(db: Path, tree: Path) -> dict[int, int]:
    """For each job, which occurrence of its (module, operator, line text) it is, in source order."""
    con = sqlite3.connect(db)
    rows = con.execute("select job_id, module_path, operator_name, start_pos_row from mutation_specs "
                       "order by module_path, start_pos_row, start_pos_col, operator_name").fetchall()
    con.close()
    line = line_reader(tree)
    seen: Counter[tuple] = Counter()
    result = {}
    for job, module, operator, row in rows:
        code = line(module, row)
        seen[(module, operator, code)] += 1
        result[job] = seen[(module, operator, code)]
    return result


def keep_only(db: Path, tree: Path, wanted: set[tuple], on_line: dict[int, int]) -> int:
    """Delete every mutant whose (module, operator, line text, occurrence) is not wanted; return how many stay."""
    con = sqlite3.connect(db)
    rows = con.execute("select job_id, module_path, operator_name, start_pos_row from mutation_specs").fetchall()
    line = line_reader(tree)
    kept = 0
    for job, module, operator, row in rows:
        code = line(module, row)
        if (module, operator, code, on_line[job]) in wanted:
            kept += 1
            continue
        con.execute("delete from mutation_specs where job_id = ?", (job,))
        con.execute("delete from work_items where job_id = ?", (job,))
    con.commit()
    con.close()
    return kept


def not_killed(workdir: Path) -> set[tuple]:
    """(module, operator, line text, occurrence) of every mutant a finished session did not kill."""
    return {(m["module"], m["operator"], m["code"], m["on_line"]) for m in collect(workdir)["mutants"]
            if m["result"] != "killed"}


def run(args: argparse.Namespace) -> int:
    """Snapshot, initialise, prune, check the baseline, execute, report."""
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="pas-mutation-"))
    tree = workdir / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    commit = snapshot(args.rev, tree)
    modules = [f"reference_impl/{m.removesuffix('.py')}.py" for m in args.modules.split(",")] if args.modules \
        else sorted(str(p.relative_to(tree)) for p in (tree / "reference_impl").glob("*.py"))
    command = f"{args.python} bench/mutation.py --run-suite --python {args.python}"
    config = workdir / "cosmic-ray.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(modules)}\n"
        f"timeout = {float(args.timeout)}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(command)}\n\n"
        "[cosmic-ray.distributor]\nname = \"local\"\n", encoding="utf-8")
    db = workdir / "session.sqlite"
    db.unlink(missing_ok=True)
    tool = subprocess.run([args.cosmic_ray, "--version"], capture_output=True, text=True).stdout.split()[-1]
    subprocess.run([args.cosmic_ray, "init", str(config), str(db)], cwd=tree, check=True)
    pruned = prune(db, tree)
    on_line = occurrences(db, tree)
    rerun_of = None
    if args.rerun:
        rerun_of = str(Path(args.rerun).resolve())
        kept = keep_only(db, tree, not_killed(Path(args.rerun)), on_line)
        print(f"rerunning the {kept} mutants not killed in {rerun_of}", file=sys.stderr)
    (workdir / "meta.json").write_text(json.dumps({
        "commit": commit, "tool": tool, "test_command": command, "modules": modules,
        "pruned": dict(pruned), "on_line": on_line, "rerun_of": rerun_of}), encoding="utf-8")
    baseline = subprocess.run(shlex.split(command), cwd=tree, capture_output=True, text=True,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if baseline.returncode != 0:
        print(f"the unmutated snapshot fails the suite:\n{baseline.stdout[-2000:]}", file=sys.stderr)
        return 2
    print(f"session in {workdir}; running {len(list(sqlite3.connect(db).execute('select 1 from work_items')))} mutants",
          file=sys.stderr, flush=True)
    subprocess.run([args.cosmic_ray, "exec", str(config), str(db)], cwd=tree, check=True)
    return summarise(workdir)


def summarise(workdir: Path) -> int:
    """Report a finished session (and keep its entries as JSON beside it)."""
    session = collect(workdir)
    (workdir / "results.json").write_text(json.dumps(session, indent=1), encoding="utf-8")
    return report(session)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run or summarise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cosmic-ray", default=shutil.which("cosmic-ray") or "cosmic-ray",
                        help="the cosmic-ray executable (default: the one on PATH)")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python with the project's dependencies that runs the suite (default: this one)")
    parser.add_argument("--rev", default="HEAD", help="the commit to snapshot (default: HEAD)")
    parser.add_argument("--modules", help="comma-separated module names under reference_impl (default: all)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per mutant (default: 60)")
    parser.add_argument("--workdir", help="where the snapshot and session go (default: a new temp folder)")
    parser.add_argument("--summarise", metavar="DIR", help="only report the finished session in DIR")
    parser.add_argument("--rerun", metavar="DIR",
                        help="run only the mutants the finished session in DIR did not kill (on a new snapshot)")
    parser.add_argument("--run-suite", action="store_true",
                        help="be the test command of one mutant: the suite in-process, then over stdio, "
                        "then the disclosure suite under other declarations")
    parser.add_argument("--run-declarations", action="store_true",
                        help="the last part of --run-suite: the disclosure suite under each of 16 declarations")
    args = parser.parse_args(argv)
    if args.run_suite:
        return run_suite(args.python)
    if args.run_declarations:
        return run_declarations()
    if args.summarise:
        return summarise(Path(args.summarise))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
