"""Broken on purpose: a called module name is NFKC-normalised before it is looked up.

Full-width ``ｗｅａｔｈｅｒ`` finds ``weather`` and ``ﬁnd`` finds ``find``: the model's
mistyped or look-alike name activates a plugin it never named exactly.

Breaks: ACT-ARG-5
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Extend, Observation


class ModuleNameNfkc(Engine):
    """The reference, except that calls look the name up after NFKC normalisation."""

    info = replace(Engine.info, name="broken-module-name-nfkc")

    def apply(self, event: Event) -> Observation:
        """Normalise the called name (the bug), then apply as the reference does."""
        if isinstance(event, (Activate, Extend)):
            event = replace(event, module_name=unicodedata.normalize("NFKC", event.module_name))
        return super().apply(event)


def create() -> ModuleNameNfkc:
    """Factory for ``--impl python:single_module_name_nfkc:create``."""
    return ModuleNameNfkc()
