"""What a user of the package sees of it: version, licence, links, and the sdist.

The sdist is built here the way a packager builds it (``python -m build``: the
sdist first, then the wheel from the unpacked sdist), so a data file the
wheel needs but the sdist forgets fails this test, and so does a test file
shipped without what it needs.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab.cli import main

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_has_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == \
        {"attr": "tavrei_lab.__version__"}
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"tavrei-lab {tavrei_lab.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", tavrei_lab.__version__)


def test_licence_is_an_spdx_expression_without_a_classifier() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_no_link_points_at_a_guessed_repository() -> None:
    """No public address is known: links are relative, or say OWNER/REPO."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    guessed = re.findall(r"https://(?:mybinder\.org/v2/gh|github\.com)/(?!OWNER/REPO)[^\s)\]`]+",
                         readme)
    assert guessed == []
    for label, url in PYPROJECT["project"]["urls"].items():
        assert "github.com" not in url and "mybinder" not in url, label


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        pytest.fail(f"python -m build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    return out


def test_sdist_leaves_the_tests_out_and_carries_the_rules(built: Path) -> None:
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert not [n for n in names if n.startswith("tests")]
    assert {"README.md", "LICENSE", "docs/rules.md", "pyproject.toml",
            "tavrei_lab/__init__.py", "tavrei_lab/py.typed"} <= names


def test_wheel_built_from_the_sdist_has_the_data_files(built: Path) -> None:
    (wheel,) = built.glob("*.whl")
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        metadata = next(whl.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "tavrei_lab/variants/tavreli.toml" in names
    assert "tavrei_lab/data/games.json" in names
    assert {"tavrei_lab/widgets/board.js", "tavrei_lab/widgets/tree.js",
            "tavrei_lab/widgets/svg_clicks.js"} <= names
    assert "tavrei_lab/py.typed" in names
    assert f"Version: {tavrei_lab.__version__}\n" in metadata
    assert "License-Expression: MIT\n" in metadata
