"""Shared fixtures of the docs tests: one strict build of the site and the docs' sandbox, each made once per run
(once for all pytest-xdist workers: support.shared_build)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.docs_commands import index_packages
from support.docs_sandbox import build_wheelhouse, copy_venv, make_user_venv
from support.shared_build import shared_build

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteBuild:
    """The result of ``mkdocs build --strict``: exit status, its log, and the built site."""

    returncode: int
    log: str
    site: Path


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """Build the site once per run (once for all pytest-xdist workers) with ``mkdocs build --strict``."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs-material is not installed (pip install '.[docs]'); .ci/run installs it")

    def build(site: Path) -> dict:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
             "--site-dir", str(site)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )
        return {"returncode": done.returncode, "log": done.stdout + done.stderr}

    site, facts = shared_build(tmp_path_factory, "site", build)
    return SiteBuild(returncode=facts["returncode"], log=facts["log"], site=site)


@pytest.fixture(scope="session")
def built_site(site_build: SiteBuild) -> Path:
    """The built site folder; fails (rather than skips) when the strict build failed."""
    if site_build.returncode != 0:
        pytest.fail("mkdocs build --strict failed:\n" + site_build.log[-4000:], pytrace=False)
    return site_build.site


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Path:
    """PAS's wheel and its dependencies' in one folder, for pip to install from offline (docs_sandbox); once per run.

    The dependencies' wheels are kept in pytest's cache folder (.pytest_cache) for the next run, when
    pytest's cache is on (-p no:cacheprovider turns it off).
    """
    cache = pytestconfig.cache.mkdir("pas-docs-wheels") if hasattr(pytestconfig, "cache") else None
    folder, _ = shared_build(tmp_path_factory, "wheelhouse",
                             lambda folder: build_wheelhouse(folder, index_packages(), cache))
    return folder


@pytest.fixture(scope="session")
def user_venv(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The activated venv of the guides' bare ``pas``, PAS installed from the wheelhouse (docs_sandbox).

    Made once per run, and copied for each worker: the commands install into it (``pip install
    './.github/pas[budget]'`` reinstalls pas), and a page on another worker that ran ``pas`` while
    pas was being reinstalled found no ``pas`` (seen under ``-n 3``). Each worker's test files run
    one after another, so within a worker the copy is shared as a user's own venv would be.
    """
    made, _ = shared_build(tmp_path_factory, "user-venv", lambda folder: make_user_venv(folder, wheelhouse))
    own = tmp_path_factory.mktemp("user-venv") / "venv"
    copy_venv(made, own)
    return own
