"""Broken on purpose: one loaded set for the whole host object, while the declaration says thread scope.

It declares ``state_scope: thread`` (the default) but keeps what the model loads on the host
object, as Microsoft Agent Framework's MCPTool does: a load in one thread shows in the next
request of every other thread, and a rebuild forgets it.

Breaks: DISC-SCOPE-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_options import Options, Scope
from reference_impl.engine import Engine


class SharedAcrossThreads(Engine):
    """The reference under instance scope, declaring thread scope."""

    info = replace(Engine.info, name="broken-disc-shared-across-threads")

    def __init__(self) -> None:
        super().__init__(disclosure=Options(state_scope=Scope.INSTANCE))
        self.info = SharedAcrossThreads.info  # the declaration: thread scope, as every default


def create() -> SharedAcrossThreads:
    """Factory for ``--impl python:single_disc_shared_across_threads:create``."""
    return SharedAcrossThreads()
