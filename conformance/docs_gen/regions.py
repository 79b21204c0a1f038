"""Generated regions inside hand-written pages: the parts of a page that a command writes.

A hand-written page (a lint rule's page, the validating guide) may hold text that must equal what
the tools print or hold: the output of ``pas validate`` on the page's example, the table of rules.
Such text sits between two markers and ``pas docs generate`` rewrites it::

    <!-- generated: validate-output · written by pas docs generate -->
    ...
    <!-- /generated -->

Everything outside the markers is the author's (and the translator's): the translation check
hashes a page without its regions, since the generator writes the Chinese twin's regions too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

START = "<!-- generated: {name} · written by pas docs generate -->"
END = "<!-- /generated -->"
_REGION = re.compile(r"^<!-- generated: (?P<name>[a-z0-9-]+) · written by pas docs generate -->\n"
                     r"(?P<body>.*?)^<!-- /generated -->$", re.DOTALL | re.MULTILINE)


def regions(text: str) -> dict[str, str]:
    """The body of every region of ``text`` by name (the last one wins if a name repeats)."""
    return {found.group("name"): found.group("body") for found in _REGION.finditer(text)}


def fill(text: str, bodies: Mapping[str, str]) -> str:
    """``text`` with the body of each region named in ``bodies`` replaced (a body ends with a newline)."""
    def replace(found: re.Match[str]) -> str:
        body = bodies.get(found.group("name"))
        if body is None:
            return found.group(0)
        return f"{START.format(name=found.group('name'))}\n{body.rstrip(chr(10))}\n{END}"

    return _REGION.sub(replace, text)


def without_regions(text: str) -> str:
    """``text`` with every region's body left out (the markers stay): what a translator compares."""
    return _REGION.sub(lambda found: f"{START.format(name=found.group('name'))}\n{END}", text)


def block(name: str, body: str) -> str:
    """A whole region, markers included, to put into a page."""
    return f"{START.format(name=name)}\n{body.rstrip(chr(10))}\n{END}"
