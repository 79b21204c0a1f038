"""Importing NekroAgent (2.3.0 to 2.4.0) in a scratch folder and putting the stand-ins in.

The five releases with activation scheduling keep the same module paths for everything the
adapter uses; what differs between them is behaviour (read, never re-implemented) and two
names that only 2.4.0 has (``_notify_commands_changed_after_plugin_toggle``, the
``call_priority`` module), which nothing here needs. A release whose module paths moved
would be handled here, in ``MODULES``, by trying each known path in turn.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import threading
import traceback
from pathlib import Path

from nekro_pas import scratch, standins
from nekro_pas.observe import Observer
from nekro_pas.sandbox import Sandbox

NK: dict = {}  # the NekroAgent modules and objects, filled by import_nekro
IMPORT_DONE = threading.Event()
IMPORT_ERROR: list[str] = []

# key -> the module paths to try, in order (all five releases have the first).
MODULES = {
    "core_config": ("nekro_agent.core.config",),
    "controller": ("plugins.builtin.plugin_activation",),
    "routes": ("nekro_agent.routers.plugins",),
    "rpc": ("nekro_agent.routers.rpc",),
    "agent_ctx": ("nekro_agent.schemas.agent_ctx",),
    "tpl": ("nekro_agent.services.agent.templates.plugin",),
    "tpl_base": ("nekro_agent.services.agent.templates.base",),
    "ConfigServiceModule": ("nekro_agent.services.config_service",),
    "manager": ("nekro_agent.services.plugin.manager",),
    "pa": ("nekro_agent.services.plugin.prompt_activation",),
    "base": ("nekro_agent.services.plugin.base",),
    "collector_module": ("nekro_agent.services.plugin.collector",),
    "schema": ("nekro_agent.services.plugin.schema",),
    "ext_caller": ("nekro_agent.services.sandbox.ext_caller",),
}


def _module(paths: tuple[str, ...]):
    """The first of ``paths`` that imports; raises the last ImportError when none does."""
    error: ImportError | None = None
    for path in paths:
        try:
            return importlib.import_module(path)
        except ImportError as failed:
            error = failed
    raise error or ImportError(paths)


def package_dir() -> Path:
    """Where the installed ``nekro_agent`` package is; raises RuntimeError when it is not installed."""
    spec = importlib.util.find_spec("nekro_agent")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("nekro_agent is not installed in this Python")
    return Path(list(spec.submodule_search_locations)[0])


def _load() -> None:
    found = {key: _module(paths) for key, paths in MODULES.items()}
    NK.update(found)
    NK.update(asyncio=asyncio, importlib=importlib, AgentCtx=found["agent_ctx"].AgentCtx,
              ConfigService=found["ConfigServiceModule"].ConfigService, NekroPlugin=found["base"].NekroPlugin,
              collector=found["collector_module"].plugin_collector, SandboxMethodType=found["schema"].SandboxMethodType,
              loop=asyncio.new_event_loop(), package=package_dir())
    # templates/base.py loads templates from a path relative to the working directory
    # ("nekro_agent/services/agent/templates/j2"): the same folder, by its absolute path.
    jinja2 = importlib.import_module("jinja2")
    NK["tpl_base"].env.loader = jinja2.FileSystemLoader(str(NK["package"] / "services" / "agent" / "templates" / "j2"))
    standins.install(NK)
    observer = Observer()
    observer.spy_on_template(NK["tpl"])
    NK.update(observer=observer, sandbox=Sandbox(NK, run))


def import_nekro() -> None:
    """Import NekroAgent in a scratch folder (removed afterwards); a failure is kept in IMPORT_ERROR."""
    folder = None
    try:
        folder = scratch.enter()
        os.environ.setdefault("NEKRO_LOG_LEVEL", "WARNING")  # harmless if ignored
        _load()
    except BaseException as error:  # noqa: BLE001 - reported on the first start
        IMPORT_ERROR.append(f"importing NekroAgent failed: {error!r}\n{traceback.format_exc()}")
    finally:
        if folder is not None:
            scratch.remove(folder)
        IMPORT_DONE.set()


def run(coroutine):
    """Run one of NekroAgent's coroutines to completion on the adapter's event loop."""
    return NK["loop"].run_until_complete(coroutine)


def version() -> str:
    """The installed nekro-agent version (informational)."""
    try:
        from importlib.metadata import version as installed

        return installed("nekro-agent")
    except Exception:  # noqa: BLE001 - the version is informational
        return "unknown"
