"""PAS reference implementation: the activation-scheduling rules of spec 1.0, executable.

The rules (`eligibility`, `catalogue`, `scheduler`, `render`) are pure: no I/O, clock, logging,
global state or cache; every value they take and return is immutable and hashable (`frozen`,
`model`, `events`). Their semantics (spec/semantics.yaml's constants and tables) are an
argument, read only by `semantics.load_semantics`. `fast.FastScheduler` gives the same results
with caches keyed by those values; `engine.Engine`, the thin stateful shell that the conformance
adapters drive, steps through it.
"""

__version__ = "1.0.0"
