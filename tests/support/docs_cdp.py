"""A tiny Chrome DevTools Protocol client over ``--remote-debugging-pipe``, for the docs browser test.

Pure standard library: headless Chromium is started with the DevTools pipe on file descriptors
3 (commands in) and 4 (replies and events out), messages being JSON separated by NUL bytes.
Waiting is done by polling the page in real time, so slow JavaScript (the search index is
built in a web worker) is waited for properly, unlike ``--virtual-time-budget``.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--remote-debugging-pipe",
)


def _above_nine(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class BrowserError(RuntimeError):
    """Chromium exited, answered with an error, or did not answer in time."""


class Browser:
    """One headless Chromium with one page; use as a context manager."""

    def __init__(self, chromium: str, user_data_dir: Path, *, width: int = 1280, height: int = 900,
                 timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.errors: list[str] = []  # uncaught JavaScript exceptions, in order
        to_child, self._out = os.pipe()
        self._in, from_child = os.pipe()
        # Move the child's ends above 9 so that putting them on 3 and 4 cannot clobber them.
        to_child, from_child = _above_nine(to_child), _above_nine(from_child)
        # Bash puts the pipe ends on fds 3 and 4 without a preexec_fn (unsafe with threads).
        script = f'exec "$@" 3<&{to_child} 4>&{from_child} {to_child}<&- {from_child}>&-'
        self._process = subprocess.Popen(
            ["/bin/bash", "-c", script, "bash", chromium, *FLAGS, f"--user-data-dir={user_data_dir}",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(to_child, from_child), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self._session = ""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Ask Chromium to quit, and make sure it has."""
        try:
            self._session = ""
            self.call("Browser.close", _timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._in, self._out):
            try:
                os.close(fd)
            except OSError:
                pass

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._in], [], [], left)
            if ready:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    raise BrowserError(f"chromium exited (status {self._process.poll()})")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def call(self, method: str, _timeout: float | None = None, **params: Any) -> dict[str, Any]:
        """Send one command and return its result, recording events that arrive meanwhile."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self._session:
            message["sessionId"] = self._session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (_timeout or self.timeout)
        while True:
            reply = self._message(deadline)
            if reply.get("method") == "Runtime.exceptionThrown":
                details = reply["params"]["exceptionDetails"]
                self.errors.append(details.get("exception", {}).get("description") or details.get("text", ""))
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"evaluating {expression!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float | None = None) -> Any:
        """Poll ``expression`` until it is truthy; its value, or BrowserError after ``timeout``."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            found = self.evaluate(expression)
            if found:
                return found
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression}")
            time.sleep(0.1)

    def open(self, url: str) -> None:
        """Navigate and wait until the document has loaded."""
        self.evaluate("window.__pasLeaving = true")
        self.call("Page.navigate", url=url)
        self.wait_for("!window.__pasLeaving && document.readyState === 'complete'")

    def type(self, text: str) -> None:
        """Type ``text`` into the focused element one character at a time, as a keyboard (or an IME) does.

        Each character is inserted as typed text (``input`` events) and followed by its key being
        released (``keyup``), which is what search boxes such as mkdocs-material's listen to.
        """
        for char in text:
            self.call("Input.insertText", text=char)
            self.call("Input.dispatchKeyEvent", type="keyUp", key=char)

    def screenshot(self, path: Path) -> Path:
        """Save a PNG of the viewport."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path
