"""Every command the docs show runs as written, from a fresh clone or a wheel built from it, offline.

Each page that shows commands (README.md and docs/**/*.md, both languages) gets a sandbox of its own
(docs_sandbox: a fresh clone, a home, an activated venv with pas from the wheel, pip offline) and its
commands run there in order with bash; each must exit 0. docs_commands.SKIPS says which are not run
and why. Install lines run too: ``pip install .``, ``pip wheel . -w dist`` and
``pip install dist/*.whl`` run as written, and PAS can only come from this checkout. A page that
uses ``.venv/bin/...`` without making ``.venv`` first assumes Getting started's install, which runs
first. A Chinese page whose commands are the English page's (comments aside) is not run twice.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from support.docs_commands import RULE_PAGES, SKIPS, Command, commands, pages, skip_reason
from support.docs_sandbox import copy_checkout, environment, run

ROOT = Path(__file__).resolve().parents[2]
GETTING_STARTED_INSTALL = "python3 -m venv .venv && .venv/bin/pip install ."

pytestmark = pytest.mark.slow


def _torun(page: str) -> list[Command]:
    return [c for c in commands(page) if skip_reason(c) is None]


RUNNABLE = [page for page in pages() if _torun(page)]


def _same_as_english(page: str) -> bool:
    english = page.replace(".zh.md", ".md")
    return page.endswith(".zh.md") and [c.key for c in commands(page)] == [c.key for c in commands(english)]


@pytest.mark.parametrize("page", RUNNABLE)
def test_every_command_of_the_page_runs_as_written(page, tmp_path, user_venv, wheelhouse):
    if _same_as_english(page):
        pytest.skip(f"the same commands as {page.replace('.zh.md', '.md')}, which runs them")
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    clone = tmp_path / "clone"
    copy_checkout(clone)
    env = environment(tmp_path / "home", user_venv, wheelhouse)
    runnable = _torun(page)
    if any(".venv/bin/" in c.key for c in runnable) and not any("-m venv .venv" in c.key for c in runnable):
        assert run(GETTING_STARTED_INSTALL, clone, env).returncode == 0, "Getting started's install failed"
    for command in runnable:
        done = run(command.key, clone, env)
        assert done.returncode == 0, (f"{page}:{command.line}: `{command.key}` exited {done.returncode}\n"
                                      f"{done.stdout[-1500:]}\n{done.stderr[-2500:]}")


def test_the_pages_show_commands_and_the_test_runs_a_good_share_of_them():
    every = [c for page in pages() for c in commands(page) if not c.page.startswith(RULE_PAGES)]
    run = [c for c in every if skip_reason(c) is None]
    assert len(every) > 100 and len(run) > 30
    assert {"README.md", "docs/getting-started.md", "docs/index.md"} <= {c.page for c in run}


def test_every_skip_rule_is_still_needed():
    every = [c for page in pages() for c in commands(page)]
    unused = [pattern for pattern, _ in SKIPS if not any(re.search(pattern, c.key, re.MULTILINE) for c in every)]
    assert unused == []


def test_no_page_tells_to_install_a_package_no_index_has():
    # plugin-activation-spec is on no package index: pip answers "No matching distribution found". A page
    # may say so ("... finds nothing"), but never tell the reader to run it.
    offenders = []
    for page in pages():
        text = (ROOT / page).read_text(encoding="utf-8")
        for found in re.finditer(r"pip install\s+['\"]?plugin-activation-spec\S*", text):
            if not re.match(r"\S*\s*(finds nothing|找不到)", text[found.end():found.end() + 20]):
                offenders.append(f"{page}:{text.count(chr(10), 0, found.start()) + 1}: {found.group(0)}")
    assert offenders == []


def test_packages_installed_by_name_go_into_the_wheelhouse_and_paths_do_not(monkeypatch):
    from support import docs_commands

    shown = ["pip install pygls", "python3 -m venv .venv && .venv/bin/pip install .", "pip install dist/*.whl",
             ".venv/bin/pip install '.[budget]'", "pip install -q hypothesis 'tiktoken'; pas --version",
             "python3 -m pip install ./.github/pas"]
    monkeypatch.setattr(docs_commands, "pages", lambda: ["docs/x.md"])
    monkeypatch.setattr(docs_commands, "commands",
                        lambda page: [Command(text=text, page=page, line=n) for n, text in enumerate(shown)])
    assert docs_commands.index_packages() == ["hypothesis", "pygls"]
