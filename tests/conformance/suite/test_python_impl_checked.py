"""A ``python:`` implementation is checked once, up front: one message at the user's file:line, exit 2.

Without the check, ``apply(self)`` gave an errored result for every scenario (228, about 1,000
lines), each pointing at PAS's own adapter code.
"""

from __future__ import annotations

import itertools
import textwrap

import pytest
from support.runner_support import own

from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.interface import UnusableImplementation
from conformance.cli.main import main
from conformance.fuzz.search import FuzzOptions, fuzz
from conformance.suite.runner import run_suite

_NAMES = itertools.count()
HEAD = "from reference_impl.engine import Engine\n\n\n"

# Each case: the module's text (after HEAD), the line the message must point at, what it must say.
CASES = {
    "apply without the event": ("""\
        class Bad(Engine):
            def apply(self):
                return None
        """, 5, "Bad.apply(self) has the wrong signature; it must be: def apply(self, event)"),
    "apply with two arguments": ("""\
        class Bad(Engine):
            def apply(self, event, extra):
                return None
        """, 5, "Bad.apply(self, event, extra) has the wrong signature"),
    "start with one argument": ("""\
        class Bad(Engine):
            def start(self, manifests):
                pass
        """, 5, "Bad.start(self, manifests) has the wrong signature; it must be: def start(self, manifests, host)"),
    "apply misnamed": ("""\
        class Bad:
            info = Engine.info

            def start(self, manifests, host):
                pass

            def apply_event(self, event):
                return None
        """, 4, "Bad has no apply (is 'apply_event' meant to be 'apply'?); it must have: def apply(self, event)"),
    "info as a method": ("""\
        class Bad(Engine):
            def info(self):
                return Engine.info
        """, 5, "Bad.info is a method; it must be: info: an ImplementationInfo, as an attribute or a @property"),
    "a factory that raises": ("""\
        def broken():
            raise RuntimeError("no licence")
        """, 5, "broken() raised RuntimeError: no licence"),
    "a factory that returns None": ("""\
        def broken():
            Engine()
        """, 4, "broken() returned None; it must return the implementation"),
}


def _module(tmp_path, monkeypatch, body: str) -> tuple[str, str]:
    """Write the module into tmp_path (made the current directory, which ``python:`` imports from)."""
    name = f"user_impl_{next(_NAMES)}"
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name, str(path)


def _factory(name: str, body: str) -> str:
    return f"python:{name}:{'broken' if 'def broken' in body else 'Bad'}"


@pytest.mark.parametrize("case", CASES)
def test_pas_run_says_once_where_and_what_and_exits_two(case, tmp_path, monkeypatch, capsys):
    body, line, says = CASES[case]
    name, path = _module(tmp_path, monkeypatch, body)
    code = main(["run", "--impl", _factory(name, body)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"pas run: {path}:{line}: error implementation-") and says in err


def test_every_problem_of_one_object_is_in_the_one_message(tmp_path, monkeypatch, capsys):
    name, path = _module(tmp_path, monkeypatch, """\
        class Bad:
            def info(self):
                return Engine.info

            def start(self):
                pass
        """)
    assert main(["run", "--impl", f"python:{name}:Bad"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": error implementation-interface ")[0] for line in lines] == [
        f"pas run: {path}:5", f"pas run: {path}:4", f"pas run: {path}:8"]  # info, apply (the class), start


def test_pas_fuzz_says_it_once_too(tmp_path, monkeypatch, capsys):
    body, line, says = CASES["apply without the event"]
    name, path = _module(tmp_path, monkeypatch, body)
    assert main(["fuzz", "--impl", f"python:{name}:Bad", "--max-examples", "3", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pas fuzz: {path}:{line}: ") and says in err and len(err.splitlines()) == 1


def test_a_signature_that_takes_the_event_among_defaults_is_accepted(tmp_path, monkeypatch, capsys):
    name, _ = _module(tmp_path, monkeypatch, """\
        class Fine(Engine):
            def apply(self, event, extra=None, *more, **options):
                return super().apply(event)
        """)
    assert main(["run", "--impl", f"python:{name}:Fine", "-k", "extend"]) == 0, capsys.readouterr().err


def test_an_object_passed_from_python_is_checked_before_the_first_scenario():
    class Bad:
        info = own("extend-cap")  # anything: apply is what is missing

        def start(self, manifests: object, host: object) -> None: ...

    with pytest.raises(UnusableImplementation, match="has no apply") as caught:
        run_suite(InProcessAdapter(Bad), [own("extend-cap"), own("unknown-not-found")])
    assert caught.value.problems[0].source.path == __file__
    with pytest.raises(UnusableImplementation):
        fuzz(InProcessAdapter(Bad), FuzzOptions(max_examples=1))


def test_a_host_only_implementation_needs_no_start():
    from reference_impl.host import HostEngine

    adapter = InProcessAdapter(HostEngine)
    adapter.check()
    assert adapter.hello().profiles == ("host",)
