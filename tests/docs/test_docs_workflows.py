"""The GitHub workflows the docs show: PAS from its checkout at .github/pas, submodules checked out, and the
NekroAgent template's steps run for real in a plugin repository.

PAS is on no package index, so a workflow gets it from a copy of PAS in the repository, at
``.github/pas`` (a git submodule), used as an action or installed with pip: every job that does
must check out submodules. The template for NekroAgent plugin repositories (extract, validate,
budget comment on the pull request) is shown on two pages in two languages, the same file in all
four places; its ``run`` steps run here in order, in a repository holding a plugin of our own and
PAS at ``.github/pas``, with ``gh`` replaced by a stand-in that records the comment.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.docs_commands import pages
from support.docs_sandbox import copy_checkout, environment, run

ROOT = Path(__file__).resolve().parents[2]
_YAML = re.compile(r'^[ \t]*```yaml(?: title="(?P<title>[^"]*)")?\n(?P<body>.*?)^[ \t]*```', re.MULTILINE | re.DOTALL)
TEMPLATE = ".github/workflows/pas-plugins.yml"
TEMPLATE_PAGES = ("docs/guides/ci-action.md", "docs/guides/ci-action.zh.md",
                  "docs/guides/nekroagent-plugins.md", "docs/guides/nekroagent-plugins.zh.md")


def _blocks(page: str) -> list[tuple[str | None, str]]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return [(found.group("title"), found.group("body")) for found in _YAML.finditer(text)]


def _step_lists(value: Any) -> list[tuple[bool, list[dict]]]:
    """(whole job?, steps) of a parsed workflow, or of a fragment that is a list of steps."""
    if isinstance(value, dict) and isinstance(value.get("jobs"), dict):
        return [(True, job.get("steps") or []) for job in value["jobs"].values() if isinstance(job, dict)]
    if isinstance(value, list) and value and all(isinstance(s, dict) and ("uses" in s or "run" in s) for s in value):
        return [(False, value)]
    return []


def _workflows() -> list[tuple[str, bool, list[dict]]]:
    found = []
    for page in pages():
        for _, body in _blocks(page):
            try:
                value = yaml.safe_load(body)
            except yaml.YAMLError:
                continue
            found += [(page, whole, steps) for whole, steps in _step_lists(value)]
    return found


def _needs_pas_checkout(step: dict) -> bool:
    return step.get("uses") == "./.github/pas" or "./.github/pas" in str(step.get("run", ""))


def test_every_job_that_takes_pas_from_github_pas_checks_out_submodules():
    workflows = _workflows()
    assert len(workflows) > 10
    wrong = []
    for page, whole, steps in workflows:
        if not any(_needs_pas_checkout(step) for step in steps):
            continue
        checkouts = [s for s in steps if str(s.get("uses", "")).startswith("actions/checkout@")]
        if whole and not checkouts:
            wrong.append(f"{page}: a job uses .github/pas without checking it out")
        wrong += [f"{page}: {s} has no submodules: true" for s in checkouts if (s.get("with") or {}).get("submodules") is not True]
    assert wrong == []


def test_no_workflow_installs_pas_by_a_name_from_a_package_index():
    runs = [str(step.get("run", "")) for _, _, steps in _workflows() for step in steps]
    installs = [line for text in runs for line in text.splitlines() if "pip install" in line]
    assert installs and [line for line in installs if "./.github/pas" not in line] == []


def _template(page: str) -> str:
    (body,) = [body for title, body in _blocks(page) if title == TEMPLATE]
    return body


def test_the_nekroagent_template_is_the_same_file_on_both_pages_in_both_languages():
    first, *others = [_template(page) for page in TEMPLATE_PAGES]
    assert all(other == first for other in others)
    steps = yaml.safe_load(first)["jobs"]["plugins"]["steps"]
    runs = " ".join(str(step.get("run", "")) for step in steps)
    assert all(needle in runs for needle in ("pas extract nekro", "pas validate --strict", "pas budget", "gh pr comment"))
    assert yaml.safe_load(first)["permissions"]["pull-requests"] == "write"


_PLUGIN = '''\
from nekro_agent.api.plugin import NekroPlugin, SandboxMethodType

plugin = NekroPlugin(
    name="Weather",
    module_name="weather",
    description="Looks up the weather forecast for a city, today and for the next days.",
    version="1.2.0",
    author="pas_docs",
    url="https://example.org/weather",
    allow_sleep=True,
    sleep_brief="Weather forecasts for any city. Activate when the user asks about the weather.",
)


@plugin.mount_sandbox_method(SandboxMethodType.TOOL, name="forecast", description="Forecast")
async def get_forecast(_ctx, city: str, days: int = 3) -> str:
    """Get the weather forecast of a city.

    Args:
        city: the city, optionally with its country ("Paris, France").
        days: how many days ahead, 1 to 7.
    """
    return city
'''

_GH = '''#!/bin/sh
# A stand-in for the GitHub CLI: records each `gh pr comment` and its body; --edit-last fails while there is none.
log="$HOME/gh.log"
case " $* " in
  *" --edit-last "*) [ -f "$log" ] || { echo "no comments found for current user" >&2; exit 1; } ;;
esac
echo "gh $*" >> "$log"
while [ $# -gt 0 ]; do [ "$1" = "--body-file" ] && cat "$2" >> "$HOME/gh-body.md"; shift; done
'''


@pytest.mark.slow
def test_the_nekroagent_template_extracts_validates_and_comments_the_budget(tmp_path, user_venv, wheelhouse):
    repository = tmp_path / "plugins-repo"
    copy_checkout(repository / ".github" / "pas")
    (repository / "plugins" / "weather").mkdir(parents=True)
    (repository / "plugins" / "weather" / "__init__.py").write_text(_PLUGIN, encoding="utf-8")
    env = environment(tmp_path / "home", user_venv, wheelhouse)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "gh").write_text(_GH, encoding="utf-8")
    (tools / "gh").chmod(0o755)
    summary = tmp_path / "summary.md"
    env.update(PATH=f"{tools}:{env['PATH']}", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    values = {"${{ github.token }}": "a-token", "${{ github.event.pull_request.number }}": "7"}
    for step in yaml.safe_load(_template(TEMPLATE_PAGES[0]))["jobs"]["plugins"]["steps"]:
        if "run" not in step:
            continue
        step_env = {name: values.get(value, value) for name, value in (step.get("env") or {}).items()}
        done = run(step["run"], repository, {**env, **step_env})
        assert done.returncode == 0, f"{step['run']}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert (repository / "build" / "pas-manifests" / "weather.yaml").is_file()
    body = (tmp_path / "home" / "gh-body.md").read_text(encoding="utf-8")
    assert "### Prompt tokens with activation scheduling (pas budget)" in body and "saving:" in body
    assert "tokens:  cl100k_base" in body  # the [budget] extra's real tokenizer, not the estimate
    assert (tmp_path / "home" / "gh.log").read_text(encoding="utf-8") == "gh pr comment 7 --body-file pas-budget.md\n"
    assert summary.read_text(encoding="utf-8") == body
