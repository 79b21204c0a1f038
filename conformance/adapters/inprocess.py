"""The in-process adapter: drives a Python :class:`~conformance.adapters.implementation.Scheduler`
(or a host-only :class:`~conformance.adapters.implementation.Host`).

The implementation is checked once, up front (:mod:`conformance.adapters.interface`). After
that every call into it is guarded: any exception it raises, and any answer that is not an
observation, becomes :class:`ImplementationFailed` (of kind ``raised`` or ``bad-answer``),
which the runner records as ``errored``. In-process calls are not timed out: a Python implementation that
hangs hangs the run (run it over stdio, ``--impl 'cmd:python -m ...'``, to get timeouts).
"""

from __future__ import annotations

import functools
import json
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight, Scheduler
from conformance.adapters.interface import UnusableImplementation, check_object, made_by
from conformance.documents.excerpt import excerpt_repr, excerpt_str
from reference_impl.disclosure_answers import Done, StepObservation, ToolsObservation
from reference_impl.disclosure_commands import DisclosureEvent
from reference_impl.disclosure_options import Options
from reference_impl.events import AdminObservation, CallObservation, Event, RunObservation
from reference_impl.host_commands import HostCommand
from reference_impl.host_observations import HostObservation
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

_OBSERVATIONS = (RunObservation, CallObservation, AdminObservation, HostObservation, ToolsObservation, StepObservation,
                 Done)
_MAX_REPR = 200


def _short(value: Any, convert: Callable[[Any, int], str] = excerpt_repr) -> str:
    return convert(value, _MAX_REPR)


def _crash(what: str, error: BaseException, cmd: str | None = None) -> ImplementationFailed:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return ImplementationFailed(kind=FailureKind.RAISED, reason=f"{what} raised {type(error).__name__}",
                                detail=f"{_short(error, excerpt_str)}{where}".strip(),
                                in_flight=InFlight.one(cmd) if cmd else None)


def observation_json(value: Any) -> dict[str, Any]:
    """The JSON of an observation returned by ``apply``; raises ImplementationFailed for anything else.

    An observation object is converted with ``to_json()``; a mapping with string keys is
    taken as already converted, provided it is plain JSON.
    """
    try:
        if isinstance(value, _OBSERVATIONS):
            return value.to_json()
    except Exception as error:  # noqa: BLE001 - e.g. a view whose state is not a PluginState
        raise _crash("the observation's to_json()", error) from None
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        try:  # what a stdio implementation could send: plain JSON, no cycles, no objects
            return json.loads(json.dumps(value))
        except (TypeError, ValueError, RecursionError) as error:
            raise ImplementationFailed(kind=FailureKind.BAD_ANSWER, reason="apply() returned a mapping that is not JSON",
                                       detail=f"{type(error).__name__}: {_short(error, excerpt_str)}") from None
    raise ImplementationFailed(kind=FailureKind.BAD_ANSWER, reason="apply() returned no observation",
                               detail=f"got {type(value).__name__} {_short(value)}; expected a RunObservation, "
                                      "CallObservation, AdminObservation, HostObservation, a disclosure observation "
                                      "or a JSON object")


def _info(value: Any) -> ImplementationInfo:
    if isinstance(value, ImplementationInfo):
        return value
    in_flight = InFlight.one("hello")
    if isinstance(value, Mapping):
        try:
            return ImplementationInfo.from_json(value)
        except ValueError as error:
            raise ImplementationFailed(kind=FailureKind.BAD_ANSWER, reason="bad implementation info", detail=str(error),
                                       in_flight=in_flight) from None
    raise ImplementationFailed(kind=FailureKind.BAD_ANSWER, reason="bad implementation info", in_flight=in_flight,
                               detail=f"info is {type(value).__name__} {_short(value)}; expected an ImplementationInfo")


class InProcessAdapter:
    """Adapts a Scheduler (or a host-only Host) made by ``factory`` to the runner's Adapter protocol.

    The first implementation made is checked once: a factory that raises or returns None, a
    missing member or a wrong signature raises UnusableImplementation from :meth:`check`, or
    from the first hello, start or send, and the run does not go on. ``reset`` throws the scheduler away; the next call makes a new one.
    """

    def __init__(self, factory: Callable[[], Any], *, name: str = "") -> None:
        self._factory = factory
        self._name = name or getattr(factory, "__qualname__", "factory")
        self._scheduler: Any = None
        self._checked: type | None = None  # the class of the implementation found usable

    def check(self) -> None:
        """Make the implementation now, if not made yet, and check it; raises UnusableImplementation."""
        if self._checked is None:
            self._scheduler = made_by(self._factory, self._name)
            self._checked = type(self._scheduler)

    def _get(self, cmd: str) -> Any:
        """The implementation, made again after a reset; raises ImplementationFailed (``cmd`` in flight)."""
        if self._checked is None:
            self.check()
        if self._scheduler is None:
            try:
                scheduler = self._factory()
            except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
                raise _crash(f"{self._name}()", error, cmd) from None
            if type(scheduler) is not self._checked:
                try:
                    check_object(scheduler, self._name)
                except UnusableImplementation as error:
                    raise ImplementationFailed(kind=FailureKind.INTERFACE, reason=f"{self._name}() made another, "
                                               f"unusable implementation", detail=str(error),
                                               in_flight=InFlight.one(cmd)) from None
            self._scheduler = scheduler
        return self._scheduler

    def hello(self) -> ImplementationInfo:
        """The scheduler's ``info``; raises ImplementationFailed when it is missing or malformed."""
        scheduler = self._get("hello")
        try:
            info = scheduler.info
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash("info", error, "hello") from None
        return _info(info)

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Call the scheduler's ``start``; raises ImplementationFailed when it raises."""
        scheduler = self._get("start")
        if not isinstance(scheduler, Scheduler):
            raise ImplementationFailed(kind=FailureKind.INTERFACE, reason=f"{self._name}() made a host without start()",
                                       detail="an implementation without start() can run host scenarios only",
                                       in_flight=InFlight.one("start"))
        try:
            scheduler.start(tuple(manifests), host)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash("start()", error, "start") from None

    def send(self, event: Event | HostCommand | DisclosureEvent) -> dict[str, Any]:
        """Apply ``event`` (or a host command, or a disclosure event) and return the observation's JSON; raises ImplementationFailed."""
        scheduler = self._get(event.cmd)
        try:
            observation = scheduler.apply(event)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash(f"apply({event.cmd})", error, event.cmd) from None
        try:
            return observation_json(observation)
        except ImplementationFailed as failure:
            raise failure.amended(in_flight=InFlight.one(event.cmd)) from None

    def reset(self) -> None:
        """Forget the scheduler; a fresh one is made on the next call."""
        self._scheduler = None

    def close(self) -> None:
        """Forget the scheduler (in-process: nothing else to release)."""
        self._scheduler = None


def reference_adapter(disclosure: Options | None = None) -> InProcessAdapter:
    """The reference implementation, in-process (``--impl reference``), under ``disclosure`` (the defaults when None)."""
    from reference_impl.engine import Engine

    if disclosure is None:
        return InProcessAdapter(Engine, name="reference_impl.engine.Engine")
    return InProcessAdapter(functools.partial(Engine, disclosure=disclosure), name="reference_impl.engine.Engine")
