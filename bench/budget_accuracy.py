#!/usr/bin/env python3
"""``pas budget`` against the plugin prompt NekroAgent 2.4.0 really sends in a default chat.

Side by side, in one run, on NekroAgent's own built-in plugins (``plugins/builtin`` of the
installed ``nekro-agent``), every one enabled, in a default chat: a group chat on the
``onebot_v11`` adapter (the one NekroAgent's set-up guide uses), default plugin configs, no
plugin activated yet:

1. **NekroAgent**: the plugins are imported in the NekroAgent venv and rendered by its own
   ``templates/plugin.py:render_plugins_prompt``, as ``run_agent`` calls it at the start of a
   run, with the chat's **method filters** (each plugin's ``mount_collect_methods`` function,
   run for this chat) and its **prompt injections** on. The prompt sent is the plugin blocks
   (the system prompt's plugin section) plus the runtime-context blocks of the injections.
   Twice: scheduling on (NekroAgent's default: sleep-eligible plugins sleep) and off (every
   plugin always awake, the size ``pas budget`` calls *all awake*).
2. **PAS**: ``pas extract nekro`` reads the same sources statically and ``pas budget``
   measures one run both ways (its *ceiling* run, nothing activated, and its *all awake* run).

**Excluded**: a prompt injection that needs a live database (it raises here, where there is
none; its text is the chat's stored data anyway) is left out of NekroAgent's prompt, as
``pas budget`` leaves every injection out; a method filter that raises for the same reason is
not applied, so that plugin counts every mounted method on both sides. The script names them. Both texts are counted with one tokenizer (cl100k_base when installed,
else the estimate, said in the output). The difference is split into what explains it: the
methods NekroAgent's filters hide in this chat (``pas budget`` counts every mounted method:
the manifest cannot know the chat), the runtime context built at run time (``pas budget``
leaves it out; an injection that returns a string literal is counted on both sides), PAS's XML escaping (TXT-BLOCK-2), and the rest.

NekroAgent is found as bench/nekro_runstart.py finds it (``$PAS_NEKRO_PYTHON``, else
``${PAS_NEKRO_VENV:-~/.cache/pas/nekroagent-venv}/bin/python``); without it the script says so and exits 0.

    python bench/budget_accuracy.py

``--dump`` is the NekroAgent side: run with NekroAgent's Python, it prints one JSON object
(standard library on our side, and the adapter's in-memory plugin-data table from
examples/nekroagent/nekro_pas; it imports nothing from PAS).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = "onebot_v11"
CHAT = "onebot_v11-group_10000"  # a group chat: NekroAgent's chat keys are <adapter>-<group|private>_<id>
TIMEOUT = 10.0  # seconds an injection may take before it is excluded (it waits for a service)


def nekro_python() -> str | None:
    """The Python of the NekroAgent venv if nekro_agent imports there, else None."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from nekro_runstart import nekro_python as located

    path = located()
    if path.is_file() and subprocess.run(
            [str(path), "-c", "import importlib.util,sys; sys.exit(importlib.util.find_spec('nekro_agent') is None)"],
            capture_output=True, timeout=60).returncode == 0:
        return str(path)
    return None


# ------------------------------------------------------------------ the NekroAgent side (--dump)

def _load_builtins() -> tuple[Path, list, dict]:
    """Import every built-in plugin module; (folder, plugins, modules that failed to import)."""
    import importlib
    import pkgutil

    import plugins.builtin as builtin

    folder = Path(list(builtin.__path__)[0])
    loaded, failed = [], {}
    for info in sorted(pkgutil.iter_modules([str(folder)]), key=lambda i: i.name):
        try:
            module = importlib.import_module(f"plugins.builtin.{info.name}")
        except Exception as error:  # noqa: BLE001 - a plugin whose dependencies are missing here
            failed[info.name] = repr(error)
            continue
        loaded += [v for v in vars(module).values() if type(v).__name__ == "NekroPlugin"][:1]
    return folder, loaded, failed


async def _static(plugin, ctx) -> dict:
    """What the plugin mounts and its whole method list, filter off (tests/conformance/tools/extract compare it)."""
    plugin_filter, plugin._collect_methods_func = plugin._collect_methods_func, None
    methods = await plugin.render_sandbox_methods_prompt(ctx)
    plugin._collect_methods_func = plugin_filter
    return {"mounted": [m.func.__name__ for m in plugin.sandbox_methods],
            "shown": {m.func.__name__: m.func.__doc__.strip() for m in plugin.sandbox_methods if m.func.__doc__},
            "kinds": {m.func.__name__: str(getattr(m.method_type, "value", m.method_type)) for m in plugin.sandbox_methods},
            "method_prompt": methods}


