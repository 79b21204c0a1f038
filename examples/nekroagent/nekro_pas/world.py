"""One scenario in NekroAgent: its plugins, its config, and every PAS event as NekroAgent's own code.

The scheduler's controller is NekroAgent's real ``plugin_activation`` plugin
(``plugins/builtin/plugin_activation.py``), reloaded from its module for every scenario and
restart: a scenario's ``plugin_activation`` manifest is never used to build it (where the two
differ, README.md's "Adapter limits" says so). NekroAgent always loads that built-in; a
catalogue that leaves it out keeps it loaded, enabled unless the scheduler is switched off,
and out of the plugins passed to the renderer (see README.md, "In-memory stand-ins").
Every other plugin is a real ``NekroPlugin`` built from its manifest, with stub methods and
a stub prompt injection.
"""

from __future__ import annotations

import json
import re
from typing import Any

from nekro_pas import standins
from nekro_pas.loading import NK, run
from nekro_pas.observe import UnknownReply, classify

CONTROLLER = "plugin_activation"
METHODS = {"activate": "activate_plugin", "extend": "extend_plugin_activation"}
# What Python's int() says when it cannot convert a value (prompt_activation.py: normalize_rounds).
INT_FAILURE = re.compile(r"int\(\) argument must be|invalid literal for int\(\)")


class Unexpressible(Exception):
    """NekroAgent cannot take this step: answered with an error response (the scenario is errored)."""


def _method_stub(name: str, description: str):
    async def method(_ctx: Any, *args: Any, **kwargs: Any) -> None:
        return None

    method.__name__ = method.__qualname__ = name
    method.__doc__ = description  # what NekroAgent shows the model under the method's name
    return method


def _injection_stub(module_name: str):
    async def inject(_ctx: Any) -> str:
        return f"[prompt injected by {module_name}]"

    return inject


