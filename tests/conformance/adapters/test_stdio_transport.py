"""Transport: request lines longer than one read and lines written in pieces (issue 30, item 2).

The bundled suite's transport scenarios (conformance/suite/scenarios/transport/) send a
``start`` longer than 64 KiB and one longer than 1 MiB, and write every request of two of them in
pieces (``split_writes``), each piece only once the implementation has read the one before. A
reader that drops the unfinished end of a read, or decodes each read on its own
(tests/fakes/transport_bad_reader.py), fails them and passes everything else; the reference over
stdio passes them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from support.bundled import bundled_suite

from conformance.adapters.child import Child
from conformance.adapters.stdio import StdioAdapter, pieces_of
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from conformance.suite.scenario import load_suite
from reference_impl.model import Profile

ROOT = Path(__file__).resolve().parents[3]
BAD_READER = ROOT / "tests" / "fakes" / "transport_bad_reader.py"
TRANSPORT = ROOT / "conformance" / "suite" / "scenarios" / "transport"
CONTROL = "count-worked-example-five-runs"  # a scenario of short ASCII lines: any reader gets it right

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::ResourceWarning")]


def test_a_line_is_cut_inside_its_first_multi_byte_character_and_before_its_line_feed():
    line = '{"name":"天气"}\n'.encode()
    pieces = pieces_of(line)
    assert b"".join(pieces) == line and len(pieces) == 3
    assert pieces[0].endswith(b"\xe5") and pieces[2] == b"\n"  # the first byte of 天 (E5 A4 A9) ends the first piece


def test_an_ascii_line_is_cut_halfway():
    assert pieces_of(b'{"id":123}\n') == [b'{"id"', b":123}", b"\n"]


def test_each_piece_reaches_the_reader_in_a_read_of_its_own():
    script = "import os, sys\nwhile (chunk := os.read(0, 65536)):\n    sys.stdout.write(f'{len(chunk)}\\n'); sys.stdout.flush()\n"
    child = Child([sys.executable, "-c", script], 1 << 20)
    try:
        deadline = time.monotonic() + 30
        child.send_in_pieces([b"ab\xe5", b"\xa4\xa9cd", b"\n"], deadline)
        assert [child.read_line(deadline) for _ in range(3)] == [b"3", b"4", b"1"]
    finally:
        child.kill()


def test_copies_make_a_large_installation_with_numbered_names():
    suite, problems = load_suite([TRANSPORT])
    assert problems == []
    large = {s.id: s for s in suite}["transport-start-over-1-mib"]
    assert len(large.plugins) == 300 and large.split_writes
    assert (large.plugins[0].module_name, large.plugins[0].name) == ("toolkit_001", "工具箱 1")
    assert large.plugins[-1].module_name == "toolkit_300"


@pytest.fixture(scope="module")
def scenarios():
    suite, problems = bundled_suite()
    assert problems == []
    return [s for s in suite if s.id.startswith("transport-") or s.id == CONTROL]


def _outcomes(argv: list[str], scenarios, timeout: float) -> dict[str, Outcome]:
    with StdioAdapter(argv, timeout=timeout) as adapter:
        return {r.id: r.outcome for r in run_suite(adapter, scenarios, profiles=(Profile.ACTIVATION, Profile.TEXT)).results}


def test_the_reference_over_stdio_reads_every_transport_scenario_whole(scenarios):
    argv = [sys.executable, "-m", "conformance", "serve-reference"]
    assert set(_outcomes(argv, scenarios, 30).values()) == {Outcome.PASSED}
    assert set(_outcomes([*argv, "--pipeline-depth", "1"], scenarios, 30).values()) == {Outcome.PASSED}


@pytest.mark.parametrize(("mode", "failing"), [
    ((), {"transport-start-over-64-kib", "transport-start-over-1-mib", "transport-requests-written-in-pieces"}),
    (("--decode-per-read",), {"transport-start-over-1-mib", "transport-requests-written-in-pieces"}),
])
def test_a_reader_that_takes_each_read_for_whole_lines_fails_the_transport_scenarios_only(scenarios, mode, failing):
    outcomes = _outcomes([sys.executable, str(BAD_READER), *mode], scenarios, 1.0)
    assert {i for i, outcome in outcomes.items() if outcome is not Outcome.PASSED} == failing
    assert outcomes[CONTROL] is Outcome.PASSED
