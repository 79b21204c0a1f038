"""``pas host plan`` and ``pas config explain``: output for people, exit codes, file locations."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conformance.cli.main import main

CORE = """\
name: Core
module_name: core
version: "1.0.0"
description: the core plugin
builtin: true
"""
WEATHER = """\
name: Weather
module_name: weather
version: "1.0.0"
description: weather reports
dependencies: [core, memory]
config:
  defaults:
    units: metric
    api:
      timeout_s: 10
      retries: 2
  schema:
    type: object
    properties:
      units: {enum: [metric, imperial]}
"""
NOTE = """\
name: Note
module_name: note
version: "1.0.0"
description: notes
dependencies: [weather]
"""
HOST = """\
kind: host-config
enabled: [weather, note, ghost]
config:
  weather:
    api:
      timeout_s: 5
"""


@pytest.fixture()
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A host config and a plugin folder; no PAS__ variables in the environment."""
    for name in [n for n in os.environ if n.startswith("PAS__")]:
        monkeypatch.delenv(name)
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "00_core.yaml").write_text(CORE)
    (plugins / "weather.yaml").write_text(WEATHER)
    (plugins / "note.yaml").write_text(NOTE)
    (tmp_path / "host.yaml").write_text(HOST)
    return tmp_path


def _pas(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_prints_orders_and_every_problem_with_file_line_and_pointer(world: Path, capsys) -> None:
    code, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert code == 1
    assert out.splitlines() == [
        "load order (3): core, weather, note",
        "setup order (1): core",
        "not set up (2): weather (invalid: missing-dependency), note (depends on invalid 'weather')",
        f"{world / 'host.yaml'}:2:26: warning plugin-not-found enabled plugin 'ghost' is not installed; "
        "it is skipped [/enabled/2]",
        f"{world / 'plugins' / 'weather.yaml'}:5:22: error missing-dependency plugin 'weather' depends on "
        "'memory', which is not installed; install it or remove the dependency [/dependencies/1]",
        "1 error(s), 1 warning(s)",
    ]


def test_plan_exits_zero_when_there_are_only_warnings(world: Path, capsys) -> None:
    (world / "plugins" / "memory.yaml").write_text(CORE.replace("core", "memory").replace("builtin: true\n", ""))
    (world / "host.yaml").write_text(HOST.replace("[weather, note, ghost]", "[memory, weather, note, ghost]"))
    code, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert code == 0
    assert "setup order (4): core, memory, weather, note" in out


def test_plan_reads_pas_variables_and_locates_a_config_error_at_the_variable(world: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PAS__WEATHER__UNITS", "kelvin")
    _, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert ("$PAS__WEATHER__UNITS: error invalid-config plugin 'weather' config at /units: 'kelvin' is not one "
            "of ['metric', 'imperial']") in out.splitlines()


def test_plan_as_json_lists_orders_and_problems(world: Path, capsys) -> None:
    code, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"),
                        "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["load_order"] == ["core", "weather", "note"]
    assert doc["blocked"] == {"note": "weather"}
    assert [p["code"] for p in doc["problems"]] == ["plugin-not-found", "missing-dependency"]
    assert doc["problems"][1]["source"]["line"] == 5


def test_plan_reports_an_invalid_manifest_in_the_folder_and_plans_without_it(world: Path, capsys) -> None:
    (world / "plugins" / "broken.yaml").write_text("name: B\nmodule_name: 9bad\n")
    code, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert code == 1
    assert f"{world / 'plugins' / 'broken.yaml'}:1:1: error schema" in out


def test_plan_reports_a_second_manifest_with_the_same_module_name(world: Path, capsys) -> None:
    (world / "plugins" / "zz_core.yaml").write_text(CORE)
    _, out, _ = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert f"{world / 'plugins' / 'zz_core.yaml'}:2:14: error duplicate-module-name" in out


@pytest.mark.parametrize("missing", ["host.yaml", "plugins"])
def test_plan_exits_two_when_an_input_cannot_be_read(world: Path, capsys, missing: str) -> None:
    host, plugins = world / "host.yaml", world / "plugins"
    args = [str(world / "nope.yaml") if missing == "host.yaml" else str(host),
            "--plugins", str(world / "nope") if missing == "plugins" else str(plugins)]
    code, _, err = _pas(capsys, "host", "plan", *args)
    assert code == 2
    assert "error path-not-found no such file or directory" in err  # as pas validate and pas simulate say it


def test_plan_exits_one_when_the_host_config_breaks_its_schema(world: Path, capsys) -> None:
    (world / "host.yaml").write_text("enabled: weather\n")
    code, _, err = _pas(capsys, "host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert code == 1
    assert "host.yaml:1:10: error schema" in err


def test_host_without_a_subcommand_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["host"])
    assert exit_.value.code == 2


def test_explain_shows_each_value_with_its_layer_and_where_it_was_set(world: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PAS__WEATHER__UNITS", "imperial")
    code, out, _ = _pas(capsys, "config", "explain", str(world / "host.yaml"), "weather",
                        "--plugins", str(world / "plugins"), "--set", "weather.api.retries=5")
    assert code == 0
    assert out.splitlines() == [
        "weather",
        "  KEY             VALUE       LAYER         SOURCE",
        '  /units          "imperial"  environment   $PAS__WEATHER__UNITS',
        f"  /api/timeout_s  5           file          {world / 'host.yaml'}:6:18",
        "  /api/retries    5           command_line  --set weather.api.retries=5",
    ]


def test_explain_without_a_module_shows_every_loaded_plugin(world: Path, capsys) -> None:
    code, out, _ = _pas(capsys, "config", "explain", str(world / "host.yaml"), "--plugins", str(world / "plugins"))
    assert code == 0
    assert out.split("\n\n")[0] == "core\n  (no configuration)"
    assert f"  /units          \"metric\"  defaults  {world / 'plugins' / 'weather.yaml'}:8:12" in out


def test_explain_as_json_gives_config_provenance_and_source(world: Path, capsys) -> None:
    _, out, _ = _pas(capsys, "config", "explain", str(world / "host.yaml"), "weather",
                     "--plugins", str(world / "plugins"), "--format", "json")
    weather = json.loads(out)["plugins"]["weather"]
    assert weather["config"] == {"units": "metric", "api": {"timeout_s": 5, "retries": 2}}
    assert weather["provenance"]["/api/timeout_s"] == {
        "layer": "file", "origin": {"kind": "host_config", "name": "", "pointer": "/config/weather/api/timeout_s"},
        "source": f"{world / 'host.yaml'}:6:18"}


def test_explain_exits_one_and_says_why_when_the_shown_config_is_invalid(world: Path, capsys) -> None:
    code, out, _ = _pas(capsys, "config", "explain", str(world / "host.yaml"), "weather",
                        "--plugins", str(world / "plugins"), "--set", "weather.units=kelvin")
    assert code == 1
    assert out.splitlines()[-1] == ("--set weather.units=kelvin: error invalid-config plugin 'weather' config at "
                                    "/units: 'kelvin' is not one of ['metric', 'imperial']")


@pytest.mark.parametrize(("argv", "message"), [
    (["ghost"], "plugin 'ghost' is not loaded (loaded: core, weather, note)"),
    (["--set", "weather"], "the override 'weather' is not of the form module.key=value"),
    (["--set", "nope.x=1"], "the override 'nope.x=1' names no installed plugin 'nope'"),
])
def test_explain_exits_two_on_usage_errors(world: Path, capsys, argv: list[str], message: str) -> None:
    code, _, err = _pas(capsys, "config", "explain", str(world / "host.yaml"), *argv,
                        "--plugins", str(world / "plugins"))
    assert code == 2
    assert err.strip() == f"pas config explain: {message}"


def test_plan_skips_host_configs_kept_in_the_plugin_folder(world: Path, capsys) -> None:
    (world / "plugins" / "other-host.yaml").write_text("enabled: [weather]\n")
    (world / "plugins" / "host.yaml").write_text(HOST.replace("kind: host-config\n", ""))
    code, out, _ = _pas(capsys, "host", "plan", str(world / "plugins" / "host.yaml"),
                        "--plugins", str(world / "plugins"))
    assert code == 1
    assert "error schema" not in out
    assert out.splitlines()[0] == "load order (3): core, weather, note"


def test_plan_applies_overrides_and_exits_two_on_a_malformed_one(world: Path, capsys) -> None:
    args = ["host", "plan", str(world / "host.yaml"), "--plugins", str(world / "plugins")]
    code, out, _ = _pas(capsys, *args, "--set", "weather.units=kelvin")
    assert code == 1
    assert "--set weather.units=kelvin: error invalid-config" in out
    code, _, err = _pas(capsys, *args, "--set", "weather")
    assert (code, err.strip()) == (2, "pas host plan: the override 'weather' is not of the form module.key=value")
