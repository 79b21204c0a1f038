"""Deprecated since PAS 1.1, removed in 1.2: import ``run_suite`` and ``select_scenarios`` from ``conformance``.

The path taught before 1.0; its other names are internal now (the module lives at an internal path).
"""

import warnings

from conformance.suite.runner import (
    ALL_PROFILES,
    apply_expected,
    effective_profiles,
    errored,
    greet,
    run_scenario,
    run_suite,
    select_scenarios,
)

__all__ = ["ALL_PROFILES", "apply_expected", "effective_profiles", "errored", "greet", "run_scenario", "run_suite",
           "select_scenarios"]

warnings.warn("conformance.runner is deprecated and will be removed in PAS 1.2: "
              "use `from conformance import run_suite, select_scenarios` (its other names are internal)",
              DeprecationWarning, stacklevel=2)
