"""The token estimate ``pas budget`` uses without a tokenizer: a weight per script, not per character.

One token per four characters is right for English and wrong for Chinese: cl100k_base spends
about one token on each Han character, so a quarter-token per character undercounts a Chinese
plugin set by a third or more. Each character is weighed by the script it belongs to instead.
The weights are cl100k_base's own tokens per character, measured by tokenizing each run of one
script alone (``bench/budget_estimate.py`` measures them and the error of the estimate):

========================================  ======  ==============================================
script                                    weight  measured (tokens per character, cl100k_base)
========================================  ======  ==============================================
ASCII (English, code, markup)             1/4     0.25-0.26 on plugin manifests, 0.28 on the docs
CJK: Han, kana, Hangul, CJK punctuation,  1       Han 0.97-0.99 on plugin manifests, 1.1 on the
fullwidth forms                                   Chinese docs; CJK punctuation 0.96-0.99
other letters below U+2000 (Latin         1/2     from a few sentences of French, German and
accents, Greek, Cyrillic ...)                     Russian: 0.3-0.5 with their ASCII spaces
symbols U+2000-U+2FFF (dashes, arrows)    1       0.9-1.0
emoji and other astral characters         2.5     2-3 (their UTF-8 bytes)
========================================  ======  ==============================================

The count is the weighted sum rounded up. Only ASCII and Chinese are calibrated on real sets;
the other weights come from small samples, and the output says ``estimate`` wherever it is used.
"""

from __future__ import annotations

import math
import re

#: (character class, tokens per character) for every non-ASCII script the estimate tells apart.
SCRIPT_WEIGHTS: tuple[tuple[str, float], ...] = (
    # Han (with extensions and compatibility ideographs), kana, Hangul, CJK punctuation, fullwidth forms.
    ("\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff", 1.0),
    ("\u0080-\u1fff", 0.5),
    ("\u2000-\u2fff", 1.0),
    ("\U00010000-\U0001ffff\U00040000-\U0010ffff", 2.5),
)
ASCII_WEIGHT = 0.25
#: The weight of what no class holds (Bopomofo, Yi, the private-use area, lone surrogates ...).
OTHER_WEIGHT = 1.0
LABEL = "estimate (per script: 4 ASCII characters or 1 CJK character per token; no tokenizer)"
SOURCE = "weighted characters per script, rounded up (conformance/tools/budget/estimate.py)"

_CLASSES = tuple((re.compile(f"[{chars}]"), weight) for chars, weight in SCRIPT_WEIGHTS)


def estimate_tokens(text: str) -> int:
    """Estimated cl100k_base tokens in ``text``: each character weighed by its script, summed, rounded up."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    if ascii_chars == len(text):  # the common case costs one C-level pass
        return math.ceil(ascii_chars * ASCII_WEIGHT)
    total, counted = ascii_chars * ASCII_WEIGHT, ascii_chars
    for pattern, weight in _CLASSES:
        found = len(pattern.findall(text))
        total, counted = total + found * weight, counted + found
    total += (len(text) - counted) * OTHER_WEIGHT  # the classes do not overlap, so the rest is what none holds
    return math.ceil(total)
