"""Hypothesis strategies for fuzz cases: plugin sets, host configs and step sequences.

Each draw picks from a small table of combinations (at most ~150 rows, where Hypothesis
still picks rows about evenly) instead of drawing every field on its own: a draw costs far
more than running a step, so fewer draws mean more steps per second. Values that matter
for bugs come more often (sleep-eligible plugins, the main conversation, runs and calls),
but every combination stays possible: allow_sleep true/null/false x brief non-blank/empty/
white space x built-in x injects x support_adapter; every strategy value, the scheduler on
and off; runs in four conversations (two of them on a chat adapter), calls with every edge
value of ``rounds``, strategy changes (one invalid), enable/disable (one unknown module),
the scheduler switch and restarts. Shrinking is the greedy pass of
:mod:`conformance.fuzz.minimise`, so table order is not a simplicity order.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Final

from hypothesis import strategies as st

from conformance.fuzz.case import CONVERSATIONS, MAIN, Case
from reference_impl.events import OMITTED, Activate, Disable, Enable, Event, Extend, Restart, SetScheduler, SetStrategy, StartRun
from reference_impl.model import HostConfig, Manifest, Method, MethodKind, Strategy

NAMES: Final = ("alpha", "beta", "gamma", "delta")
SCHEDULER: Final = "plugin_activation"
UNKNOWN: Final = "ghost"  # named in calls, enabled lists and admin steps, never installed
MAX_STEPS: Final = 30
#: The eligibility-relevant manifest fields; their product is every combination.
ALLOW_SLEEP: Final = (True, None, False)
BRIEFS: Final = ("Reads the weather. Activate for forecasts.", "", " \t\n")
SUPPORT_ADAPTER: Final = ((), ("onebot_v11",))
#: The rounds argument of activate/extend: omitted, null, clamped, bounds and invalid values.
ROUNDS: Final = (OMITTED, None, 0, -1, 1, 2, 3, 19, 20, 21, 2.5, "3", True)
#: Strategy values an admin sets at run time: the three valid ones and an unknown one.
STRATEGY_VALUES: Final = ("auto", "allow_sleep", "forbid_sleep", "sometimes")
HOST_STRATEGIES: Final = (None, Strategy.AUTO, Strategy.ALLOW_SLEEP, Strategy.FORBID_SLEEP)


@functools.cache
def manifest(name: str, *, allow_sleep: bool | None = True, brief: str = BRIEFS[0], builtin: bool = False,
             injects: bool = False, support_adapter: tuple[str, ...] = ()) -> Manifest:
    """A small plugin manifest with one tool method, the given eligibility fields and flags."""
    return Manifest(
        name=name.replace("_", " ").title(), module_name=name, version="1.0.0", description=f"The {name} test plugin.",
        methods=(Method(name=f"use_{name}", kind=MethodKind.TOOL, description=f"Use {name}."),),
        allow_sleep=allow_sleep, sleep_brief=brief, builtin=builtin, injects_prompt=injects,
        support_adapter=support_adapter,
    )


def scheduler_manifest() -> Manifest:
    """The built-in, protected ``plugin_activation`` plugin (disabling it switches the scheduler off)."""
    return manifest(SCHEDULER, allow_sleep=False, brief="", builtin=True)


def _table(*columns: tuple[Any, ...]) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.sampled_from(tuple(itertools.product(*columns)))


#: (allow_sleep, sleep_brief) rows, weighted by repetition: sleep-eligible values four times out of six.
ELIGIBILITY_ROWS: Final = tuple(itertools.product((True,) * 3 + ALLOW_SLEEP, BRIEFS[:1] * 3 + BRIEFS))
#: (builtin, injects_prompt, support_adapter) rows.
FLAG_ROWS: Final = tuple(itertools.product((False, True), (False, True), SUPPORT_ADAPTER[:1] + SUPPORT_ADAPTER))
_ELIGIBILITY = st.sampled_from(ELIGIBILITY_ROWS)
_FLAGS = st.sampled_from(FLAG_ROWS)
_SHAPE = _table(range(1, len(NAMES) + 1), (False, True))  # plugin count, plugin_activation installed
# Per plugin: (left out of enabled, disabled), mostly (False, False); then its strategy.
_PLACEMENT = _table(((False, False),) * 6 + ((True, False), (False, True)), HOST_STRATEGIES[:1] * 3 + HOST_STRATEGIES)
_GLOBAL = _table((False, True), (True,) * 5 + (False,))  # "ghost" enabled, scheduler_enabled
_CONVERSATION_CHOICES: Final = (MAIN, MAIN, MAIN, MAIN, "side", "qq", "dc")
#: A conversation for a run or call, mostly ``main``.
CONVERSATION_CHOICES = st.sampled_from(_CONVERSATION_CHOICES)
# The head of a step: (kind, conversation or switch). Runs and calls make three quarters of
# the steps: admin changes reshape the world, and too many leave no counter alive long enough
# to meet a bug.
_HEADS = st.sampled_from(
    tuple(("run", c) for c in _CONVERSATION_CHOICES) * 6
    + tuple(("activate", c) for c in _CONVERSATION_CHOICES) * 5
    + tuple(("extend", c) for c in _CONVERSATION_CHOICES) * 4
    + (("set_strategy", None),) * 8 + (("enable", None),) * 6 + (("disable", None),) * 6
    + (("set_scheduler", False),) * 4 + (("set_scheduler", True),) * 4 + (("restart", None),) * 7
)
# Every edge value once, the everyday ones again: most calls should leave a counter behind.
ROUNDS_ARGUMENTS = st.sampled_from((*ROUNDS, OMITTED, 1, 2, 3, 5, 1, 2, 20, 19))


@functools.cache
def targets(names: tuple[str, ...]) -> st.SearchStrategy[str]:
    """The module_name of a call or admin step: mostly an installed plugin, now and then ``ghost``."""
    return st.sampled_from((*names * 3, UNKNOWN))


@functools.cache
def _strategy_changes(names: tuple[str, ...]) -> st.SearchStrategy[tuple[str, str]]:
    return _table((*names * 2, UNKNOWN), STRATEGY_VALUES)


def draw_plugins(draw: Any, max_plugins: int = len(NAMES)) -> tuple[Manifest, ...]:
    """Draw one to ``max_plugins`` plugins named alpha, beta, ..., sometimes with ``plugin_activation``."""
    count, with_scheduler = draw(_SHAPE)
    plugins = []
    for name in NAMES[: min(count, max_plugins)]:
        (allow, brief), (builtin, injects, support) = draw(_ELIGIBILITY), draw(_FLAGS)
        plugins.append(manifest(name, allow_sleep=allow, brief=brief, builtin=builtin, injects=injects,
                                support_adapter=support))
    if with_scheduler:
        plugins.append(scheduler_manifest())
    return tuple(plugins)


def draw_host(draw: Any, plugins: tuple[Manifest, ...]) -> HostConfig:
    """Draw a host config over ``plugins``: now and then one left out of ``enabled`` or disabled, an
    unknown entry, each strategy value (or none) per plugin, the scheduler on or (less often) off."""
    enabled, disabled, strategies = [], set(), {}
    for plugin in plugins:
        (left_out, off), strategy = draw(_PLACEMENT)
        if not plugin.builtin and not left_out:
            enabled.append(plugin.module_name)
        if off:
            disabled.add(plugin.module_name)
        if strategy is not None:
            strategies[plugin.module_name] = strategy
    ghost, scheduler = draw(_GLOBAL)
    if ghost:
        enabled.append(UNKNOWN)
    return HostConfig(enabled=tuple(enabled), disabled=frozenset(disabled), strategies=strategies,
                      scheduler_enabled=scheduler)


def draw_event(draw: Any, names: tuple[str, ...]) -> Event:
    """Draw one step over plugins called ``names``: a run, a call, an admin change or a restart."""
    kind, detail = draw(_HEADS)
    if kind == "run":
        return StartRun(conversation=detail, adapter=CONVERSATIONS[detail])
    if kind in ("activate", "extend"):
        call = Activate if kind == "activate" else Extend
        return call(conversation=detail, module_name=draw(targets(names)), rounds=draw(ROUNDS_ARGUMENTS),
                    adapter=CONVERSATIONS[detail])
    if kind == "set_strategy":
        module_name, value = draw(_strategy_changes(names))
        return SetStrategy(module_name=module_name, strategy=value)
    if kind == "set_scheduler":
        return SetScheduler(enabled=detail)
    if kind == "restart":
        return Restart()
    return (Enable if kind == "enable" else Disable)(module_name=draw(targets(names)))


@st.composite
def plugin_sets(draw: Any, max_plugins: int = len(NAMES)) -> tuple[Manifest, ...]:
    """Plugin sets covering every eligibility combination (see :func:`draw_plugins`)."""
    return draw_plugins(draw, max_plugins)


@st.composite
def host_configs(draw: Any, plugins: tuple[Manifest, ...]) -> HostConfig:
    """Host configs over ``plugins`` (see :func:`draw_host`)."""
    return draw_host(draw, plugins)


@st.composite
def events(draw: Any, names: tuple[str, ...]) -> Event:
    """One step over plugins called ``names`` (see :func:`draw_event`)."""
    return draw_event(draw, names)


@st.composite
def worlds(draw: Any, max_plugins: int = len(NAMES)) -> tuple[tuple[Manifest, ...], HostConfig]:
    """Installed plugins and a host config over them."""
    plugins = draw_plugins(draw, max_plugins)
    return plugins, draw_host(draw, plugins)


@functools.cache
def _step_count(max_steps: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=1, max_value=max_steps)


@st.composite
def cases(draw: Any, max_steps: int = MAX_STEPS, max_plugins: int = len(NAMES)) -> Case:
    """A whole case: a world, then one to ``max_steps`` events (evenly many: long sequences find more)."""
    plugins = draw_plugins(draw, max_plugins)
    host = draw_host(draw, plugins)
    names = tuple(m.module_name for m in plugins)
    steps = [draw_event(draw, names) for _ in range(draw(_step_count(max_steps)))]
    return Case(plugins=plugins, host=host, events=tuple(steps))
