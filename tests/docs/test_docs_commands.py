"""Every command the docs show runs as written, from a fresh clone or a wheel built from it, offline.

Each page that shows commands (README.md and docs/**/*.md, both languages) gets a sandbox of its own
(docs_sandbox: a fresh clone, a home, an activated venv with pas from the wheel, pip offline) and its
commands run there in order with bash; each must exit 0. docs_commands.SKIPS says which are not run
and why. Install lines run too: ``pip install .``, ``pip wheel . -w dist`` and
``pip install dist/*.whl`` run as written, and PAS can only come from this checkout. A page that
uses ``.venv/bin/...`` without making ``.venv`` first assumes Getting started's install: that runs
once, in a clone of its own, and each such page gets a copy of the ``.venv`` it made. A Chinese page
whose commands are the English page's (comments aside) is not run twice.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from support.docs_commands import RULE_PAGES, SKIPS, Command, commands, pages, skip_reason
from support.docs_sandbox import copy_checkout, copy_venv, environment, run

ROOT = Path(__file__).resolve().parents[2]
GETTING_STARTED_INSTALL = "python3 -m venv .venv && .venv/bin/pip install ."

pytestmark = pytest.mark.slow


def _torun(page: str) -> list[Command]:
    return [c for c in commands(page) if skip_reason(c) is None]


RUNNABLE = [page for page in pages() if _torun(page)]


def _same_as_english(page: str) -> bool:
    english = page.replace(".zh.md", ".md")
    return page.endswith(".zh.md") and [c.key for c in commands(page)] == [c.key for c in commands(english)]


# The .venv of a page whose first command is Getting started's install (README.md's is, followed by
# `&& .venv/bin/pas run`) and that makes no other .venv, once its commands have all run.
_INSTALLED: dict[str, Path] = {}


def _makes_the_install_alone(runnable: list[Command]) -> bool:
    first, *rest = runnable
    return (first.key == GETTING_STARTED_INSTALL or first.key.startswith(GETTING_STARTED_INSTALL + " && ")) \
        and not any("-m venv .venv" in command.key for command in rest)


@pytest.fixture(scope="module")
def getting_started_venv(tmp_path_factory, user_venv, wheelhouse) -> Path:
    """The ``.venv`` Getting started's install makes in a fresh clone, for the pages that assume it.

    That of README.md's sandbox when its command ran (it is Getting started's install, then
    ``pas run``; README.md runs first), else made here, once. Each such page gets a copy
    (docs_sandbox.copy_venv): the install costs ~6 s of CPU (a venv with pip, PAS built and
    installed), a copy a fraction of one.
    """
    if "made" in _INSTALLED:
        return _INSTALLED["made"]
    clone = tmp_path_factory.mktemp("getting-started") / "clone"
    copy_checkout(clone)
    done = run(GETTING_STARTED_INSTALL, clone, environment(clone.parent / "home", user_venv, wheelhouse))
    assert done.returncode == 0, f"Getting started's install failed\n{done.stdout[-1500:]}\n{done.stderr[-2500:]}"
    return clone / ".venv"


def test_each_worker_installs_into_a_user_venv_of_its_own(user_venv, tmp_path_factory):
    """The pages install into the user venv (a reinstall of pas leaves no ``pas`` for a moment): each worker gets
    a copy of its own, never the run's shared build, which the other workers copy from."""
    assert user_venv.is_relative_to(tmp_path_factory.getbasetemp())
    done = subprocess.run([str(user_venv / "bin" / "pas"), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("pas "), done.stderr


@pytest.mark.parametrize("page", RUNNABLE)
def test_every_command_of_the_page_runs_as_written(page, tmp_path, user_venv, wheelhouse, request):
    if _same_as_english(page):
        pytest.skip(f"the same commands as {page.replace('.zh.md', '.md')}, which runs them")
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    clone = tmp_path / "clone"
    copy_checkout(clone)
    env = environment(tmp_path / "home", user_venv, wheelhouse)
    runnable = _torun(page)
    if any(".venv/bin/" in c.key for c in runnable) and not any("-m venv .venv" in c.key for c in runnable):
        copy_venv(request.getfixturevalue("getting_started_venv"), clone / ".venv")
    for command in runnable:
        done = run(command.key, clone, env)
        assert done.returncode == 0, (f"{page}:{command.line}: `{command.key}` exited {done.returncode}\n"
                                      f"{done.stdout[-1500:]}\n{done.stderr[-2500:]}")
    if _makes_the_install_alone(runnable):
        _INSTALLED.setdefault("made", clone / ".venv")


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


def test_a_copied_venv_runs_its_scripts_with_itself_not_the_original(tmp_path):
    # Were a script of the copy still run by the original's python, a page's `.venv/bin/pip install`
    # would install into the shared Getting-started venv and its own .venv would stay as it was.
    made = tmp_path / "made"
    venv.create(made, with_pip=False)
    script = made / "bin" / "where"
    script.write_text(f"#!{made}/bin/python\nimport sys\nprint(sys.prefix)\n", encoding="utf-8")
    script.chmod(0o755)
    copy_venv(made, tmp_path / "copy" / ".venv")
    shutil.rmtree(made)
    done = subprocess.run([str(tmp_path / "copy" / ".venv" / "bin" / "where")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == str(tmp_path / "copy" / ".venv"), done.stderr


def test_only_a_page_that_makes_getting_starteds_install_first_and_no_other_venv_lends_its_venv():
    def page(*shown: str) -> list[Command]:
        return [Command(text=text, page="x.md", line=n) for n, text in enumerate(shown)]

    assert _makes_the_install_alone(_torun("README.md"))
    assert _makes_the_install_alone(page(GETTING_STARTED_INSTALL + "  # install", ".venv/bin/pas run"))
    assert not _makes_the_install_alone(_torun("docs/getting-started.md"))  # it makes .venv again, and ~/pas
    assert not _makes_the_install_alone(page("pip install .", GETTING_STARTED_INSTALL))
    assert not _makes_the_install_alone(page(GETTING_STARTED_INSTALL + "[budget]"))
