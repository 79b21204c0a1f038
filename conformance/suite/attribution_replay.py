"""What replaying a scenario on the reference up to a step tells attribution (:mod:`conformance.suite.attribution`).

The reference's host config before the step, its observation of the step, the layout pieces
of its text (:func:`reference_impl.render.run_pieces`, :func:`reference_impl.render.reply_pieces`:
a wrong text blames the rule of the piece that differs) and whether an earlier run had the
scheduler off while a counter was stale (ACT-SCHED-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.suite.scenario import Scenario, Step
from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.engine import Engine
from reference_impl.events import Activate, CallObservation, Extend, RunObservation, StartRun
from reference_impl.model import HostConfig
from reference_impl.render import Piece, reply_pieces, run_pieces
from reference_impl.scheduler import scheduler_on
from reference_impl.semantics import Semantics, load_semantics


@dataclass(frozen=True, slots=True)
class Replayed:
    """What replaying a scenario on the reference up to a step tells: see :func:`replay`."""

    host: HostConfig | None = None
    observed: Any = None
    pieces: tuple[Piece, ...] = ()
    stale_while_off: bool = False


def stale_while_off(catalogue: Catalogue, state: Any, event: StartRun, semantics: Semantics) -> bool:
    """Whether ``event`` is a run with the scheduler off while a counter of its conversation is stale
    (its plugin not available or not eligible by the table): what ACT-SCHED-2 forbids a run to drop."""
    host = state.host
    if scheduler_on(host, semantics):
        return False
    for module in state.counters_of(event.conversation):
        manifest = catalogue.find_available(module, host, event.adapter)
        if manifest is None or not is_sleep_eligible(manifest, host.strategy_for(module), semantics):
            return True
    return False


def replay(scenario: Scenario, step: Step) -> Replayed:
    """The reference's host config before ``step``, its observation of it, the pieces of its text, and
    whether a run before it had the scheduler off and a stale counter. Nothing for host steps and for
    a scenario the reference cannot replay.
    """
    if step.is_host:
        return Replayed()
    try:
        reference = Engine(text=False)
        reference.start(scenario.plugins, scenario.host)
        catalogue, semantics, stale = Catalogue.of(scenario.plugins), load_semantics(), False
        for earlier in scenario.steps[: step.index]:
            if isinstance(earlier.event, StartRun):
                stale = stale or stale_while_off(catalogue, reference.state, earlier.event, semantics)
            reference.apply(earlier.event)
        host = reference.state.host
        observation = reference.apply(step.event)
        if isinstance(observation, RunObservation):
            pieces = run_pieces(catalogue.manifests, observation)
        elif isinstance(observation, CallObservation) and isinstance(step.event, (Activate, Extend)):
            pieces = reply_pieces(catalogue.manifests, step.event, observation)
        else:
            pieces = []
        return Replayed(host, observation.to_json(), tuple(pieces), stale)
    except Exception:  # noqa: BLE001 - a scenario the reference cannot replay: attribute without its facts
        return Replayed()
