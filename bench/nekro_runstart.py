"""Benchmark: a run's start with text at 1,000 plugins, NekroAgent 2.4.0's real code beside PAS's Engine.

    python bench/nekro_runstart.py [--plugins 1000] [--rounds 5] [--runs 20]

NekroAgent's side runs in its own venv (``$PAS_NEKRO_PYTHON``, or
``${PAS_NEKRO_VENV:-~/.cache/pas/nekroagent-venv}/bin/python``, made by
scripts/install-nekroagent.sh), in a child process that imports examples/nekroagent/adapter.py
for its stand-ins (the in-memory plugin-data table and config file) and then builds the
plugins in NekroAgent's own model (``NekroPlugin`` objects, methods mounted with
``mount_sandbox_method``, prompt injection with ``mount_prompt_inject_method``) and times
``render_plugins_prompt`` (eligibility, countdown, order, the Jinja template ``plugin.j2`` and
the runtime prompt): what ``run_agent`` calls at the start of a run. The adapter's spy on the
template is taken off first, so only NekroAgent's code is timed. PAS's side times
``Engine.apply(StartRun)`` with text (the run's observation and its prompt text, with the
Engine's caches) in this process. Both have the same plugin set (bench/scheduler.py's
generator), a conversation on adapter ``qq`` (so both hide the plugins that support only
another adapter) with two active plugins, put back (untimed) before each run; the table
prints both texts' lengths (equal: the same blocks).

Each round times ``--runs`` runs on each side (NekroAgent's child, then PAS) and takes their
medians; the ratio is NekroAgent / PAS per round; the table shows the median and range over
``--rounds`` rounds. In-process timing of one call on each side; start-up is not included.
Goal: at least 20x. Skipped, with a message and exit status 0, when NekroAgent is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "nekroagent" / "adapter.py"
GOAL = 20.0
ACTIVE_ROUNDS = 10
ADAPTER_KEY = "qq"


def nekro_python() -> Path:
    """The Python of the NekroAgent venv (it may not exist)."""
    explicit = os.environ.get("PAS_NEKRO_PYTHON")
    if explicit:
        return Path(explicit)
    venv = Path(os.environ.get("PAS_NEKRO_VENV", Path.home() / ".cache" / "pas" / "nekroagent-venv"))
    return venv / "bin" / "python"


def plugin_docs(count: int) -> list[dict]:
    """The manifests of bench/scheduler.py's generator, as JSON documents."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from scheduler import manifest

    return [manifest(i).to_json() for i in range(count)]


def eligible_names(docs: list[dict]) -> list[str]:
    """Two plugins that can sleep under the bench's host config (see bench/scheduler.py's world)."""
    return [d["module_name"] for i, d in enumerate(docs) if i % 10 >= 3 and i % 20 != 7 and i % 50 != 5][:2]


def host_doc(docs: list[dict]) -> dict:
    """Everything enabled; every 50th plugin forbidden to sleep (as bench/scheduler.py)."""
    return {"enabled": [d["module_name"] for d in docs if not d.get("builtin")],
            "strategies": {d["module_name"]: "forbid_sleep" for i, d in enumerate(docs) if i % 50 == 5}}


# ----------------------------------------------------------------------------- NekroAgent's side (child)

def nekro_child(spec: dict) -> dict:
    """In the NekroAgent venv: build the world, then time ``render_plugins_prompt`` ``runs`` times."""
    import copy
    import importlib.util
    import inspect

    loaded = importlib.util.spec_from_file_location("pas_nekro_adapter", ADAPTER)
    assert loaded is not None and loaded.loader is not None
    adapter = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(adapter)  # chdir to a scratch dir; stdout goes to stderr from here
    adapter._import_nekro()
    if adapter._IMPORT_ERROR:
        raise RuntimeError(adapter._IMPORT_ERROR[0])
    nk = adapter.NK
    spy = nk["tpl"]._render_plugin_prompt
    nk["tpl"]._render_plugin_prompt = inspect.getclosurevars(spy).nonlocals["original"]  # NekroAgent's own, unspied
    world = adapter.World(spec["plugins"], spec["host"])
    for name in spec["active"]:
        world.call({"conversation": "c", "module_name": name, "rounds": ACTIVE_ROUNDS, "adapter": ADAPTER_KEY}, "activate")
    rows = copy.deepcopy(adapter.DB.rows)
    ctx, render = world.ctx("c", ADAPTER_KEY), nk["tpl"].render_plugins_prompt
    times, text_size = [], 0
    for _ in range(spec["runs"] + 1):  # the first run is a warm-up
        adapter.DB.rows[:] = copy.deepcopy(rows)
        plugins, enabled = world.rendered_plugins(), world.activation_enabled()
        begin = time.perf_counter()
        rendered = adapter._await(render(plugins, ctx, activation_enabled=enabled))
        times.append(time.perf_counter() - begin)
        runtime = rendered.runtime_prompt  # joined to the system prompt by a blank line, as the adapter does
        text_size = len(rendered.system_prompt) + (2 + len(runtime) if runtime.strip() else 0)
    return {"seconds": statistics.median(times[1:]), "chars": text_size}


