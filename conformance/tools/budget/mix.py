"""The default script of ``pas budget`` for a plugin set, and the script's names checked against the set.

A fixed script written for one plugin set measures nothing on another: its ``activate``
calls name plugins that are not there, so the real sleepers never wake and the saving is
the ceiling in disguise. So, for a plugin folder given with ``--plugins`` and no
``--script``, the mix is built from the set itself: runs alternate between two
conversations, and each sleep-eligible plugin (under the host config) is activated once, in
turn, for ``ROUNDS`` runs, spaced ``SPACING`` runs apart; at least ``MIN_RUNS`` runs, and
enough for the last activation to run out. With no sleepable plugin the mix is plain runs
(and the saving is 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from reference_impl.eligibility import is_sleep_eligible
from reference_impl.events import Activate, Extend
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Problem, Severity, SourceLocation
from reference_impl.semantics import load_semantics

MIN_RUNS, SPACING, ROUNDS = 20, 3, 2  # an odd spacing alternates the activations' conversations
CONVERSATIONS = ("default", "team")
CONTROLLER = "plugin_activation"  # never sleeps, whatever its manifest says


def sleepers(manifests: Iterable[Manifest], host: HostConfig) -> list[str]:
    """The module names that can sleep under ``host`` (enabled, eligible), sorted."""
    enabled, semantics = set(host.enabled) - set(host.disabled), load_semantics()
    return sorted(m.module_name for m in manifests if m.module_name in enabled and m.module_name != CONTROLLER
                  and is_sleep_eligible(m, host.strategy_for(m.module_name), semantics))


def default_mix(manifests: Sequence[Manifest], host: HostConfig) -> str:
    """A ``pas simulate`` script in which every sleepable plugin of the set is activated once."""
    names = sleepers(manifests, host)
    runs = max(MIN_RUNS, SPACING * len(names) + 2 * ROUNDS + 2)
    lines = [f"# pas budget's default mix for this plugin set: {runs} runs in 2 conversations;",
             f"# each of the {len(names)} sleepable plugin(s) is activated once, for {ROUNDS} runs.",
             f"conversation {CONVERSATIONS[0]}"]
    due = {1 + SPACING * (i + 1): name for i, name in enumerate(names)}  # run index -> plugin to activate in it
    for index in range(1, runs + 1):
        conversation = CONVERSATIONS[index % 2 == 0]
        lines.append(f"run {conversation}" if conversation != CONVERSATIONS[0] else "run")
        if index in due:
            where = f" in {conversation}" if conversation != CONVERSATIONS[0] else ""
            lines.append(f"activate {due[index]} {ROUNDS}{where}")
    return "\n".join(lines) + "\n"


def unknown_names(commands: Iterable, manifests: Iterable[Manifest], script_name: str) -> list[Problem]:
    """A warning for each ``activate``/``extend`` that names a plugin not in the set (it only gets not_found)."""
    known = {m.module_name for m in manifests}
    problems = []
    for command in commands:
        event = command.event
        if isinstance(event, (Activate, Extend)) and event.module_name not in known:
            problems.append(Problem(
                code="unknown-plugin", severity=Severity.WARNING,
                source=SourceLocation(path=script_name, line=command.line, column=command.column),
                message=f"'{event.module_name}' is not in the plugin set: this call only returns not_found and wakes "
                        "nothing, so the saving is overstated; name a plugin of the set, or leave out --script "
                        "for a mix built from the set"))
    return problems
