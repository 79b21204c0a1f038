"""PAS reference implementation: the activation-scheduling rules of spec 1.0, executable.

The core (`eligibility`, `catalogue`, `scheduler`) is pure: no I/O, clock, logging or global
state. `engine.Engine` is the thin stateful shell that the conformance adapters drive.
"""

__version__ = "1.0.0"
