"""Broken on purpose: tool lists in catalogue order, while the declaration says append.

A tool loaded later goes where the catalogue has it, as the Vercel AI SDK's tool list does,
moving the tools after it: the provider's cached prompt prefix is lost. It declares
``order: append`` (the default).

Breaks: DISC-ORDER-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_options import Options, Order
from reference_impl.engine import Engine


class CatalogueOrder(Engine):
    """The reference under catalogue order, declaring append."""

    info = replace(Engine.info, name="broken-disc-catalogue-order")

    def __init__(self) -> None:
        super().__init__(disclosure=Options(order=Order.CATALOGUE))
        self.info = CatalogueOrder.info


def create() -> CatalogueOrder:
    """Factory for ``--impl python:single_disc_catalogue_order:create``."""
    return CatalogueOrder()
