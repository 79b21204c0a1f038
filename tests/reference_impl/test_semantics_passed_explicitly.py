"""The semantics are an argument: the core never falls back to the bundled spec file.

A custom Semantics (max_active_rounds 5, or 25 above the bundled 20) must govern every part
of the scheduler, restoring a saved state and the Engine's restart included.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.refimpl_builders import CONV, SEMANTICS, protected, sleeper

from reference_impl.catalogue import Catalogue
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.fast import FastScheduler
from reference_impl.model import HostConfig
from reference_impl.scheduler import SchedulerState, step

MAX_5 = dataclasses.replace(SEMANTICS, max_active_rounds=5)
MAX_25 = dataclasses.replace(SEMANTICS, max_active_rounds=25)
PLUGINS = (sleeper("alpha"), sleeper("beta"), protected("gamma"))
HOST = HostConfig(enabled=("alpha", "beta", "gamma"))
PACKAGE = Path(__file__).resolve().parents[2] / "reference_impl"


def test_restoring_a_state_checks_counters_against_the_semantics_given():
    """Regression: from_json used the bundled maximum (20), so a 12 survived a restart under a maximum of 5."""
    doc = {"counters": {CONV: {"alpha": 12}}}
    assert SchedulerState.from_json(doc, SEMANTICS).counters_of(CONV) == {"alpha": 12}
    with pytest.raises(MalformedDocument, match=r"0\.\.5"):
        SchedulerState.from_json(doc, MAX_5)


def test_a_counter_above_the_bundled_maximum_is_restored_under_a_larger_one():
    doc = {"counters": {CONV: {"alpha": 25}}}
    assert SchedulerState.from_json(doc, MAX_25).counters_of(CONV) == {"alpha": 25}
    with pytest.raises(MalformedDocument):
        SchedulerState.from_json(doc, SEMANTICS)


def test_the_engine_restarts_under_its_own_semantics():
    """Regression: the restart path restored through the bundled semantics and raised on a valid 25."""
    engine = Engine(text=False, semantics=MAX_25)
    engine.start(PLUGINS, HOST)
    reply = engine.apply(Activate(conversation=CONV, module_name="alpha", rounds=99))
    assert reply.rounds == 25
    engine.apply(Restart())
    run = engine.apply(StartRun(conversation=CONV))
    assert isinstance(run, RunObservation)
    assert {v.module_name: v.rounds_left for v in run.plugins}["alpha"] == 25


def test_the_engine_clamps_with_its_own_maximum():
    engine = Engine(text=False, semantics=MAX_5)
    engine.start(PLUGINS, HOST)
    assert engine.apply(Activate(conversation=CONV, module_name="alpha", rounds=12)).rounds == 5
    assert engine.apply(Extend(conversation=CONV, module_name="alpha", rounds=4)).rounds == 5


def _names_used(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    return names


@pytest.mark.parametrize("module", ["scheduler", "eligibility", "catalogue", "fast", "render", "events", "frozen",
                                    "model", "host", "lifecycle", "host_config", "host_commands", "problems"])
def test_the_core_never_reads_the_spec_files_itself(module):
    """Only the explicit loaders (semantics.load_semantics, spec_files) and the Engine edge may."""
    assert not _names_used(PACKAGE / f"{module}.py") & {"load_semantics", "spec_dir", "schema_path", "open"}


def test_importing_the_core_and_the_engine_locates_no_spec_file():
    """spec_files (where the spec lives on disk) is imported only when semantics are loaded."""
    code = ("import sys, reference_impl.scheduler, reference_impl.engine, reference_impl.host;"
            "print('reference_impl.spec_files' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


_NAMES = st.sampled_from(["alpha", "beta", "gamma", "ghost"])
_ROUNDS = st.one_of(st.just(OMITTED), st.integers(-3, 40), st.sampled_from([None, 2.0, 2.5, "3", True]))
_EVENTS = st.one_of(
    st.builds(StartRun, conversation=st.sampled_from([CONV, "other"])),
    st.builds(Activate, conversation=st.sampled_from([CONV, "other"]), module_name=_NAMES, rounds=_ROUNDS),
    st.builds(Extend, conversation=st.sampled_from([CONV, "other"]), module_name=_NAMES, rounds=_ROUNDS),
    st.builds(SetStrategy, module_name=_NAMES, strategy=st.sampled_from(["auto", "allow_sleep", "forbid_sleep"])),
    st.builds(Enable, module_name=_NAMES),
    st.builds(Disable, module_name=_NAMES),
    st.builds(SetScheduler, enabled=st.booleans()),
    st.just(Restart()),
)


@settings(max_examples=150, deadline=None)
@given(events=st.lists(_EVENTS, max_size=30), semantics=st.sampled_from([MAX_5, SEMANTICS, MAX_25]))
def test_counters_stay_within_the_given_maximum_and_the_fast_path_agrees(events: list[Event], semantics):
    """Every stored counter is in 1..max of the semantics given; the fast path under them gives what the rules give."""
    catalogue = Catalogue.of(PLUGINS)
    fast = FastScheduler(semantics)
    plain = cached = SchedulerState(host=HOST)
    for event in events:
        plain, expected = step(catalogue, plain, event, semantics)
        cached, observed = fast.step(catalogue, cached, event)
        assert (cached, observed) == (plain, expected)
        counts = [n for counters in plain.counters.values() for n in counters.values()]
        assert all(1 <= n <= semantics.max_active_rounds for n in counts)
        assert SchedulerState.from_json(plain.to_json(), semantics) == plain
