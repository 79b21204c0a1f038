"""The wheel carries spec/ and the scenarios: `pas` works after `pip install`, with no checkout."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(out)],
        check=True,
    )
    (built,) = out.glob("plugin_activation_spec-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel installed; dependencies come from this interpreter's site-packages."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # Reuse pyyaml/jsonschema from the test interpreter instead of downloading them again.
    Path(purelib, "_pas_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--ignore-installed", "-q", str(wheel)],
                   check=True)
    return env_dir


def test_the_wheel_contains_the_spec_and_the_scenarios(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "reference_impl/_spec/semantics.yaml" in names
    assert "reference_impl/_spec/requirements.yaml" in names
    assert "reference_impl/_spec/VERSION" in names
    assert "reference_impl/_spec/schemas/plugin-manifest.schema.yaml" in names
    assert "conformance/suite/scenarios/fixtures.yaml" in names
    assert any(n.startswith("conformance/suite/scenarios/") and n != "conformance/suite/scenarios/fixtures.yaml" for n in names)


def test_the_wheel_marks_both_packages_as_typed(wheel: Path) -> None:
    """PEP 561: type checkers use the annotations of an installed package only when it ships py.typed."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"reference_impl/py.typed", "conformance/py.typed"} <= names


def test_pas_finds_the_bundled_spec_from_a_folder_with_no_checkout(installed: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run(
        [str(installed / "bin" / "python"), "-c",
         "from reference_impl.spec_files import spec_dir, spec_version; print(spec_dir()); print(spec_version())"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True,
    )
    where, version = probe.stdout.split()
    assert Path(where).name == "_spec" and str(installed) in where
    assert version == (ROOT / "spec" / "VERSION").read_text().strip()


def test_the_installed_pas_command_runs_from_a_folder_with_no_checkout(installed: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(installed / "bin" / "pas"), "--version"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pas ")


def test_the_readme_main_job_passes_from_a_folder_with_no_checkout(installed: Path, tmp_path: Path) -> None:
    """`pas run` (the README's first command) finds the bundled suite and the reference passes it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(installed / "bin" / "pas"), "run", "--format", "json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    summary = json.loads(result.stdout.splitlines()[-1])
    counts = summary["counts"]
    assert summary["type"] == "summary" and counts["passed"] >= 150
    assert counts["passed"] == summary["total"]
