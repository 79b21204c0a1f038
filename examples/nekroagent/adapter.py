#!/usr/bin/env python3
"""A PAS stdio adapter (protocol v1, docs/protocol.md) that drives NekroAgent's REAL code, 2.3.0 to 2.4.0.

Run it with the Python of a venv where ``nekro-agent`` is installed
(scripts/install-nekroagent.sh), never with PAS's own venv:

    pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/nekroagent-venv/bin/python examples/nekroagent/adapter.py"

Standard library only on our side: it imports no PAS package (its parts are in ``nekro_pas/``,
next to this file). Everything that decides what the model sees is NekroAgent's own code:

* the scheduler is NekroAgent's real built-in ``plugin_activation`` plugin
  (``plugins/builtin/plugin_activation.py``); the other plugins are real ``NekroPlugin``
  objects built from the scenario's manifests (stub methods mounted with
  ``mount_sandbox_method``, a stub injection with ``mount_prompt_inject_method``);
* a run is ``services/agent/templates/plugin.py:render_plugins_prompt`` (eligibility,
  countdown, clean-up, order, the Jinja template ``j2/plugin.j2``), called as ``run_agent``
  calls it;
* ``activate`` / ``extend`` are the model's sandbox code calling ``activate_plugin`` /
  ``extend_plugin_activation``: NekroAgent's sandbox proxy (``ext_caller_code.py``), its RPC
  handler (``routers/rpc.py:rpc_exec``) and the controller's methods; whether the step ends is
  what the proxy did;
* ``set-strategy`` is the admin API handler; ``enable`` / ``disable`` / ``set-scheduler`` are
  ``services/plugin/manager.py:enable_plugin`` / ``disable_plugin``.

Only infrastructure is replaced (README.md lists each stand-in). Observations are read off
what NekroAgent produced: the render units it passed to its template and what the template
printed for each, the prompt-injection functions it called, and the sentence its method
returned. Nothing is re-decided here.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback

# --- stdout hygiene: protocol on a private copy of fd 1; anything NekroAgent prints goes to stderr.
_PROTO_OUT = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nekro_pas import loading, standins  # noqa: E402 - after the stdout redirection, with this folder on the path
from nekro_pas.world import Unexpressible, World  # noqa: E402 - as above

PROTOCOL_VERSION = 1
PROFILES = ["activation", "text"]  # not host: NekroAgent has no dependency/config-layer model to drive
COMMANDS = {"hello", "start", "run", "activate", "extend", "set-strategy", "enable", "disable",
            "set-scheduler", "restart", "bye"}

# The names bench/nekro_runstart.py uses to build a world and time NekroAgent's renderer.
NK = loading.NK
DB = standins.DB
_IMPORT_ERROR = loading.IMPORT_ERROR
_import_nekro = loading.import_nekro
_await = loading.run
__all__ = ["DB", "NK", "World"]


def log(*parts: object) -> None:
    """A line on stderr (the runner keeps its end for error reports)."""
    print("[nekro-adapter]", *parts, file=sys.stderr, flush=True)


class Session:
    """One protocol session: the handshake, then one World per scenario."""

    def __init__(self) -> None:
        self.greeted = False
        self.world: World | None = None
        self.done = False

    def answer(self, line: bytes) -> dict:
        """The response to one request line (never raises)."""
        try:
            doc = json.loads(line.decode("utf-8"), parse_constant=_no_constants)
        except ValueError as error:
            return _error(None, "invalid-json", f"request is not JSON: {error}")
        rid = doc.get("id") if isinstance(doc, dict) else None
        rid = rid if type(rid) is int and rid > 0 else None
        if not isinstance(doc, dict) or rid is None:
            return _error(rid, "invalid-request", "a request must be a JSON object with a positive integer id")
        cmd = doc.get("cmd")
        if cmd not in COMMANDS:
            return _error(rid, "unknown-command", f"unknown command {cmd!r}; this implementation speaks "
                          + ", ".join(sorted(COMMANDS)))
        try:
            return {"id": rid, "ok": True, "result": self.dispatch(cmd, doc)}
        except Unexpressible as error:
            return _error(rid, "internal-error", str(error))
        except Exception as error:  # noqa: BLE001 - NekroAgent's own exception becomes an error response, not a dead adapter
            log(traceback.format_exc())
            return _error(rid, "internal-error", repr(error)[:500])

    def dispatch(self, cmd: str, req: dict) -> dict:
        """The result of one command; raises Unexpressible for what cannot be done."""
        if cmd == "bye":
            self.done = True
            return {}
        if cmd == "hello":
            return self._hello(req)
        if not self.greeted:
            raise Unexpressible("send 'hello' first")
        if cmd == "start":
            loading.IMPORT_DONE.wait()
            if loading.IMPORT_ERROR:
                raise Unexpressible(loading.IMPORT_ERROR[0])
            self.world = World(req["plugins"], req.get("host") or {})
            return {}
        if self.world is None:
            raise Unexpressible(f"send 'start' before {cmd!r}")
        return self._event(self.world, cmd, req)

    def _hello(self, req: dict) -> dict:
        if req.get("protocol_version") != PROTOCOL_VERSION:
            raise Unexpressible(f"this adapter speaks protocol version {PROTOCOL_VERSION}")
        self.greeted = True
        return {"name": "nekro-agent (PAS adapter)", "version": loading.version(), "language": "python",
                "profiles": PROFILES, "protocol_version": PROTOCOL_VERSION}

    @staticmethod
    def _event(world: World, cmd: str, req: dict) -> dict:
        if cmd == "run":
            return world.run(req)
        if cmd in ("activate", "extend"):
            return world.call(req, cmd)
        if cmd == "set-strategy":
            return world.set_strategy(req)
        if cmd in ("enable", "disable"):
            return world.toggle(req["module_name"], cmd == "enable")
        if cmd == "set-scheduler":
            return world.toggle("plugin_activation", bool(req["enabled"]))
        return world.restart()  # the only command left


def _no_constants(name: str):
    raise ValueError(f"{name} is not strict JSON")


def _error(rid, code: str, message: str) -> dict:
    return {"id": rid, "ok": False, "error": {"message": message, "code": code}}


def main() -> int:
    """Serve the protocol on stdin/stdout until 'bye' or end of input."""
    threading.Thread(target=loading.import_nekro, name="import-nekro", daemon=True).start()
    session = Session()
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        response = session.answer(line.rstrip(b"\r\n"))
        _PROTO_OUT.write(json.dumps(response, ensure_ascii=False, allow_nan=False) + "\n")
        _PROTO_OUT.flush()
        if session.done:
            break
    _PROTO_OUT.flush()
    loading.IMPORT_DONE.wait(120)  # its scratch folder is removed when the import ends
    os._exit(0)  # skip NekroAgent's atexit/shutdown machinery


if __name__ == "__main__":
    sys.exit(main())
