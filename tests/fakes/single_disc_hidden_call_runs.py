"""Broken on purpose: a call of a tool the model call does not show runs, while the declaration says refused.

Visibility is not authority here, as in LangGraph bigtool (its tools node holds the whole
registry) and NekroAgent (a sleeping plugin's methods stay callable). It declares
``hidden_calls: refused`` (the default).

Breaks: DISC-CALL-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_options import HiddenCalls, Options
from reference_impl.engine import Engine


class HiddenCallRuns(Engine):
    """The reference with hidden calls executed, declaring them refused."""

    info = replace(Engine.info, name="broken-disc-hidden-call-runs")

    def __init__(self) -> None:
        super().__init__(disclosure=Options(hidden_calls=HiddenCalls.EXECUTED))
        self.info = HiddenCallRuns.info


def create() -> HiddenCallRuns:
    """Factory for ``--impl python:single_disc_hidden_call_runs:create``."""
    return HiddenCallRuns()
