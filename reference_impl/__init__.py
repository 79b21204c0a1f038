"""PAS reference implementation: the activation-scheduling rules of spec 1.0, executable.

The core (`eligibility`, `catalogue`, `scheduler`) is pure: no I/O, clock, logging or global
state. Its semantics (spec/semantics.yaml's constants and tables) are an argument, read only
by `semantics.load_semantics`; its one cache (`lineup_cache.LineupCache`) is owned and passed
by the caller. `engine.Engine` is the thin stateful shell that the conformance adapters drive.
"""

__version__ = "1.0.0"
