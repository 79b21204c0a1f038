"""Where ``pas run``'s report goes while the run goes: streamed when the format allows.

JSON lines are written (and flushed) as each scenario finishes, so a run that is killed
outright still leaves every finished result behind, and memory does not grow with the
report. The other formats need the whole run, so they are rendered once at the end; the
runner returns even when stopped, so they are written on every path that returns. A report
file is put in place whole when the run ends (:mod:`conformance.report.atomic`): two runs
writing one path leave one valid report, and a run killed outright leaves its finished results
in ``.<name>.<pid>.<random>.partial`` beside it. Text the output cannot encode (a lone surrogate an
implementation sent) is written as a backslash escape, never a traceback.
"""

from __future__ import annotations

import sys
from typing import IO

from conformance.report import render
from conformance.report.atomic import AtomicText
from conformance.report.jsonl import dumps, summary_json
from conformance.suite.results import RunResult, ScenarioResult


class ReportSink:
    """The report of one run, to the file ``output`` or to standard output (``output`` None)."""

    def __init__(self, fmt: str, output: str | None, *, color: bool = False, command: str = "run") -> None:
        self.fmt, self.output, self.color, self.command = fmt, output, color, command
        self._stream: IO[str] | None = None
        self._file = AtomicText(output) if output is not None else None
        self.error: str | None = None

    @property
    def streaming(self) -> bool:
        """True for JSON lines: each result is written as it comes."""
        return self.fmt == "json"

    def open(self) -> bool:
        """Open the output file (before the run, so a bad path costs nothing); False after saying why."""
        if self._file is None:
            self._stream = sys.stdout
            return True
        try:
            self._stream = self._file.open()
        except OSError as error:
            self._fail(error)
            return False
        return True

    def _fail(self, error: OSError) -> None:
        if self.error is None:
            self.error = f"pas {self.command}: cannot write {self.output or 'standard output'}: {error.strerror or error}"
            print(self.error, file=sys.stderr)

    def _write(self, text: str) -> None:
        if self._stream is None or self.error is not None:
            return
        try:
            try:
                self._stream.write(text)
            except UnicodeEncodeError:  # standard output with strict errors: escape what it cannot hold
                encoding = getattr(self._stream, "encoding", None) or "utf-8"
                self._stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
            self._stream.flush()
        except OSError as error:
            self._fail(error)

    def result(self, result: ScenarioResult) -> None:
        """One finished scenario: written now when streaming, else left for :meth:`finish`."""
        if self.streaming:
            self._write(dumps(result.to_json()) + "\n")

    def finish(self, run: RunResult, *, exit_code: int | None = None) -> bool:
        """Write the rest of the report (the summary line, or the whole report); False when writing failed.

        ``exit_code`` is the command's exit status, carried by the JSON summary line.
        """
        if self.streaming:
            self._write(dumps(summary_json(run, exit_code)) + "\n")
        else:
            self._write(render(run, self.fmt, color=self.color))
        if self._file is not None:
            try:
                if self.error is None:
                    self._file.commit()
            except OSError as error:
                self._fail(error)
            finally:
                self._file.abandon()
        return self.error is None
