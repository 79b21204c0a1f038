"""Probes behind FACTS-CHECKED.md: each claim of hosts-facts.md section 1, run against MAF 1.23.0's real code.

    ~/.cache/pas/agent-framework-venv/bin/python examples/agent-framework/check_facts.py [probe ...]

Prints one JSON object: probe name -> what was observed (or the exception). Most probes go through
driver.py; a few look at MAF's objects directly (named in the probe). `random_catalogue` uses a
seeded random catalogue of 30 tools nobody designed (seed 25), including names MAF must normalise.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import string
import subprocess
import sys
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

from driver import MafDriver
from driver_protocol import jsonable, parse_call
from scripted_driver import describe_error

PROBES: dict[str, Callable[[], Awaitable[Any]]] = {}


def probe(fn: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    """Register a probe under its function name."""
    PROBES[fn.__name__] = fn
    return fn


def catalogue(n: int = 5) -> list[dict[str, Any]]:
    """tool_0..tool_{n-1}, one string parameter x."""
    return [{"name": f"tool_{i}", "description": f"Fake tool {i}",
             "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}} for i in range(n)]


async def step(driver: MafDriver, thread: str, *calls: dict[str, Any]) -> dict[str, Any]:
    """One model step, in short (StepResult.brief)."""
    return (await driver.model_step(thread, [parse_call(c) for c in calls])).brief()


@probe
async def first_request_and_prefix() -> Any:
    plain = await MafDriver.open(catalogue(), ["tool_0"])
    prefixed = await MafDriver.open(catalogue(), ["tool_0"], {"tool_name_prefix": "srv"})
    try:
        return {"plain": (await plain.begin_request("A"))["tools"], "prefixed": (await prefixed.begin_request("A"))["tools"],
                "prefixed_load": await step(prefixed, "A", {"invoke": "srv_load_tool", "arguments": {"tool": "tool_2"}})}
    finally:
        await plain.close()
        await prefixed.close()


@probe
async def loader_definitions() -> Any:
    """Looks at MCPTool.functions directly: name, description, parameters, approval mode of each loader."""
    driver = await MafDriver.open(catalogue(), [])
    try:
        return [{"name": f.name, "description": f.description, "parameters": f.parameters(),
                 "approval_mode": f.approval_mode} for f in driver.tool.functions[:3]]
    finally:
        await driver.close()


@probe
async def progressive_needs_load_tools() -> Any:
    from agent_framework import MCPStdioTool
    try:
        MCPStdioTool(name="x", command="true", use_progressive_disclosure=True, load_tools=False)
    except ValueError as error:
        return f"ValueError: {error}"
    return "no error"


@probe
async def result_texts() -> Any:
    driver = await MafDriver.open(catalogue(), ["tool_0"])
    try:
        await driver.begin_request("A")
        out = {"batch": await step(driver, "A", {"load": "tool_2"})}
        out["mixed"] = await step(driver, "A", {"load": ["tool_4", "nope", "tool_1", "tool_4", "tool_2"]})
        out["always_and_empty"] = await step(driver, "A", {"load": "tool_0"}, {"load": []})
        out["unloads"] = await step(driver, "A", {"unload": "tool_3"}, {"unload": "tool_0"}, {"unload": "load_tool"},
                                    {"unload": ["tool_1", "tool_1"]}, {"unload": "nope"})
        out["non_string"] = await step(driver, "A", {"invoke": "load_tool", "arguments": {"tool": 5}})
        out["list"] = json.loads((await driver.model_step("A", [parse_call({"list": True})])).answers[0].text or "null")
        out["hidden_call"] = await step(driver, "A", {"invoke": "tool_3", "arguments": {"x": "b"}})
        return out
    finally:
        await driver.close()


@probe
async def loader_outside_run() -> Any:
    """Invokes the load_tool FunctionTool directly, outside any agent run."""
    driver = await MafDriver.open(catalogue(), [])
    try:
        await driver.tool.functions[1].invoke(arguments={"tool": "tool_1"})
    except Exception as error:  # noqa: BLE001 - the probe reports whatever MAF raises
        return f"{type(error).__name__}: {error}"
    finally:
        await driver.close()
    return "no error"


@probe
async def loader_name_collision() -> Any:
    driver = await MafDriver.open([*catalogue(2), {"name": "load_tool", "description": "server tool named load_tool"}], [])
    try:
        first = await driver.begin_request("A")
        return {"first": first["tools"], "load": await step(driver, "A", {"load": "load_tool"}),
                "list_names": [t["name"] for t in json.loads(
                    (await driver.model_step("A", [parse_call({"list": True})])).answers[0].text or "[]")]}
    finally:
        await driver.close()


@probe
async def sharing_across_sessions() -> Any:
    driver = await MafDriver.open(catalogue(), ["tool_0"])
    try:
        await driver.begin_request("A")
        await step(driver, "A", {"load": "tool_2"})
        await driver.end_request("A")
        b_first = (await driver.begin_request("B"))["tools"]
        b_unload = await step(driver, "B", {"unload": "tool_2"})
        await driver.end_request("B")
        a_next = (await driver.begin_request("A"))["tools"]
        await step(driver, "A", {"load": "tool_3"})
        await driver.end_request("A")
        await driver.rebuild("kept")
        new_agent = (await driver.begin_request("C"))["tools"]
        await driver.end_request("C")
        return {"b_first": b_first, "b_unload": b_unload, "a_after_b_unload": a_next, "new_agent_same_tool": new_agent}
    finally:
        await driver.close()


@probe
async def order_between_runs() -> Any:
    driver = await MafDriver.open(catalogue(), ["tool_0"])
    try:
        await driver.begin_request("A")
        await step(driver, "A", {"load": "tool_2"})
        end_of_run = await step(driver, "A", {"load": ["tool_4", "tool_1"]})
        await driver.end_request("A")
        return {"end_of_run": end_of_run["next"], "next_run": (await driver.begin_request("A"))["tools"]}
    finally:
        await driver.close()


@probe
async def within_run_unload_and_same_step() -> Any:
    driver = await MafDriver.open(catalogue(), [])
    try:
        await driver.begin_request("A")
        out = {"load": await step(driver, "A", {"load": "tool_1"}),
               "unload_and_call_same_step": await step(driver, "A", {"unload": "tool_1"},
                                                       {"invoke": "tool_1", "arguments": {"x": "a"}}),
               "after_unload": await step(driver, "A", {"invoke": "tool_1", "arguments": {"x": "b"}})}
        await step(driver, "A", {"load": "tool_2"})
        out["load_and_unload_same_step"] = await step(driver, "A", {"load": "tool_3"}, {"unload": "tool_3"})
        out["loaded_set_after"] = (await driver.state())["loaded"]
        return out
    finally:
        await driver.close()


@probe
async def resets_and_rebuilds() -> Any:
    out: dict[str, Any] = {}
    for transport in ("memory", "stdio"):
        driver = await MafDriver.open(catalogue(), [], {"transport": transport})
        try:
            await driver.begin_request("A")
            await step(driver, "A", {"load": "tool_2"})
            await driver.end_request("A")
            pids = _server_pids()
            closed = await driver.reset("close")
            after_close = (await driver.begin_request("A"))["tools"]
            await driver.end_request("A")
            restarted = _server_pids() != pids if transport == "stdio" else None
            reconnected = await driver.reset("reconnect")
            await driver.rebuild("reset")
            out[transport] = {"close": closed, "after_close": after_close, "server_process_restarted": restarted,
                              "reconnect": reconnected, "new_instance": (await driver.begin_request("A"))["tools"]}
        finally:
            await driver.close()
    return out


def _server_pids() -> list[int]:
    """Child processes of this process running catalogue_server.py."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as stream:
                    if b"catalogue_server.py" in stream.read():
                        found.append(int(entry))
            except OSError:
                continue
    return sorted(found)


