"""`pas validate` reports problems of manifests `pas extract nekro` wrote at the .py line they came from.

Extract writes a hidden source map beside the manifests (conformance/documents/source_map.py);
validate moves each problem found in such a manifest to the Python place of its JSON pointer
(conformance/validate/source_map.py), in text, GitHub annotations and SARIF alike, and names the
manifest's own line in the message. A manifest edited since extraction keeps its own location.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.documents import source_map
from conformance.validate.source_map import map_to_sources
from reference_impl.problems import Problem, SourceLocation

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def extracted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """runtime_brief.py (allow_sleep true, its brief built at run time) extracted in a folder of our own."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(FIXTURES / "runtime_brief.py", tmp_path / "runtime_brief.py")
    assert main(["extract", "nekro", "runtime_brief.py", "--out", "manifests", "-q"]) == 0
    return tmp_path / "manifests"


def _validate(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["validate", "--no-config", *args, "manifests"])
    return capsys.readouterr().out


def test_extract_writes_a_hidden_map_of_every_field_and_method(extracted: Path) -> None:
    (entry,) = source_map.read(extracted).values()
    sha, sources = entry
    assert sha == source_map.digest((extracted / "weather.yaml").read_bytes())
    assert str(sources[""]) == "runtime_brief.py:10:10"  # the NekroPlugin(...) call
    assert str(sources["/allow_sleep"]) == "runtime_brief.py:17:17"
    assert str(sources["/methods/0"]).startswith("runtime_brief.py:23:")


def test_text_github_and_sarif_point_at_the_python_line(extracted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _validate(capsys)
    assert "runtime_brief.py:17:17: warning allow-sleep-without-brief" in text
    assert "(in manifests/weather.yaml:10:14)" in text
    github = _validate(capsys, "-f", "github")
    assert "::warning file=runtime_brief.py,line=17,col=17,title=pas allow-sleep-without-brief::" in github
    sarif = json.loads(_validate(capsys, "-f", "sarif"))
    location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "runtime_brief.py" and location["region"]["startLine"] == 17


def test_an_edited_manifest_keeps_its_own_location(extracted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = extracted / "weather.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# edited by hand\n", encoding="utf-8")
    assert "manifests/weather.yaml:10:14: warning allow-sleep-without-brief" in _validate(capsys)


def test_a_pointer_the_map_lacks_falls_back_to_its_longest_known_prefix_then_the_call(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("kind: plugin-manifest\n", encoding="utf-8")
    call, method = SourceLocation(path="p.py", line=3, column=5), SourceLocation(path="p.py", line=9, column=1)
    source_map.write(tmp_path, {"m.yaml": (source_map.digest(manifest.read_bytes()), {"": call, "/methods/0": method})})
    here = SourceLocation(path=str(manifest), line=7, column=3)
    problems = [Problem(code="invalid-manifest", message="m", pointer="/methods/0/description", source=here),
                Problem(code="allow-sleep-without-brief", message="m", pointer="/injects_prompt", source=here),
                Problem(code="version-not-semver", message="m", source=SourceLocation(path=str(tmp_path / "other.yaml"), line=1))]
    moved = map_to_sources(problems)
    assert [p.source for p in moved] == [method, call, problems[2].source]
    assert moved[0].message == f"m (in {here})" and moved[2] is problems[2]


def test_a_second_extraction_into_the_folder_adds_to_the_map(extracted: Path) -> None:
    assert main(["extract", "nekro", str(FIXTURES / "basic.py"), "--out", str(extracted), "-q"]) == 0
    assert set(source_map.read(extracted)) == {"weather.yaml", "basic.yaml"}