async def _probe(plugin, ctx) -> dict:
    """Run the plugin's filter and injection for the chat; exclude (and say why) whatever raises."""
    import asyncio

    found: dict = {"mounted": [m.func.__name__ for m in plugin.sandbox_methods]}
    if plugin._collect_methods_func:
        try:
            found["shown"] = [m.func.__name__ for m in await plugin.collect_available_methods(ctx)]
        except Exception as error:  # noqa: BLE001 - needs a service that is not here: excluded
            found["filter_excluded"] = type(error).__name__
            plugin._collect_methods_func = None
        filtered, plugin_filter = await plugin.render_sandbox_methods_prompt(ctx), plugin._collect_methods_func
        plugin._collect_methods_func = None
        every = await plugin.render_sandbox_methods_prompt(ctx)
        plugin._collect_methods_func = plugin_filter
        found["hidden_text"] = _hidden(every, filtered)
    if plugin.prompt_inject_method:
        try:
            found["injected"] = await asyncio.wait_for(plugin.render_inject_prompt(ctx), TIMEOUT)
        except Exception as error:  # noqa: BLE001 - a database or service it needs is not here: excluded
            found["injection_excluded"] = type(error).__name__
            plugin.prompt_inject_method = None
    return found


def _hidden(every: str, filtered: str) -> str:
    """The method entries the filter removed: the lines of ``every`` that ``filtered`` lacks."""
    kept = filtered.splitlines()
    return "\n".join(line for line in every.splitlines() if line not in kept or kept.remove(line))


def _dump() -> dict:
    """Import every built-in plugin in a scratch folder and render a default chat's prompt with NekroAgent's code."""
    import asyncio
    import logging
    import os
    import shutil

    scratch = tempfile.mkdtemp(prefix="pas-nekro-bench-")
    try:
        os.chdir(scratch)  # NekroAgent writes ./data and ./plugins, and reads its templates relative to the cwd
        logging.disable(logging.CRITICAL)
        sys.path.insert(0, str(ROOT / "examples" / "nekroagent"))
        from nekro_pas.loading import package_dir
        from nekro_pas.standins import FakeDBPluginData

        link = Path(scratch, "nekro_agent/services/agent/templates/j2")
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(package_dir() / "services/agent/templates/j2")
        folder, loaded, failed = _load_builtins()
        from nekro_agent.schemas.agent_ctx import AgentCtx
        from nekro_agent.services.agent.templates import plugin as template
        from nekro_agent.services.plugin import prompt_activation

        prompt_activation.DBPluginData = FakeDBPluginData  # no activation stored yet: the chat's first run
        ctx = AgentCtx(from_chat_key=CHAT, adapter_key=ADAPTER)
        loop = asyncio.new_event_loop()
        chat = [p for p in loaded if not p.support_adapter or ADAPTER in p.support_adapter]
        every = {p.module_name: loop.run_until_complete(_static(p, ctx)) for p in loaded}
        probes = {p.module_name: loop.run_until_complete(_probe(p, ctx)) for p in chat}
        sent = {mode: loop.run_until_complete(template.render_plugins_prompt(chat, ctx, activation_enabled=on))
                for mode, on in (("scheduled", True), ("all_awake", False))}
        return {"folder": str(folder), "failed": failed, "plugins": every, "chat": probes,
                "sent": {mode: {"system": r.system_prompt, "runtime": r.runtime_prompt} for mode, r in sent.items()}}
    finally:
        os.chdir(tempfile.gettempdir())
        shutil.rmtree(scratch, ignore_errors=True)