@probe
async def tools_list_changed_drops_missing() -> Any:
    """The server stops listing tool_2; MCPTool.load_tools() is what a tools/list_changed notification runs (_mcp.py:1862)."""
    driver = await MafDriver.open(catalogue(), [])
    try:
        await driver.begin_request("A")
        await step(driver, "A", {"load": ["tool_1", "tool_2"]})
        await driver.end_request("A")
        before = (await driver.state())["loaded"]
        driver.catalogue[:] = [t for t in driver.catalogue if t["name"] != "tool_2"]
        await driver.tool.load_tools()
        return {"before": before, "after": (await driver.state())["loaded"],
                "next_run": (await driver.begin_request("A"))["tools"]}
    finally:
        await driver.close()


@probe
async def prompts_are_deferred_too() -> Any:
    """A low-level server with one tool and one prompt; MCPTool with load_prompts left at its default (True)."""
    import mcp_types as types
    from agent_framework import MCPStdioTool
    from mcp import Client
    from mcp.server.lowlevel import Server

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="tool_0", description="t", input_schema={"type": "object"})])

    async def on_list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt(name="greeting", description="A greeting prompt")])

    async def on_get_prompt(ctx: Any, params: Any) -> types.GetPromptResult:
        text = types.TextContent(text="Hello!")
        return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=text)])

    server = Server("p", on_list_tools=on_list_tools, on_list_prompts=on_list_prompts, on_get_prompt=on_get_prompt)
    async with Client(server) as client:
        tool = MCPStdioTool(name="p", mcp_client=client, use_progressive_disclosure=True)
        async with tool:
            initial = [f.name for f in tool.functions]
            everything = [f.name for f in tool._filtered_functions()]
    driver = await MafDriver.open(catalogue(1), [])
    driver._server = server  # serve the prompt too: reconnect the driver's MCPTool to this server
    await driver.rebuild("reset")
    try:
        first = (await driver.begin_request("A"))["tools"]
        loaded = await step(driver, "A", {"load": "greeting"}, {"list": True})
        return {"initial_functions": initial, "all_functions": everything, "first": first, "load_prompt": loaded}
    finally:
        await driver.close()


