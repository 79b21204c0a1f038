"""Where the docs' commands run (test_docs_commands.py, test_docs_workflows.py): a fresh clone, a home, pip offline.

- a fresh clone: a copy of the files a clone of this checkout has (``git ls-files``, tracked or
  new and not ignored), as they are now;
- a home folder of its own (``~/pas`` lands there);
- on ``PATH``, first, an activated venv where ``pas`` is installed from the wheel built from this
  checkout: what "pas is installed" means on the guides that write bare ``pas``;
- pip told to use no package index and to find packages only in a wheelhouse made once per
  session (PAS's own wheel and its dependencies'), so install lines run as written, offline, and
  ``plugin-activation-spec`` can only come from this checkout.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _checkout_files() -> list[str]:
    """The files a clone of this checkout has (tracked or new, not ignored), as git lists them."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: a fresh clone cannot be made from it")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


_EXTRAS = ("budget", "mcp", "lsp", "fuzz")


def build_wheelhouse(folder: Path, also: list[str], cache: Path | None = None) -> None:
    """PAS's wheel (with the user-facing extras' dependencies: budget, mcp, lsp, fuzz), its build backend and ``also``, with every dependency, into ``folder``.

    ``also``: the packages the docs install by name (docs_commands.index_packages). PAS's wheel is
    always built from this checkout. The other wheels come from ``cache`` (pytest's cache folder)
    when an earlier run left them there for the same requirements: resolving them against the
    package index costs pip ~12 s of CPU (it reads every release of every dependency), picking
    them from a folder ~1 s. Skips the calling test when pip finds no package index or cache for
    the dependencies.
    """
    kept = None if cache is None else cache / _requirements_key(also)
    if kept is not None and kept.is_dir():
        if _pip_wheel(folder, also, ["--no-index", "--find-links", str(kept)]).returncode == 0:
            return
    done = _pip_wheel(folder, also, [])
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip wheel failed"])[-1]
        pytest.skip(f"no wheels for PAS's dependencies (pip wheel reached no package index or cache): {last}")
    if kept is not None:
        _keep_dependency_wheels(folder, kept)


def _pip_wheel(folder: Path, also: list[str], source: list[str]) -> subprocess.CompletedProcess:
    """``pip wheel`` PAS (from this checkout, with the extras), hatchling and ``also`` into ``folder``, from ``source``."""
    return subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "-q", *source, "-w", str(folder),
         f"{ROOT}[{','.join(_EXTRAS)}]", "hatchling", *also], capture_output=True, text=True, timeout=600)


def _requirements_key(also: list[str]) -> str:
    """What decides the dependency wheels: PAS's requirements (its own, the extras', the build backend's), ``also``, this Python."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = {"dependencies": project["project"]["dependencies"], "build": project["build-system"]["requires"],
              "extras": {name: project["project"]["optional-dependencies"].get(name) for name in _EXTRAS},
              "also": sorted(also), "python": sys.implementation.cache_tag, "platform": sysconfig.get_platform()}
    return hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:16]


def _keep_dependency_wheels(folder: Path, kept: Path) -> None:
    """Copy every wheel of ``folder`` but PAS's own into ``kept`` (whole or not at all: written aside, then renamed).

    Wheels kept for other requirements are removed: only the latest set is worth its ~40 MB.
    """
    for old in kept.parent.glob("*"):
        shutil.rmtree(old, ignore_errors=True)
    aside = kept.with_name(kept.name + f".{os.getpid()}")
    aside.mkdir(parents=True)
    for wheel in folder.glob("*.whl"):
        if not wheel.name.startswith("plugin_activation_spec-"):
            shutil.copy2(wheel, aside / wheel.name)
    aside.rename(kept)


def pip_env(wheelhouse: Path) -> dict[str, str]:
    """Pip offline: no index at all, packages only from ``wheelhouse``, no user or site config."""
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "PIP_CONFIG_FILE": os.devnull,
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1"}


def base_env() -> dict[str, str]:
    """This environment without the test's own venv, Python path, pip settings or CI variables."""
    own_bin = str(Path(sys.prefix) / "bin")
    path = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if entry and entry != own_bin]
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "GITHUB_ACTIONS", "CI"}
    kept = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PIP_")}
    return {**kept, "PATH": os.pathsep.join(path), "NO_COLOR": "1"}


def make_user_venv(folder: Path, wheelhouse: Path) -> None:
    """A venv for the guides' bare ``pas`` (as if activated): PAS installed from the wheelhouse, offline."""
    venv.create(folder, with_pip=True)
    subprocess.run([str(folder / "bin" / "pip"), "install", "-q", "plugin-activation-spec"],
                   env={**base_env(), **pip_env(wheelhouse)}, check=True, capture_output=True, timeout=600)


def copy_checkout(clone: Path) -> None:
    """A fresh clone of this checkout at ``clone``."""
    for name in _checkout_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)


def copy_venv(made: Path, to: Path) -> None:
    """A copy at ``to`` of the venv ``made``, working there: the venv's own path rewritten where it names it.

    A venv names its folder in its scripts' ``#!`` lines, its activate scripts and pyvenv.cfg, and
    nowhere else that matters (installed files are listed relative to site-packages).
    """
    shutil.copytree(made, to, symlinks=True)
    old, new = str(made).encode(), str(to).encode()
    for path in [*(to / "bin").iterdir(), to / "pyvenv.cfg"]:
        if path.is_file() and not path.is_symlink() and old in (data := path.read_bytes()):
            path.write_bytes(data.replace(old, new))


def environment(home: Path, user_venv: Path, wheelhouse: Path) -> dict[str, str]:
    """The environment commands run in: ``home`` as HOME, ``user_venv`` activated, pip offline."""
    home.mkdir(parents=True, exist_ok=True)
    env = {**base_env(), **pip_env(wheelhouse), "HOME": str(home), "VIRTUAL_ENV": str(user_venv)}
    env["PATH"] = f"{user_venv / 'bin'}{os.pathsep}{env['PATH']}"
    return env


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run ``command`` with bash as a CI runner does (``-eo pipefail``) in ``cwd``."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)
