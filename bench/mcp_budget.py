#!/usr/bin/env python3
"""What scheduling saves on real MCP servers and on a set of Agent Skills, with and without a prompt cache.

Installs six MCP servers from the package registries into a cache folder (never the
repository): three of the official reference servers from PyPI and three from npm, pinned
below. Each is started over stdio and asked for its tools by ``pas extract mcp`` (the MCP
Python SDK), then measured by ``pas budget --declarations --cache`` (cl100k_base tokens, the
default mix of the set: 20 runs in two conversations, each server woken once for 2 runs),
alone and all six together; then the example skills of ``conformance/examples/skills`` (our
own) through ``pas extract skills`` and ``pas budget --cache``, and, when bench/nekro_runstart.py
finds a NekroAgent venv, NekroAgent's built-in plugins through ``pas extract nekro`` (its
static prompt injections counted).

    python bench/mcp_budget.py            # install if needed, extract, measure, print the table
    python bench/mcp_budget.py --no-install

The cache folder is ``$PAS_MCP_CACHE`` or ``~/.cache/pas/mcp-servers``. Without the mcp extra
(``pip install '.[mcp,budget]'``) or without Node.js for the npm servers, the servers that
cannot run are named and skipped.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PYPI = {"mcp-server-fetch": "2026.10.24", "mcp-server-git": "2026.10.19", "mcp-server-time": "2026.10.19"}
NPM = {"@modelcontextprotocol/server-filesystem": "2026.8.31", "@modelcontextprotocol/server-memory": "2026.8.31",
       "@modelcontextprotocol/server-everything": "2026.8.31"}
SKILLS = ROOT / "conformance" / "examples" / "skills"


@dataclass(frozen=True)
class Server:
    """One server to measure: its package, version and the command that starts it over stdio."""

    package: str
    version: str
    command: tuple[str, ...]


def cache_folder() -> Path:
    """Where the servers are installed: ``$PAS_MCP_CACHE`` or ``~/.cache/pas/mcp-servers``."""
    return Path(os.environ.get("PAS_MCP_CACHE", Path.home() / ".cache" / "pas" / "mcp-servers"))


def install(cache: Path) -> None:
    """Install the pinned servers with pip (a venv of their own) and npm (a prefix of its own), when missing."""
    venv = cache / "pypi-venv"
    if not (venv / "bin" / "mcp-server-time").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *(f"{p}=={v}" for p, v in PYPI.items())], check=True)
    modules = cache / "npm" / "node_modules" / "@modelcontextprotocol"
    if shutil.which("npm") and not (modules / "server-everything").exists():
        subprocess.run(["npm", "install", "--prefix", str(cache / "npm"), "--no-audit", "--no-fund",
                        *(f"{p}@{v}" for p, v in NPM.items())], check=True, stdout=subprocess.DEVNULL)


def servers(cache: Path) -> list[Server]:
    """The servers installed in ``cache``, with the arguments each needs (a repository, a folder, the transport)."""
    venv, modules = cache / "pypi-venv" / "bin", cache / "npm" / "node_modules"
    found = []
    arguments = {"mcp-server-git": ("--repository", str(ROOT))}
    for package, version in PYPI.items():
        if (venv / package).exists():
            found.append(Server(package, version, (str(venv / package), *arguments.get(package, ()))))
    npm_arguments = {"@modelcontextprotocol/server-filesystem": (str(ROOT / "docs"),),
                     "@modelcontextprotocol/server-everything": ("stdio",)}
    for package, version in NPM.items():
        entry = modules / package / "dist" / "index.js"
        if entry.exists() and shutil.which("node"):
            found.append(Server(package, version, ("node", str(entry), *npm_arguments.get(package, ()))))
    return found


def extract(server: Server, out: Path) -> bool:
    """``pas extract mcp --out OUT -- COMMAND``; whether a manifest was written."""
    from conformance.cli.main import main

    out.mkdir(parents=True, exist_ok=True)
    code = main(["extract", "mcp", "-q", "--out", str(out), "--timeout", "120", "--", *server.command])
    return code in (0, 1) and any(out.glob("*.yaml"))


def figures(folder: Path, *, declarations: bool) -> dict:
    """The budget of one folder of manifests with the default mix and default prices."""
    import yaml

    from conformance.tools.budget.cache import ALL_AWAKE, APPENDED, REFERENCE, STABLE, Prices
    from conformance.tools.budget.measure import measure_budget
    from conformance.tools.budget.tokenizer import load_tokenizer

    budget = measure_budget(plugins=folder, tokenizer=load_tokenizer(), declarations=declarations, prices=Prices())
    view = budget.cache
    assert budget.ok and view is not None, budget.problems
    runs = len(budget.runs)
    methods = sum(len(yaml.safe_load(path.read_text(encoding="utf-8")).get("methods") or [])
                  for path in folder.glob("*.yaml"))
    per_thousand = 1000 / runs
    return {"methods": methods, "awake": budget.runs[0].all_awake.tokens,
            "catalogue": budget.runs[0].ceiling.tokens, "scheduled": budget.total("scheduled").tokens / runs,
            "saving": budget.saving, "tokenizer": budget.tokenizer.label,
            "cost": {side: view.cost(side) * per_thousand for side in (ALL_AWAKE, REFERENCE, STABLE, APPENDED)},
            "cached": {side: view.cached_share(side) for side in (ALL_AWAKE, REFERENCE, STABLE, APPENDED)}}


def nekro_builtins() -> Path | None:
    """NekroAgent's ``plugins/builtin`` folder in the venv bench/nekro_runstart.py finds, or None."""
    sys.path.insert(0, str(ROOT / "bench"))
    from nekro_runstart import nekro_python

    python = nekro_python()
    if not python.is_file():
        return None
    found = subprocess.run([str(python), "-c", "import plugins.builtin as b; print(list(b.__path__)[0])"],
                           capture_output=True, text=True)
    return Path(found.stdout.strip()) if found.returncode == 0 else None


