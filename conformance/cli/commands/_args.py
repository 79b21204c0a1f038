"""Argument types shared by the command modules."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """An argparse type accepting only numbers of ``kind`` above 0, with a one-line error otherwise."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a{'n integer' if kind is int else ' number'}: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
        return value

    return parse