class World:
    """One scenario: manifests, host config, and the NekroAgent objects built from them."""

    def __init__(self, manifests: list, host: dict) -> None:
        self.manifests = {m["module_name"]: m for m in manifests}
        self.order = [m["module_name"] for m in manifests]
        standins.DB.clear()
        strategies = dict(host.get("strategies") or {})
        # The config file NekroAgent would load at start: validated by its own CoreConfig model.
        cfg = NK["core_config"].CoreConfig.model_validate(
            {"PLUGIN_ENABLED": [self.key_of(m) for m in self._enabled_modules(host)],
             "PLUGIN_ACTIVATION_STRATEGIES": strategies})
        standins.fake_save_config(cfg)
        self.build()

    def _enabled_modules(self, host: dict) -> list:
        disabled = set(host.get("disabled") or [])
        listed = list(host.get("enabled") or [])
        mods = [m for m in self.order if self.manifests[m].get("builtin")] + [m for m in listed if m in self.manifests]
        mods = [m for i, m in enumerate(mods) if m not in mods[:i] and m not in disabled]
        scheduler_on = host.get("scheduler_enabled", True) and CONTROLLER not in disabled
        if scheduler_on and CONTROLLER not in mods:
            mods.append(CONTROLLER)  # the only switch NekroAgent has: the controller enabled or not
        if not scheduler_on and CONTROLLER in mods:
            mods.remove(CONTROLLER)
        return mods

    def key_of(self, module_name: str) -> str:
        """NekroAgent's plugin key, ``author.module_name``."""
        return f"{self.author_of(module_name)}.{module_name}"

    def author_of(self, module_name: str) -> str:
        """KroMiose (NekroAgent's author) for built-ins and the controller, else pas."""
        return "KroMiose" if module_name == CONTROLLER or self.manifests.get(module_name, {}).get("builtin") else "pas"

    def build(self) -> None:
        """(Re)build every NekroAgent object from the manifests and the saved config."""
        core = NK["core_config"].config
        for key in standins.CONFIG_KEYS:
            setattr(core, key, json.loads(json.dumps(standins.DB.saved_config[key])))
        self.controller = NK["importlib"].reload(NK["controller"])
        NK["controller"] = self.controller
        collector = NK["collector"]
        collector.loaded_plugins.clear()
        self.plugins = {m: self.controller.plugin if m == CONTROLLER else self._make_plugin(self.manifests[m])
                        for m in self.order}
        self.plugins.setdefault(CONTROLLER, self.controller.plugin)
        for plugin in self.plugins.values():
            # The collector's load step (collector.py: _load_plugin_module): a key not in PLUGIN_ENABLED starts disabled.
            if plugin.key not in core.PLUGIN_ENABLED:
                plugin._is_enabled = False
            collector.loaded_plugins[plugin.key] = plugin
            NK["observer"].watch_injection(plugin)

    def _make_plugin(self, m: dict):
        kwargs = dict(name=m["name"], module_name=m["module_name"], description=m.get("description", ""),
                      version=m.get("version", "0.0.0"), author=self.author_of(m["module_name"]),
                      url="https://example.invalid/pas", support_adapter=list(m.get("support_adapter") or []),
                      is_builtin=bool(m.get("builtin", False)), sleep_brief=m.get("sleep_brief") or "")
        if "allow_sleep" in m:
            kwargs["allow_sleep"] = m["allow_sleep"]
        plugin = NK["NekroPlugin"](**kwargs)
        for method in m.get("methods") or []:
            plugin.mount_sandbox_method(NK["SandboxMethodType"](method.get("kind", "tool")), name=method["name"],
                                        description=method.get("description", ""))(
                _method_stub(method["name"], method.get("description", "")))
        if m.get("injects_prompt"):
            plugin.mount_prompt_inject_method(f"{m['module_name']}_prompt")(_injection_stub(m["module_name"]))
        return plugin

    # -- what run_agent does at the start of a run (services/agent/run_agent.py) --------------

    def ctx(self, conversation: str, adapter: str | None):
        """The chat's AgentCtx (stand-in for the chat-channel lookup): its key and its adapter."""
        return NK["AgentCtx"](from_chat_key=conversation, adapter_key=adapter)

    def rendered_plugins(self) -> list:
        """``plugin_collector.get_all_active_plugins()``, minus a controller the catalogue leaves out."""
        return [p for p in NK["collector"].get_all_active_plugins() if p.module_name in self.manifests]

    def activation_enabled(self) -> bool:
        """run_agent: scheduling is on when the plugin_activation plugin exists and is enabled."""
        controller = NK["collector"].get_plugin_by_module_name(CONTROLLER)
        return bool(controller and controller.is_enabled)

    def run(self, req: dict) -> dict:
        """A run: NekroAgent renders the plugin prompt; the views are read off its render units."""
        observer = NK["observer"]
        observer.reset()
        rendered = run(NK["tpl"].render_plugins_prompt(self.rendered_plugins(),
                                                       self.ctx(req["conversation"], req.get("adapter")),
                                                       activation_enabled=self.activation_enabled()))
        views = [run(observer.view(unit)) for unit in list(observer.units)]
        text = rendered.system_prompt
        if rendered.runtime_prompt.strip():
            text = text + "\n\n" + rendered.runtime_prompt
        return {"plugins": views, "text": text}

    # -- the model's calls, through the sandbox proxy and the RPC handler ---------------------

    def call(self, req: dict, which: str) -> dict:
        """The model calls activate_plugin / extend_plugin_activation from its sandbox code."""
        name, ctx = METHODS[which], self.ctx(req["conversation"], req.get("adapter"))
        offered = {m.func.__name__ for m in run(NK["collector"].get_all_sandbox_methods(ctx))}
        if name not in offered:
            raise Unexpressible(f"{name} is not defined in the sandbox: NekroAgent offers the methods of enabled plugins "
                                "only (services/sandbox/ext_caller.py: get_api_caller_code, collector.py: "
                                "get_all_sandbox_methods), and plugin_activation is disabled")
        standins.CHAT.ctx = ctx
        NK["observer"].reset()
        kwargs = {"rounds": req["rounds"]} if "rounds" in req else {}
        done = NK["sandbox"].call(ctx.chat_key, name, (req["module_name"],), kwargs)
        observation = {"module_name": req["module_name"], "rounds": None, "ends_step": done.exit_code is not None,
                       "block": None}
        if done.error is not None:
            if not INT_FAILURE.search(done.error):
                raise Unexpressible(f"NekroAgent's {name} failed: {done.error[:300]}")
            # The method raised in int() before storing anything; the proxy printed the error and ended the run.
            return {"outcome": "invalid_argument", **observation, "text": "\n".join(done.printed)}
        reply = done.returned if done.exit_code is None else done.result
        try:
            outcome, rounds = classify(reply)
        except UnknownReply as unknown:
            raise Unexpressible(str(unknown)) from None
        units = NK["observer"].units
        block = run(NK["observer"].view(units[-1])) if outcome == "activated" and units else None
        return {"outcome": outcome, **observation, "rounds": rounds, "block": block, "text": reply}

    # -- the admin's actions ---------------------------------------------------------------------

    def set_strategy(self, req: dict) -> dict:
        """The admin API handler (routers/plugins.py), behind its role decorator."""
        routes = NK["routes"]
        handler = getattr(routes.update_plugin_activation_strategy_handler, "__wrapped__",
                          routes.update_plugin_activation_strategy_handler)
        plugin = NK["collector"].get_plugin_by_module_name(req["module_name"])
        plugin_id = plugin.key if plugin else req["module_name"]
        try:
            body = routes.PluginActivationStrategyRequest.model_validate({"strategy": req["strategy"]})  # FastAPI's body check
            run(handler(plugin_id=plugin_id, body=body, _current_user=None))
        except Exception as error:  # noqa: BLE001 - ValidationError / 422 = the admin API refused
            reason = getattr(error, "reason", None) or getattr(error, "detail", None) or str(error)
            return {"outcome": "rejected", "reason": f"{type(error).__name__}: {reason}"[:500]}
        return {"outcome": "applied"}

    def toggle(self, module_name: str, enable: bool) -> dict:
        """services/plugin/manager.py: enable_plugin / disable_plugin."""
        plugin = NK["collector"].get_plugin_by_module_name(module_name)
        if plugin is None:
            return {"outcome": "rejected", "reason": f"plugin {module_name!r} is not loaded"}
        manager = NK["manager"]
        ok = run(manager.enable_plugin(plugin.key) if enable else manager.disable_plugin(plugin.key))
        return {"outcome": "applied"} if ok else {"outcome": "rejected", "reason": "the admin API refused"}

    def restart(self) -> dict:
        """The database rows and the saved config are kept; every NekroAgent object is rebuilt."""
        self.build()
        return {"outcome": "applied"}
