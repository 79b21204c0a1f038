"""Every source form NekroAgent accepts is read as NekroAgent reads it, and every problem points at the .py line."""

from __future__ import annotations

from pathlib import Path

import yaml

from conformance.cli.main import main
from conformance.tools.extract.nekro import extract
from conformance.tools.extract.signature import parameters_schema
from conformance.tools.extract.sources import plugin_files, read_sources
from reference_impl.problems import Severity

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PACKAGE = FIXTURES / "weather_pkg"


def _extract(*paths: Path):
    files, problems = plugin_files([str(p) for p in paths])
    sources, found = read_sources(files)
    plugins, more = extract(sources)
    return plugins, problems + found + more


def _weather():
    plugins, problems = _extract(PACKAGE)
    (plugin,) = plugins
    return plugin, problems


def test_a_file_starting_with_a_utf8_byte_order_mark_is_read_like_python_reads_it():
    assert (FIXTURES / "bom_plugin.py").read_bytes().startswith(b"\xef\xbb\xbf")
    plugins, problems = _extract(FIXTURES / "bom_plugin.py")
    assert problems == [] and [m.name for m in plugins[0].methods] == ["calculate"]
    assert plugins[0].fields["name"].value == "计算器"


def test_the_entry_file_any_file_or_the_folder_of_a_package_resolve_the_whole_package():
    whole = sorted(p.name for p in plugin_files([str(PACKAGE)])[0])
    assert whole == ["__init__.py", "alerts.py", "orphan.py", "plugin.py", "tools.py"]
    for one in ("__init__.py", "plugin.py", "tools.py"):
        assert sorted(p.name for p in plugin_files([str(PACKAGE / one)])[0]) == whole


def test_methods_come_in_the_order_python_mounts_them_while_importing_the_package():
    plugin, _ = _weather()
    # __init__ imports tools, whose first statement imports alerts: its method is mounted first.
    assert [m.name for m in plugin.methods] == ["weather_alerts", "get_forecast", "set_home"]


def test_a_call_form_mount_is_a_method_like_a_decorator():
    plugin, _ = _weather()
    method = next(m for m in plugin.methods if m.name == "set_home")
    assert method.kind == "behavior" and method.display_name == "设置常住城市"
    assert method.description == "Remember the user's home city (None forgets it)."


def test_a_method_without_a_docstring_is_left_out_with_a_warning_at_its_def_line():
    plugin, problems = _weather()
    assert "internal" not in [m.name for m in plugin.methods]
    (problem,) = [p for p in problems if p.code == "method-without-docstring"]
    assert problem.severity is Severity.WARNING and problem.source.path.endswith("weather_pkg/tools.py")
    assert problem.source.line == 31 and "internal" in problem.message


def test_a_file_of_the_package_that_no_import_reaches_is_never_run_so_its_mount_is_left_out():
    plugin, problems = _weather()
    assert "never_shown" not in [m.name for m in plugin.methods]
    (problem,) = [p for p in problems if p.code == "unimported-module"]
    assert problem.source.path.endswith("orphan.py") and problem.source.line == 8


def test_mount_collect_methods_is_a_note_at_its_line_saying_the_manifest_is_an_upper_bound():
    plugin, problems = _weather()
    (note,) = [p for p in problems if p.code == "runtime-method-filter"]
    assert note.severity is Severity.INFO and note.source.path.endswith("plugin.py") and note.source.line == 19
    assert "upper bound" in note.message and "pas budget" in note.message
    assert plugin.method_filter == note.source


def test_a_nekroplugin_keyword_nekroagent_rejects_is_an_error_at_its_line_and_nothing_is_written(tmp_path, capsys):
    code = main(["extract", "nekro", str(FIXTURES / "rejected_call.py"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1 and not list((tmp_path / "out").iterdir())
    assert ("rejected_call.py:13:5: error rejected-plugin-call NekroPlugin has no parameter 'sleep_breif'; "
            "did you mean 'sleep_brief'? (it accepts name, ") in err


def test_every_way_nekroplugins_signature_raises_typeerror_is_caught():
    base = "name='P', module_name='p', description='d', version='1.0.0', author='a', url='u'"
    cases = {
        f"NekroPlugin({base}, colour='red')": "no parameter 'colour'",
        "NekroPlugin(name='P', module_name='p')": "requires description, version, author, url",
        f"NekroPlugin('P', {base})": "both by position and by keyword",
        "NekroPlugin(" + ", ".join(["'x'"] * 15) + ")": "at most 14 positional",
    }
    for call, why in cases.items():
        plugins, problems = extract([("p.py", f"plugin = {call}\n")])
        assert plugins[0].rejected and any(p.code == "rejected-plugin-call" and why in p.message for p in problems), call
    plugins, problems = extract([("p.py", f"plugin = NekroPlugin({base}, is_package=False, webui_path='/ui')\n")])
    assert not plugins[0].rejected and problems == []


def test_github_annotations_point_at_the_python_file_never_the_generated_yaml(tmp_path, capsys):
    main(["extract", "nekro", str(PACKAGE), "--out", str(tmp_path / "out"), "-f", "github", "-q"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::")]
    assert lines and all("file=" in line and ".py," in line and ".yaml" not in line.split("::")[1] for line in lines)
    assert any(line.startswith("::warning file=") and "tools.py,line=31" in line for line in lines)
    assert any(line.startswith("::notice file=") and "runtime-method-filter" in line for line in lines)


def test_the_written_manifest_keeps_the_label_parameters_and_a_non_semver_version(tmp_path):
    main(["extract", "nekro", str(PACKAGE / "plugin.py"), "--out", str(tmp_path / "out"), "-q"])
    doc = yaml.safe_load((tmp_path / "out" / "weather_pkg.yaml").read_text(encoding="utf-8"))
    forecast = doc["methods"][1]
    assert doc["version"] == "1.0" and forecast["label"] == "查询某城市的天气"
    assert forecast["description"].startswith("Get the forecast for a city.\n\n    Args:\n")
    assert forecast["parameters"] == {"type": "object", "required": ["city"], "properties": {
        "city": {"type": "string"}, "days": {"type": "integer", "default": 3},
        "units": {"enum": ["metric", "imperial"], "default": "metric"}}}


def test_signatures_map_annotations_and_defaults_to_json_schema_and_drop_the_context():
    import ast

    text = ("def f(_ctx: AgentCtx, a: List[str], b: Optional[int] = None, c: 'float' = 1.5, d: dict | None = None,"
            " e: SomeClass = make(), *args, f: bool = True, **kw): ...")
    schema = parameters_schema(ast.parse(text).body[0])
    assert schema == {"type": "object", "required": ["a"], "properties": {
        "a": {"type": "array", "items": {"type": "string"}}, "b": {"type": ["integer", "null"], "default": None},
        "c": {"type": "number", "default": 1.5}, "d": {"type": ["object", "null"], "default": None},
        "e": {}, "f": {"type": "boolean", "default": True}}}
    assert parameters_schema(ast.parse("def g(_ctx): ...").body[0]) == {}
