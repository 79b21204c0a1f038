"""How PAS reads a plain (unquoted) YAML scalar: the YAML 1.2 core schema, and the YAML 1.1 traps.

``on``, ``no``, ``yes`` stay strings (YAML 1.2), but YAML 1.1 tools (PyYAML's ``safe_load`` among
them) read them as booleans, so each is reported as *ambiguous*; so is a version such as ``1.10``,
which reads as the number 1.1 in every YAML version. Both loaders read scalars by these rules:
the event loader (:mod:`conformance.documents.loader`) resolves each plain scalar with them, and
the fast path (:mod:`conformance.documents.fastyaml`) hands a document back to the event loader
whenever one of its strings is one of :data:`NOT_PLAIN_WORDS` or matches :data:`NUMBER_LIKE`.
"""

from __future__ import annotations

import math
import re

_NULL_TEXT = r"~|null|Null|NULL|"
_INT_TEXT = r"[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)"
_FLOAT_TEXT = r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
_YAML11_BOOL_TEXT = r"y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF"

NULL = re.compile(rf"^(?:{_NULL_TEXT})$")
BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
INT = re.compile(rf"^{_INT_TEXT}$")
FLOAT = re.compile(rf"^{_FLOAT_TEXT}$")
#: Matched on the lower-cased text: ``.Inf`` and ``.NAN`` are the special floats too.
SPECIAL_FLOATS = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}
#: Plain scalars that YAML 1.1 tools (PyYAML's safe_load among them) would read as booleans.
YAML11_BOOLS = re.compile(rf"^(?:{_YAML11_BOOL_TEXT})$")
YAML11_MEANING = {word: "true" for word in ("y", "yes", "on")} | {word: "false" for word in ("n", "no", "off")}
#: 1.10 reads as the float 1.1 in every YAML version: a version written unquoted loses digits.
VERSION_LIKE = re.compile(r"^[0-9]+\.[0-9]*0$")
#: Words that, written plain, read as something other than that string (null, booleans), or are
#: YAML 1.1 traps; with :data:`NUMBER_LIKE` (for text starting with one of :data:`NUMBER_STARTS`),
#: every string that may have been quoted, or read by a reader that resolves plain scalars
#: otherwise: only the event loader can tell which.
NOT_PLAIN_WORDS = frozenset({"", "~", "null", "Null", "NULL", *BOOL, *_YAML11_BOOL_TEXT.split("|")})
NUMBER_STARTS = "-+.0123456789"
NUMBER_LIKE = re.compile(rf"{_INT_TEXT}|{_FLOAT_TEXT}|[-+]?\.(?i:inf)|\.(?i:nan)")

