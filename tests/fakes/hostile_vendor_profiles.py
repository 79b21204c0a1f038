"""Hostile stdio implementation: a correct handshake that claims only vendor profiles (``x-acme-routing``).

Vendor profiles are allowed but ignored by the runner: there is nothing to test, and
``pas run`` must exit 2 saying so, not pass with nothing tested.
"""
from reference_loop import serve

serve(profiles=["x-acme-routing"])
