"""A small model of the PAS activation rules, written from design.md for the property tests.

It deliberately shares no code with reference_impl.scheduler, eligibility, catalogue or
semantics: only the value types (Manifest, HostConfig, OMITTED). Observations are the JSON
forms of the reference's RunObservation / CallObservation / AdminObservation, without text.
"""

from __future__ import annotations

import math
from typing import Any

from reference_impl.events import OMITTED
from reference_impl.model import HostConfig, Manifest

DEFAULT_ROUNDS, MAX_ROUNDS, SCHEDULER = 3, 20, "plugin_activation"
STRATEGIES = ("auto", "allow_sleep", "forbid_sleep")


def model_rounds(value: Any) -> int | None:
    """Clamped rounds, or None for a non-integer (design.md: 'a non-integer is invalid_argument')."""
    if value is OMITTED or value is None:
        return DEFAULT_ROUNDS
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return min(max(value, 1), MAX_ROUNDS)


def _view(name: str, state: str, rounds: int | None = None, injects: bool = False) -> dict[str, Any]:
    sleeping = state == "sleeping"
    return {"module_name": name, "state": state, "rounds_left": rounds, "hint": rounds == 1, "brief_shown": sleeping,
            "methods_shown": not sleeping, "injection_called": injects and not sleeping}


class ActivationModel:
    """Host settings plus per-conversation counters; each method returns one observation."""

    def __init__(self, manifests: list[Manifest], host: HostConfig) -> None:
        self.plugins = {m.module_name: m for m in manifests}
        self.enabled, self.disabled = list(host.enabled), set(host.disabled)
        self.strategy = {k: str(v) for k, v in host.strategies.items() if v != "auto"}
        self.scheduler = host.scheduler_enabled
        self.counters: dict[str, dict[str, int]] = {}

    def sleepable(self, m: Manifest) -> bool:
        has_brief = m.sleep_brief.strip() != ""
        wanted = self.strategy.get(m.module_name, "auto")
        if m.module_name == SCHEDULER or m.allow_sleep is False or wanted == "forbid_sleep":
            return False  # ACT-ELIG-8: the scheduler itself never sleeps
        return has_brief and (wanted == "allow_sleep" or m.allow_sleep is True)

    def visible(self, name: str, adapter: str | None) -> bool:
        m = self.plugins.get(name)
        if m is None or name in self.disabled or not (m.builtin or name in self.enabled):
            return False
        return adapter is None or not m.support_adapter or adapter in m.support_adapter

    def scheduling(self) -> bool:
        return self.scheduler and SCHEDULER not in self.disabled

    def run(self, conversation: str, adapter: str | None) -> dict[str, Any]:
        stored, kept, views = self.counters.get(conversation, {}), {}, []
        for name in (n for n in self.plugins if self.visible(n, adapter)):
            m = self.plugins[name]
            if not (self.scheduling() and self.sleepable(m)):
                views.append(_view(name, "always_awake", None, m.injects_prompt))
            elif stored.get(name, 0) > 0:
                views.append(_view(name, "active", stored[name], m.injects_prompt))
                if stored[name] > 1:
                    kept[name] = stored[name] - 1
            else:
                views.append(_view(name, "sleeping"))
        if self.scheduling():
            self.counters[conversation] = kept
        views.sort(key=lambda v: (v["state"] != "always_awake", v["module_name"]))
        return {"plugins": views}

    def call(self, method: str, conversation: str, name: str, rounds: Any, adapter: str | None) -> dict[str, Any]:
        reply = {"outcome": "", "module_name": name, "rounds": None, "ends_step": method == "activate", "block": None}
        n = model_rounds(rounds)
        mine = self.counters.setdefault(conversation, {})
        if n is None:
            return {**reply, "outcome": "invalid_argument"}
        if not self.visible(name, adapter):
            return {**reply, "outcome": "not_found"}
        if not (self.scheduling() and self.sleepable(self.plugins[name])):
            return {**reply, "outcome": "always_awake"}
        if method == "extend":
            mine[name] = min(mine.get(name, 0) + n, MAX_ROUNDS)
            return {**reply, "outcome": "extended", "rounds": mine[name]}
        if mine.get(name, 0) > 0:
            return {**reply, "outcome": "already_active", "rounds": mine[name]}
        mine[name] = n
        block = _view(name, "active", n, self.plugins[name].injects_prompt)
        return {**reply, "outcome": "activated", "rounds": n, "block": block}

    def admin(self, cmd: str, name: str | None = None, value: Any = None) -> str:
        """Apply an admin event; return 'applied' or 'rejected'."""
        if cmd != "set-scheduler" and name not in self.plugins:  # ACT-ADMIN-4
            return "rejected"
        if cmd == "set-strategy":
            if not isinstance(value, str) or value not in STRATEGIES:
                return "rejected"
            self.strategy.pop(name, None)
            if value != "auto":
                self.strategy[name] = value
        elif cmd == "set-scheduler":
            self.scheduler = value
        elif cmd == "enable":
            self.disabled.discard(name)
            if not self.plugins[name].builtin and name not in self.enabled:
                self.enabled.append(name)
        elif cmd == "disable":
            self.disabled.add(name)
        return "applied"

    def stored(self) -> dict[str, dict[str, int]]:
        """Every positive counter, by conversation."""
        return {c: {m: r for m, r in v.items() if r > 0} for c, v in self.counters.items() if any(v.values())}
