#!/usr/bin/env python3
"""A PAS stdio adapter (protocol v1, docs/protocol.md) that drives NekroAgent 2.4.0's REAL code.

Run it with the Python of a venv where ``nekro-agent==2.4.0`` is installed
(scripts/install-nekroagent.sh), never with PAS's own venv:

    pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/nekroagent-venv/bin/python examples/nekroagent/adapter.py"

Standard library only on our side (json, sys, ...): it imports no PAS package. Everything
that decides what the model sees is NekroAgent's own code:

* plugins are real ``NekroPlugin`` objects built from the scenario's manifests, with their
  methods mounted through ``NekroPlugin.mount_sandbox_method`` (the method name is the
  function's ``__name__``, its description the docstring, which is what NekroAgent renders)
  and a prompt injection through ``mount_prompt_inject_method`` when ``injects_prompt``;
* a run is ``nekro_agent.services.agent.templates.plugin.render_plugins_prompt`` (which
  calls ``prompt_activation.build_prompt_disclosure_view``: eligibility, countdown, cleanup,
  order, the Jinja template ``j2/plugin.j2``);
* ``activate`` / ``extend`` call the functions ``activate_plugin`` /
  ``extend_plugin_activation`` of the real built-in plugin ``plugins/builtin/plugin_activation.py``;
* ``set-strategy`` calls the admin API handler ``routers/plugins.py:
  update_plugin_activation_strategy_handler`` (behind its role decorator);
  ``enable`` / ``disable`` / ``set-scheduler`` call ``services/plugin/manager.py:
  enable_plugin`` / ``disable_plugin``.

Only infrastructure is replaced, by in-memory stand-ins patched in at the narrowest point
(see README.md for the table): the ORM model ``DBPluginData`` as seen by
``prompt_activation``, ``ConfigService.save_config`` (the config file), the plugin
collector's loading (we fill ``plugin_collector.loaded_plugins`` ourselves), the agent loop
(the two lines of ``run_agent`` that pick the plugins and the activation switch), the
adapter/chat lookup (an ``AgentCtx`` with ``from_chat_key`` and ``adapter_key``) and the
router's side effects (route mounting, command notifications).

Observations are *read off* what NekroAgent produced: the render units it passed to its
template (state, rounds_left, activation hint, brief, method prompt), which prompt-injection
stubs it called, and which sentence its methods returned. Nothing is re-decided here.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import traceback

PROTOCOL_VERSION = 1
PROFILES = ["activation", "text"]  # not host: NekroAgent has no dependency/config-layer model to drive

# --- stdout hygiene: protocol on a private copy of fd 1; anything NekroAgent prints goes to stderr.
_PROTO_OUT = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr


def log(*parts: object) -> None:
    print("[nekro-adapter]", *parts, file=sys.stderr, flush=True)


# --- NekroAgent is imported from a scratch directory: it writes ./data and ./plugins there,
# and loads its Jinja templates from the relative path nekro_agent/services/agent/templates/j2.
SCRATCH = tempfile.mkdtemp(prefix="pas-nekro-")
os.chdir(SCRATCH)
os.environ.setdefault("NEKRO_LOG_LEVEL", "WARNING")  # harmless if ignored


def _link_templates() -> None:
    import importlib.util

    spec = importlib.util.find_spec("nekro_agent")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("nekro_agent is not installed in this Python")
    pkg_dir = list(spec.submodule_search_locations)[0]
    rel = os.path.join("nekro_agent", "services", "agent", "templates", "j2")
    os.makedirs(os.path.dirname(os.path.join(SCRATCH, rel)), exist_ok=True)
    if not os.path.exists(os.path.join(SCRATCH, rel)):
        os.symlink(os.path.join(pkg_dir, "services", "agent", "templates", "j2"), os.path.join(SCRATCH, rel))


NK: dict = {}  # the NekroAgent modules, filled by the background import
_IMPORT_DONE = threading.Event()
_IMPORT_ERROR: list = []


def _import_nekro() -> None:
    try:
        _link_templates()
        import asyncio
        import importlib

        core_config = importlib.import_module("nekro_agent.core.config")
        import plugins.builtin.plugin_activation as controller
        from nekro_agent.routers import plugins as plugin_routes
        from nekro_agent.schemas.agent_ctx import AgentCtx
        from nekro_agent.services.agent.templates import plugin as tpl
        from nekro_agent.services.config_service import ConfigService
        from nekro_agent.services.plugin import manager, prompt_activation
        from nekro_agent.services.plugin.base import NekroPlugin
        from nekro_agent.services.plugin.collector import plugin_collector
        from nekro_agent.services.plugin.schema import SandboxMethodType

        NK.update(asyncio=asyncio, importlib=importlib, core_config=core_config, AgentCtx=AgentCtx, tpl=tpl,
                  ConfigService=ConfigService, manager=manager, pa=prompt_activation, NekroPlugin=NekroPlugin,
                  collector=plugin_collector, SandboxMethodType=SandboxMethodType, routes=plugin_routes,
                  controller=controller, loop=asyncio.new_event_loop())
        _install_stand_ins()
    except BaseException as error:  # noqa: BLE001 - reported on the first start
        _IMPORT_ERROR.append(f"importing NekroAgent failed: {error!r}\n{traceback.format_exc()}")
    finally:
        _IMPORT_DONE.set()


# ----------------------------------------------------------------------------- stand-ins

class MemoryDB:
    """What survives a restart: the plugin-data table rows and the saved config file."""

    def __init__(self) -> None:
        self.rows: list[dict] = []  # DBPluginData rows
        self.saved_config: dict = {}  # the config keys NekroAgent writes with save_config
        self.next_id = 1


DB = MemoryDB()


class _Query:
    def __init__(self, filters: dict) -> None:
        self.filters = filters

    def _matches(self) -> list[dict]:
        return [r for r in DB.rows if all(r.get(k) == v for k, v in self.filters.items())]

    async def first(self):
        rows = self._matches()
        return _Record(rows[0]) if rows else None

    async def update(self, **values) -> int:
        rows = self._matches()
        for r in rows:
            r.update(values)
        return len(rows)


class _Record:
    def __init__(self, row: dict) -> None:
        self.__dict__.update(row)


class FakeDBPluginData:
    """In-memory stand-in for the Tortoise model nekro_agent.models.db_plugin_data:DBPluginData."""

    @staticmethod
    def filter(**filters) -> _Query:
        return _Query(filters)

    @staticmethod
    async def create(**values):
        row = dict(values, id=DB.next_id)
        DB.next_id += 1
        DB.rows.append(row)
        return _Record(row)


CONFIG_KEYS = ("PLUGIN_ENABLED", "PLUGIN_ACTIVATION_STRATEGIES")


def _fake_save_config(config_obj, file_path=None):
    """Stand-in for ConfigService.save_config: the 'file' is DB.saved_config."""
    for key in CONFIG_KEYS:
        value = getattr(config_obj, key)
        DB.saved_config[key] = list(value) if isinstance(value, list) else dict(value)
    return True, None


def _install_stand_ins() -> None:
    NK["pa"].DBPluginData = FakeDBPluginData
    NK["ConfigService"].save_config = staticmethod(_fake_save_config)

    # Router-side effects of enable/disable (route mounting, command notifications) are web-app plumbing.
    async def _no_notify(*_args, **_kwargs):
        return None

    if hasattr(NK["manager"], "_notify_commands_changed_after_plugin_toggle"):
        NK["manager"]._notify_commands_changed_after_plugin_toggle = _no_notify

    # Spy (not replace) on the template call, to read the render units NekroAgent produced.
    original = NK["tpl"]._render_plugin_prompt

    async def spy(unit):
        OBSERVED["units"].append(unit)
        return await original(unit)

    NK["tpl"]._render_plugin_prompt = spy


OBSERVED: dict = {"units": [], "injected": []}


# ----------------------------------------------------------------------------- the world

class World:
    """One scenario: manifests, host config, and the NekroAgent objects built from them."""

    def __init__(self, manifests: list, host: dict) -> None:
        self.manifests = {m["module_name"]: m for m in manifests}
        self.order = [m["module_name"] for m in manifests]
        self.host = host
        DB.rows.clear()
        DB.saved_config.clear()
        DB.next_id = 1
        enabled = self._enabled_modules(host)
        strategies = dict(host.get("strategies") or {})
        # The config file NekroAgent would load at start: validated by its own CoreConfig model.
        cfg = NK["core_config"].CoreConfig.model_validate(
            {"PLUGIN_ENABLED": [self.key_of(m) for m in enabled], "PLUGIN_ACTIVATION_STRATEGIES": strategies})
        _fake_save_config(cfg)
        self.build()

    def _enabled_modules(self, host: dict) -> list:
        disabled = set(host.get("disabled") or [])
        listed = list(host.get("enabled") or [])
        mods = [m for m in self.order if self.manifests[m].get("builtin")] + [m for m in listed if m in self.manifests]
        mods = [m for i, m in enumerate(mods) if m not in mods[:i] and m not in disabled]
        ctl = "plugin_activation"
        sched_on = host.get("scheduler_enabled", True) and ctl not in disabled
        if sched_on and ctl not in mods:
            mods.append(ctl)
        if not sched_on and ctl in mods:
            mods.remove(ctl)
        return mods

    def key_of(self, module_name: str) -> str:
        if module_name == "plugin_activation" and module_name not in self.manifests:
            return "KroMiose.plugin_activation"
        return f"{self.author_of(module_name)}.{module_name}"

    def author_of(self, module_name: str) -> str:
        m = self.manifests.get(module_name, {})
        return "KroMiose" if m.get("builtin") or module_name == "plugin_activation" else "pas"

    def build(self) -> None:
        """(Re)build every NekroAgent object from the manifests and the saved config."""
        core = NK["core_config"].config
        for key in CONFIG_KEYS:
            setattr(core, key, json.loads(json.dumps(DB.saved_config[key])))
        NK["controller"] = NK["importlib"].reload(NK["controller"])
        self.controller = NK["controller"]
        collector = NK["collector"]
        collector.loaded_plugins.clear()
        self.plugins = {}
        for module_name in self.order:
            plugin = self._make_plugin(self.manifests[module_name])
            self.plugins[module_name] = plugin
        if "plugin_activation" not in self.plugins:
            # NekroAgent always loads its built-in controller; PAS scenarios that leave it out of
            # the catalogue do not show it, so it is registered but not rendered (see run()).
            self.plugins["plugin_activation"] = self.controller.plugin
        for plugin in self.plugins.values():
            # The collector's load step: a plugin whose key is not in PLUGIN_ENABLED starts disabled.
            if plugin.key not in core.PLUGIN_ENABLED:
                plugin._is_enabled = False
            collector.loaded_plugins[plugin.key] = plugin

    def _make_plugin(self, m: dict):
        NekroPlugin, SMT = NK["NekroPlugin"], NK["SandboxMethodType"]
        kwargs = dict(name=m["name"], module_name=m["module_name"], description=m.get("description", ""),
                      version=m.get("version", "0.0.0"), author=self.author_of(m["module_name"]),
                      url="https://example.invalid/pas", support_adapter=list(m.get("support_adapter") or []),
                      is_builtin=bool(m.get("builtin", False)), sleep_brief=m.get("sleep_brief") or "")
        if "allow_sleep" in m:
            kwargs["allow_sleep"] = m["allow_sleep"]
        plugin = NekroPlugin(**kwargs)
        for method in m.get("methods") or []:
            func = _method_stub(method["name"], method.get("description", ""))
            plugin.mount_sandbox_method(SMT(method.get("kind", "tool")), name=method["name"],
                                        description=method.get("description", ""))(func)
        if m.get("injects_prompt"):
            module_name = m["module_name"]

            async def inject(_ctx, _m=module_name):
                OBSERVED["injected"].append(_m)
                return f"[prompt injected by {_m}]"

            plugin.mount_prompt_inject_method(f"{module_name}_prompt")(inject)
        return plugin

    # -- events -------------------------------------------------------------------------

    def ctx(self, conversation: str, adapter):
        return NK["AgentCtx"](from_chat_key=conversation, adapter_key=adapter)

    def rendered_plugins(self) -> list:
        """run_agent: plugin_collector.get_all_active_plugins(), minus an unlisted controller."""
        plugins = NK["collector"].get_all_active_plugins()
        return [p for p in plugins if p.module_name in self.manifests]

    def activation_enabled(self) -> bool:
        # run_agent.py lines 73-74: the controller plugin exists and is enabled.
        ctl = NK["collector"].get_plugin_by_module_name("plugin_activation")
        return bool(ctl and ctl.is_enabled)

    def run(self, req: dict) -> dict:
        OBSERVED["units"].clear()
        OBSERVED["injected"].clear()
        rendered = _await(NK["tpl"].render_plugins_prompt(self.rendered_plugins(), self.ctx(req["conversation"], req.get("adapter")),
                                                          activation_enabled=self.activation_enabled()))
        injected = set(OBSERVED["injected"])
        views = [_view(u, u.module_name in injected) for u in OBSERVED["units"]]
        text = rendered.system_prompt
        if rendered.runtime_prompt.strip():
            text = text + "\n\n" + rendered.runtime_prompt
        return {"plugins": views, "text": text}

    def call(self, req: dict, which: str) -> dict:
        if not self.activation_enabled():
            raise Unexpressible(f"{which}: NekroAgent does not offer the disabled plugin_activation plugin's "
                                "methods to the model, so the call cannot be made")
        func = getattr(self.controller, "activate_plugin" if which == "activate" else "extend_plugin_activation")
        method = next(m for m in self.controller.plugin.sandbox_methods if m.func.__name__ == func.__name__)
        ends_step = method.method_type in (NK["SandboxMethodType"].AGENT, NK["SandboxMethodType"].MULTIMODAL_AGENT)
        args = {"rounds": req["rounds"]} if "rounds" in req else {}
        OBSERVED["units"].clear()
        OBSERVED["injected"].clear()
        try:
            reply = _await(func(self.ctx(req["conversation"], req.get("adapter")), req["module_name"], **args))
        except Exception as error:  # noqa: BLE001 - NekroAgent raised: the model would see an exception
            raise Unexpressible(f"NekroAgent's {func.__name__} raised {type(error).__name__}: {error}") from None
        outcome, rounds = _classify(reply)
        block = None
        if outcome == "activated" and OBSERVED["units"]:
            block = _view(OBSERVED["units"][-1], req["module_name"] in OBSERVED["injected"])
        return {"outcome": outcome, "module_name": req["module_name"], "rounds": rounds, "ends_step": ends_step,
                "block": block, "text": reply}

    def set_strategy(self, req: dict) -> dict:
        routes = NK["routes"]
        handler = getattr(routes.update_plugin_activation_strategy_handler, "__wrapped__",
                          routes.update_plugin_activation_strategy_handler)
        plugin = NK["collector"].get_plugin_by_module_name(req["module_name"])
        plugin_id = plugin.key if plugin else req["module_name"]
        try:
            body = routes.PluginActivationStrategyRequest.model_validate({"strategy": req["strategy"]})  # FastAPI's body check
            _await(handler(plugin_id=plugin_id, body=body, _current_user=None))
        except Exception as error:  # noqa: BLE001 - ValidationError / 422 = the admin API refused
            return {"outcome": "rejected", "reason": _reason(error)}
        return {"outcome": "applied"}

    def toggle(self, module_name: str, enable: bool) -> dict:
        plugin = NK["collector"].get_plugin_by_module_name(module_name)
        if plugin is None:
            return {"outcome": "rejected", "reason": f"plugin {module_name!r} is not loaded"}
        manager = NK["manager"]
        ok = _await(manager.enable_plugin(plugin.key) if enable else manager.disable_plugin(plugin.key))
        return {"outcome": "applied"} if ok else {"outcome": "rejected", "reason": "the admin API refused"}

    def restart(self) -> dict:
        self.build()  # DB (rows, saved config) kept; every NekroAgent object rebuilt
        return {"outcome": "applied"}


class Unexpressible(Exception):
    """NekroAgent cannot express this step (or raised): answered with an error response."""


def _method_stub(name: str, description: str):
    async def method(_ctx, *args, **kwargs):
        return None

    method.__name__ = name
    method.__qualname__ = name
    method.__doc__ = description
    return method


def _await(coro):
    return NK["loop"].run_until_complete(coro)


def _view(unit, injection_called: bool) -> dict:
    state = unit.state
    return {
        "module_name": unit.module_name,
        "state": state,
        "rounds_left": unit.rounds_left if state == "active" else None,
        # the template prints the hint only for state active, rounds_left 1 and a non-empty hint
        "hint": bool(state == "active" and unit.rounds_left == 1 and unit.activation_hint),
        "brief_shown": bool(state == "sleeping" and unit.plugin_brief),
        "methods_shown": state != "sleeping",
        "injection_called": injection_called,
    }


def _classify(reply: str):
    """Which of its replies NekroAgent returned (the sentence is its only result)."""
    import re

    if " is always visible and does not need" in reply:
        return "always_awake", None
    if reply.endswith(" is missing or disabled."):
        return "not_found", None
    found = re.search(r" is already active with (-?\d+) runs remaining\.", reply)
    if found:
        return "already_active", int(found.group(1))
    found = re.search(r" is now activated for the next (-?\d+) runs\.", reply)
    if found:
        return "activated", int(found.group(1))
    found = re.search(r" visibility extended\. (-?\d+) runs remain\.$", reply)
    if found:
        return "extended", int(found.group(1))
    raise Unexpressible(f"unrecognised reply from NekroAgent: {reply[:200]!r}")


def _reason(error: Exception) -> str:
    reason = getattr(error, "reason", None) or getattr(error, "detail", None) or str(error)
    return f"{type(error).__name__}: {reason}"[:500]


# ----------------------------------------------------------------------------- protocol loop

COMMANDS = {"hello", "start", "run", "activate", "extend", "set-strategy", "enable", "disable",
            "set-scheduler", "restart", "bye"}


class Session:
    def __init__(self) -> None:
        self.greeted = False
        self.world: World | None = None
        self.done = False

    def answer(self, line: bytes) -> dict:
        try:
            doc = json.loads(line.decode("utf-8"), parse_constant=_no_constants)
        except ValueError as error:
            return _error(None, "invalid-json", f"request is not JSON: {error}")
        rid = doc.get("id") if isinstance(doc, dict) else None
        rid = rid if type(rid) is int and rid > 0 else None
        if not isinstance(doc, dict) or rid is None:
            return _error(rid, "invalid-request", "a request must be a JSON object with a positive integer id")
        cmd = doc.get("cmd")
        if cmd not in COMMANDS:
            return _error(rid, "unknown-command", f"unknown command {cmd!r}; this implementation speaks "
                          + ", ".join(sorted(COMMANDS)))
        try:
            return {"id": rid, "ok": True, "result": self.dispatch(cmd, doc)}
        except Unexpressible as error:
            return _error(rid, "internal-error", str(error))
        except Exception as error:  # noqa: BLE001 - NekroAgent's own exception becomes an error response, not a dead adapter
            log(traceback.format_exc())
            return _error(rid, "internal-error", repr(error)[:500])

    def dispatch(self, cmd: str, req: dict) -> dict:
        if cmd == "bye":
            self.done = True
            return {}
        if cmd == "hello":
            if req.get("protocol_version") != PROTOCOL_VERSION:
                raise Unexpressible(f"this adapter speaks protocol version {PROTOCOL_VERSION}")
            self.greeted = True
            return {"name": "nekro-agent (PAS adapter)", "version": _nekro_version(), "language": "python",
                    "profiles": PROFILES, "protocol_version": PROTOCOL_VERSION}
        if not self.greeted:
            raise Unexpressible("send 'hello' first")
        if cmd == "start":
            _IMPORT_DONE.wait()
            if _IMPORT_ERROR:
                raise Unexpressible(_IMPORT_ERROR[0])
            self.world = World(req["plugins"], req.get("host") or {})
            return {}
        if self.world is None:
            raise Unexpressible(f"send 'start' before {cmd!r}")
        w = self.world
        if cmd == "run":
            return w.run(req)
        if cmd in ("activate", "extend"):
            return w.call(req, cmd)
        if cmd == "set-strategy":
            return w.set_strategy(req)
        if cmd == "enable":
            return w.toggle(req["module_name"], True)
        if cmd == "disable":
            return w.toggle(req["module_name"], False)
        if cmd == "set-scheduler":
            return w.toggle("plugin_activation", bool(req["enabled"]))
        if cmd == "restart":
            return w.restart()
        raise Unexpressible(f"{cmd!r} is not supported")


def _no_constants(name: str):
    raise ValueError(f"{name} is not strict JSON")


def _nekro_version() -> str:
    try:
        from importlib.metadata import version

        return version("nekro-agent")
    except Exception:  # noqa: BLE001 - the version is informational
        return "unknown"


def _error(rid, code: str, message: str) -> dict:
    return {"id": rid, "ok": False, "error": {"message": message, "code": code}}


def main() -> int:
    threading.Thread(target=_import_nekro, name="import-nekro", daemon=True).start()
    session = Session()
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        response = session.answer(line.rstrip(b"\r\n"))
        _PROTO_OUT.write(json.dumps(response, ensure_ascii=False, allow_nan=False) + "\n")
        _PROTO_OUT.flush()
        if session.done:
            break
    _PROTO_OUT.flush()
    import shutil

    os.chdir(tempfile.gettempdir())
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os._exit(0)  # skip NekroAgent's atexit/shutdown machinery


if __name__ == "__main__":
    sys.exit(main())
