"""Deprecated since PAS 1.1, removed in 1.2: import ``load_suite`` and ``Scenario`` from ``conformance``.

The path taught before 1.0; its other names are internal now. ``ACTIONS`` and ``HOST_ACTIONS``,
the scenario keys of events and of host commands, are read from the one step table.
"""

import warnings

from conformance.documents.step_table import DEFAULT_CONVERSATION, HOST_KEYS, ROWS
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
ACTIONS = tuple(key for key, row in ROWS.items() if not row.host and not row.disclosure)

__all__ = ["ACTIONS", "DEFAULT_CONVERSATION", "FIXTURES_FILE", "HOST_ACTIONS", "HOST_EXPECTATION_KEYS", "SUITE_DIR",
           "HostExpectation", "Scenario", "Step", "TextExpectation", "check_host_steps", "load_scenario", "load_suite",
           "parse_scenario", "scenario_files"]

warnings.warn("conformance.scenario is deprecated and will be removed in PAS 1.2: "
              "use `from conformance import load_suite, Scenario` (its other names are internal)",
              DeprecationWarning, stacklevel=2)
