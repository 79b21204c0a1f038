"""Reading observations off what NekroAgent did: the units it rendered, the injections it called, its replies.

Nothing here applies a PAS rule. A plugin view is built from one render unit NekroAgent passed
to its template, and each of its flags is what the template printed for that unit: the
brief, the last-run hint and the method list are each shown exactly when NekroAgent's own
macro (``templates/j2/plugin.j2``) prints them, found by rendering the unit again with that
one value replaced by a marker and looking for the marker. ``injection_called`` is whether
the plugin's prompt-injection function (a stub's, or the real controller's) was called.
A call's outcome is read from the sentence NekroAgent returned.
"""

from __future__ import annotations

import re
from typing import Any

MARK = "\u0000pas-shown\u0000"
SHOWN_FIELDS = {"brief_shown": "plugin_brief", "hint": "activation_hint", "methods_shown": "plugin_method_prompt"}


class Observer:
    """What NekroAgent produced since the last ``reset``: render units, injection calls."""

    def __init__(self) -> None:
        self.units: list[Any] = []
        self.injected: set[str] = set()
        self.original: Any = None  # NekroAgent's own templates.plugin._render_plugin_prompt

    def reset(self) -> None:
        """Forget the previous step's observations."""
        self.units.clear()
        self.injected.clear()

    def spy_on_template(self, tpl: Any) -> None:
        """Record every unit NekroAgent renders, then render it with its own function (nothing replaced)."""
        original = tpl._render_plugin_prompt
        self.original = original
        observer = self

        async def spy(unit: Any) -> str:
            observer.units.append(unit)
            return await original(unit)

        tpl._render_plugin_prompt = spy

    def watch_injection(self, plugin: Any) -> None:
        """Wrap the plugin's prompt-injection function so that a call is recorded (and still made)."""
        method = getattr(plugin, "prompt_inject_method", None)
        if method is None or getattr(method.func, "_pas_watched", False):
            return
        inner, module_name, observer = method.func, plugin.module_name, self

        async def watched(ctx: Any) -> str:
            observer.injected.add(module_name)
            return await inner(ctx)

        watched._pas_watched = True  # type: ignore[attr-defined]
        method.func = watched

    async def _printed(self, unit: Any, field: str) -> bool:
        """Whether NekroAgent's template prints ``field`` of ``unit`` (rendered once more with a marker)."""
        if not getattr(unit, field):
            return False
        return MARK in await self.original(unit.model_copy(update={field: MARK}))

    async def view(self, unit: Any) -> dict:
        """The PAS plugin view of one render unit, every flag read from NekroAgent's rendering."""
        view = {"module_name": unit.module_name, "state": unit.state,
                "rounds_left": unit.rounds_left if unit.state == "active" else None}
        for key, field in SHOWN_FIELDS.items():
            view[key] = await self._printed(unit, field)
        view["injection_called"] = unit.module_name in self.injected
        return {k: view[k] for k in ("module_name", "state", "rounds_left", "hint", "brief_shown", "methods_shown",
                                     "injection_called")}


# NekroAgent's reply sentences (plugins/builtin/plugin_activation.py), 2.3.0 to 2.4.0, by outcome.
_REPLIES = (
    (re.compile(r" is always visible and does not need (activation|to be extended)\. "), "always_awake"),
    (re.compile(r" is missing or disabled\.$"), "not_found"),  # 2.3.1+
    (re.compile(r" is missing, disabled, or not managed by activation scheduling\.$"), "not_found"),  # 2.3.0
    (re.compile(r" is already active with (-?\d+) runs remaining\."), "already_active"),
    (re.compile(r" is now activated for the next (-?\d+) runs\."), "activated"),
    (re.compile(r" visibility extended\. (-?\d+) runs remain\.$"), "extended"),
)


class UnknownReply(Exception):
    """NekroAgent replied with a sentence the adapter does not know."""


def classify(reply: Any) -> tuple[str, int | None]:
    """(outcome, rounds) of one of NekroAgent's reply sentences; raises UnknownReply for anything else.

    2.3.0 answers one sentence, "missing, disabled, or not managed by activation scheduling",
    for an unknown, a disabled and a not sleep-eligible plugin alike: it tells the model
    nothing about the plugin being visible, so it reads as ``not_found``.
    """
    text = reply if isinstance(reply, str) else ""
    for pattern, outcome in _REPLIES:
        found = pattern.search(text)
        if found:
            numbers = [g for g in found.groups() if g and g.lstrip("-").isdigit()]
            return outcome, int(numbers[0]) if numbers else None
    raise UnknownReply(f"unrecognised reply from NekroAgent: {str(reply)[:200]!r}")
