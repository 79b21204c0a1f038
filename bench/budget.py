"""Benchmark: what ``pas budget`` reports on the bundled examples, and why.

    python bench/budget.py

Runs ``pas budget --format json`` on the bundled example plugins and host config with the
built-in typical mix (20 runs in 2 conversations), once on the reference prompt text and
once also counting method parameter schemas (``--parameters``), and prints the saving, the
ceiling (the saving had nothing been activated) and the goal (at least 70%). Then, to
explain the figure, it prints every example plugin's full block against its sleeping block
in tokens: scheduling can only save what a sleeping block is shorter than the full one.
Both are whole ``pas`` processes, as a user would run them; the per-plugin table is computed
in this process with the same tokenizer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 0.70


def budget(*extra: str) -> dict:
    """The JSON report of one ``pas budget`` process on the examples."""
    command = [sys.executable, "-m", "conformance", "budget", "--format", "json", *extra]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr[-500:]}")
    return json.loads(done.stdout)


def per_plugin() -> list[tuple[str, int, int, int]]:
    """(module, full block tokens, sleeping block tokens, parameter tokens) for every sleep-eligible example."""
    from conformance.documents.plugin_set import load_plugin_set
    from conformance.tools.budget.measure import parameters_text
    from conformance.tools.budget.tokenizer import load_tokenizer
    from conformance.tools.simulate.simulation import EXAMPLE_HOST, EXAMPLE_PLUGINS
    from reference_impl.eligibility import is_sleep_eligible
    from reference_impl.events import PluginView
    from reference_impl.model import PluginState
    from reference_impl.render import render_block
    from reference_impl.semantics import load_semantics

    def view(module_name: str, state: PluginState, *, brief_shown: bool, methods_shown: bool) -> PluginView:
        return PluginView(module_name=module_name, state=state, rounds_left=None, hint=False, brief_shown=brief_shown,
                          methods_shown=methods_shown, injection_called=False)

    tokenizer = load_tokenizer()
    loaded = load_plugin_set(EXAMPLE_PLUGINS, EXAMPLE_HOST)
    manifests, host = loaded.manifests, loaded.host
    rows = []
    for m in sorted(manifests, key=lambda m: m.module_name):
        if not is_sleep_eligible(m, host.strategy_for(m.module_name), load_semantics()):
            continue
        full = render_block(m, view(m.module_name, PluginState.ALWAYS_AWAKE, brief_shown=False, methods_shown=True),
                            with_injection=False)
        asleep = render_block(m, view(m.module_name, PluginState.SLEEPING, brief_shown=True, methods_shown=False),
                              with_injection=False)
        params = parameters_text({m.module_name: m}, [view(m.module_name, PluginState.ACTIVE, brief_shown=False,
                                                           methods_shown=True)])
        rows.append((m.module_name, tokenizer.count(full), tokenizer.count(asleep), tokenizer.count(params)))
    return rows


def main() -> None:
    """Print the savings, the goal and the per-plugin explanation."""
    reports = {"reference text": budget(), "reference text + parameters": budget("--parameters")}
    tokenizer = reports["reference text"]["tokenizer"]["label"]
    print(f"pas budget on the bundled examples, typical mix ({len(reports['reference text']['runs'])} runs), "
          f"tokens: {tokenizer}")
    print(f"{'counted':<28} {'scheduled':>9} {'all awake':>9} {'saving':>7} {'ceiling':>7}  goal")
    for name, report in reports.items():
        totals = report["totals"]
        verdict = "ok" if report["saving"] >= GOAL else "MISSED"
        print(f"{name:<28} {totals['scheduled']['tokens']:>9} {totals['all_awake']['tokens']:>9} "
              f"{report['saving']:>7.1%} {report['saving_ceiling']:>7.1%}  >= {GOAL:.0%} {verdict}")
    print("\nsleep-eligible example plugins, one block each (tokens):")
    print(f"{'plugin':<16} {'full block':>10} {'sleeping':>8} {'parameters':>10}")
    for module, full, asleep, params in per_plugin():
        print(f"{module:<16} {full:>10} {asleep:>8} {params:>10}")


if __name__ == "__main__":
    main()
