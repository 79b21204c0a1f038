"""Deprecated since PAS 1.1, removed in 1.2: import these names from ``conformance``.

The path the testing guide taught before 1.0 (the module now lives at an internal path).
"""

import warnings

from conformance.adapters.implementation import Adapter, Host, ImplementationFailed, Scheduler

__all__ = ["Adapter", "Host", "ImplementationFailed", "Scheduler"]

warnings.warn("conformance.implementation is deprecated and will be removed in PAS 1.2: "
              "use `from conformance import Scheduler, Host, Adapter, ImplementationFailed`",
              DeprecationWarning, stacklevel=2)
