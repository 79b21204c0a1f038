"""Probes behind FACTS-CHECKED.md: each claim of hosts-facts.md section 2, run against bigtool 0.0.3's real graph.

    ~/.cache/pas/bigtool-working-venv/bin/python examples/langgraph-bigtool/check_facts.py [probe ...]
    ~/.cache/pas/bigtool-default-venv/bin/python examples/langgraph-bigtool/check_facts.py [probe ...]

Prints one JSON object: probe name -> what was observed (or the exception). Most probes go through
driver.py; some compile the graph with their own retrieve_tools_function or registry (named in the
probe). `random_catalogue` uses a seeded random catalogue of 30 tools nobody designed (seed 26).
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import random
import string
import sys
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from driver import BigtoolDriver
from driver_protocol import jsonable, parse_call
from langgraph.prebuilt import InjectedStore
from langgraph.store.base import BaseStore
from scripted_driver import describe_error
from scripted_model import ScriptedChatModel

PROBES: dict[str, Callable[[], Awaitable[Any]]] = {}
DEFINITIONS: list[list[dict[str, Any]]] = []


def probe(fn: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    """Register a probe under its function name."""
    PROBES[fn.__name__] = fn
    return fn


def catalogue(n: int = 5) -> list[dict[str, Any]]:
    """tool_0..tool_{n-1} described by a Greek letter, one string parameter x."""
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    return [{"name": f"tool_{i}", "description": f"Fake tool number {i} ({words[i % len(words)]})",
             "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}} for i in range(n)]


async def step(driver: BigtoolDriver, thread: str, *calls: dict[str, Any]) -> dict[str, Any]:
    """One model step, in short (StepResult.brief)."""
    return (await driver.model_step(thread, [parse_call(c) for c in calls])).brief()


class RecordingModel(ScriptedChatModel):
    """The scripted model, also keeping every call's full tool definitions in DEFINITIONS."""

    async def _agenerate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        DEFINITIONS.append(list(kwargs.get("tools") or ()))
        return await super()._agenerate(messages, stop, run_manager, **kwargs)


class RecordingDriver(BigtoolDriver):
    """BigtoolDriver with RecordingModel."""

    model_class = RecordingModel


@probe
async def installed_code() -> Any:
    """Which ToolNode method exists, where bigtool calls it, the three modules' line counts."""
    from langgraph.prebuilt import ToolNode
    package = Path(importlib.util.find_spec("langgraph_bigtool").origin or "").parent
    lines = {name: len((package / name).read_text().splitlines()) for name in ("graph.py", "tools.py", "utils.py")}
    calls = [i + 1 for i, line in enumerate((package / "graph.py").read_text().splitlines()) if "inject_tool_args" in line]
    found = {}
    for name in ("inject_tool_args", "_inject_tool_args"):
        method = getattr(ToolNode, name, None)
        found[name] = None if method is None else f"{Path(inspect.getsourcefile(method) or '').name}:{inspect.getsourcelines(method)[1]}"
    import langgraph.types
    return {"module_lines": lines, "graph_py_calls_inject_tool_args_at": calls, "ToolNode": found,
            "langgraph_types_Overwrite": hasattr(langgraph.types, "Overwrite")}


@probe
async def first_request_definitions() -> Any:
    DEFINITIONS.clear()
    driver = RecordingDriver(catalogue(), [], {})
    first = await driver.begin_request("A")
    loaded = await step(driver, "A", {"load": "tool_2"})
    await driver.close()
    return {"first": first, "definitions": DEFINITIONS[0], "after_load_step": loaded,
            "after_load_definitions": [d["function"]["name"] for d in DEFINITIONS[1]]}


@probe
async def retrieval_texts_and_reducer() -> Any:
    driver = BigtoolDriver(catalogue(), [], {})
    await driver.begin_request("A")
    out = {"load_exact": await step(driver, "A", {"load": "tool_3"}),
           "again": await step(driver, "A", {"load": "tool_3"}),
           "search_word": await step(driver, "A", {"search": "epsilon"}),
           "two_in_one_step": await step(driver, "A", {"search": "tool_1"}, {"search": "tool_1"})}
    await driver.end_request("A")
    out["state"] = await driver.state("A")
    names = BigtoolDriver(catalogue(), [], {"retrieval": "names"})
    await names.begin_request("A")
    out["names_exact"] = await step(names, "A", {"load": "tool_2"})
    out["names_unknown"] = await step(names, "A", {"load": "nope"})
    out["names_two_in_one_step"] = await step(names, "A", {"load": ["tool_3", "tool_0"]}, {"load": "tool_3"})
    await names.close()
    await driver.close()
    return out


