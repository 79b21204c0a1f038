"""The "Implementations" page: real ``pas run -f json`` results of every known implementation.

``python -m conformance.docs_gen.implementations`` runs the suite against each implementation
below (the reference in-process and over stdio, the JavaScript example, and NekroAgent 2.3.0,
2.3.1, 2.3.2, 2.3.3 and 2.4.0, each release in its own venv), one ``pas run -f json``
subprocess each, and writes what they answered to ``docs/data/implementations.json``; then it
renders ``docs/implementations.md`` and its Chinese twin from that file alone. An
implementation that is not installed here (no ``node``, no venv for a NekroAgent release) keeps
the entry of the last run where it was installed, and is recorded as not run when there is
none; the page says so. ``--render`` re-renders the pages from the committed data without
running anything. Releases of one product (``release_of``) are shown as a trend, with what
changed between them: the scenarios whose verdict changed, from the runs, and the rule changes
that explain them (``changes``, written from the releases' source).

Rendering is a pure function of the data, so tests/docs/test_implementations_page.py can check
that the committed pages match the data file and that the data's scenario ids are the current
suite's (a changed suite makes the page stale until it is regenerated).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.docs_gen._md import code, table
from conformance.docs_gen.implementation_trend import groups, render_trend

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "data" / "implementations.json"
PAGE, PAGE_ZH = ROOT / "docs" / "implementations.md", ROOT / "docs" / "implementations.zh.md"
PROFILES = ("activation", "text", "host", "disclosure")
#: The declaration of the reference entry that shows what a page says of declined SHOULDs.
HAZARDS = "state_scope=instance,order=catalogue,hidden_calls=executed"
FORMAT = 1


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


NEKRO_LATEST = "2.4.0"


def _nekro_python(version: str = NEKRO_LATEST) -> str | None:
    """The Python of the venv scripts/install-nekroagent.sh makes for ``version``, if it exists."""
    cache = Path.home() / ".cache" / "pas"
    venv = (Path(os.environ.get("PAS_NEKRO_VENV", cache / "nekroagent-venv")) if version == NEKRO_LATEST
            else cache / f"nekroagent-{version}-venv")
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


IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(key="reference", title="PAS reference, in-process", shown_command="reference",
                   impl=lambda: "reference", missing=""),
    Implementation(key="reference-stdio", title="PAS reference, over stdio",
                   shown_command="cmd:pas serve-reference",
                   impl=lambda: f"cmd:{sys.executable} -m conformance serve-reference", missing=""),
    Implementation(key="reference-hazards", title="PAS reference, declaring three disclosure hazards",
                   shown_command=f"'reference?{HAZARDS}'", impl=lambda: f"reference?{HAZARDS}", missing=""),
    Implementation(key="js-scheduler", title="JavaScript example (examples/js-scheduler)",
                   shown_command="cmd:node examples/js-scheduler/server.js",
                   impl=lambda: (f"cmd:{_node()} {ROOT / 'examples/js-scheduler/server.js'}" if _node() else None),
                   missing="node is not installed (scripts/ensure-node.sh installs it)"),
    *(_nekro(version, changes) for version, changes in NEKRO_CHANGES.items()),
)


def scenario_profile(profiles: Sequence[str]) -> str:
    """The profile a scenario is counted under: disclosure, else host, else text, else activation."""
    return next((p for p in ("disclosure", "host", "text") if p in profiles), "activation")


def run_one(implementation: Implementation, runner: Callable[[list[str]], str] | None = None) -> dict[str, Any]:
    """Run the suite against ``implementation`` with ``pas run -f json``; its entry of the data file."""
    entry: dict[str, Any] = {"key": implementation.key, "title": implementation.title,
                             "command": implementation.shown_command,
                             "expected_failures_file": implementation.expected_failures,
                             "release_of": implementation.release_of, "changes": list(implementation.changes)}
    impl = implementation.impl()
    if impl is None:
        return {**entry, "installed": False, "missing": implementation.missing}
    args = [sys.executable, "-m", "conformance", "run", "-q", "-f", "json", "--impl", impl, *implementation.extra_args]
    if implementation.expected_failures:
        args += ["--expected-failures", str(ROOT / implementation.expected_failures)]
    lines = [json.loads(line) for line in (runner or _subprocess)(args).splitlines() if line.strip()]
    summary = next(line for line in lines if line.get("type") == "summary")
    results = {line["id"]: line for line in lines if line.get("type") == "result"}
    declined = {rid: {"title": row["title"], "declined_by": row.get("declined_by", "")}
                for rid, row in summary.get("requirements", {}).items() if row.get("status") == "declined"}
    return {**entry, "installed": True, "implementation": summary["implementation"], "declined": declined,
            "results": {sid: r["outcome"] for sid, r in sorted(results.items())},
            "profiles_of": {sid: scenario_profile(r["profiles"]) for sid, r in sorted(results.items())},
            "reasons": {sid: r["reason"] for sid, r in sorted(results.items()) if r["outcome"] in ("xfailed", "stale")}}


def _subprocess(args: list[str]) -> str:
    # pas run exits 1 when something failed: that is a result to record, not an error here.
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False).stdout


def collect(suite: Sequence[tuple[str, str]], implementations: Sequence[Implementation] = IMPLEMENTATIONS,
            runner: Callable[[list[str]], str] | None = None) -> dict[str, Any]:
    """The whole data file: the suite's (id, category) pairs and one entry per implementation."""
    return {"format": FORMAT, "suite": [{"id": sid, "category": cat} for sid, cat in sorted(suite)],
            "implementations": [run_one(impl, runner) for impl in implementations]}


