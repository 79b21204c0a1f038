"""Broken on purpose: a variable naming an installed plugin that is not loaded is an ``env-unknown-plugin`` warning.

The host matches ``PAS__`` variables against the loaded plugins, not the installed ones,
so ``PAS__DICE__SIDES`` with ``dice`` installed but not enabled is warned about as naming
no plugin.

Breaks: HOST-CFG-5
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import HostEngine, HostObservation
from reference_impl.host_commands import HostCommand, Load
from reference_impl.host_config import ENV_PREFIX
from reference_impl.problems import Origin, Problem, Severity, SourceKind


class EnvUnknownMeansNotLoaded(HostEngine):
    """The reference host, plus a warning for each variable of a plugin that is installed but not loaded."""

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply as the reference does; after a load, warn about the variables of plugins not loaded."""
        observation = self.apply_reference(command)
        if not isinstance(command, Load) or observation.load_order is None:
            return observation
        loaded = {m.upper() for m in observation.load_order}
        warned = [Problem(code="env-unknown-plugin", severity=Severity.WARNING,
                          origin=Origin(kind=SourceKind.ENVIRONMENT, name=name),
                          message=f"the variable {name} names no loaded plugin; it is ignored")
                  for name in sorted(command.environment) if name.startswith(ENV_PREFIX)
                  for m in command.plugins if name[len(ENV_PREFIX):].upper().startswith(m.module_name.upper() + "__")
                  and m.module_name.upper() not in loaded]
        return replace(observation, problems=(*observation.problems, *warned))

    def apply_reference(self, command: HostCommand) -> HostObservation:
        """The reference host's observation."""
        return super().apply(command)


def create() -> EnvUnknownMeansNotLoaded:
    """Factory for ``--impl python:single_host_env_unknown_means_not_loaded:create``."""
    return EnvUnknownMeansNotLoaded(name="host-broken-env-unknown-means-not-loaded")
