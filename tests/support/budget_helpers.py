"""Small plugin sets written into a temporary folder for the budget tests."""

from __future__ import annotations

import json
from pathlib import Path

METHOD_TEXT = "Does one precise thing with the arguments given and returns a structured, detailed result."


def manifest(module: str, *, sleeps: bool | None, methods: int = 4, builtin: bool = False) -> dict:
    """A valid manifest; ``sleeps`` is its allow_sleep (None: unset), and it always has a brief."""
    doc = {
        "name": module.title(), "module_name": module, "version": "1.0.0", "description": f"The {module} plugin.",
        "builtin": builtin, "sleep_brief": f"{module.title()} tools. Activate when the user needs {module}.",
        "methods": [{"name": f"{module}_{i}", "kind": "tool", "description": METHOD_TEXT,
                     "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}
                    for i in range(methods)],
    }
    if sleeps is not None:
        doc["allow_sleep"] = sleeps
    return doc


def write_set(folder: Path, docs: list[dict], *, host: dict | None = None) -> tuple[Path, Path | None]:
    """Write manifests (as JSON) and an optional host config; return (plugins folder, host path)."""
    plugins = folder / "plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        (plugins / f"{doc['module_name']}.json").write_text(json.dumps(doc), encoding="utf-8")
    if host is None:
        return plugins, None
    host_path = folder / "host.json"
    host_path.write_text(json.dumps({"kind": "host-config", **host}), encoding="utf-8")
    return plugins, host_path


def sleeper_set(folder: Path, *, scheduler: bool = True) -> tuple[Path, Path]:
    """Two protected plugins and four sleepers with big full blocks; every plugin enabled."""
    docs = [manifest("core", sleeps=False, builtin=True), manifest("plugin_activation", sleeps=False, builtin=True)]
    docs += [manifest(name, sleeps=True, methods=6) for name in ("alpha", "beta", "gamma", "delta")]
    host = {"enabled": ["alpha", "beta", "gamma", "delta"], "scheduler_enabled": scheduler}
    plugins, host_path = write_set(folder, docs, host=host)
    return plugins, host_path
