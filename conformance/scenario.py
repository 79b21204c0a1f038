"""Deprecated since PAS 1.1, removed in 1.2: import ``load_suite`` and ``Scenario`` from ``conformance``.

The path taught before 1.0; its other names are internal now. ``ACTIONS`` and ``HOST_ACTIONS``,
the scenario keys of activation events and of host commands, are read from the one step table
(disclosure steps came later: they are in neither).
"""

import warnings

from conformance.documents.step_table import DEFAULT_CONVERSATION, DISCLOSURE_KEYS, HOST_KEYS, ROWS
from conformance.suite.scenario import (
    FIXTURES_FILE,
    HOST_EXPECTATION_KEYS,
    SUITE_DIR,
    HostExpectation,
    Scenario,
    Step,
    TextExpectation,
    check_host_steps,
    load_scenario,
    load_suite,
    parse_scenario,
    scenario_files,
)

HOST_ACTIONS = HOST_KEYS
ACTIONS = tuple(key for key in ROWS if key not in HOST_KEYS and key not in DISCLOSURE_KEYS)  # what it held before 1.0

__all__ = ["ACTIONS", "DEFAULT_CONVERSATION", "FIXTURES_FILE", "HOST_ACTIONS", "HOST_EXPECTATION_KEYS", "SUITE_DIR",
           "HostExpectation", "Scenario", "Step", "TextExpectation", "check_host_steps", "load_scenario", "load_suite",
           "parse_scenario", "scenario_files"]

warnings.warn("conformance.scenario is deprecated and will be removed in PAS 1.2: "
              "use `from conformance import load_suite, Scenario` (its other names are internal)",
              DeprecationWarning, stacklevel=2)