def nekro_rendering(python: str) -> dict:
    """Run ``--dump`` with NekroAgent's Python; raises RuntimeError with its stderr when it fails."""
    done = subprocess.run([python, str(Path(__file__).resolve()), "--dump"], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"the NekroAgent side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


# ------------------------------------------------------------------ the PAS side

def pas_sizes(folder: str, modules: list[str]) -> dict:
    """Extract ``folder`` with pas extract nekro; pas budget's one-run sizes and the all-awake text."""
    sys.path.insert(0, str(ROOT))
    from conformance.tools.budget.measure import measure_budget
    from conformance.tools.extract.manifests import plan_outputs, write_outputs
    from conformance.tools.extract.nekro import extract
    from conformance.tools.extract.sources import plugin_files, read_sources
    from conformance.tools.simulate.simulation import simulate

    files, _ = plugin_files([folder])
    sources, _ = read_sources(files)
    plugins, _ = extract(sources)
    outputs, _ = plan_outputs(plugins)
    with tempfile.TemporaryDirectory(prefix="pas-bench-manifests-") as work:
        out = Path(work, "manifests")
        write_outputs([o for o in outputs if o.module_name in modules], out)
        host = Path(work, "host.yaml")
        host.write_text("kind: host-config\nenabled: [" + ", ".join(modules) + "]\n")
        budget = measure_budget("run\n", plugins=out, host=host)
        off = Path(work, "off.yaml")
        off.write_text(host.read_text() + "scheduler_enabled: false\n")
        plan = simulate("run", plugins=out, host=off, text=True)
    if not plan.steps or not budget.runs:
        raise RuntimeError("pas could not run the extracted set: " + "; ".join(str(p) for p in plan.problems))
    run = budget.runs[0]
    return {"all_awake": run.all_awake.tokens, "scheduled": run.ceiling.tokens, "all_awake_text": plan.steps[0].observation.text or ""}


# ------------------------------------------------------------------ the comparison

def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def _percent(ours: int, theirs: int) -> str:
    return f"{ours / theirs - 1:+.2%}" if theirs else "n/a"


def report(nekro: dict, pas: dict, count, label: str, venv: str) -> list[str]:
    """The printed comparison, line by line."""
    probes, sent = nekro["chat"], nekro["sent"]
    size = {mode: count(s["system"] + ("\n\n" + s["runtime"] if s["runtime"].strip() else "")) for mode, s in sent.items()}
    runtime = {mode: size[mode] - count(s["system"]) for mode, s in sent.items()}
    filtered = {m: p for m, p in probes.items() if "shown" in p}
    hidden = sum(count(p["hidden_text"]) for p in filtered.values())
    blocks = re.sub(r"\n*<plugin_runtime_context [^>]*>.*?</plugin_runtime_context>", "", pas["all_awake_text"], flags=re.S)
    escaping = count(blocks) - count(_unescape(blocks))
    static = pas["all_awake"] - count(blocks)  # injections whose text is a literal: pas budget counts them too
    dynamic = runtime["all_awake"] - static
    excluded = {f"{m} {k.split('_')[0]}": p[k] for m, p in probes.items()
                for k in ("injection_excluded", "filter_excluded") if k in p}
    lines = [f"NekroAgent {venv}: {len(probes)} built-in plugins, every one enabled, in a default chat ({CHAT}: a group "
             f"chat on {ADAPTER}, default plugin configs, nothing activated); could not import: {sorted(nekro['failed']) or 'none'}",
             f"tokenizer: {label}",
             "method filters run for this chat (mount_collect_methods): " + ", ".join(
                 f"{m} {len(p['shown'])} of {len(p['mounted'])}" for m, p in sorted(filtered.items())),
             "prompt injections called: " + ", ".join(sorted(m for m, p in probes.items() if "injected" in p)),
             "excluded (they need a live database and raise here; ConfigurationError is Tortoise ORM's 'no database "
             "connection'): injections left out, filters not applied: " + (", ".join(f"{m} ({why})" for m, why in sorted(excluded.items())) or "none"),
             f"{'':44}NekroAgent sends   pas budget   difference"]
    for mode, title, ours in (("all_awake", "all awake (scheduling off)", pas["all_awake"]),
                              ("scheduled", "scheduled, first run (nothing active)", pas["scheduled"])):
        lines.append(f"{title:44}{size[mode]:>8} tokens  {ours:>7} tokens  {_percent(ours, size[mode])}")
    lines += [f"NekroAgent's own sleep saving in this chat: {1 - size['scheduled'] / size['all_awake']:.1%}; "
              f"pas budget's (its ceiling run): {1 - pas['scheduled'] / pas['all_awake']:.1%}",
              "where the all-awake difference comes from:",
              f"  methods NekroAgent's filters hide in this chat (pas budget counts them): {hidden:+d} tokens",
              f"  runtime context NekroAgent sends and builds at run time (pas budget leaves it out): {-dynamic:+d} tokens "
              f"(of its {runtime['all_awake']}, the {static} of static text are counted on both sides)",
              f"  XML escaping of < > & \" in PAS's text (TXT-BLOCK-2):                    {escaping:+d} tokens",
              f"  the rest (block and method-list framing):                                "
              f"{pas['all_awake'] - size['all_awake'] - hidden + dynamic - escaping:+d} tokens"]
    return lines


def main() -> int:
    """Print the side-by-side figures; exit 0 (also when NekroAgent is not installed)."""
    if "--dump" in sys.argv:
        print(json.dumps(_dump(), ensure_ascii=False))
        return 0
    python = nekro_python()
    if python is None:
        print("budget_accuracy: skipped: nekro-agent is not importable from $PAS_NEKRO_PYTHON or the venv "
              "scripts/install-nekroagent.sh makes (${PAS_NEKRO_VENV:-~/.cache/pas/nekroagent-venv})")
        return 0
    sys.path.insert(0, str(ROOT))
    from conformance.tools.budget.tokenizer import load_tokenizer

    nekro = nekro_rendering(python)
    tokenizer = load_tokenizer()
    pas = pas_sizes(nekro["folder"], sorted(nekro["chat"]))
    print("\n".join(report(nekro, pas, tokenizer.count, tokenizer.label, str(Path(python).parent.parent))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
