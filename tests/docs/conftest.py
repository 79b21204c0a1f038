"""Shared fixtures of the docs tests: the checkout's paths and one strict build of the site."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteBuild:
    """The result of ``mkdocs build --strict``: exit status, its log, and the built site."""

    returncode: int
    log: str
    site: Path


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """Build the site once per session with ``mkdocs build --strict`` into a temporary folder."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs-material is not installed (pip install '.[docs]'); .ci/run installs it")
    site = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    return SiteBuild(returncode=done.returncode, log=done.stdout + done.stderr, site=site)


@pytest.fixture(scope="session")
def built_site(site_build: SiteBuild) -> Path:
    """The built site folder; fails (rather than skips) when the strict build failed."""
    if site_build.returncode != 0:
        pytest.fail("mkdocs build --strict failed:\n" + site_build.log[-4000:], pytrace=False)
    return site_build.site


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """PAS's wheel and its dependencies' in one folder, for pip to install from offline (docs_sandbox)."""
    from docs_commands import index_packages
    from docs_sandbox import build_wheelhouse

    folder = tmp_path_factory.mktemp("wheelhouse")
    build_wheelhouse(folder, index_packages())
    return folder


@pytest.fixture(scope="session")
def user_venv(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The activated venv of the guides' bare ``pas``, PAS installed from the wheelhouse (docs_sandbox)."""
    from docs_sandbox import make_user_venv

    folder = tmp_path_factory.mktemp("user-venv")
    make_user_venv(folder, wheelhouse)
    return folder