@probe
async def normalised_name_collision() -> Any:
    """Two catalogue names that MAF normalises to the same local name ('a b' and 'a-b')."""
    try:
        driver = await MafDriver.open([{"name": "a b"}, {"name": "a-b"}, {"name": "c"}], [])
    except Exception as error:  # noqa: BLE001 - the probe reports whatever MAF raises
        return f"open failed: {describe_error(error)}"
    try:
        return {"first": await driver.begin_request("A"), "load": await step(driver, "A", {"load": ["a b", "a-b", "c"]})}
    finally:
        await driver.close()


@probe
async def compaction_keeps_tools() -> Any:
    driver = await MafDriver.open(catalogue(), [], {"compaction_keep_last_groups": 1})
    try:
        await driver.begin_request("A")
        await step(driver, "A", {"load": "tool_2"})
        await driver.end_request("A")
        second = await driver.begin_request("A")
        await driver.end_request("A")
        third = await driver.begin_request("A")
        trimmed = await driver.end_request("A")
        trim = await driver.trim("A", 0)
        after_trim = await driver.begin_request("A")
        return {"second": second, "third": third, "end": trimmed, "trim": trim, "after_trim": after_trim}
    finally:
        await driver.close()


@probe
async def concurrent_listing_disagrees() -> Any:
    driver = await MafDriver.open(catalogue(), [])
    try:
        await driver.begin_request("B")
        await driver.begin_request("A")
        a_load = await step(driver, "A", {"load": "tool_1"})
        b_list = await driver.model_step("B", [parse_call({"list": True})])
        listed = {t["name"]: t["loaded"] for t in json.loads(b_list.answers[0].text or "[]")}
        b_call = await step(driver, "B", {"invoke": "tool_1", "arguments": {"x": "a"}})
        return {"a_load": a_load, "b_list_tool_1_loaded": listed.get("tool_1"), "b_next_after_list": b_list.next_tools,
                "b_call": b_call}
    finally:
        await driver.close()


