"""Deprecated since PAS 1.1, removed in 1.2: import ``scheduler_state_machine`` from ``conformance``.

The path the testing and fuzzing guides taught before 1.0. Needs Hypothesis (the ``fuzz`` extra).
"""

import warnings

from conformance.fuzz.stateful import SchedulerAgainstReference, scheduler_state_machine

__all__ = ["SchedulerAgainstReference", "scheduler_state_machine"]

warnings.warn("conformance.stateful is deprecated and will be removed in PAS 1.2: "
              "use `from conformance import scheduler_state_machine`", DeprecationWarning, stacklevel=2)
