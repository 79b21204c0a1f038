"""Front ends: the ``pas`` command (one module per subcommand) and the pytest plugin."""

from conformance.cli.main import main

__all__ = ["main"]
