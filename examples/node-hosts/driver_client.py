"""Python side of the Node host drivers' line protocol (examples/mastra/cli.mjs, examples/ai-sdk/cli.mjs).

Starts ``node <host>/cli.mjs`` under Node 22 (scripts/install-node22.sh), sends one JSON object per line
and reads one answer per line. Used by tests/examples/mastra and tests/examples/ai-sdk; a PAS adapter can
use it the same way::

    with NodeDriver("mastra", {"tools": [...], "alwaysVisible": ["always_tool"]}, {"storage": "context"}) as d:
        d.begin_request("A", "hi")            # -> ["search_tools", "load_tool", "always_tool"]
        d.model_step("A", [{"kind": "load", "names": "tool_2"}])

Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import tempfile
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[1]
INSTALLERS = {"mastra": "scripts/install-mastra.sh", "ai-sdk": "scripts/install-ai-sdk.sh"}
MARKERS = {"mastra": "@mastra/core", "ai-sdk": "ai"}


# The catalogue hosts-facts.md ran: five deferred tools and one always-visible tool.
FACTS_CATALOGUE: dict[str, Any] = {
    "tools": [
        *({"name": f"tool_{i}", "description": f"Fake tool number {i} ({word})"}
          for i, word in enumerate(["alpha", "beta", "gamma", "delta", "epsilon"])),
        {"name": "always_tool", "description": "Always there"},
    ],
    "alwaysVisible": ["always_tool"],
}


class DriverFailure(Exception):
    """The driver answered ``ok: false`` (bad input, or the host misbehaved), or the process died."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def node22() -> Path:
    """Where scripts/install-node22.sh puts node (``$PAS_NODE22_DIR`` or ~/.cache/pas/node22), existing or not."""
    base = os.environ.get("PAS_NODE22_DIR") or str(Path.home() / ".cache" / "pas" / "node22")
    return Path(base) / "bin" / "node"


def missing(host: str) -> str | None:
    """Why ``host``'s driver cannot run here (naming the install script), or None when it can."""
    script = INSTALLERS[host]
    if not node22().exists():
        return f"no Node 22 at {node22()}: run {script}"
    package = EXAMPLES / host / "node_modules" / MARKERS[host] / "package.json"
    if not package.exists():
        return f"examples/{host}/node_modules is not installed: run {script}"
    return None


def run_probe(host: str, timeout: float = 300.0) -> dict[str, bool]:
    """Run ``<host>/facts-probe.mjs`` and return whether each claim held, by check id.

    Raises DriverFailure when the probe does not finish or prints something that is not a check line.
    """
    try:
        done = subprocess.run([str(node22()), str(EXAMPLES / host / "facts-probe.mjs")], capture_output=True,
                              text=True, timeout=timeout, cwd=EXAMPLES / host, check=False)
    except subprocess.TimeoutExpired as error:
        raise DriverFailure("no-answer", f"facts-probe.mjs ran longer than {timeout} s") from error
    outcomes: dict[str, bool] = {}
    for line in done.stdout.splitlines():
        entry = json.loads(line)
        if "summary" not in entry:
            outcomes[entry["id"]] = bool(entry["held"])
    if not outcomes:
        raise DriverFailure("no-answer", f"facts-probe.mjs printed no checks; stderr: {done.stderr[-2000:]}")
    return outcomes


def facts_table_mismatches(host: str) -> list[str]:
    """Where ``<host>/FACTS-CHECKED.md`` and a fresh facts-probe run disagree (empty when they agree).

    The table's rows start with a check id in backticks and end with the verdict ``held`` or ``differs``;
    every id must be a probe check with that outcome, every probe check must have a row, and every cited
    line check (ids starting with ``L ``) must hold. Raises DriverFailure when the probe cannot run.
    """
    table = (EXAMPLES / host / "FACTS-CHECKED.md").read_text(encoding="utf-8")
    written = {m.group(1): m.group(2) == "held"
               for m in re.finditer(r"^\| `([A-Z]-[\w-]+)` \|.*\| (held|differs) \|", table, re.M)}
    outcomes = run_probe(host)
    ran = {key: held for key, held in outcomes.items() if not key.startswith("L ")}
    mismatches = [f"{key}: FACTS-CHECKED.md says {'held' if written.get(key) else 'differs' if key in written else 'nothing'}, "
                  f"the probe {'held' if ran.get(key) else 'differs' if key in ran else 'has no such check'}"
                  for key in sorted(set(written) | set(ran)) if written.get(key) != ran.get(key)]
    return mismatches + [f"{key}: the cited line does not hold" for key, held in outcomes.items()
                         if key.startswith("L ") and not held]


class NodeDriver:
    """One driver process for ``host`` ('mastra' or 'ai-sdk'), initialised with a catalogue and options."""

    def __init__(self, host: str, catalogue: dict[str, Any], options: dict[str, Any] | None = None,
                 timeout: float = 60.0) -> None:
        """Start the process and send init; raises DriverFailure when the driver refuses the catalogue."""
        self.timeout = timeout
        self._next_id = 0
        # A file, not a pipe, for stderr: a chatty host must not block on a full pipe nobody reads.
        self._stderr = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(
            [str(node22()), str(EXAMPLES / host / "cli.mjs")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr, text=True, cwd=EXAMPLES / host)
        self.description = self.send("init", tools=catalogue["tools"],
                                     alwaysVisible=catalogue.get("alwaysVisible", []), options=options or {})

    def send(self, op: str, **fields: Any) -> Any:
        """Send one op and return its result; raises DriverFailure on ``ok: false``, a timeout or a dead process."""
        self._next_id += 1
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"op": op, "id": self._next_id, **fields}) + "\n")
        self._process.stdin.flush()
        ready, _, _ = select.select([self._process.stdout], [], [], self.timeout)
        line = self._process.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise DriverFailure("no-answer", f"{op}: no answer within {self.timeout} s; stderr: {self.stderr()[-2000:]}")
        reply = json.loads(line)
        if not reply["ok"]:
            raise DriverFailure(reply["error"]["code"], reply["error"]["message"])
        return reply["result"]

    def stderr(self) -> str:
        """What the process wrote to stderr so far (the hosts' own log lines land there)."""
        self._stderr.seek(0)
        return self._stderr.read()

    def begin_request(self, thread: str, text: str = "hi") -> list[str]:
        """Start a request on ``thread``; the tool names of its first model call."""
        result = self.send("beginRequest", thread=thread, text=text)
        return list(result["tools"])

    def model_step(self, thread: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
        """One model step: {answers, nextTools, ended}."""
        return dict(self.send("modelStep", thread=thread, calls=calls))

    def end_request(self, thread: str) -> dict[str, Any]:
        """End the open request on ``thread``."""
        return dict(self.send("endRequest", thread=thread))

    def close(self) -> None:
        """Close stdin and wait for the process (killed after 10 s)."""
        if self._process.poll() is None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()

    def __enter__(self) -> NodeDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
