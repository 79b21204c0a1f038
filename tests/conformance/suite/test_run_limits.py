"""``pas run``'s limits and hostile implementations: start failures, nothing to test, --max-time,
-x, huge observations, progress; each checks the exit code, the report and leftover processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.process_support import PAS, gone, json_lines, start_slow_run
from support.runner_support import FAKES, OWN_SCENARIOS, ROOT

from conformance.cli.main import main
from conformance.cli.progress import RunProgress
from conformance.suite.results import Outcome, ScenarioResult

OWN = ["--scenario", str(OWN_SCENARIOS)]


def _json_run(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["run", *OWN, "-f", "json", *args])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_an_implementation_that_cannot_start_stops_the_run_after_three_tries_with_one_message(capsys):
    code, lines, err = _json_run(capsys, "--impl", "cmd:pas-no-such-program-anywhere")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("pas run: the implementation failed to start 3 times in a row")
    outcomes = [line["outcome"] for line in lines[:-1]]
    assert outcomes == ["errored"] * 3 + ["skipped"] * 6
    assert lines[-1]["stopped"]["kind"] == "start-failures" and lines[-1]["exit_code"] == 2


def test_max_start_failures_sets_how_many_tries(capsys):
    code, lines, _ = _json_run(capsys, "--impl", "cmd:pas-no-such-program-anywhere", "--max-start-failures", "1")
    assert code == 2 and [line["outcome"] for line in lines[:-1]].count("errored") == 1


def test_the_text_report_shows_an_identical_start_error_once(capsys):
    code = main(["run", *OWN, "--impl", "cmd:pas-no-such-program-anywhere"])
    out = capsys.readouterr().out
    assert code == 2
    assert out.count("could not start the implementation (while starting the scenario)") == 1
    assert "ERRORED the same error in 3 scenarios:" in out


def test_an_implementation_claiming_no_known_profile_has_nothing_to_test(capsys):
    impl = f"cmd:{sys.executable} {FAKES / 'hostile_no_profile.py'}"
    code, lines, err = _json_run(capsys, "--impl", impl)
    assert code == 2
    assert err == ("pas run: nothing to test: hostile-no-profile 0: it claims no profile PAS knows "
                   "(claimed: none; known: activation, text, host, disclosure)\n")
    assert {line["outcome"] for line in lines[:-1]} == {"skipped"} and lines[-1]["counts"]["passed"] == 0


def test_a_profile_the_implementation_does_not_claim_is_nothing_to_test(capsys):
    code, _, err = _json_run(capsys, "--impl", "python:reference_impl.host:HostEngine", "--profile", "activation")
    assert code == 2 and "nothing to test" in err and "claims host but --profile asks for activation" in err


@pytest.mark.slow
def test_max_time_stops_the_run_and_reports_the_rest_as_not_run(tmp_path):
    process, report, pids = start_slow_run(tmp_path, "-f", "json", "--max-time", "1.5", delay=0.1)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    lines = json_lines(report)
    summary, results = lines[-1], lines[:-1]
    assert summary["stopped"]["kind"] == "time" and summary["interrupted"] is False
    assert "pas run: the time limit of 1.5 s (--max-time) was reached" in err
    ran = [r for r in results if not r["reason"].startswith("not run")]
    not_run = [r for r in results if r["reason"] == "not run: the time limit of 1.5 s (--max-time) was reached"]
    assert ran and not_run and len(ran) + len(not_run) == summary["total"]
    assert gone([json.loads(pids.read_text())["self"]]) == []


def test_fail_fast_stops_at_the_first_failure(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    code, lines, err = _json_run(capsys, "-x", "--impl", "python:broken_counts_activation_run:create")
    outcomes = [line["outcome"] for line in lines[:-1]]
    first_bad = next(i for i, o in enumerate(outcomes) if o in ("failed", "errored"))
    assert code == 1 and lines[-1]["stopped"]["kind"] == "fail-fast"
    assert outcomes[first_bad + 1:] and set(outcomes[first_bad + 1:]) == {"skipped"}
    assert "stopped at the first failure" in err


def test_a_megabyte_text_is_kept_cut_with_its_full_size_noted(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    code, lines, _ = _json_run(capsys, "--impl", "python:hostile_huge_text:create", "-k", "text-sleeping-block")
    (result,) = [line for line in lines if line["type"] == "result"]
    assert code == 1 and result["outcome"] == "failed"
    text = result["failure"]["observed"]["text"]
    assert len(text) < 70_000 and text.endswith("[cut: 1000000 characters in all, the first 65536 kept]")
    assert len(json.dumps(result)) < 300_000


def test_no_progress_is_drawn_when_standard_error_is_not_a_terminal(capsys):
    assert main(["run", *OWN]) == 0
    assert capsys.readouterr().err == ""


def test_the_progress_line_counts_results_and_failures():
    class Tty:
        text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    stream, now = Tty(), [0.0]
    progress = RunProgress(stream, total=4, max_time=10, clock=lambda: now[0])
    for outcome in (Outcome.PASSED, Outcome.FAILED):
        now[0] += 1
        progress.update(ScenarioResult(id="s", title="t", outcome=outcome))
    assert stream.text.endswith("pas run: 2/4 scenarios, 1 failed, ~2 s left")
    progress.close()
    assert stream.text.endswith("\r")
    assert RunProgress(stream, total=1, enabled=None).enabled and not RunProgress(sys.stdout, total=1, enabled=False).enabled


def test_pas_run_as_a_process_is_silent_on_a_pipe_and_exits_with_the_table(tmp_path):
    done = subprocess.run([*PAS, "run", *OWN, "-q"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
