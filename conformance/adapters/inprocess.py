"""The in-process adapter: drives a Python :class:`~conformance.adapters.implementation.Scheduler`
(or a host-only :class:`~conformance.adapters.implementation.Host`).

Every call into the implementation is guarded: any exception it raises, and any answer
that is not an observation, becomes :class:`ImplementationFailed`, which the runner
records as ``errored``. In-process calls are not timed out: a Python implementation that
hangs hangs the run (run it over stdio, ``--impl 'cmd:python -m ...'``, to get timeouts).
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conformance.adapters.implementation import Host, ImplementationFailed, Scheduler
from conformance.documents.excerpt import excerpt_repr, excerpt_str
from reference_impl.events import AdminObservation, CallObservation, Event, RunObservation
from reference_impl.host import HostObservation
from reference_impl.host_commands import HostCommand
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

_OBSERVATIONS = (RunObservation, CallObservation, AdminObservation, HostObservation)
_MAX_REPR = 200


def _short(value: Any, convert: Callable[[Any, int], str] = excerpt_repr) -> str:
    return convert(value, _MAX_REPR)


def _crash(what: str, error: BaseException) -> ImplementationFailed:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return ImplementationFailed(reason=f"{what} raised {type(error).__name__}",
                                detail=f"{_short(error, excerpt_str)}{where}".strip())


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
            raise ImplementationFailed(reason="apply() returned a mapping that is not JSON",
                                       detail=f"{type(error).__name__}: {_short(error, excerpt_str)}") from None
    raise ImplementationFailed(reason="apply() returned no observation",
                               detail=f"got {type(value).__name__} {_short(value)}; expected a RunObservation, "
                                      "CallObservation, AdminObservation, HostObservation or a JSON object")


def _info(value: Any) -> ImplementationInfo:
    if isinstance(value, ImplementationInfo):
        return value
    if isinstance(value, Mapping):
        try:
            return ImplementationInfo.from_json(value)
        except ValueError as error:
            raise ImplementationFailed(reason="bad implementation info", detail=str(error)) from None
    raise ImplementationFailed(reason="bad implementation info",
                               detail=f"info is {type(value).__name__} {_short(value)}; expected an ImplementationInfo")


class InProcessAdapter:
    """Adapts a Scheduler (or a host-only Host) made by ``factory`` to the runner's Adapter protocol.

    ``reset`` throws the scheduler away; the next ``hello``, ``start`` or ``send`` makes a new one.
    """

    def __init__(self, factory: Callable[[], Any], *, name: str = "") -> None:
        self._factory = factory
        self._name = name or getattr(factory, "__qualname__", "factory")
        self._scheduler: Any = None

    def _get(self) -> Any:
        if self._scheduler is None:
            try:
                scheduler = self._factory()
            except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
                raise _crash(f"{self._name}()", error) from None
            if not isinstance(scheduler, (Scheduler, Host)):
                missing = [a for a in ("info", "start", "apply") if not hasattr(scheduler, a)]
                raise ImplementationFailed(reason=f"{self._name}() did not return a Scheduler",
                                           detail=f"got {type(scheduler).__name__}, lacking {', '.join(missing)}")
            self._scheduler = scheduler
        return self._scheduler

    def hello(self) -> ImplementationInfo:
        """The scheduler's ``info``; raises ImplementationFailed when it is missing or malformed."""
        scheduler = self._get()
        try:
            info = scheduler.info
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash("info", error) from None
        return _info(info)

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Call the scheduler's ``start``; raises ImplementationFailed when it raises."""
        scheduler = self._get()
        if not isinstance(scheduler, Scheduler):
            raise ImplementationFailed(reason=f"{self._name}() made a host without start()",
                                       detail="an implementation without start() can run host scenarios only")
        try:
            scheduler.start(tuple(manifests), host)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash("start()", error) from None

    def send(self, event: Event | HostCommand) -> dict[str, Any]:
        """Apply ``event`` (or a host command) and return the observation's JSON; raises ImplementationFailed."""
        scheduler = self._get()
        try:
            observation = scheduler.apply(event)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the implementation's crash is a result
            raise _crash(f"apply({event.cmd})", error) from None
        return observation_json(observation)

    def reset(self) -> None:
        """Forget the scheduler; a fresh one is made on the next call."""
        self._scheduler = None

    def close(self) -> None:
        """Forget the scheduler (in-process: nothing else to release)."""
        self._scheduler = None


def reference_adapter() -> InProcessAdapter:
    """The reference implementation, in-process (``--impl reference``)."""
    from reference_impl.engine import Engine

    return InProcessAdapter(Engine, name="reference_impl.engine.Engine")
