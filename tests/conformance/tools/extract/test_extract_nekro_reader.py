"""Reading NekroAgent plugin sources with ast: fields, methods, injection, and what cannot be resolved."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.tools.extract.manifests import manifest_doc, plan_outputs
from conformance.tools.extract.nekro import extract, scan_source
from reference_impl.problems import Severity

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _sources(*names: str) -> list[tuple[str, str]]:
    return [(f"fixtures/{n}", (FIXTURES / n).read_text(encoding="utf-8")) for n in names]


def _one(text: str, path: str = "plugin.py"):
    plugins, problems = extract([(path, text)])
    assert len(plugins) == 1
    return plugins[0], problems


def _doc(*names: str) -> dict:
    plugins, _ = extract(_sources(*names))
    assert len(plugins) == 1
    return manifest_doc(plugins[0])


def test_a_protected_builtin_keeps_its_identity_adapters_and_allow_sleep_false():
    doc = _doc("basic.py")
    assert doc["name"] == "基础消息插件" and doc["module_name"] == "basic" and doc["version"] == "1.0.2"
    assert doc["builtin"] is True and doc["allow_sleep"] is False
    assert doc["support_adapter"] == ["onebot_v11", "discord", "sse"]
    assert "sleep_brief" not in doc


def test_methods_are_named_after_the_function_and_keep_nekros_display_name_as_an_extension():
    methods = _doc("basic.py")["methods"]
    assert [m["name"] for m in methods] == ["send_msg_text", "send_msg_file"]
    assert methods[0]["x-nekro-name"] == "发送文本消息"
    assert {m["kind"] for m in methods} == {"tool"}


def test_the_description_is_the_whole_docstring_stripped_with_its_inner_indentation_as_nekroagent_shows_it():
    methods = _doc("basic.py")["methods"]
    assert methods[1]["description"] == ("发送图片或文件到会话。\n\n    Args:\n        chat_key: the chat.\n"
                                         "        file_path: a path in the sandbox.")
    assert "label" not in methods[1]


def test_the_mounts_description_argument_is_only_a_label_the_model_never_sees():
    (method, _) = _doc("basic.py")["methods"]
    assert method["description"] == "Send a text message." and method["label"] == "发送一条文本消息到会话。"


def test_a_prompt_inject_decorator_sets_injects_prompt():
    assert _doc("basic.py")["injects_prompt"] is True
    assert "injects_prompt" not in _doc("dice.py")


def test_module_constants_and_implicit_concatenation_are_resolved():
    doc = _doc("note.py")
    assert doc["sleep_brief"] == ("管理用户笔记，支持创建、查阅、修改和删除笔记条目。"
                                  "当用户明确提到需要记笔记、查看笔记或整理信息时激活。")
    assert doc["author"] == "pas_tests" and doc["url"] == "https://example.org/pas/note"
    assert doc["allow_sleep"] is True


@pytest.mark.parametrize(("member", "kind"), [("TOOL", "tool"), ("AGENT", "agent"), ("BEHAVIOR", "behavior"),
                                              ("MULTIMODAL_AGENT", "multimodal_agent")])
def test_each_sandbox_method_type_maps_to_its_pas_kind(member, kind):
    text = ("from nekro_agent.api.plugin import NekroPlugin, SandboxMethodType\n"
            "plugin = NekroPlugin(name='P', module_name='p', description='d', version='1.0.0', author='a', url='u')\n"
            f"@plugin.mount_sandbox_method(SandboxMethodType.{member}, name='m')\n"
            "async def m(_ctx):\n    '''Does m.'''\n")
    plugin, problems = _one(text)
    assert [(m.name, m.kind, m.description) for m in plugin.methods] == [("m", kind, "Does m.")]
    assert problems == []


def test_positional_arguments_are_read_in_nekroplugins_parameter_order():
    doc = _doc("dice.py")
    assert (doc["name"], doc["module_name"], doc["description"], doc["version"]) == (
        "掷骰子", "dice", "Dice rolls for games and checks.", "0.1.0")
    assert doc["methods"][0]["description"] == "Roll the dice."
    assert doc["methods"][0]["label"] == "Roll a 20-sided die against a difficulty."  # third positional: description=
    assert "allow_sleep" not in doc  # a brief without opting in: left as null


def test_an_fstring_with_placeholders_is_a_warning_with_its_position_and_the_field_is_left_out():
    plugins, problems = extract(_sources("runtime_brief.py"))
    doc = manifest_doc(plugins[0])
    assert "sleep_brief" not in doc
    assert doc["url"] == "https://example.org/pas/weather"  # '+' of constants is fine
    brief = [p for p in problems if "sleep_brief" in p.message]
    assert len(brief) == 1 and brief[0].severity is Severity.WARNING and brief[0].code == "unresolved-field"
    assert (brief[0].source.line, brief[0].source.column) == (18, 17)


def test_a_call_in_a_method_description_is_reported_and_the_docstring_is_used():
    plugins, problems = extract(_sources("runtime_brief.py"))
    assert plugins[0].methods[0].description == "Current weather for a city."
    assert any(p.code == "unresolved-field" and "get_weather description" in p.message for p in problems)


@pytest.mark.parametrize("expression, why", [
    ("os.environ['V']", "Subscript"),
    ("get_version()", "a call"),
    ("VERSION", "not a module-level constant"),
    ("IMPORTED", "imported"),
    ("TWICE", "not bound once"),
])
def test_values_only_known_at_run_time_are_never_guessed(expression, why):
    text = ("import os\nfrom elsewhere import IMPORTED\nTWICE = '1.0.0'\nTWICE = '2.0.0'\n"
            f"plugin = NekroPlugin(name='P', module_name='p', description='d', version={expression}, author='a', url='u')\n")
    plugin, problems = _one(text)
    assert "version" not in plugin.fields
    assert len(problems) == 1 and why in problems[0].message and problems[0].source.line == 5


def test_columns_count_characters_not_utf8_bytes_on_cjk_lines():
    text = "plugin = NekroPlugin(name='插件', module_name='p', description='d', version=f'{V}', author='a', url='u')\n"
    _, problems = _one(text)
    assert problems[0].source.column == text.index("f'{V}'") + 1


def test_a_syntax_error_is_an_error_with_file_line_and_column():
    scan = scan_source((FIXTURES / "broken_syntax.py").read_text(encoding="utf-8"), "broken_syntax.py")
    (problem,) = scan.problems
    assert problem.code == "syntax-error" and problem.severity is Severity.ERROR
    assert problem.source.path == "broken_syntax.py" and problem.source.line == 8 and problem.source.column


def test_one_file_with_two_plugins_links_each_method_to_its_own_plugin_including_aliases():
    plugins, problems = extract(_sources("two_plugins.py"))
    by_module = {p.fields["module_name"].value: p for p in plugins}
    assert [m.name for m in by_module["timer"].methods] == ["set_timer"]
    assert [m.name for m in by_module["status"].methods] == ["update_status"]
    assert by_module["status"].injects_prompt and not by_module["timer"].injects_prompt
    assert problems == []


def test_methods_mounted_in_another_file_of_a_package_are_linked_through_a_relative_import():
    plugins, problems = extract(_sources("draw_pkg/plugin.py", "draw_pkg/handlers.py"))
    (draw,) = plugins
    assert [(m.name, m.kind) for m in draw.methods] == [("draw", "multimodal_agent")]
    assert draw.fields["version"].value == "1.3.0"
    assert [p.code for p in problems] == ["unresolved-method"]  # SandboxMethodType.UNKNOWN_KIND


def test_a_mount_on_an_unknown_plugin_object_is_a_warning_not_a_guess():
    plugins, problems = extract(_sources("draw_pkg/handlers.py"))
    assert plugins == []
    assert {p.code for p in problems} == {"unlinked-method", "unresolved-method"}


def test_the_code_is_only_parsed_never_run(tmp_path):
    marker = tmp_path / "ran"
    text = (f"open({str(marker)!r}, 'w').write('x')\n"
            "plugin = NekroPlugin(name='P', module_name='p', description='d', version='1.0.0', author='a', url='u')\n")
    _one(text)
    assert not marker.exists()


def test_an_invalid_manifest_is_not_planned_and_the_problem_points_at_the_python_source():
    text = "plugin = NekroPlugin(name='P', module_name='p', description='d', version=' ', author='a', url='u')\n"
    plugin, _ = _one(text)
    outputs, problems = plan_outputs([plugin])
    assert outputs == []
    (problem,) = problems
    assert problem.code == "invalid-manifest" and problem.pointer == "/version"
    assert (problem.source.line, problem.source.column) == (1, text.index("' '") + 1)


def test_two_plugins_with_one_module_name_write_only_the_first():
    text = ("a = NekroPlugin(name='A', module_name='same', description='d', version='1.0.0', author='x', url='u')\n"
            "b = NekroPlugin(name='B', module_name='same', description='d', version='1.0.0', author='x', url='u')\n")
    plugins, _ = extract([("p.py", text)])
    outputs, problems = plan_outputs(plugins)
    assert [o.filename for o in outputs] == ["same.yaml"] and [p.code for p in problems] == ["duplicate-module-name"]


def test_a_file_python_cannot_parse_at_all_is_a_syntax_error_problem_not_a_crash():
    for text in ("x = 1\0\n", "B = " + " + ".join(['"a"'] * 3000) + "\n"):
        (problem,) = scan_source(text, "odd.py").problems
        assert problem.code == "syntax-error" and problem.source.path == "odd.py"