@probe
async def consecutive_hidden_calls() -> Any:
    """Four steps in a row each calling a hidden tool (an error for MAF's loop)."""
    driver = await MafDriver.open(catalogue(), [])
    try:
        await driver.begin_request("A")
        steps = []
        for _ in range(4):
            result = await driver.model_step("A", [parse_call({"invoke": "tool_3", "arguments": {}})])
            steps.append({"text": result.answers[0].text, "error": result.answers[0].error,
                          "next": result.next_tools, "tool_choice": result.tool_choice, "ended": result.ended})
            if result.next_tools is None:
                break
        return steps
    finally:
        await driver.close()


@probe
async def no_cap_on_loads() -> Any:
    driver = await MafDriver.open(catalogue(40), [])
    try:
        await driver.begin_request("A")
        loaded = await step(driver, "A", {"load": [f"tool_{i}" for i in range(40)]})
        listed = json.loads((await driver.model_step("A", [parse_call({"list": True})])).answers[0].text or "[]")
        return {"next_count": len(loaded["next"] or ()), "listed": len(listed)}
    finally:
        await driver.close()


@probe
async def random_catalogue() -> Any:
    rng = random.Random(25)
    alphabet = string.ascii_letters + string.digits + "_-. /ä"
    names: list[str] = []
    while len(names) < 30:
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        if name not in names and name.strip():
            names.append(name)
    tools = [{"name": n, "description": " ".join(rng.choice(["fetch", "mail", "db", "chart", "x"]) for _ in range(3))}
             for n in names]
    always = rng.sample(names, 3)
    driver = await MafDriver.open(tools, always)
    try:
        first = (await driver.begin_request("A"))["tools"]
        picked = rng.sample([n for n in names if n not in always], 6)
        loaded = await step(driver, "A", {"load": picked})
        unknown = ["".join(rng.choice(string.ascii_lowercase) for _ in range(8)) for _ in range(3)]
        unknown_answer = await step(driver, "A", {"load": unknown}, {"unload": unknown[0]})
        await driver.end_request("A")
        next_run = (await driver.begin_request("A"))["tools"]
        return {"names": names, "always": always, "first": first, "picked": picked, "after_load": loaded,
                "unknown": unknown, "unknown_answer": unknown_answer, "next_run": next_run}
    finally:
        await driver.close()


@probe
async def tenacity_missing() -> Any:
    """Runs a child with tenacity made unimportable (sys.modules entry None) and opens the driver."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = (f"import sys; sys.modules['tenacity'] = None; sys.path.insert(0, {here!r}); import asyncio\n"
            "from driver import MafDriver\n"
            "async def main():\n d = await MafDriver.open([{'name': 'a'}], [])\n print((await d.begin_request('A'))['tools'])\n"
            "asyncio.run(main())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    lines = (done.stderr + done.stdout).splitlines()
    return {"returncode": done.returncode, "lines_naming_tenacity": sorted({line.strip() for line in lines
                                                                          if "tenacity" in line.lower()})}


@probe
async def mcpserver_in_process() -> Any:
    """MCPServer (the FastMCP successor) connected in-process with mcp.Client; a tool parameter starting with _."""
    from mcp import Client
    from mcp.server.mcpserver import MCPServer
    server = MCPServer("fake")

    def ping(x: str) -> str:
        return x

    server.add_tool(ping, name="ping", description="Ping.")
    async with Client(server) as client:
        listed = [t.name for t in (await client.list_tools()).tools]
    underscore: str
    try:
        def bad(_x: str) -> str:
            return _x
        server.add_tool(bad, name="bad")
        underscore = "accepted"
    except Exception as error:  # noqa: BLE001 - the probe reports whatever the SDK raises
        underscore = f"{type(error).__name__}: {error}"
    return {"listed": listed, "underscore_parameter": underscore}


async def main(names: list[str]) -> None:
    """Run the named probes (all when none) and print their observations as JSON."""
    warnings.simplefilter("ignore")
    out: dict[str, Any] = {}
    for name in names or list(PROBES):
        try:
            out[name] = jsonable(await PROBES[name]())
        except Exception as error:  # noqa: BLE001 - a failing probe is an observation too
            out[name] = f"PROBE FAILED {describe_error(error)}"
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