def _row(label: str, f: dict) -> str:
    from conformance.tools.budget.cache import ALL_AWAKE, APPENDED, REFERENCE, STABLE

    cost = f["cost"]
    best = min(cost[REFERENCE], cost[STABLE], cost[APPENDED])
    return (f"| {label} | {f['methods']} | {f['awake']} | {f['catalogue']} | {f['scheduled']:.0f} | {f['saving']:.1%} "
            f"| ${cost[ALL_AWAKE]:.2f} | ${cost[REFERENCE]:.2f} | ${cost[STABLE]:.2f} "
            f"| ${cost[APPENDED]:.2f} | {1 - best / cost[ALL_AWAKE]:.1%} |")


HEADER = ("| set | tools | all awake, tokens/run | catalogue alone | scheduled, mean/run | saving (no cache) "
          "| cost all awake | ACT-ORDER-1 | changing last | appended | saving with cache |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def main() -> int:
    """Install (unless told not to), extract, measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-install", action="store_true", help="measure what is installed already")
    args = parser.parse_args()
    cache = cache_folder()
    if not args.no_install:
        install(cache)
    found = servers(cache)
    manifests = cache / "manifests"
    shutil.rmtree(manifests, ignore_errors=True)
    rows = []
    for server in found:
        folder = manifests / server.package.rsplit("/", 1)[-1]
        if not extract(server, folder):
            print(f"skipped {server.package}: extraction failed", file=sys.stderr)
            continue
        for path in folder.glob("*.yaml"):
            (manifests / "all").mkdir(parents=True, exist_ok=True)
            shutil.copy(path, manifests / "all" / path.name)
        rows.append(_row(f"{server.package} {server.version}", figures(folder, declarations=True)))
    if (manifests / "all").is_dir():
        rows.append(_row(f"all {len(rows)} servers together", figures(manifests / "all", declarations=True)))
    from conformance.cli.main import main as pas

    pas(["extract", "skills", "-q", str(SKILLS), "--out", str(manifests / "skills")])
    rows.append(_row("4 example skills (conformance/examples/skills)", figures(manifests / "skills", declarations=False)))
    builtin = nekro_builtins()
    if builtin is not None:
        pas(["extract", "nekro", "-q", str(builtin), "--out", str(manifests / "nekro")])
        rows.append(_row("NekroAgent 2.4.0 built-in plugins (static injections counted)",
                         figures(manifests / "nekro", declarations=False)))
    shown = str(cache).replace(str(Path.home()), "~", 1)
    print(f"Servers installed in `{shown}`; tokens: cl100k_base; costs in US dollars per 1,000 runs of the mix "
          "(default prices: input 3.00, cache write 3.75, cache read 0.30 per million tokens).\n")
    print(HEADER)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
