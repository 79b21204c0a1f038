"""Checking a Python implementation once, up front: its factory, its methods and their signatures.

A ``python:`` implementation whose ``apply`` takes the wrong arguments would otherwise error
in every scenario, each report pointing at PAS's adapter. :func:`made_by` calls the factory
once and :func:`check_object` reads the object the way the runner will use it, without
calling any of its methods: ``info`` must be an attribute or a property (not a method),
``apply`` must take one event, ``start`` (needed unless the object is a host-only
implementation) the manifests and the host config. Every problem found is a
:class:`~reference_impl.problems.Problem` at the user's file and line, and all of them come
back in one :class:`UnusableImplementation`.
"""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from conformance.documents.suggest import closest
from reference_impl.errors import PasError
from reference_impl.model import Profile
from reference_impl.problems import Problem, SourceLocation

#: What each member must look like, as the error message says it.
SIGNATURES = {
    "info": "info: an ImplementationInfo, as an attribute or a @property",
    "start": "def start(self, manifests, host) -> None",
    "apply": "def apply(self, event) -> an Observation (a HostObservation for a host command)",
}
_ARGUMENTS = {"start": 2, "apply": 1}  # positional arguments after self
_NEED_START = (Profile.ACTIVATION.value, Profile.TEXT.value)  # profiles whose scenarios begin with start() (host: host-load; disclosure: disclosure-start)


class UnusableImplementation(PasError, TypeError):
    """A Python implementation that cannot be driven at all; ``problems`` say where and why (one or more)."""

    def __init__(self, *, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


def _location(thing: Any) -> SourceLocation | None:
    """Where ``thing`` (a function, method, property or class) is defined, when Python can tell."""
    target: Any = thing.fget if isinstance(thing, property) else getattr(thing, "__func__", thing)
    try:
        target = inspect.unwrap(target)
        path = inspect.getsourcefile(target)
        line = inspect.getsourcelines(target)[1]
    except (TypeError, OSError, ValueError):  # built in, made at run time, or no source on disk
        return None
    return SourceLocation(path=path, line=max(line, 1)) if path else None


def _raised_at(error: BaseException) -> SourceLocation | None:
    frames = traceback.extract_tb(error.__traceback__)
    return SourceLocation(path=frames[-1].filename, line=frames[-1].lineno) if frames else None


def _factory_problem(message: str, source: SourceLocation | None) -> UnusableImplementation:
    return UnusableImplementation(problems=(Problem(code="implementation-factory", message=message, source=source),))


def made_by(factory: Callable[[], Any], name: str) -> Any:
    """``factory()``, checked with :func:`check_object`; raises UnusableImplementation.

    A factory that raises, or returns None, is reported at the line that raised, or where
    the factory is defined.
    """
    try:
        made = factory()
    except (Exception, SystemExit) as error:  # noqa: BLE001 - their factory's crash is reported, not raised through
        raise _factory_problem(f"{name}() raised {type(error).__name__}: {error}", _raised_at(error)) from None
    if made is None:
        raise _factory_problem(f"{name}() returned None; it must return the implementation, an object with "
                               f"info, start and apply", _location(factory))
    check_object(made, name)
    return made


def check_object(candidate: Any, name: str) -> None:
    """Check that ``candidate`` has ``info``, ``apply`` and (unless host-only) ``start``; raises UnusableImplementation.

    Nothing of the object's own code runs, except the ``info`` property of an object without
    ``start`` (to see whether it claims only the host profile).
    """
    cls = type(candidate)
    problems = tuple(_problems(candidate, f"{cls.__module__}.{cls.__qualname__}"))
    if problems:
        raise UnusableImplementation(problems=problems)


def _problems(candidate: Any, owner: str) -> Iterator[Problem]:
    for member in ("info", "apply", "start"):
        if member == "start" and not hasattr(candidate, "start") and _host_only(candidate):
            continue
        problem = _member_problem(candidate, owner, member)
        if problem is not None:
            yield problem


def _host_only(candidate: Any) -> bool:
    """True when the object claims profiles, none of which begins a scenario with start()."""
    try:
        profiles = candidate.info.profiles
    except Exception:  # noqa: BLE001 - an info that cannot be read is hello's to report
        return False
    return isinstance(profiles, (tuple, list)) and not any(p in _NEED_START for p in profiles)


def _member_problem(candidate: Any, owner: str, member: str) -> Problem | None:
    """What is wrong with one member, or None."""
    try:
        static = inspect.getattr_static(candidate, member)
    except AttributeError:
        return _missing(candidate, owner, member)
    if member == "info":
        if inspect.isroutine(static) or isinstance(static, (staticmethod, classmethod)):
            return _wrong(member, static, candidate, f"{owner}.info is a method")
        return None
    value = getattr(candidate, member, None)
    if not callable(value):
        return _wrong(member, static, candidate, f"{owner}.{member} is {type(value).__name__}, not a method")
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # a builtin without a signature: trust it
        return None
    try:
        signature.bind(*([None] * _ARGUMENTS[member]))
    except TypeError:
        return _wrong(member, static, candidate, f"{owner}.{member}{_shown(signature, value)} has the wrong signature")
    return None


def _shown(signature: inspect.Signature, value: Any) -> str:
    """The signature as written, with ``self`` put back for a method bound to an instance."""
    parameters = [str(p) for p in signature.parameters.values()]
    if inspect.ismethod(value) and not inspect.isclass(value.__self__):
        parameters.insert(0, "self")
    return f"({', '.join(parameters)})"


def _wrong(member: str, static: Any, candidate: Any, message: str) -> Problem:
    return Problem(code="implementation-interface", message=f"{message}; it must be: {SIGNATURES[member]}",
                   source=_location(static) or _location(type(candidate)))


def _missing(candidate: Any, owner: str, member: str) -> Problem:
    like = closest(member, [name for name in dir(candidate) if not name.startswith("_")])
    hint = f" (is {like!r} meant to be {member!r}?)" if like else ""
    return Problem(code="implementation-interface",
                   message=f"{owner} has no {member}{hint}; it must have: {SIGNATURES[member]}",
                   source=_location(type(candidate)))
