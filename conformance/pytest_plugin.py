"""Deprecated since PAS 1.1, removed in 1.2: the pytest plugin is ``pas``, registered on install.

Before 1.0 the plugin was this module; it is now registered through the ``pytest11`` entry
point named ``pas`` (``-p pas`` loads it by name; ``-p no:pas`` turns it off). Loading this
module as a plugin (``-p conformance.pytest_plugin``, or ``pytest_plugins``) still works: it
registers the real plugin under the name ``pas`` unless that is already there, so its hooks
never run twice.
"""

import warnings

import pytest

from conformance.cli import pytest_plugin as _plugin
from conformance.cli.pytest_plugin import PasSuite, ScenarioFailed, ScenarioItem

__all__ = ["PasSuite", "ScenarioFailed", "ScenarioItem"]

warnings.warn("conformance.pytest_plugin is deprecated and will be removed in PAS 1.2: the plugin is `pas`, "
              "registered when the package is installed (load it by name with `-p pas`)",
              DeprecationWarning, stacklevel=2)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Register the real plugin as ``pas`` when the entry point has not (e.g. PYTEST_DISABLE_PLUGIN_AUTOLOAD)."""
    if not pluginmanager.has_plugin("pas") and not pluginmanager.is_blocked("pas"):
        pluginmanager.register(_plugin, "pas")
