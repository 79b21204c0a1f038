"""Every implementation the Implementations page reports, and how to run each one here.

The reference (in-process, over stdio, and under a declaration of three disclosure hazards), the
JavaScript example, NekroAgent 2.3.0 to 2.4.0 (each release in its own venv), and the four
progressive-disclosure hosts of examples/: Microsoft Agent Framework, LangGraph bigtool (its default
install and the newest set that works), Mastra (four declared configurations) and the Vercel AI SDK.
Each host's adapter runs with its expected-failures file, as its README documents; an implementation
whose install is missing here has ``impl()`` None, and the page keeps its last recorded run.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path.home() / ".cache" / "pas"
#: The declaration of the reference entry that shows what a page says of declined SHOULDs.
HAZARDS = "state_scope=instance,order=catalogue,hidden_calls=executed"


@dataclass(frozen=True, slots=True, kw_only=True)
class Implementation:
    """One implementation the page reports: how to run it, and how to tell it is installed."""

    key: str
    title: str
    shown_command: str  # the --impl as a reader would type it (no machine-specific paths)
    impl: Callable[[], str | None]  # the real --impl, or None when not installed here
    missing: str  # what the page says when impl() is None
    extra_args: tuple[str, ...] = ()
    expected_failures: str = ""  # repository path of its expected-failures file
    release_of: str = ""  # the product whose releases form a trend ("" for a lone implementation)
    changes: tuple[str, str] = ("", "")  # what changed since the release before (English, Chinese)
    host: str = ""  # the key of its page under docs/hosts/ ("" for none)
    configuration: str = ""  # which of the host's configurations this is ("" for its only one)


NEKRO_LATEST = "2.4.0"


def _nekro_python(version: str = NEKRO_LATEST) -> str | None:
    """The Python of the venv scripts/install-nekroagent.sh makes for ``version``, if it exists."""
    venv = (Path(os.environ.get("PAS_NEKRO_VENV", CACHE / "nekroagent-venv")) if version == NEKRO_LATEST
            else CACHE / f"nekroagent-{version}-venv")
    python = venv / "bin" / "python"
    return str(python) if python.is_file() else None


def _nekro(version: str, changes: tuple[str, str]) -> Implementation:
    latest = version == NEKRO_LATEST
    venv = "$PAS_NEKRO_VENV" if latest else f"$HOME/.cache/pas/nekroagent-{version}-venv"
    return Implementation(
        key="nekroagent" if latest else "nekroagent-" + version.replace(".", "-"),
        title=f"NekroAgent {version} (examples/nekroagent)",
        shown_command=f"cmd:{venv}/bin/python examples/nekroagent/adapter.py",
        impl=lambda: (f"cmd:{_nekro_python(version)} {ROOT / 'examples/nekroagent/adapter.py'}"
                      if _nekro_python(version) else None),
        missing=f"NekroAgent {version}'s venv is not installed (scripts/install-nekroagent.sh {version} installs it)",
        extra_args=("--timeout", "60"),
        expected_failures="examples/nekroagent/expected-failures" + ("" if latest else f"-{version}") + ".yaml",
        release_of="NekroAgent", changes=changes)


# What changed in NekroAgent's scheduling from one release to the next, read in the releases' source.
NEKRO_CHANGES = {
    "2.3.0": ("The first release with activation scheduling.", "第一个带有激活调度的版本。"),
    "2.3.1": ("The `auto` strategy needs a brief as well as `allow_sleep=True` (`prompt_activation.py:is_sleep_effective`); "
              "a plugin that exists but cannot sleep gets its own \"always visible\" reply "
              "(`plugin_activation.py:_get_existing_plugin`); the injection is called after the units are sorted, "
              "so it no longer moves injecting plugins last (`templates/plugin.py:_enrich_units_with_inject`).",
              "`auto` 策略除 `allow_sleep=True` 外还要求有摘要（`prompt_activation.py:is_sleep_effective`）；"
              "存在但不能休眠的插件得到自己的“始终可见”回复（`plugin_activation.py:_get_existing_plugin`）；"
              "注入在渲染单元排序之后才调用，不再把注入提示词的插件排到最后"
              "（`templates/plugin.py:_enrich_units_with_inject`）。"),
    "2.3.2": ("Nothing the suite reaches.", "没有改动测试套件触及的任何部分。"),
    "2.3.3": ("Nothing the suite reaches (the agent loop's LLM retries).", "没有改动测试套件触及的任何部分（只改了智能体循环的 LLM 重试）。"),
    "2.4.0": ("Every block carries a `call_priority` attribute (`templates/j2/plugin.j2`).",
              "每个插件块都带有 `call_priority` 属性（`templates/j2/plugin.j2`）。"),
}


def _node() -> str | None:
    return shutil.which("node")


def _venv_python(variable: str, default: str) -> str | None:
    """The Python of the venv ``$variable`` names (``~/.cache/pas/<default>`` without it), if it exists."""
    python = Path(os.environ.get(variable, CACHE / default)) / "bin" / "python"
    return str(python) if python.is_file() else None


def _python_host(key: str, title: str, example: str, venv: tuple[str, str], expected: str, *,
                 installer: str, configuration: str = "") -> Implementation:
    """A Python host adapter (examples/<example>/adapter.py) run by the Python of its own venv."""
    adapter = f"examples/{example}/adapter.py"
    return Implementation(
        key=key, title=title, shown_command=f"cmd:$HOME/.cache/pas/{venv[1]}/bin/python {adapter}",
        impl=lambda: (f"cmd:{python} {ROOT / adapter}" if (python := _venv_python(*venv)) else None),
        missing=f"its venv is not installed ({installer} installs it)", extra_args=("--timeout", "30"),
        expected_failures=f"examples/{example}/{expected}", host=example, configuration=configuration)


def _node22(example: str) -> str | None:
    """Node 22 (scripts/install-node22.sh) when examples/<example>/node_modules is installed too."""
    node = Path(os.environ.get("PAS_NODE22_DIR") or CACHE / "node22") / "bin" / "node"
    return str(node) if node.is_file() and (ROOT / "examples" / example / "node_modules").is_dir() else None


def _node_host(example: str, title: str, configuration: str = "") -> Implementation:
    """A Node host adapter (examples/<example>/adapter.mjs [configuration]) under Node 22."""
    argument = f" {configuration}" if configuration else ""
    expected = f"expected-failures-{configuration}.yaml" if configuration else "expected-failures.yaml"
    return Implementation(
        key=example + (f"-{configuration}" if configuration else ""), title=title,
        shown_command=f"cmd:$HOME/.cache/pas/node22/bin/node examples/{example}/adapter.mjs{argument}",
        impl=lambda: (f"cmd:{node} {ROOT / 'examples' / example / 'adapter.mjs'}{argument}"
                      if (node := _node22(example)) else None),
        missing=f"Node 22 or examples/{example}/node_modules is not installed (scripts/install-{example}.sh installs both)",
        extra_args=("--timeout", "60"), expected_failures=f"examples/{example}/{expected}", host=example,
        configuration=configuration)


MASTRA_CONFIGURATIONS = ("in-memory", "context", "in-memory-no-memory", "context-no-memory")

IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(key="reference", title="PAS reference, in-process", shown_command="reference",
                   impl=lambda: "reference", missing=""),
    Implementation(key="reference-stdio", title="PAS reference, over stdio",
                   shown_command="cmd:pas serve-reference",
                   impl=lambda: f"cmd:{sys.executable} -m conformance serve-reference", missing=""),
    Implementation(key="reference-hazards", title="PAS reference, declaring three disclosure hazards",
                   shown_command=f"reference?{HAZARDS}", impl=lambda: f"reference?{HAZARDS}", missing=""),
    Implementation(key="js-scheduler", title="JavaScript example (examples/js-scheduler)",
                   shown_command="cmd:node examples/js-scheduler/server.js",
                   impl=lambda: (f"cmd:{_node()} {ROOT / 'examples/js-scheduler/server.js'}" if _node() else None),
                   missing="node is not installed (scripts/ensure-node.sh installs it)"),
    *(_nekro(version, changes) for version, changes in NEKRO_CHANGES.items()),
    _python_host("agent-framework", "Microsoft Agent Framework (examples/agent-framework)", "agent-framework",
                 ("PAS_MAF_VENV", "agent-framework-venv"), "expected-failures.yaml",
                 installer="scripts/install-agent-framework.sh"),
    *(_python_host(f"langgraph-bigtool-{which}", f"LangGraph bigtool, {which} install (examples/langgraph-bigtool)",
                   "langgraph-bigtool", (f"PAS_BIGTOOL_{which.upper()}_VENV", f"bigtool-{which}-venv"),
                   f"expected-failures-{which}.yaml", installer=f"scripts/install-bigtool.sh {which}",
                   configuration=which)
      for which in ("default", "working")),
    *(_node_host("mastra", f"Mastra, {configuration} (examples/mastra)", configuration)
      for configuration in MASTRA_CONFIGURATIONS),
    _node_host("ai-sdk", "Vercel AI SDK (examples/ai-sdk)"),
)
