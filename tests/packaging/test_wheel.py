"""The wheel and the sdist: both build, the wheel carries spec/ and the scenarios, and `pas` works after
installing the wheel into a fresh venv, from a folder with no checkout; a wheel built from the sdist too."""

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
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, built by the project's own build backend (hatchling) through its PEP 517 hook, offline."""
    out = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "-c", "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))", str(out)],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    (built,) = out.glob("plugin_activation_spec-*.tar.gz")
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
    assert "reference_impl/_spec/requirements.zh.yaml" in names
    assert "conformance/docs_gen/vocabulary.zh.yaml" in names
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
    """`pas run` (the README's first command) finds the bundled suite and the reference passes it.

    Under its default declaration: the disclosure scenarios that need other options are skipped
    as not applicable, and nothing else is.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(installed / "bin" / "pas"), "run", "--format", "json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    summary, counts = lines[-1], lines[-1]["counts"]
    assert summary["type"] == "summary" and counts["passed"] >= 150
    assert counts["passed"] + counts["skipped"] == summary["total"]
    assert {line["reason"].split(":")[0] for line in lines[:-1] if line["outcome"] == "skipped"} == {
        "not applicable under the declared options"}


def test_the_sdist_carries_what_a_wheel_and_the_docs_are_built_from(sdist: Path) -> None:
    import tarfile

    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    for needed in ("pyproject.toml", "README.md", "mkdocs.yml", "spec/requirements.yaml", "spec/requirements.zh.yaml",
                   "spec/schemas/plugin-manifest.schema.yaml", "spec/schemas/protocol/run-request.schema.yaml",
                   "conformance/suite/scenarios/fixtures.yaml", "conformance/docs_gen/vocabulary.zh.yaml",
                   "reference_impl/__init__.py", "docs/index.md", "docs/hooks/schemas.py"):
        assert needed in names, needed


def test_the_sdist_carries_no_installed_third_party_package(sdist: Path) -> None:
    """The Node hosts' node_modules (installed by scripts/install-mastra.sh and install-ai-sdk.sh, ignored by git)."""
    import tarfile

    with tarfile.open(sdist) as archive:
        assert [name for name in archive.getnames() if "/node_modules/" in name or name.endswith("/node_modules")] == []


def test_a_wheel_built_from_the_sdist_carries_the_spec(sdist: Path, tmp_path: Path) -> None:
    import tarfile

    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (source,) = tmp_path.glob("plugin_activation_spec-*")
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out)], check=True)
    (wheel,) = out.glob("plugin_activation_spec-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"reference_impl/_spec/requirements.yaml", "reference_impl/_spec/schemas/protocol/run-request.schema.yaml",
            "conformance/docs_gen/vocabulary.zh.yaml"} <= names


def test_the_installed_pas_prints_every_bundled_schema_from_a_folder_with_no_checkout(installed: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    listing = subprocess.run([str(installed / "bin" / "pas"), "schema", "--list"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
    assert listing.returncode == 0, listing.stderr
    assert "protocol/run-request" in listing.stdout.split() and "plugin-manifest" in listing.stdout.split()
    printed = subprocess.run([str(installed / "bin" / "pas"), "schema", "protocol/run-request"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
    assert printed.returncode == 0 and json.loads(printed.stdout)["$id"].endswith("/protocol/run-request.schema.json")
