"""``pas extract mcp``: a real MCP server written with the SDK, asked over stdio, and the same listing saved.

The server is written here with the SDK's ``MCPServer`` (40 tools of varied signatures), started
by ``pas extract mcp -- python server.py``, and its listing saved with ``--save``; extracting the
saved listing must give the same manifest. Servers that do not start, exit, hang or speak
something else end with exit 2 and leave nothing running.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

# Whether the SDK is installed, not imported: importing it costs ~0.8 s of CPU, and every pytest-xdist worker
# collects this file; the tests import it when they extract.
if importlib.util.find_spec("mcp") is None:
    pytest.skip("the MCP Python SDK is not installed (pip install '.[mcp]')", allow_module_level=True)
pytestmark = pytest.mark.slow

SERVER = textwrap.dedent('''
    from typing import Literal

    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    app = MCPServer("acme-tools", instructions="Acme's forty test tools. Use them when the user asks about acme.")

    def make(index):
        if index % 4 == 0:
            def tool(city: str, days: int = 3) -> str:
                return city
        elif index % 4 == 1:
            def tool(query: str, limit: int = 10, exact: bool = False) -> list[str]:
                return [query]
        elif index % 4 == 2:
            def tool(unit: Literal["metric", "imperial"], values: list[float]) -> float:
                return sum(values)
        else:
            def tool() -> str:
                return "ok"
        return tool

    for index in range(40):
        app.add_tool(make(index), name=f"tool_{index:02d}", description=f"Tool number {index}. It does task {index}.",
                     annotations=ToolAnnotations(readOnlyHint=index % 2 == 0))

    if __name__ == "__main__":
        app.run()
''')


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The server extracted over stdio once: (exit code, out folder, saved listing path, stderr)."""
    folder = tmp_path_factory.mktemp("live")
    (folder / "server.py").write_text(SERVER, encoding="utf-8")
    out, saved = folder / "out", folder / "acme.json"
    code = main(["extract", "mcp", "--out", str(out), "--save", str(saved), "--timeout", "60", "--",
                 sys.executable, str(folder / "server.py")])
    return code, out, saved


def _manifest(folder: Path) -> dict:
    return yaml.safe_load((folder / "acme_tools.yaml").read_text(encoding="utf-8"))


def test_a_live_server_with_40_tools_gives_40_methods_whose_parameters_are_the_input_schemas(live):
    code, out, saved = live
    assert code == 0
    manifest, tools = _manifest(out), json.loads(saved.read_text(encoding="utf-8"))["tools"]
    assert len(tools) == len(manifest["methods"]) == 40
    for tool, method in zip(tools, manifest["methods"]):
        assert (method["name"], method["kind"], method["description"]) == (tool["name"], "tool", tool["description"])
        assert method["parameters"] == tool["inputSchema"]
        assert method["x-mcp-annotations"] == tool["annotations"]
    assert manifest["module_name"] == "acme_tools" and manifest["allow_sleep"] is True
    assert manifest["sleep_brief"] == manifest["description"].split(". ")[0] + "." or manifest["sleep_brief"]
    assert manifest["x-mcp-server"]["name"] == "acme-tools"


def test_the_saved_listing_extracts_to_the_same_manifest(live, tmp_path):
    _, out, saved = live
    again = tmp_path / "again"
    assert main(["extract", "mcp", str(saved), "--out", str(again)]) == 0
    # only the provenance comment differs: "from the server `...`" against "from .../acme.json"
    live_text = (out / "acme_tools.yaml").read_text(encoding="utf-8").splitlines()
    saved_text = (again / "acme_tools.yaml").read_text(encoding="utf-8").splitlines()
    assert live_text[2:] == saved_text[2:] and live_text[1] != saved_text[1]


