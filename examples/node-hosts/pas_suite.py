"""Run the PAS suite against a Node host adapter (examples/mastra/adapter.mjs, examples/ai-sdk/adapter.mjs).

``run_suite("mastra", ["in-memory"], tmp_path)`` runs ``pas run`` (the disclosure profile is the only one the adapters claim) against
``node examples/mastra/adapter.mjs in-memory`` under Node 22 (scripts/install-node22.sh) and returns
the exit status, the json report's rows and the wall time. ``PasAdapter`` speaks the stdio protocol to
an adapter directly, one request at a time. Used by tests/examples/mastra and tests/examples/ai-sdk;
standard library only (the suite runs as ``python -m conformance`` of the interpreter given).
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[1]
ROOT = EXAMPLES.parent
# A citation of the installed package in an expected-failures reason: path:line or path:first-last.
CITATION = re.compile(r"((?:@[\w.-]+/)?[\w.-]+(?:/[\w.-]+)+\.(?:m?js|ts|mdx)):(\d+)(?:-(\d+))?")
ANCHOR = re.compile(r"^(examples/[\w-]+/README\.md)#([\w-]+): ")


def node22() -> Path:
    """Node 22 where scripts/install-node22.sh puts it (driver_client.node22, beside this file)."""
    return Path(runpy.run_path(str(Path(__file__).with_name("driver_client.py")))["node22"]())


def adapter_command(host: str, arguments: list[str]) -> str:
    """The ``--impl`` value for ``host``'s adapter with ``arguments`` (paths relative to the checkout)."""
    return f"cmd:{node22()} examples/{host}/adapter.mjs {' '.join(arguments)}".strip()


def run_suite(host: str, arguments: list[str], workdir: Path, expected: Path | None = None,
              python: str = sys.executable) -> tuple[int, list[dict[str, Any]], float]:
    """Run the disclosure profile against the adapter; (exit status, json report rows, seconds).

    Raises AssertionError with pas's stderr when no report was written.
    """
    report = workdir / "report.jsonl"
    command = [python, "-m", "conformance", "run", "--impl", adapter_command(host, arguments),
               "--timeout", "60", "--check-messages", "--format", "json",
               "--output", str(report), "-q"]
    if expected is not None:
        command += ["--expected-failures", str(expected)]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    seconds = time.monotonic() - started
    if not report.exists():
        raise AssertionError(f"pas run wrote no report (exit {done.returncode}); stderr:\n{done.stderr[-3000:]}")
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines() if line.strip()]
    return done.returncode, rows, seconds


def outcomes(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Scenario id -> outcome (passed, failed, errored, skipped, xfailed, stale) of a json report."""
    return {row["id"]: row["outcome"] for row in rows if row.get("type") == "result"}


def citations(reason: str) -> list[tuple[str, int, int]]:
    """Every ``path:line`` or ``path:first-last`` a reason cites, as (path, first, last)."""
    return [(m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))) for m in CITATION.finditer(reason)]


def anchor(reason: str) -> tuple[str, str] | None:
    """The README and anchor a reason starts with (``examples/x/README.md#anchor: ...``), or None."""
    match = ANCHOR.match(reason)
    return (match.group(1), match.group(2)) if match else None


def reason_problems(host: str, reason: str, snippets: dict[tuple[str, int], str]) -> list[str]:
    """What is wrong with one expected-failure reason of ``host`` (empty when nothing is).

    It must start with a link to an anchor (``<a id="...">``) of examples/<host>/README.md and cite at
    least one line of the installed package (examples/<host>/node_modules/); every cited range must
    exist and hold the snippet ``snippets`` records for its first line, so a package update that moves
    the code is noticed.
    """
    link = anchor(reason)
    if link is None or link[0] != f"examples/{host}/README.md":
        return [f"does not start with examples/{host}/README.md#<anchor>: {reason[:80]}"]
    readme = (EXAMPLES / host / "README.md").read_text(encoding="utf-8")
    problems = [] if f'<a id="{link[1]}"></a>' in readme else [f"README.md has no anchor {link[1]}"]
    cited = citations(reason)
    if not cited:
        problems.append("cites no line of the installed package")
    for path, first, last in cited:
        lines = (EXAMPLES / host / "node_modules" / path).read_text(encoding="utf-8").splitlines()
        snippet = snippets.get((path, first))
        if last > len(lines):
            problems.append(f"{path}:{first}-{last}: the file has {len(lines)} lines")
        elif snippet is None:
            problems.append(f"{path}:{first}: no snippet recorded for this citation")
        elif not any(snippet in line for line in lines[first - 1:last]):
            problems.append(f"{path}:{first}-{last} no longer holds {snippet!r}")
    return problems


class PasAdapter:
    """One adapter process spoken to in the stdio protocol, strictly in turn (for protocol-level tests)."""

    def __init__(self, host: str, arguments: list[str], timeout: float = 60.0) -> None:
        """Start ``node examples/<host>/adapter.mjs arguments``."""
        self.timeout = timeout
        self._id = 0
        self._stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([str(node22()), str(EXAMPLES / host / "adapter.mjs"), *arguments],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                        text=True, cwd=ROOT)

    def line(self, text: str) -> dict[str, Any]:
        """Send one raw line and read the one answer line (raises AssertionError when none comes)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            self._stderr.seek(0)
            raise AssertionError(f"no answer to {text!r}; stderr:\n{self._stderr.read()[-2000:]}")
        return dict(json.loads(answer))

    def send(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request with the next id; the whole response ({id, ok, result | error})."""
        self._id += 1
        return self.line(json.dumps({"id": self._id, "cmd": cmd, **fields}))

    def close(self) -> int:
        """Send bye when still running, close stdin, and return the exit status."""
        if self.process.poll() is None:
            self.send("bye")
            assert self.process.stdin is not None
            self.process.stdin.close()
        return self.process.wait(timeout=self.timeout)

    def __enter__(self) -> PasAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
