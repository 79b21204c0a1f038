"""``pas extract mcp PATH``: saved tools/list results, problems at the file's line and JSON pointer (no SDK needed)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[4]
WORKSPACE = ROOT / "conformance" / "examples" / "mcp" / "workspace.json"
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def _dump(folder: Path, name: str, doc: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


def _extract(tmp_path: Path, *paths: Path, strict: bool = False) -> tuple[int, Path]:
    out = tmp_path / "out"
    return main(["extract", "mcp", *map(str, paths), "--out", str(out), *(["--strict"] if strict else [])]), out


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_example_listing_becomes_one_plugin_with_a_method_per_tool(tmp_path, capsys):
    code, out = _extract(tmp_path, WORKSPACE)
    assert code == 0
    doc, listing = _load(out / "team_workspace.yaml"), json.loads(WORKSPACE.read_text(encoding="utf-8"))
    assert [m["name"] for m in doc["methods"]] == [t["name"] for t in listing["tools"]]
    assert [m["parameters"] for m in doc["methods"]] == [t["inputSchema"] for t in listing["tools"]]
    assert doc["sleep_brief"] == listing["instructions"]
    assert doc["description"] == listing["instructions"] + "\n\nMCP server team-workspace 1.4.0, 12 tools: " + \
        ", ".join(t["name"] for t in listing["tools"]) + "."
    assert doc["version"] == "1.4.0" and "x-pas-guessed" not in doc
    capsys.readouterr()
    assert main(["validate", "--strict", "--format", "text", str(out)]) == 0, capsys.readouterr().out


def test_a_json_rpc_response_a_folder_and_names_that_are_no_identifiers(tmp_path, capsys):
    folder = tmp_path / "listings"
    _dump(folder, "weather.json", {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
        {"name": "get-forecast", "description": "Forecast for a city.", "inputSchema": SCHEMA}]}})
    _dump(folder, "0search.json", {"tools": [{"name": "1st.query", "description": "Search.", "inputSchema": SCHEMA}]})
    code, out = _extract(tmp_path, folder)
    err = capsys.readouterr().err
    assert code == 0
    weather = _load(out / "weather.yaml")  # no serverInfo: the file's name stands for the server's
    assert weather["methods"][0]["name"] == "get_forecast" and weather["methods"][0]["x-mcp-name"] == "get-forecast"
    assert weather["x-pas-guessed"] == ["sleep_brief", "version"]
    assert weather["sleep_brief"] == "weather (MCP server, 1 tools): get-forecast: Forecast for a city."
    assert _load(out / "mcp_0search.yaml")["methods"][0]["name"] == "_1st_query"
    assert "weather.json:7:13: warning mcp-tool-name tool 'get-forecast' is not an identifier" in err
    assert "[/result/tools/0/name]" in err
    assert "warning mcp-guessed-text the server gives no instructions" in err


def test_tool_problems_are_reported_at_the_file_line_and_the_tool_is_kept_or_left_out(tmp_path, capsys):
    big = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 100} for i in range(80)}}
    path = _dump(tmp_path / "l", "srv.json", {"serverInfo": {"name": "srv", "version": "2.0.0"}, "instructions": "Srv.",
                                               "nextCursor": "page-2", "tools": [
        {"name": "quiet", "inputSchema": SCHEMA},
        {"name": "huge", "description": "Takes many options.", "inputSchema": big},
        {"name": "broken", "description": "No schema."},
        {"name": "quiet", "description": "Same name again.", "inputSchema": SCHEMA},
        "not a tool"]})
    code, out = _extract(tmp_path, path)
    err = capsys.readouterr().err
    assert code == 0
    assert [m["name"] for m in _load(out / "srv.yaml")["methods"]] == ["quiet", "huge"]
    for expected in ("warning mcp-tool-without-description tool 'quiet' has no description",
                     "warning mcp-oversized-schema tool 'huge' has an input schema of",
                     "warning mcp-tool-left-out tool 'broken' has no inputSchema object",
                     "warning mcp-tool-left-out tool 'quiet' becomes the method name 'quiet', as tool 'quiet' did",
                     "warning mcp-tool-left-out a tool without a name is left out",
                     "warning mcp-incomplete-list the listing says more pages follow"):
        assert expected in err, expected
    assert "srv.json:9:3: warning mcp-tool-without-description" in err
    assert _extract(tmp_path, path, strict=True)[0] == 1


def test_pas_validate_reports_a_generated_manifests_problem_at_the_listings_line(tmp_path, capsys):
    path = _dump(tmp_path / "l", "srv.json", {"serverInfo": {"name": "srv", "version": "1.0.0"}, "instructions": "S.",
                                               "tools": [{"name": "quiet", "inputSchema": SCHEMA}]})
    _, out = _extract(tmp_path, path)
    capsys.readouterr()
    main(["validate", "--format", "text", str(out)])
    printed = capsys.readouterr().out
    assert "srv.json:8:3: warning method-without-description" in printed


def test_files_that_are_no_listing_exit_1_and_missing_or_broken_ones_as_pas_validate(tmp_path, capsys):
    other = _dump(tmp_path / "l", "other.json", {"hello": "world"})
    assert _extract(tmp_path, other)[0] == 1
    assert 'other.json:1:1: error mcp-not-a-tool-list the file holds no MCP tools/list result' in capsys.readouterr().err
    broken = tmp_path / "l" / "broken.json"
    broken.write_text('{"tools": [', encoding="utf-8")
    assert _extract(tmp_path, broken)[0] == 1
    assert "yaml-syntax" in capsys.readouterr().err
    assert _extract(tmp_path, tmp_path / "missing.json")[0] == 2
    (tmp_path / "empty").mkdir()
    assert _extract(tmp_path, tmp_path / "empty")[0] == 2
    assert "the folder holds no .json file" in capsys.readouterr().err


def test_a_server_name_without_usable_characters_is_an_error_and_two_servers_of_one_name_a_duplicate(tmp_path, capsys):
    folder = tmp_path / "l"
    _dump(folder, "a.json", {"serverInfo": {"name": "天气"}, "tools": []})
    _dump(folder, "b.json", {"serverInfo": {"name": "same"}, "instructions": "One.", "tools": []})
    _dump(folder, "c.json", {"serverInfo": {"name": "Same"}, "instructions": "Two.", "tools": []})
    code, out = _extract(tmp_path, folder)
    err = capsys.readouterr().err
    assert code == 1
    assert "error mcp-module-name the server's name '天气' has no letter or digit" in err
    assert "duplicate-module-name module_name 'same' was already extracted" in err
    assert [p.name for p in out.glob("*.yaml")] == ["same.yaml"]


def test_a_long_list_of_tools_without_instructions_gets_a_brief_of_names_within_its_limit(tmp_path):
    from conformance.tools.extract.mcp_tools import BRIEF_CHARS

    tools = [{"name": f"tool_number_{i}", "description": f"Does thing {i} very thoroughly. More.", "inputSchema": SCHEMA}
             for i in range(60)]
    _, out = _extract(tmp_path, _dump(tmp_path / "l", "many.json", {"tools": tools}))
    brief = _load(out / "many.yaml")["sleep_brief"]
    assert len(brief) <= BRIEF_CHARS and brief.startswith("many (MCP server, 60 tools): tool_number_0, ")
    assert brief.endswith("more")
