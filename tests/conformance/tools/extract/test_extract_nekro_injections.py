"""A NekroAgent prompt injection that returns a string literal is kept, so ``pas budget`` counts its text."""

from __future__ import annotations

import textwrap

from conformance.tools.extract.manifests import manifest_doc
from conformance.tools.extract.nekro import extract

SOURCE = textwrap.dedent('''
    from nekro_agent.api.plugin import NekroPlugin

    plugin = NekroPlugin(name="Guide", module_name="guide", description="d", version="1.0.0", author="a", url="u")
    other = NekroPlugin(name="Clock", module_name="clock", description="d", version="1.0.0", author="a", url="u")

    @plugin.mount_prompt_inject_method("guide_prompt")
    async def guide_prompt(_ctx) -> str:
        """Static guidance."""
        return (
            "Be brief.\\n"
            "- Answer in the user's language."
        )

    @other.mount_prompt_inject_method("clock_prompt")
    async def clock_prompt(_ctx) -> str:
        import time
        return f"Now: {time.time()}"
''')


def test_a_static_injection_is_kept_as_x_nekro_injected_text_and_a_dynamic_one_is_not():
    plugins, problems = extract([("guide.py", SOURCE)])
    docs = {p.fields["module_name"].value: manifest_doc(p) for p in plugins}
    assert docs["guide"]["injects_prompt"] is True
    assert docs["guide"]["x-nekro-injected-text"] == "Be brief.\n- Answer in the user's language."
    assert docs["clock"]["injects_prompt"] is True and "x-nekro-injected-text" not in docs["clock"]


def test_pas_budget_counts_the_static_injection_in_every_awake_run(tmp_path):
    import json

    import yaml

    from conformance.tools.budget.measure import measure_budget
    from conformance.tools.budget.tokenizer import estimate_tokenizer
    from conformance.tools.extract.manifests import plan_outputs, write_outputs

    plugins, _ = extract([("guide.py", SOURCE)])
    outputs, problems = plan_outputs(plugins)
    assert not problems
    write_outputs(outputs, tmp_path / "with")
    (tmp_path / "without").mkdir()
    for path in (tmp_path / "with").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        doc.pop("x-nekro-injected-text", None)
        (tmp_path / "without" / f"{path.stem}.json").write_text(json.dumps(doc), encoding="utf-8")
    counted = measure_budget("run\n", plugins=tmp_path / "with", tokenizer=estimate_tokenizer()).runs[0].all_awake
    unknown = measure_budget("run\n", plugins=tmp_path / "without", tokenizer=estimate_tokenizer()).runs[0].all_awake
    context = ('<plugin_runtime_context name="Guide" module_name="guide">\nBe brief.\n- Answer in the '
               "user's language.\n</plugin_runtime_context>")
    assert counted.chars - unknown.chars == len("\n\n" + context)