def keep_previous(data: dict[str, Any], previous: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each implementation not installed here replaced by its entry of ``previous``, if that one ran.

    A NekroAgent release whose venv is missing on this machine keeps the results of the last
    run where it was installed; if the suite changed since, the data is stale and a test says so.
    """
    before = {e["key"]: e for e in previous.get("implementations", []) if e.get("installed")}
    kept = [before.get(e["key"], e) if not e["installed"] else e for e in data["implementations"]]
    for entry, old in zip(data["implementations"], kept):
        if entry is not old:
            print(f"{entry['key']}: not installed here; kept from the last run where it was", file=sys.stderr)
    return {**data, "implementations": kept}


def current_suite() -> list[tuple[str, str]]:
    """(id, category folder) of every bundled scenario."""
    from conformance.suite.scenario import load_suite

    scenarios, _ = load_suite()
    return sorted((s.id, Path(s.path).parent.name) for s in scenarios)


def counts(entry: Mapping[str, Any], profile: str) -> dict[str, int]:
    """passed / expected failures / failed (failed, errored, or an expected failure that passed) / not run."""
    tally = {"passed": 0, "expected": 0, "failed": 0, "skipped": 0}
    bucket = {"passed": "passed", "xfailed": "expected", "failed": "failed", "errored": "failed", "stale": "failed",
              "skipped": "skipped"}
    for sid, outcome in entry["results"].items():
        if entry["profiles_of"][sid] == profile:
            tally[bucket.get(outcome, "failed")] += 1
    return tally


_EN = {
    "lang": "en",
    "title": "Implementations",
    "intro": ("What the conformance suite says about every implementation we know of, from real runs of "
              "`pas run -f json`, one per implementation, against the suite of {n} scenarios. Generated by "
              "`python -m conformance.docs_gen.implementations` into `docs/data/implementations.json`, from which "
              "this page is rendered; a test fails when the suite changes and the data is not regenerated."),
    "cols": ["Implementation", "Version", "Profile", "Passed", "Expected failures", "Failed", "Not claimed"],
    "counting": ("A scenario is counted under its most specific profile (disclosure, else host, else text, else "
                 "activation). *Expected failures* are listed, with a reason, in the implementer's expected-failures "
                 "file; *Failed* counts failed and errored scenarios and listed failures that now pass; "
                 "*Not claimed* are scenarios of a profile the implementation does not claim, and disclosure "
                 "scenarios its declared options do not apply to (skipped). "
                 "An implementation with several releases shows its newest here and every release below."),
    "declares": "Declares (disclosure options)",
    "declined": ("Declined by declaration, the hazards its users will hit ([what each means]"
                 "(guides/disclosure.md#options)):"),
    "not_installed": "Not run here: {why}. The numbers will appear when the page is regenerated where it is installed.",
    "command": "Command", "claims": "Claims", "none": "nothing",
    "xf": ("Expected failures, by cause, as its expected-failures file `{file}` gives them; each documented "
           "divergence is explained on [Known divergences](divergences.md)."),
    "fails": "Failing scenarios:",
    "scenarios": "scenarios",
    "outcomes": {"failed": "failed", "errored": "errored", "stale": "passed, but listed as an expected failure"},
}
_ZH = {
    "lang": "zh",
    "title": "实现",
    "intro": ("一致性测试套件对我们所知的每个实现的结论，来自真实运行的 `pas run -f json`（每个实现一次），"
              "套件共 {n} 个场景。由 `python -m conformance.docs_gen.implementations` 生成到 "
              "`docs/data/implementations.json`，本页由该文件渲染；套件改变而数据未重新生成时，测试会失败。"),
    "cols": ["实现", "版本", "配置档", "通过", "预期失败", "失败", "未声明"],
    "counting": ("每个场景计入它最具体的配置档（disclosure，其次 host，其次 text，其次 activation）。*预期失败* 是实现者在其预期失败文件中"
                 "列出并给出原因的场景；*失败* 包括失败、出错的场景，以及已列出但现在通过的场景；"
                 "*未声明* 是实现未声明的配置档中的场景，以及其声明的选项不适用的渐进式披露场景（跳过）。"
                 "有多个版本的实现在这里只列出最新版本，每个版本都在下文列出。"),
    "declares": "声明（渐进式披露选项）",
    "declined": "因声明而放弃的 SHOULD，即其用户会遇到的风险（[各自的含义](guides/disclosure.md#options)）：",
    "not_installed": "此处未运行：{why}。在安装了它的环境中重新生成本页后，数字才会出现。",
    "command": "命令", "claims": "声明", "none": "无",
    "xf": "预期失败，按原因分组，取自其预期失败文件 `{file}`；每个有记录的差异在[已知差异](divergences.md)中说明。",
    "fails": "失败的场景：",
    "scenarios": "个场景",
    "outcomes": {"failed": "失败", "errored": "出错", "stale": "通过，但被列为预期失败"},
}


def _cause(reason: str) -> str:
    return reason[1:reason.index("]")] if reason.startswith("[") and "]" in reason else ""


def _scenario_link(sid: str, categories: Mapping[str, str]) -> str:
    category = categories.get(sid)
    return f"[{code(sid)}](generated/scenarios/{category}.md#{sid})" if category else code(sid)


def _section(entry: Mapping[str, Any], words: Mapping[str, Any], categories: Mapping[str, str]) -> list[str]:
    lines = [f"## {entry['title']} {{ #{entry['key']} }}", "", f"{words['command']}: `pas run --impl {entry['command']}`", ""]
    if not entry["installed"]:
        return lines + [words["not_installed"].format(why=entry["missing"]), ""]
    info = entry["implementation"]
    claimed = ", ".join(code(p) for p in info["profiles"]) or words["none"]
    lines += [f"{words['claims']}: {claimed} · {code(info['name'])} {info['version']} ({info['language']})", ""]
    lines += _disclosure_lines(entry, words)
    reasons: Mapping[str, str] = entry["reasons"]
    by_cause: dict[str, list[str]] = {}
    for sid, reason in reasons.items():
        if entry["results"][sid] == "xfailed":
            by_cause.setdefault(reason, []).append(sid)
    if by_cause:
        lines += [words["xf"].format(file=entry["expected_failures_file"]), ""]
        for reason, sids in sorted(by_cause.items(), key=lambda kv: (_cause(kv[0]).zfill(4), kv[0])):
            lines.append(f"- {len(sids)} {words['scenarios']}: {reason}")
        lines.append("")
    failing = [sid for sid, outcome in entry["results"].items() if outcome in ("failed", "errored", "stale")]
    if failing:
        lines += [words["fails"], ""] + [f"- {_scenario_link(s, categories)}: {words['outcomes'][entry['results'][s]]}"
                                         for s in failing]
        lines.append("")
    return lines


def _disclosure_lines(entry: Mapping[str, Any], words: Mapping[str, Any]) -> list[str]:
    """What an implementation claiming the disclosure profile declares, and the SHOULDs that declines."""
    info = entry["implementation"]
    if "disclosure" not in info["profiles"]:
        return []
    declared = info.get("disclosure") or {}
    options = ", ".join(f"{k}={'+'.join(v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else v}"
                        for k, v in declared.items()) or "defaults"
    lines = [f"{words['declares']}: {code(options)}", ""]
    declined = entry.get("declined") or {}
    if declined:
        lines += [words["declined"], ""]
        lines += [f"- [{rid}](generated/specification.md#{rid}) {row['title']} ({code(row['declined_by'])})"
                  for rid, row in declined.items()]
        lines.append("")
    return lines


def render(data: Mapping[str, Any], words: Mapping[str, Any] = _EN) -> str:
    """The page, English by default; a pure function of ``data``."""
    categories = {s["id"]: s["category"] for s in data["suite"]}
    lines = [f"# {words['title']}", "",
             "<!-- Generated by `python -m conformance.docs_gen.implementations` from docs/data/implementations.json. "
             "Do not edit: regenerate. -->", "", words["intro"].format(n=len(data["suite"])), ""]
    rows = []
    releases = groups(data["implementations"])
    for entry in data["implementations"]:
        if entry.get("release_of") and entry is not releases[entry["release_of"]][-1]:
            continue  # an older release: in the trend section
        link = f"[{entry['title']}](#{entry['key']})"
        if not entry["installed"]:
            rows.append([link, "", "", "", "", "", ""])
            continue
        version = entry["implementation"]["version"]
        for profile in PROFILES:
            tally = counts(entry, profile)
            if profile not in entry["implementation"]["profiles"]:
                rows.append([link, version, code(profile), "", "", "", str(tally["skipped"])])
            else:
                rows.append([link, version, code(profile), str(tally["passed"]), str(tally["expected"]),
                             str(tally["failed"]), str(tally["skipped"])])
    lines += table(words["cols"], rows)
    lines += (["", words["counting"], ""] if lines[-1] else [words["counting"], ""])
    for product, entries in releases.items():
        lines += render_trend(product, entries, counts, words["lang"])
    for entry in data["implementations"]:
        lines += _section(entry, words, categories)
    return "\n".join(lines).rstrip("\n") + "\n"


def render_zh(data: Mapping[str, Any], english: str) -> str:
    """The Chinese twin, headed by the SHA-256 of the English page (docs translation check)."""
    digest = hashlib.sha256(english.encode("utf-8")).hexdigest()[:12]
    body = render(data, _ZH)
    first, rest = body.split("\n", 1)
    return f"<!-- translated-from: sha256={digest} -->\n{first} {{ #implementations }}\n{rest}"


def write_pages(data: Mapping[str, Any]) -> None:
    """Render both pages from ``data`` and write them."""
    english = render(data)
    PAGE.write_text(english, encoding="utf-8")
    PAGE_ZH.write_text(render_zh(data, english), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run every implementation (or only ``--render``) and write the data file and the pages."""
    parser = argparse.ArgumentParser(prog="python -m conformance.docs_gen.implementations", description=__doc__)
    parser.add_argument("--render", action="store_true", help="only re-render the pages from the committed data")
    args = parser.parse_args(argv)
    if not args.render:
        data = keep_previous(collect(current_suite()), json.loads(DATA.read_text(encoding="utf-8")) if DATA.is_file() else {})
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        for entry in data["implementations"]:
            state = "ran" if entry["installed"] else f"not installed: {entry['missing']}"
            print(f"{entry['key']}: {state}", file=sys.stderr)
    write_pages(json.loads(DATA.read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
