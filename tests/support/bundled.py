"""The bundled suite, loaded once per test process: many tests read it, none changes it (a Scenario is a frozen value).

Loading it costs ~0.3 s of CPU (some 300 files, with the line marks of every step), and two dozen
tests only read it. A test about loading itself calls ``load_suite`` (test_spec_versions,
tests/conformance/suite's loader tests), and so does ``pas run``.
"""

from __future__ import annotations

import functools

from conformance.suite.scenario import Scenario, load_suite
from reference_impl.problems import Problem


@functools.cache
def _loaded() -> tuple[tuple[Scenario, ...], tuple[Problem, ...]]:
    scenarios, problems = load_suite()
    return tuple(scenarios), tuple(problems)


def bundled_suite() -> tuple[list[Scenario], list[Problem]]:
    """What ``load_suite()`` returns for the bundled suite (new lists of the same frozen values), loaded once per process."""
    scenarios, problems = _loaded()
    return list(scenarios), list(problems)
