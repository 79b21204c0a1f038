"""The prompt-cache view of a budget: how much of each run's prompt a provider's cache already holds, and the cost.

Model providers cache a prompt's prefix: a request that starts with text an earlier request
sent pays a lower price for that part (a *cache read*), and the rest is written to the cache
(a *cache write*, dearer than plain input at some providers). A scheduler that changes the
front of the prompt every run loses that discount; one that changes only its end keeps it.

For each run and each side (every plugin awake; scheduled in ACT-ORDER-1 order; scheduled with
the changing blocks last; scheduled with the catalogue kept whole and the active blocks
appended after it: :mod:`~conformance.tools.budget.layout`), the **cached** part is the
longest start of the run's plugin text that an earlier run of the script sent (any
conversation: a provider's cache is keyed by the prefix, not by the conversation), counted in
tokens, and never past text known only at run time. This assumes the cache still holds every
earlier prompt (runs within its lifetime: five minutes by default at Anthropic) and a cache
that can match at any point (OpenAI matches in 128-token steps past 1,024; Anthropic at the
breakpoints you set): it is the most a cache can give. Activation replies are new text in
their run and are never cached.

The cost of a run is cached tokens at the cache-read price, the rest of its plugin text at
the cache-write price, and its replies at the input price. Prices are parameters, in US
dollars per million tokens, never fetched; the defaults (:class:`Prices`) are Anthropic's
published rates for Claude Sonnet 4 (input 3.00, five-minute cache write 3.75, cache read
0.30). For a provider that charges nothing extra to write the cache (OpenAI), give the input
price as the cache-write price.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.tools.budget.layout import Prompt
from conformance.tools.budget.tokenizer import Tokenizer

ALL_AWAKE, REFERENCE, STABLE, APPENDED = "all_awake", "scheduled_reference", "scheduled_stable", "scheduled_appended"
SIDES = (ALL_AWAKE, REFERENCE, STABLE, APPENDED)
SCHEDULED = {REFERENCE: "reference", STABLE: "stable", APPENDED: "appended"}  # side -> layout order
SIDE_NAMES = {ALL_AWAKE: "all awake", REFERENCE: "scheduled, ACT-ORDER-1 order",
              STABLE: "scheduled, changing blocks last", APPENDED: "scheduled, catalogue kept + active appended"}
PER_MILLION = 1_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Prices:
    """US dollars per million tokens: plain input, a prefix written to the cache, a cached prefix read back."""

    input: float = 3.00
    cache_write: float = 3.75
    cache_read: float = 0.30

    def to_json(self) -> dict[str, float]:
        """``{"input", "cache_write", "cache_read"}`` in USD per million tokens."""
        return {"input": self.input, "cache_write": self.cache_write, "cache_read": self.cache_read}


@dataclass(frozen=True, slots=True, kw_only=True)
class CacheRun:
    """One run on one side: its plugin text, the part of it already cached, and its replies, in tokens."""

    prompt: int
    cached: int
    replies: int = 0

    def cost(self, prices: Prices) -> float:
        """US dollars: cached tokens read, the rest of the text written, the replies as input."""
        fresh = self.prompt - self.cached
        return (self.cached * prices.cache_read + fresh * prices.cache_write + self.replies * prices.input) / PER_MILLION

    def cost_uncached(self, prices: Prices) -> float:
        """US dollars without any cache: every token at the input price."""
        return (self.prompt + self.replies) * prices.input / PER_MILLION


@dataclass(frozen=True, slots=True, kw_only=True)
class CacheView:
    """Every run on every side, and the prices."""

    prices: Prices
    sides: Mapping[str, tuple[CacheRun, ...]]

    def total(self, side: str, field: str) -> int:
        """Sum of ``prompt``, ``cached`` or ``replies`` over the runs of ``side``."""
        return sum(getattr(run, field) for run in self.sides[side])

    def cost(self, side: str) -> float:
        """The side's cost over all runs, with the cache."""
        return sum(run.cost(self.prices) for run in self.sides[side])

    def cost_uncached(self, side: str) -> float:
        """The side's cost over all runs, without a cache."""
        return sum(run.cost_uncached(self.prices) for run in self.sides[side])

    def cached_share(self, side: str) -> float:
        """The fraction of the side's plugin text that was read from the cache."""
        prompt = self.total(side, "prompt")
        return self.total(side, "cached") / prompt if prompt else 0.0

    def best_scheduled(self) -> str:
        """The scheduled side that costs less with the cache."""
        return min(SCHEDULED, key=self.cost)

    def to_json(self) -> dict[str, Any]:
        """Prices, and per side: totals, costs and the runs."""
        return {"prices": self.prices.to_json(), "sides": {side: {
            "prompt": self.total(side, "prompt"), "cached": self.total(side, "cached"),
            "replies": self.total(side, "replies"), "cached_share": round(self.cached_share(side), 4),
            "cost": round(self.cost(side), 6), "cost_uncached": round(self.cost_uncached(side), 6),
            "runs": [{"prompt": r.prompt, "cached": r.cached, "replies": r.replies} for r in runs]}
            for side, runs in self.sides.items()}}


def shared_prefix(a: str, b: str) -> int:
    """The length of the longest common start of ``a`` and ``b`` (binary search over C-speed slice compares)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def cached_runs(prompts: Sequence[Prompt], replies: Sequence[int], tokenizer: Tokenizer) -> tuple[CacheRun, ...]:
    """Each run's tokens, and the tokens of its longest start an earlier run sent (up to its cacheable part)."""
    seen: list[str] = []
    runs = []
    for prompt, reply in zip(prompts, replies):
        text = prompt.text
        chars = max((shared_prefix(text, earlier) for earlier in seen), default=0)
        chars = min(chars, prompt.cacheable)
        tokens = tokenizer.count(text)
        cached = min(tokenizer.count(text[:chars]), tokens) if chars else 0  # a cut token never counts twice
        runs.append(CacheRun(prompt=tokens, cached=cached, replies=reply))
        if text not in seen:
            seen.append(text)
    return tuple(runs)
