"""``pas simulate`` end to end through ``conformance.cli.main.main``: output, formats, exit codes."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.documents.plugin_set import load_plugin_set
from conformance.tools.simulate.script import parse_script
from conformance.tools.simulate.simulation import EXAMPLE_HOST, EXAMPLE_PLUGINS, EXAMPLES_DIR
from reference_impl.engine import Engine

ROW = re.compile(r"^ {4}(?P<plugin>\w+) +(?P<state>always_awake|active|sleeping) +(?P<rounds>\S+) +(?P<hint>\S+) +")


def _simulate(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _rows(out: str, plugin: str) -> list[tuple[str, str, str]]:
    """(state, rounds_left, hint) of ``plugin`` in every run table, in order."""
    return [(m["state"], m["rounds"], m["hint"]) for m in map(ROW.match, out.splitlines()) if m and m["plugin"] == plugin]


def _manifest(path: Path, module_name: str, extra: str = "") -> None:
    path.write_text(f"name: {module_name}\nmodule_name: {module_name}\nversion: 1.0.0\ndescription: d\n"
                    f"allow_sleep: true\nsleep_brief: A brief.\n{extra}", encoding="utf-8")


def test_the_default_invocation_shows_the_worked_example(capsys):
    code, out, err = _simulate(capsys)
    assert (code, err) == (0, "")
    assert _rows(out, "weather") == [
        ("sleeping", "-", "-"),
        ("active", "3", "-"),
        ("active", "2", "-"),
        ("active", "1", "hint"),
        ("sleeping", "-", "-"),
    ]
    assert "activate weather 3" in out and "-> activated  rounds=3  ends step" in out


def test_a_run_table_has_the_plugin_state_rounds_left_hint_and_shown_columns(capsys):
    code, out, _ = _simulate(capsys, "run")
    header = next(line for line in out.splitlines() if line.strip().startswith("plugin"))
    assert header.split() == ["plugin", "state", "rounds_left", "hint", "shown"]
    assert re.search(r"^ {4}basic +always_awake +- +- +methods inject$", out, re.M)
    assert re.search(r"^ {4}weather +sleeping +- +- +brief$", out, re.M)


def test_each_call_gets_an_outcome_line_with_kind_rounds_and_whether_the_step_ends(capsys):
    code, out, _ = _simulate(capsys, "run; activate weather; activate weather 2; extend weather 2; extend nosuch; "
                                     "strategy dice nope")
    assert code == 0
    assert "-> activated  rounds=3  ends step" in out
    assert "-> already_active  rounds=3  ends step" in out
    assert "-> extended  rounds=5  step continues" in out
    assert "-> not_found  rounds=-  step continues" in out
    assert "-> rejected: unknown strategy 'nope'" in out


def test_json_output_is_the_list_of_events_and_engine_observations(capsys):
    script = "run; activate weather 2; run; extend weather 2.5; strategy dice forbid_sleep; run other"
    code, out, _ = _simulate(capsys, "--format", "json", script)
    assert code == 0
    steps = json.loads(out)
    commands, _ = parse_script(script)
    engine = Engine(text=False)
    loaded = load_plugin_set(EXAMPLE_PLUGINS, EXAMPLE_HOST)
    engine.start(loaded.manifests, loaded.host)
    assert [s["event"] for s in steps] == [c.event.to_json() for c in commands]
    assert [s["observation"] for s in steps] == [engine.apply(c.event).to_json() for c in commands]
    assert [(s["line"], s["column"], s["command"]) for s in steps][1] == (1, 6, "activate weather 2")


def test_json_output_carries_the_reference_text_only_with_text(capsys):
    _, plain, _ = _simulate(capsys, "--format", "json", "run")
    _, with_text, _ = _simulate(capsys, "--format", "json", "--text", "run")
    assert "text" not in json.loads(plain)[0]["observation"]
    assert '<plugin name="Weather"' in json.loads(with_text)[0]["observation"]["text"]


def test_text_mode_shows_the_reference_prompt_and_reply_text(capsys):
    code, out, _ = _simulate(capsys, "--text", "run; activate weather 1; run; extend weather x; activate note")
    assert code == 0
    assert '<plugin name="Weather" module_name="weather" call_priority="auto" state="sleeping" rounds_left="0">' in out
    assert "Plugin `weather` is now activated for the next 1 runs." in out
    assert "Last visible run. Call extend_plugin_activation('weather') now if you still need it next run." in out
    assert "<injected_prompt>" in out and "[prompt injected by weather]" in out
    assert 'Invalid rounds value "x": rounds must be an integer.' in out
    assert '<plugin name="笔记插件" module_name="note" call_priority="auto" state="active" rounds_left="3">' in out


def test_a_script_file_is_read_and_its_errors_name_the_file(capsys, tmp_path):
    script = tmp_path / "tour.pas"
    script.write_text("run\n# comment\nactivate weather\nbogus 1\n", encoding="utf-8")
    code, out, err = _simulate(capsys, "--script", str(script))
    assert (code, out) == (2, "")
    assert err == (f"{script}:4:1: error unknown-command unknown command 'bogus'; commands: run, activate, extend, "
                   "strategy, enable, disable, scheduler, restart, request, end, rebuild, trim, idle, clear, load, "
                   "unload, search, list, invoke, conversation, adapter\n")


def test_script_errors_exit_2_with_script_line_and_column_and_no_traceback(capsys):
    code, out, err = _simulate(capsys, "run; activate weather 2 at; scheduler maybe")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "script:1:25: error unexpected-argument expected 'in CONV', not 'at' "
        "(usage: activate MODULE [ROUNDS] [in CONV])",
        "script:1:39: error bad-value 'scheduler' takes on or off, not 'maybe'",
    ]


def test_a_missing_script_file_is_an_input_error(capsys, tmp_path):
    code, _, err = _simulate(capsys, "--script", str(tmp_path / "none.pas"))
    assert code == 2
    assert err.startswith(f"{tmp_path / 'none.pas'}: error unreadable ")


def test_giving_the_script_twice_is_a_usage_error(capsys, tmp_path):
    code, _, err = _simulate(capsys, "--script", str(tmp_path / "x.pas"), "run")
    assert code == 2 and "not both" in err


def test_a_missing_plugin_folder_is_reported_and_exits_2(capsys, tmp_path):
    code, out, err = _simulate(capsys, "--plugins", str(tmp_path / "nope"), "run")
    assert (code, out) == (2, "")
    assert err == f"{tmp_path / 'nope'}: error path-not-found no such file or directory\n"  # as pas validate says


def test_an_empty_folder_is_path_not_found_and_one_without_manifests_is_no_manifests(capsys, tmp_path):
    code, _, err = _simulate(capsys, "--plugins", str(tmp_path), "run")
    assert code == 2 and "error path-not-found the folder holds no YAML or JSON file" in err
    (tmp_path / "host.yaml").write_text("enabled: [alpha]\n", encoding="utf-8")
    code, _, err = _simulate(capsys, "--plugins", str(tmp_path), "run")
    assert code == 2 and err == f"{tmp_path}: error no-manifests holds no plugin manifest (a document with " \
                                "module_name, or kind: plugin-manifest); give the folder of manifests\n"


def test_a_manifest_with_an_unknown_field_is_reported_with_line_column_and_pointer(capsys, tmp_path):
    _manifest(tmp_path / "a.yaml", "alpha", "colour: red\n")
    code, out, err = _simulate(capsys, "--plugins", str(tmp_path), "run")
    assert (code, out) == (1, "")  # an invalid document: exit 1, as from pas validate
    assert err == (f"{tmp_path / 'a.yaml'}:7:1: error schema unknown field(s) 'colour'; check the spelling or "
                   "prefix extensions with 'x-' [/colour]\n")


def test_two_manifests_with_one_module_name_are_reported_naming_both_files(capsys, tmp_path):
    _manifest(tmp_path / "a.yaml", "alpha")
    _manifest(tmp_path / "b.yaml", "alpha")
    code, _, err = _simulate(capsys, "--plugins", str(tmp_path), "run")
    assert code == 1
    assert err == (f"{tmp_path / 'b.yaml'}:2:14: error duplicate-module-name module_name 'alpha' is also declared at "
                   f"{tmp_path / 'a.yaml'}:2:14; module names must be unique [/module_name]\n")


def test_a_host_config_with_an_unknown_strategy_is_reported(capsys, tmp_path):
    (tmp_path / "plugins").mkdir()
    _manifest(tmp_path / "plugins" / "a.yaml", "alpha")
    host = tmp_path / "host.yml"
    host.write_text("kind: host-config\nenabled: [alpha]\nstrategies:\n  alpha: sometimes\n", encoding="utf-8")
    code, _, err = _simulate(capsys, "--plugins", str(tmp_path / "plugins"), "--host", str(host), "run")
    assert code == 1
    assert err.startswith(f"{host}:4:10: error schema 'sometimes' is not allowed here;")
    assert err.rstrip().endswith("[/strategies/alpha]")


def test_file_and_script_problems_are_all_reported_together(capsys, tmp_path):
    code, _, err = _simulate(capsys, "--plugins", str(tmp_path / "nope"), "--host", str(tmp_path / "h.yaml"), "runn")
    assert code == 2
    assert [line.split(" ")[2] for line in err.splitlines()] == ["path-not-found", "path-not-found", "unknown-command"]


def test_a_host_entry_naming_no_plugin_is_a_warning_and_the_simulation_still_runs(capsys, tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    _manifest(plugins / "a.yaml", "alpha")
    host = tmp_path / "host.yaml"
    host.write_text("enabled: [alpha, ghost]\n", encoding="utf-8")
    code, out, err = _simulate(capsys, "--plugins", str(plugins), "--host", str(host), "run")
    assert code == 0
    assert err == f"{host}:1:18: warning unknown-plugin no plugin in the folder has module_name 'ghost'; " \
                  "it is ignored [/enabled/1]\n"
    assert _rows(out, "alpha") == [("sleeping", "-", "-")]


def test_without_host_every_plugin_of_the_folder_is_enabled(capsys, tmp_path):
    _manifest(tmp_path / "a.yaml", "alpha")
    _manifest(tmp_path / "b.json", "beta")
    (tmp_path / "b.json").write_text(json.dumps({"name": "B", "module_name": "beta", "version": "1.0.0",
                                                 "description": "d"}), encoding="utf-8")
    code, out, _ = _simulate(capsys, "--plugins", str(tmp_path), "run; activate alpha; run")
    assert code == 0
    assert "(every plugin enabled)" in out
    assert _rows(out, "alpha") == [("sleeping", "-", "-"), ("active", "3", "-")]
    assert _rows(out, "beta") == [("always_awake", "-", "-")] * 2


def test_adapters_hide_plugins_that_do_not_support_them(capsys):
    code, out, _ = _simulate(capsys, "adapter onebot_v11; run; adapter minecraft; run")
    assert code == 0
    assert _rows(out, "minecraft_utils") == [("sleeping", "-", "-")]
    assert "(conversation main, run 2, adapter minecraft)" in out


def test_colour_is_off_when_output_is_not_a_terminal(capsys):
    _, out, _ = _simulate(capsys, "run")
    assert "\x1b[" not in out


def test_colour_is_on_for_a_terminal_unless_no_color_is_set(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    _, coloured, _ = _simulate(capsys, "run")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    _, plain, _ = _simulate(capsys, "run")
    assert "\x1b[36malways_awake\x1b[0m" in coloured
    assert "\x1b[" not in plain


def test_color_always_and_never_override_the_terminal_check(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, always, _ = _simulate(capsys, "--color", "always", "run; activate weather")
    _, never, _ = _simulate(capsys, "--color", "never", "run")
    assert "\x1b[32mactivated\x1b[0m" in always
    assert "\x1b[" not in never


def test_simulate_is_listed_in_the_pas_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "simulate" in capsys.readouterr().out


def test_a_host_config_in_the_plugin_folder_is_read_once_as_the_host_config(capsys):
    code, out, err = _simulate(capsys, "--plugins", str(EXAMPLES_DIR), "--host", str(EXAMPLES_DIR / "host.yaml"), "run")
    assert (code, err) == (0, "") and "weather" in out


def test_a_manifest_given_as_the_host_config_is_the_wrong_kind(capsys):
    manifest = EXAMPLES_DIR / "plugins" / "weather.yaml"
    code, _, err = _simulate(capsys, "--host", str(manifest), "--plugins", str(EXAMPLES_DIR / "plugins"), "run")
    assert code == 1
    assert err.splitlines()[0] == (f"{manifest}:3:7: error wrong-kind this is a plugin-manifest, not a host-config; "
                                   "put it in the plugin folder [/kind]")


def test_a_script_that_is_not_utf8_is_an_input_error(capsys, tmp_path):
    script = tmp_path / "latin1.pas"
    script.write_bytes("run # caf\u00e9\n".encode("latin-1"))
    code, _, err = _simulate(capsys, "--script", str(script))
    assert code == 2 and "error invalid-utf8" in err


def test_a_misspelt_strategy_is_rejected_with_the_nearest_one(capsys):
    assert main(["simulate", "strategy weather forbid-sleep; run"]) == 0
    assert "unknown strategy 'forbid-sleep'; did you mean 'forbid_sleep'?" in capsys.readouterr().out