def run_nekro(python: Path, spec: dict) -> dict:
    """One round on NekroAgent's side, in a child process."""
    done = subprocess.run([str(python), __file__, "--child"], input=json.dumps(spec), capture_output=True, text=True,
                          check=False, timeout=600)
    lines = [line for line in done.stderr.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"NekroAgent's side failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])


# ----------------------------------------------------------------------------- PAS's side

def run_pas(docs: list[dict], active: list[str], runs: int) -> dict:
    """Time ``Engine.apply(StartRun)`` with text ``runs`` times, the two active plugins put back before each."""
    from reference_impl.engine import Engine
    from reference_impl.events import Extend, RunObservation, StartRun
    from reference_impl.model import HostConfig, Manifest

    engine = Engine(text=True)
    engine.start([Manifest.from_json(d) for d in docs], HostConfig.from_json(host_doc(docs)))
    times, size = [], 0
    for _ in range(runs + 1):
        for name in active:
            engine.apply(Extend(conversation="c", module_name=name, rounds=ACTIVE_ROUNDS, adapter=ADAPTER_KEY))
        begin = time.perf_counter()
        observation = engine.apply(StartRun(conversation="c", adapter=ADAPTER_KEY))
        times.append(time.perf_counter() - begin)
        assert isinstance(observation, RunObservation) and observation.text is not None
        assert sum(v.state.value == "active" for v in observation.plugins) == len(active)
        size = len(observation.text)
    return {"seconds": statistics.median(times[1:]), "chars": size}


def main() -> int:
    """Run the rounds and print the table; 0 also when NekroAgent is missing (skipped)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", type=int, default=1000, help="installed plugins (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each NekroAgent then PAS (default 5)")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per side and round (default 20)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = nekro_child(json.load(sys.stdin))
        print(json.dumps(result), file=sys.stderr, flush=True)  # the adapter moved stdout to stderr
        return 0
    python = nekro_python()
    if not python.exists():
        print(f"skipped: no NekroAgent venv at {python} (scripts/install-nekroagent.sh, or set PAS_NEKRO_PYTHON)")
        return 0
    sys.path.insert(0, str(ROOT))
    docs = plugin_docs(args.plugins)
    active = eligible_names(docs)
    spec = {"plugins": docs, "host": host_doc(docs), "active": active, "runs": args.runs}
    nekro, pas, ratios = [], [], []
    for _ in range(args.rounds):
        theirs, ours = run_nekro(python, spec), run_pas(docs, active, args.runs)
        nekro.append(theirs["seconds"])
        pas.append(ours["seconds"])
        ratios.append(theirs["seconds"] / ours["seconds"])
    print(f"run start with text, {args.plugins:,} plugins, 2 active; {args.rounds} rounds x {args.runs} runs each side")
    print(f"  NekroAgent 2.4.0 render_plugins_prompt  median {statistics.median(nekro) * 1e3:8.2f} ms  "
          f"range {min(nekro) * 1e3:.2f}-{max(nekro) * 1e3:.2f}  ({theirs['chars']:,} chars)")
    print(f"  PAS Engine StartRun + text            median {statistics.median(pas) * 1e3:8.2f} ms  "
          f"range {min(pas) * 1e3:.2f}-{max(pas) * 1e3:.2f}  ({ours['chars']:,} chars)")
    ratio = statistics.median(ratios)
    verdict = "ok" if ratio >= GOAL else "MISSED"
    print(f"  NekroAgent / PAS                      median {ratio:8.1f}x   range {min(ratios):.1f}-{max(ratios):.1f}x"
          f"   (goal >= {GOAL:.0f}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
