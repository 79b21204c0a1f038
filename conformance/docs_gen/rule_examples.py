"""The example of each lint rule's page, run through ``pas validate``: what the page shows it prints.

A rule page (docs/rules/<code>.md and its .zh.md twin) shows a bad example and, in a generated
region named ``validate-output``, the console session of ``pas validate`` on it. The example is
the page's own files (the ``yaml``/``json`` blocks with a ``title`` under "### Bad"), or, for a
rule whose bad file cannot be written in Markdown (a FIFO, invalid UTF-8, a 2 MiB file, 70 levels
of nesting), a file made here. :func:`session` writes the files into an empty folder, runs
``pas validate`` there with the function it is given (the command line stands above this
package, docs/architecture.md) and returns the region's text.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REGION = "validate-output"
_TITLED = re.compile(r'```(?:yaml|json) title="([^"]+)"\n(.*?)\n```', re.DOTALL)
_MANIFEST = "name: Weather\nmodule_name: weather\nversion: 1.0.0\n"

# ``pas validate ARGS`` run in a folder: its standard output.
Validate = Callable[[Sequence[str]], str]


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """Files to make in an empty folder (FIFOs and unreadable files too), and the paths to validate there."""

    files: tuple[tuple[str, bytes], ...] = ()
    fifos: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()
    args: tuple[str, ...] = ()


def _nested(depth: int) -> bytes:
    return (_MANIFEST + "description: Looks up the weather forecast for a city.\nconfig:\n  defaults:\n    n: "
            + "[" * depth + "]" * depth + "\n").encode()


# The rules whose bad example is not a file a page can show: made here, described on the page.
BUILT: dict[str, Example] = {
    "path-not-found": Example(files=(("plugins/weather.yaml", _MANIFEST.encode() + b"description: Weather.\n"),),
                              args=("plugins/wether.yaml",)),
    "special-file": Example(fifos=("plugins/weather.yaml",), args=("plugins/",)),
    "unreadable": Example(files=(("plugins/weather.yaml", _MANIFEST.encode()),),
                          unreadable=("plugins/weather.yaml",), args=("plugins/weather.yaml",)),
    "file-too-large": Example(files=(("huge.yaml", b"#" * (2 * 1024 * 1024 + 1)),), args=("huge.yaml",)),
    "not-text": Example(files=(("logo.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),), args=("logo.yaml",)),
    "invalid-utf8": Example(files=(("weather.yaml", (_MANIFEST + "description: Météo for a city.\n").encode("latin-1")),),
                            args=("weather.yaml",)),
    "yaml-too-deep": Example(files=(("manifest.yaml", _nested(70)),), args=("manifest.yaml",)),
}


def page_example(code: str, page: str) -> Example | None:
    """The bad example of ``code``'s page (its titled blocks under "### Bad"), or the built one; None if it has neither."""
    if code in BUILT:
        return BUILT[code]
    start = page.find("### Bad")
    end = page.find("### Good", start)
    if start < 0:
        return None
    files = tuple((name, (body + "\n").encode()) for name, body in _TITLED.findall(page[start:end if end > 0 else None]))
    return Example(files=files, args=tuple(name for name, _ in files)) if files else None


class CannotShow(Exception):
    """The example cannot be made on this machine (no FIFOs; a file root can still read)."""


def _make(folder: Path, example: Example) -> None:
    for name, data in example.files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    for name in example.fifos:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        if not hasattr(os, "mkfifo"):
            raise CannotShow("this system has no named pipes")
        os.mkfifo(folder / name)
    for name in example.unreadable:
        (folder / name).chmod(0)
        if os.access(folder / name, os.R_OK):
            raise CannotShow("a file with no read permission can still be read here (root)")


def session(example: Example, validate: Validate) -> str:
    """The ``validate-output`` region of a page: ``$ pas validate ARGS`` and what it printed, in a console block.

    Raises CannotShow when this machine cannot make the example.
    """
    with tempfile.TemporaryDirectory(prefix="pas-rule-") as temporary:
        folder = Path(temporary).resolve()
        try:
            _make(folder, example)
            printed = validate([str(folder / arg) + ("/" if arg.endswith("/") else "") for arg in example.args])
        finally:
            for name in example.unreadable:
                (folder / name).chmod(0o600)
    printed = printed.replace(f"{folder}{os.sep}", "")
    return f"```console\n$ pas validate {' '.join(example.args)}\n{printed.rstrip()}\n```\n"
