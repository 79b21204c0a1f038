"""The rules of a host scenario that its schema cannot say, each a Problem at the file's line.

Host steps (``host_load``, ``host_start`` ...) make a host scenario: it lists the ``host``
profile, has host steps only and begins with ``host_load``; the host expectation keys check
host steps only.
"""

from __future__ import annotations

from collections.abc import Mapping

from conformance.documents.loader import YamlDocument
from conformance.documents.step_table import HOST_KEYS
from reference_impl.model import Profile
from reference_impl.problems import Problem

#: The keys of a step that check what a host step produced (:class:`conformance.suite.scenario.HostExpectation`).
HOST_EXPECTATION_KEYS = ("events", "problems", "load_order", "setup_order", "config", "provenance")


def _misplaced(doc: YamlDocument, index: int, code: str, message: str) -> Problem:
    pointer = f"/steps/{index}"
    return Problem(code=code, pointer=pointer, source=doc.where(pointer), message=message)


def check_host_steps(doc: YamlDocument) -> list[Problem]:
    """The rules the schema cannot say: host steps make a host scenario, alone and load first.

    A scenario with a host step must claim the ``host`` profile, contain host steps only and
    begin with ``host_load`` (which resets the host under test); host expectation keys
    (``events``, ``problems`` ...) belong on host steps only.
    """
    steps = [s for s in doc.value.get("steps", ()) if isinstance(s, Mapping)]
    hosted = [any(a in step for a in HOST_KEYS) for step in steps]
    problems = [_misplaced(doc, i, "host-expectation-misplaced",
                           "events, problems, load_order, setup_order, config and provenance check host steps only")
                for i, step in enumerate(steps) if not hosted[i] and any(k in step for k in HOST_EXPECTATION_KEYS)]
    if not any(hosted):
        return problems
    if Profile.HOST not in doc.value.get("profiles", ()):
        problems.append(Problem(code="host-profile-missing", pointer="/profiles", source=doc.where("/profiles"),
                                message="a scenario with host steps must list the host profile: profiles: [host]"))
    problems += [_misplaced(doc, i, "host-steps-mixed", "a host scenario has host steps only; "
                            "put activation steps in a scenario of their own") for i, h in enumerate(hosted) if not h]
    if "host_load" not in steps[0]:
        problems.append(_misplaced(doc, 0, "host-load-first",
                                   "a host scenario begins with host_load, which resets the host under test"))
    return problems
