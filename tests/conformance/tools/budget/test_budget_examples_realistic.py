"""The bundled example set stays realistic, so `pas budget` on it measures something real.

Real plugins declare their methods with whole docstrings; an example set of one-line
methods made every full block about as short as a sleeping block and the saving negative.
"""

from __future__ import annotations

import re

import pytest

from conformance.documents.plugin_set import load_plugin_set
from conformance.tools.simulate.simulation import EXAMPLE_PLUGINS
from reference_impl.events import PluginView
from reference_impl.model import PluginState
from reference_impl.render import render_block

_LOADED = load_plugin_set(EXAMPLE_PLUGINS)
MANIFESTS, PROBLEMS = _LOADED.manifests, _LOADED.problems
SLEEPERS = [m for m in MANIFESTS if m.allow_sleep and m.brief]


def test_the_example_set_loads_and_has_sleepers():
    assert PROBLEMS == ()
    assert len(SLEEPERS) >= 5


@pytest.mark.parametrize("manifest", SLEEPERS, ids=lambda m: m.module_name)
def test_a_sleepers_full_block_is_at_least_three_times_its_sleeping_block(manifest):
    full = render_block(manifest, PluginView(module_name=manifest.module_name, state=PluginState.ALWAYS_AWAKE,
                                             rounds_left=None, hint=False, brief_shown=False, methods_shown=True,
                                             injection_called=False), with_injection=False)
    asleep = render_block(manifest, PluginView(module_name=manifest.module_name, state=PluginState.SLEEPING,
                                               rounds_left=None, hint=False, brief_shown=True, methods_shown=False,
                                               injection_called=False), with_injection=False)
    assert len(full) >= 3 * len(asleep), (len(full), len(asleep))


@pytest.mark.parametrize("method", [(m.module_name, method) for m in MANIFESTS for method in m.methods],
                         ids=lambda pair: f"{pair[0]}.{pair[1].name}")
def test_every_example_method_documents_exactly_its_parameters(method):
    _, declared = method
    properties = set(declared.parameters.get("properties", {}))
    documented = set(re.findall(r"^\s+(\w+)(?:\s*\([^)]*\))?:", declared.description.split("Args:", 1)[-1]
                                .split("Returns:", 1)[0], re.M)) if "Args:" in declared.description else set()
    assert documented == properties


def test_pas_validate_finds_nothing_at_all_in_the_example_set(capsys):
    from conformance.cli.main import main

    code = main(["validate", "--strict", str(EXAMPLE_PLUGINS.parent)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 errors, 0 warnings, 0 info" in out
