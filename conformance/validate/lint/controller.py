"""The scheduler plugin never sleeps (ACT-ELIG-8): ``controller-sleepable``.

NekroAgent's documentation fixes the controller ``plugin_activation`` at ``allow_sleep=False``;
PAS makes that a rule of its own, so a manifest or a host-config strategy that asks for the
opposite is ignored by every conforming implementation, and an error here. The controller is
known by name (``constants.scheduler_module`` in spec/semantics.yaml), not by a manifest in the
validated set, so both checks look at one document.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.validate.lint.facts import doc_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem, pointer_join
from reference_impl.spec_files import spec_dir


@functools.cache
def scheduler_module() -> str:
    """The module_name of the scheduler plugin, as the bundled semantics name it.

    Read from spec/semantics.yaml by the document loader, whose fast path needs no PyYAML:
    going through :func:`reference_impl.semantics.load_semantics` would import it, about a fifth
    of the instructions a one-file ``pas validate`` runs. A test checks that both read the same
    name; should the loader fail to read the file, load_semantics decides.
    """
    doc, _ = load_mapping(spec_dir() / "semantics.yaml")
    constants = doc.value.get("constants") if doc is not None else None
    name = constants.get("scheduler_module") if isinstance(constants, dict) else None
    if isinstance(name, str):
        return name
    from reference_impl.semantics import load_semantics  # the rare way: not imported on the usual one

    return load_semantics().scheduler_module


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """``allow_sleep: true`` in the scheduler plugin's own manifest."""
    name = scheduler_module()
    value = doc.value
    if value.get("module_name") == name and value.get("allow_sleep") is True:
        yield doc_problem("controller-sleepable",
                          f"'{name}' is the scheduler plugin and never sleeps (ACT-ELIG-8), so allow_sleep: true "
                          "has no effect; set allow_sleep: false", doc, "/allow_sleep")


def check_host_config(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Strategy ``allow_sleep`` for the scheduler plugin in a host config."""
    name = scheduler_module()
    strategies = doc.value.get("strategies")
    if isinstance(strategies, dict) and strategies.get(name) == "allow_sleep":
        yield doc_problem("controller-sleepable",
                          f"'{name}' is the scheduler plugin and never sleeps (ACT-ELIG-8), so strategy allow_sleep "
                          "has no effect; remove it", doc, pointer_join("/strategies", name), key=True)
