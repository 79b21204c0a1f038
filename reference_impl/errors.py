"""The root of every exception PAS raises on purpose."""

from __future__ import annotations


class PasError(Exception):
    """Base class: misuse of the API, protocol violations, an unusable environment."""


class MalformedDocument(PasError, ValueError):
    """A document handed to a ``from_json`` does not have the shape its schema promises."""

    def __init__(self, *, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        where = f"field '{field}'" if field else "document"
        super().__init__(f"{where} {reason}")


class SpecFilesMissing(PasError, FileNotFoundError):
    """The bundled spec/ folder cannot be found (a broken installation)."""

    def __init__(self, *, searched: tuple[str, ...]) -> None:
        self.searched = searched
        super().__init__("PAS spec files not found; looked in: " + ", ".join(searched))