def test_pas_validate_accepts_the_manifest_and_pas_simulate_runs_it(live, tmp_path, capsys):
    _, out, _ = live
    assert main(["validate", "--format", "text", str(out)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert main(["simulate", "--plugins", str(out), "--text", "run; activate acme_tools 2; run; run; run"]) == 0
    printed = capsys.readouterr().out
    assert "tool_39" in printed and 'state="sleeping"' in printed and 'state="active"' in printed


def test_the_all_awake_budget_is_the_tool_declarations_plus_one_block_frame(live):
    from conformance.tools.budget.measure import measure_budget
    from conformance.tools.budget.tokenizer import load_tokenizer
    from reference_impl.events import PluginView
    from reference_impl.model import Manifest, PluginState
    from reference_impl.render import render_block

    _, out, saved = live
    tokenizer = load_tokenizer("cl100k_base")
    budget = measure_budget(plugins=out, tokenizer=tokenizer, declarations=True)
    tools = json.loads(saved.read_text(encoding="utf-8"))["tools"]
    declarations = "\n".join(json.dumps({"name": t["name"], "description": t["description"],
                                         "input_schema": t["inputSchema"]}, separators=(",", ":")) for t in tools)
    awake = budget.runs[0].all_awake.tokens
    # The stated overhead: one plugin block frame (open tag, no methods, closing tag) and the newline before
    # the declarations. A token may merge across the seam, hence the one-token slack.
    manifest = Manifest.from_json({**_manifest(out), "methods": []})
    view = PluginView(module_name="acme_tools", state=PluginState.ALWAYS_AWAKE, rounds_left=None, hint=False,
                      brief_shown=False, methods_shown=True, injection_called=False)
    frame = tokenizer.count(render_block(manifest, view, with_injection=False) + "\n")
    assert abs(awake - (tokenizer.count(declarations) + frame)) <= 1, (awake, tokenizer.count(declarations), frame)
    assert frame < 60


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_a_server_that_hangs_exits_2_and_its_process_group_is_killed_children_too(tmp_path, capsys):
    pids = tmp_path / "pids"
    script = tmp_path / "hang.py"
    script.write_text(textwrap.dedent(f'''
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
        sys.stdin.read()  # answers nothing, and leaves when its input closes: its child would stay behind
    '''), encoding="utf-8")
    started = time.monotonic()
    code = main(["extract", "mcp", "--out", str(tmp_path / "out"), "--timeout", "3", "--", sys.executable, str(script)])
    err = capsys.readouterr().err
    assert code == 2
    assert "mcp-server-failed" in err and "no answer within 3 s" in err
    server, child = (int(word) for word in pids.read_text().split())
    deadline = time.monotonic() + 5
    while (_alive(server) or _alive(child)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(server) and not _alive(child)
    assert time.monotonic() - started < 30
    assert not (tmp_path / "out" / "hang.yaml").exists()


@pytest.mark.parametrize(("command", "reason"), [
    (["pas-no-such-command-anywhere"], "the command did not start"),
    ([sys.executable, "-c", "import sys; print('starting up', file=sys.stderr); sys.exit(3)"],
     "its standard error ends: starting up"),
    ([sys.executable, "-c", "import time; print('hello, I am not MCP', flush=True); time.sleep(60)"],
     "not an MCP (JSON-RPC) message on its standard output: 'hello, I am not MCP'"),
    (["cat"], "answered, but not as an MCP server"),
], ids=["missing", "exits", "not-json-rpc", "echo"])
def test_a_server_that_fails_exits_2_with_the_reason_and_no_traceback(tmp_path, capsys, command, reason):
    code = main(["extract", "mcp", "--out", str(tmp_path / "out"), "--timeout", "20", "--", *command])
    err = capsys.readouterr().err
    assert code == 2
    assert reason in err and "mcp-server-failed" in err
    assert "Traceback" not in err


def test_extract_mcp_without_a_listing_or_a_command_is_a_usage_error(tmp_path, capsys):
    assert main(["extract", "mcp", "--out", str(tmp_path)]) == 2
    assert "give saved tools/list results" in capsys.readouterr().err
    assert main(["extract", "mcp", str(tmp_path), "--save", "x.json", "--out", str(tmp_path)]) == 2
    assert os.path.exists(tmp_path) and "--save writes a live server's listing" in capsys.readouterr().err


def test_a_listing_that_cannot_be_saved_is_a_usage_error_not_a_traceback(tmp_path, capsys):
    server = Path(__file__).resolve().parents[4] / "conformance" / "examples" / "mcp" / "workspace_server.py"
    code = main(["extract", "mcp", "--out", str(tmp_path / "out"), "--save", str(tmp_path / "no" / "such" / "x.json"),
                 "--", sys.executable, str(server)])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write" in err and "internal error" not in err
