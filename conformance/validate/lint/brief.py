"""Rules about ``sleep_brief``: the only thing the model sees of a sleeping plugin."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from conformance.documents.loader import YamlDocument
from conformance.validate.lint.facts import doc_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem

_NOT_ALNUM = re.compile(r"[\W_]+")
# The ASCII bytes that are not letters or digits (dropped by bytes.translate, a C loop).
_ASCII_NOT_ALNUM = bytes(code for code in range(128) if not chr(code).isalnum())


def display_width(text: str, stop: int) -> int:
    """Terminal columns of ``text`` (wide CJK characters count 2); counting may stop once past ``stop``."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if width > stop:
            break
    return width


def _normal(text: str) -> str:
    """Letters and digits only, case-folded: 'Notes, for you!' and 'notes for you' compare equal."""
    return _NOT_ALNUM.sub("", text.casefold())


def _ascii_letters(text: str) -> bytes:
    """The ASCII letters and digits of :func:`_normal` ``(text)``, in order: texts whose normal forms are equal
    have equal ones, and they cost a fraction of the normal form to find (a first look that rules most out)."""
    return text.casefold().encode("ascii", "ignore").translate(None, _ASCII_NOT_ALNUM)


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Brief problems of one manifest document (wrongly typed fields are the schema's business)."""
    value = doc.value
    raw = value.get("sleep_brief")
    brief = raw.strip() if isinstance(raw, str) else ""
    allow = value.get("allow_sleep")
    if allow is True and not brief:
        pointer = "/sleep_brief" if "sleep_brief" in value else "/allow_sleep"
        yield doc_problem("allow-sleep-without-brief",
                          "allow_sleep is true but sleep_brief is blank, so the plugin never sleeps; "
                          "write a brief saying what it does and when to activate it", doc, pointer)
    if not brief:
        return
    if allow is False:
        yield doc_problem("protected-brief",
                          "allow_sleep is false, so this plugin never sleeps and the model never sees its brief; "
                          "remove sleep_brief or set allow_sleep to true", doc, "/sleep_brief")
        return
    yield from _length(doc, brief, options)
    description = value.get("description")
    if (isinstance(description, str) and _ascii_letters(brief) == _ascii_letters(description)
            and (normal := _normal(brief)) and normal == _normal(description)):
        yield doc_problem("brief-repeats-description",
                          "sleep_brief only repeats the description; say when the model should activate the plugin",
                          doc, "/sleep_brief")


def _length(doc: YamlDocument, brief: str, options: LintOptions) -> Iterator[Problem]:
    if len(brief) >= options.brief_min_length and 2 * len(brief) <= options.brief_max_length:
        return  # a character takes one or two columns: within bounds whatever the characters
    width = display_width(brief, options.brief_max_length)
    if width < options.brief_min_length:
        yield doc_problem("brief-too-short",
                          f"sleep_brief is {width} columns, under the minimum of {options.brief_min_length}; "
                          "say what the plugin does and when to activate it", doc, "/sleep_brief")
    elif width > options.brief_max_length:
        yield doc_problem("brief-too-long",
                          f"sleep_brief is over {options.brief_max_length} columns; keep it to a sentence or two "
                          "(it is shown on every run while the plugin sleeps)", doc, "/sleep_brief")