@probe
async def unknown_queries() -> Any:
    out = {}
    for limit in (1, 2):
        driver = BigtoolDriver(catalogue(), [], {"limit": limit})
        await driver.begin_request("A")
        out[f"limit_{limit}_no_match"] = (await step(driver, "A", {"search": "zzz qqq"}))["texts"]
        await driver.close()
    from catalogue import NAMESPACE
    from langgraph.store.memory import InMemoryStore
    unindexed = BigtoolDriver(catalogue(), [], {})
    unindexed.store = InMemoryStore()
    for entry in reversed(catalogue()):  # insertion order tool_4 .. tool_0
        unindexed.store.put(NAMESPACE, entry["name"], {"name": entry["name"], "description": entry["description"]})
    unindexed._compile()
    await unindexed.begin_request("A")
    out["unindexed_store_query_tool_1"] = (await step(unindexed, "A", {"search": "tool_1"}))["texts"]
    await unindexed.close()
    return out


@probe
async def custom_function_name_and_store_injection() -> Any:
    """A retrieve_tools_function named find_tools with an InjectedStore argument."""
    seen: list[Any] = []

    def find_tools(query: str, *, store: Annotated[BaseStore, InjectedStore]) -> list[str]:
        """Find tools by name."""
        seen.append(type(store).__name__)
        return [query]

    DEFINITIONS.clear()
    driver = RecordingDriver(catalogue(), [], {})
    driver._compile(retrieve=find_tools)
    await driver.begin_request("A")
    answer = (await driver.model_step("A", [parse_call({"invoke": "find_tools", "arguments": {"query": "tool_1"}})]))
    await driver.close()
    return {"definitions": DEFINITIONS[0], "answer": answer.answers[0].text, "next": answer.next_tools,
            "store_injected": seen}


@probe
async def threads_checkpointer_rebuild_trim() -> Any:
    driver = BigtoolDriver(catalogue(), [], {})
    await driver.begin_request("A")
    await step(driver, "A", {"load": "tool_2"})
    await driver.end_request("A")
    out: dict[str, Any] = {"same_thread": (await driver.begin_request("A"))["tools"]}
    await driver.end_request("A")
    out["new_thread"] = (await driver.begin_request("B"))["tools"]
    await driver.end_request("B")
    await driver.rebuild("kept")
    out["rebuild_kept"] = (await driver.begin_request("A"))["tools"]
    await driver.end_request("A")
    out["trim"] = await driver.trim("A", 0)
    out["after_trim"] = await driver.begin_request("A")
    await driver.end_request("A")
    out["trim_keep_2"] = await driver.trim("A", 2)
    out["after_trim_keep_2"] = await driver.begin_request("A")
    await driver.end_request("A")
    await driver.rebuild("reset")
    out["rebuild_reset"] = (await driver.begin_request("A"))["tools"]
    await driver.close()
    none = BigtoolDriver(catalogue(), [], {"checkpointer": False})
    await none.begin_request("A")
    await step(none, "A", {"load": "tool_2"})
    await none.end_request("A")
    out["no_checkpointer_same_thread"] = (await none.begin_request("A"))["tools"]
    await none.close()
    return out


@probe
async def seeds_empty_input_overwrite_delete() -> Any:
    driver = BigtoolDriver(catalogue(), ["tool_4"], {})
    out: dict[str, Any] = {"seeded_first": (await driver.begin_request("A"))["tools"]}
    out["retrieve_seeded_again"] = await step(driver, "A", {"load": "tool_4"})
    await driver.end_request("A")
    plain = BigtoolDriver(catalogue(), [], {})
    await plain.begin_request("A")
    await step(plain, "A", {"load": "tool_2"})
    await plain.end_request("A")
    plain._pending_input["A"] = {"selected_tool_ids": []}
    out["empty_list_input"] = (await plain.begin_request("A"))["tools"]
    await plain.end_request("A")
    try:
        out["overwrite"] = await plain.reset("overwrite", "A", ["tool_1"])
        out["after_overwrite"] = (await plain.begin_request("A"))["tools"]
        await plain.end_request("A")
    except ValueError as error:
        out["overwrite"] = str(error)
    out["delete_thread"] = await plain.reset("delete_thread", "A")
    out["after_delete_thread"] = (await plain.begin_request("A"))["tools"]
    await plain.close()
    await driver.close()
    return out


@probe
async def hidden_and_unknown_calls() -> Any:
    driver = BigtoolDriver(catalogue(), [], {})
    await driver.begin_request("A")
    out = {"never_selected": await step(driver, "A", {"invoke": "tool_3", "arguments": {"x": "b"}})}
    if "A" in driver._requests:
        out["ghost"] = await step(driver, "A", {"invoke": "ghost", "arguments": {}})
    else:
        await driver.begin_request("B")
        out["ghost_new_thread"] = await step(driver, "B", {"invoke": "ghost", "arguments": {}})
    await driver.begin_request("C")
    await step(driver, "C", {"load": "tool_1"})
    out["selected_then_called"] = await step(driver, "C", {"invoke": "tool_1", "arguments": {"x": "a"}})
    out["state_after"] = await driver.state("C")
    await driver.close()
    return out


