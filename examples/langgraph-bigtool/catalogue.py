"""A PAS catalogue as bigtool's tool registry, its store, and the two retrievals the driver offers.

- `registry(catalogue, record)`: {id: StructuredTool} with id = the tool's name, the catalogue's JSON
  schema as `args_schema`, and a function that records each execution and answers
  "<name> ran with <arguments as JSON>".
- `NameEmbeddings`: a small hand-written deterministic `Embeddings` (no numpy, no model). One
  dimension per catalogue name, then 64 word buckets (crc32 of each lower-case word). A tool's
  "name" field embeds to its name's dimension only; its "description" field to its words' buckets;
  a query equal to a catalogue name embeds to that name's dimension, any other query to its words'
  buckets (a description that is exactly some tool's name would count as that name). So an exact-name query scores 1.0 on that tool and 0 on every other (ties keep insertion
  order in InMemoryStore's stable sort), and a word query ranks tools by description overlap.
- `catalogue_store(catalogue)`: an `InMemoryStore` indexing fields "name" and "description" with
  NameEmbeddings, one item per tool under namespace ("tools",), key = id (bigtool's default retrieval
  searches it).
- `retrieve_by_name(registry)`: a `retrieve_tools_function` returning [query] when the query is a
  registry id and [] otherwise (load by exact name, no search).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.tools import StructuredTool
from langgraph.store.memory import InMemoryStore

Recorder = Callable[[str, dict[str, Any]], None]
WORD_BUCKETS = 64
NAMESPACE = ("tools",)


def registry(catalogue: Sequence[Mapping[str, Any]], record: Recorder) -> dict[str, StructuredTool]:
    """bigtool's tool registry for the catalogue. Raises ValueError on a missing or repeated name."""
    tools: dict[str, StructuredTool] = {}
    for entry in catalogue:
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"a catalogue entry needs a non-empty string name: {dict(entry)!r}")
        if name in tools:
            raise ValueError(f"catalogue name {name!r} repeats")
        schema = dict(entry.get("parameters") or {"type": "object", "properties": {}})
        tools[name] = StructuredTool(name=name, description=str(entry.get("description", "")),
                                     args_schema=schema, func=_runner(name, record))
    return tools


def _runner(name: str, record: Recorder) -> Callable[..., str]:
    def run(**arguments: Any) -> str:
        record(name, arguments)
        return f"{name} ran with {json.dumps(arguments, sort_keys=True)}"

    return run


class NameEmbeddings(Embeddings):
    """Deterministic embeddings where an exact catalogue name is its own dimension (see the module docstring)."""

    def __init__(self, names: Sequence[str]) -> None:
        """Dimensions: one per name in `names`, then WORD_BUCKETS word buckets."""
        self.index = {name: i for i, name in enumerate(names)}
        self.dims = len(self.index) + WORD_BUCKETS

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dims
        if text in self.index:
            vector[self.index[text]] = 1.0
            return vector
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vector[len(self.index) + zlib.crc32(word.encode()) % WORD_BUCKETS] += 1.0
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """A text equal to a catalogue name (the name field) embeds to its dimension; any other to its word buckets."""
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        """An exact catalogue name embeds to its dimension; any other query to its word buckets."""
        return self._vector(text)


def catalogue_store(catalogue: Sequence[Mapping[str, Any]]) -> InMemoryStore:
    """An InMemoryStore holding one item per tool, indexed on name and description with NameEmbeddings."""
    names = [str(entry["name"]) for entry in catalogue]
    store = InMemoryStore(index={"embed": NameEmbeddings(names), "dims": len(names) + WORD_BUCKETS,
                                 "fields": ["name", "description"]})
    for entry in catalogue:
        store.put(NAMESPACE, str(entry["name"]), {"name": entry["name"],
                                                  "description": str(entry.get("description", ""))})
    return store


def retrieve_by_name(tools: Mapping[str, Any]) -> Callable[[str], list[str]]:
    """A retrieve_tools_function loading by exact name: [query] if it is a registry id, else []."""

    def retrieve_tools(query: str) -> list[str]:
        """Retrieve the tool whose name is exactly the query."""
        return [query] if query in tools else []

    return retrieve_tools
