"""Hypothesis strategies for fuzz cases, built on the tables of :mod:`conformance.fuzz.generate`.

Two ways to draw the same things. :func:`seeded_cases` draws cases the way ``pas fuzz``
makes them (``pas fuzz`` itself never calls Hypothesis: its search seeds ``random.Random``
directly): Hypothesis draws a seed and a length, and ``random.Random(seed)`` picks every row
(one Hypothesis draw per table row would cost far more than running the step). The other
strategies (:func:`cases`, :func:`worlds`, :func:`events` ...) draw each row through
Hypothesis (``sampled_from`` the same tables), so that Hypothesis can shrink them row by
row: the state machine of :mod:`conformance.fuzz.stateful` uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from conformance.fuzz import generate
from conformance.fuzz.case import Case
from conformance.fuzz.generate import (
    ALLOW_SLEEP,
    BRIEFS,
    CONVERSATION_CHOICES,
    FLAG_ROWS,
    MAX_STEPS,
    NAME_SETS,
    NAMES,
    ROUNDS,
    ROUNDS_ARGUMENTS,
    STRATEGY_VALUES,
    UNKNOWN,
    manifest,
    scheduler_manifest,
)
from reference_impl.events import Event
from reference_impl.model import HostConfig, Manifest

__all__ = [
    "ALLOW_SLEEP", "BRIEFS", "FLAG_ROWS", "MAX_STEPS", "NAMES", "NAME_SETS", "ROUNDS", "STRATEGY_VALUES",
    "UNKNOWN", "cases", "conversations", "events", "host_configs", "manifest", "plugin_sets", "rounds_arguments",
    "scheduler_manifest", "seeded_cases", "strategy_values", "targets", "worlds",
]

_SAMPLED: dict[int, tuple[Sequence[Any], st.SearchStrategy[Any]]] = {}


def _sampled(options: Sequence[Any]) -> st.SearchStrategy[Any]:
    # Keyed by identity (the tables are module constants or cached): hashing a table per draw costs.
    entry = _SAMPLED.get(id(options))
    if entry is None or entry[0] is not options:
        entry = _SAMPLED[id(options)] = (options, st.sampled_from(options))
    return entry[1]


def _chooser(draw: Any) -> generate.Choose:
    return lambda options: draw(_sampled(options))


#: A conversation for a run or call, mostly ``main``.
conversations = _sampled(CONVERSATION_CHOICES)
#: The ``rounds`` argument of a call, every JSON type and edge value.
rounds_arguments = _sampled(ROUNDS_ARGUMENTS)
#: The value an admin sets a strategy to: valid, unknown, non-string.
strategy_values = _sampled(STRATEGY_VALUES)


def targets(names: tuple[str, ...], *, admin: bool = False) -> st.SearchStrategy[str]:
    """The module_name of a call (any string) or, with ``admin``, of an admin step, over plugins ``names``."""
    table = generate.targets(names)
    return _sampled(table.admin if admin else table.calls)


@st.composite
def plugin_sets(draw: Any, max_plugins: int = len(NAMES)) -> tuple[Manifest, ...]:
    """Plugin sets covering every eligibility combination (see :func:`generate.build_plugins`)."""
    return generate.build_plugins(_chooser(draw), max_plugins)


@st.composite
def host_configs(draw: Any, plugins: tuple[Manifest, ...]) -> HostConfig:
    """Host configs over ``plugins`` (see :func:`generate.build_host`)."""
    return generate.build_host(_chooser(draw), plugins)


@st.composite
def events(draw: Any, names: tuple[str, ...]) -> Event:
    """One step over plugins called ``names`` (see :func:`generate.build_event`)."""
    return generate.build_event(_chooser(draw), names)


@st.composite
def worlds(draw: Any, max_plugins: int = len(NAMES)) -> tuple[tuple[Manifest, ...], HostConfig]:
    """Installed plugins and a host config over them."""
    choose = _chooser(draw)
    plugins = generate.build_plugins(choose, max_plugins)
    return plugins, generate.build_host(choose, plugins)


@st.composite
def cases(draw: Any, max_steps: int = MAX_STEPS, max_plugins: int = len(NAMES)) -> Case:
    """A whole case drawn row by row through Hypothesis: a world, then one to ``max_steps`` events."""
    steps = draw(st.integers(min_value=1, max_value=max_steps))
    return generate.build_case(_chooser(draw), steps, max_plugins)


def seeded_cases(max_steps: int = MAX_STEPS, max_plugins: int = len(NAMES)) -> st.SearchStrategy[Case]:
    """Whole cases from two Hypothesis draws: a seed for ``random.Random`` and a length (1 to ``max_steps``)."""
    return st.builds(generate.generate_case, st.integers(min_value=0, max_value=2**64 - 1),
                     st.integers(min_value=1, max_value=max_steps), st.just(max_plugins))