@probe
async def after_a_crash() -> Any:
    """What the thread keeps when a request ends in an exception (the default set's crash), and the next request."""
    driver = BigtoolDriver(catalogue(), [], {})
    await driver.begin_request("A")
    await step(driver, "A", {"load": "tool_2"})
    crashed = await step(driver, "A", {"invoke": "tool_2", "arguments": {"x": "a"}})
    if crashed["ended"] is None:
        await driver.end_request("A")
    snapshot = await driver.graph.aget_state(driver._config("A"))
    out: dict[str, Any] = {"step": crashed, "state": await driver.state("A"),
                           "state_messages": [type(m).__name__ for m in snapshot.values["messages"]],
                           "state_next": list(snapshot.next)}
    out["next_request"] = await driver.begin_request("A")
    pending = driver._requests["A"].pending
    out["next_request_messages"] = [type(m).__name__ for m in pending.messages]
    await driver.close()
    return out


@probe
async def update_state_without_as_node() -> Any:
    driver = BigtoolDriver(catalogue(), [], {})
    await driver.begin_request("A")
    await driver.end_request("A")
    try:
        await driver.graph.aupdate_state(driver._config("A"), {"selected_tool_ids": ["tool_1"]})
        result = "accepted"
    except Exception as error:  # noqa: BLE001 - the probe reports whatever langgraph raises
        result = describe_error(error)
    await driver.close()
    try:
        from langchain_core.embeddings import DeterministicFakeEmbedding
        DeterministicFakeEmbedding(size=4).embed_query("x")
        fake = "works"
    except Exception as error:  # noqa: BLE001 - the probe reports whatever it raises
        fake = describe_error(error)
    return {"update_state": result, "DeterministicFakeEmbedding": fake,
            "numpy_installed": importlib.util.find_spec("numpy") is not None}


@probe
async def reducer_duplicates_and_missing_ids() -> Any:
    """Graphs compiled with retrieve_tools_functions returning a duplicate or an id not in the registry."""
    out: dict[str, Any] = {}

    def retrieve_tools(query: str) -> list[str]:
        """Return the query's comma-separated ids as they are."""
        return query.split(",")

    for name, query in (("duplicate", "tool_2,tool_2"), ("missing_id", "ghost")):
        driver = BigtoolDriver(catalogue(), [], {})
        driver._compile(retrieve=retrieve_tools)
        await driver.begin_request("A")
        out[name] = await step(driver, "A", {"search": query})
        out[f"{name}_state"] = await driver.state("A")
        await driver.close()
    shrinking = BigtoolDriver(catalogue(), [], {})
    await shrinking.begin_request("A")
    await step(shrinking, "A", {"load": "tool_4"})
    await shrinking.end_request("A")
    del shrinking.tools["tool_4"]
    shrinking._compile()
    out["smaller_registry_same_checkpointer"] = [await shrinking.begin_request("A") for _ in range(1)]
    out["smaller_registry_again"] = await shrinking.begin_request("A")
    out["smaller_registry_other_thread"] = (await shrinking.begin_request("B"))["tools"]
    await shrinking.close()
    return out


@probe
async def random_catalogue() -> Any:
    rng = random.Random(26)
    alphabet = string.ascii_letters + string.digits + "_-"
    names: list[str] = []
    while len(names) < 30:
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 12)))
        if name not in names:
            names.append(name)
    words = ["fetch", "mail", "database", "chart", "weather", "calendar", "files", "search"]
    tools = [{"name": n, "description": " ".join(rng.choice(words) for _ in range(3))} for n in names]
    out: dict[str, Any] = {"names": names}
    for retrieval in ("store", "names"):
        driver = BigtoolDriver(tools, [], {"retrieval": retrieval, "limit": 3})
        await driver.begin_request("A")
        picked = rng.sample(names, 5)
        loads = [await step(driver, "A", {"load": name}) for name in picked[:3]]
        batch = await step(driver, "A", {"load": picked[3:]})
        unknown = "".join(rng.choice(string.ascii_lowercase) for _ in range(9))
        unknown_answer = await step(driver, "A", {"load": unknown})
        await driver.end_request("A")
        next_request = (await driver.begin_request("A"))["tools"]
        out[retrieval] = {"picked": picked, "load_texts": [load["texts"][0] for load in loads], "batch": batch,
                          "unknown": unknown, "unknown_answer": unknown_answer["texts"], "next_request": next_request,
                          "state": await driver.state("A")}
        await driver.close()
    return out


async def main(names: list[str]) -> None:
    """Run the named probes (all when none) and print their observations as JSON."""
    warnings.simplefilter("ignore")
    out: dict[str, Any] = {}
    for name in names or list(PROBES):
        try:
            out[name] = jsonable(await PROBES[name]())
        except Exception as error:  # noqa: BLE001 - a failing probe is an observation too
            out[name] = f"PROBE FAILED {describe_error(error)}"
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
