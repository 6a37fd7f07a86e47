"""What a user of the package sees of it: version, licence, links, and the sdist.

The sdist is built here the way a packager builds it (``python -m build``: the
sdist first, then the wheel from the unpacked sdist), so a data file the
wheel needs but the sdist forgets fails this test, and so does a test file
shipped without what it needs.
"""

from __future__ import annotations

import os
import re
import shutil
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
    assert capsys.readouterr().out == \
        f"tavrei-lab {tavrei_lab.__version__}, {tavrei_lab.builds.describe()}\n"
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
    # TAVREI_PURE=1: the pure wheel (py3-none-any), as the offline site ships it and any
    # Python >= 3.10 installs it; the compiled build is tested by tests/test_compiled.py
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "TAVREI_PURE": "1"})
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
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name   # TAVREI_PURE=1: pure
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


# -- What a pip user gets: the wheel installed alone --------------------------------------

def _wheel_metadata(built: Path) -> tuple[set[str], str]:
    (wheel,) = built.glob("*.whl")
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        metadata = next(whl.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    return names, metadata


def test_wheel_carries_every_notebook_of_notebooks_as_a_lesson(built: Path) -> None:
    names, _ = _wheel_metadata(built)
    notebooks = {p.relative_to(ROOT / "notebooks").as_posix()
                 for p in (ROOT / "notebooks").rglob("*.ipynb")
                 if ".ipynb_checkpoints" not in p.parts}
    assert {"00_quick_start.ipynb", "classroom_demo.ipynb"} <= notebooks
    lessons = {n.removeprefix("tavrei_lab/lessons/") for n in names
               if n.startswith("tavrei_lab/lessons/")}
    assert lessons == notebooks | {"rules.md", "ru/rules.md"}


def test_long_description_has_no_link_or_picture_that_breaks_off_the_repository(
        built: Path) -> None:
    _, metadata = _wheel_metadata(built)
    header, _, description = metadata.partition("\n\n")
    assert "Description-Content-Type: text/markdown" in header
    assert "tavrei-lab lessons" in description and 'pip install ".[lab]"' in description
    relative_links = re.findall(r"\]\((?!https?:|#|mailto:)([^)]*)\)", description)
    relative_pictures = re.findall(r'src="(?!https?:)([^"]*)"', description)
    assert relative_links == [] and relative_pictures == []
    # the README itself does have them: the rewrite is what takes them out
    assert re.search(r"\]\((?!https?:|#)[^)]*\)", (ROOT / "README.md").read_text())


def test_jupyterlab_and_voila_come_only_with_the_lab_extra(built: Path) -> None:
    _, metadata = _wheel_metadata(built)
    requires = re.findall(r"^Requires-Dist: (.*)$", metadata, flags=re.M)
    core = [r for r in requires if "extra ==" not in r]
    assert not [r for r in core if r.startswith(("jupyterlab", "voila", "notebook"))]
    assert {"jupyterlab>=4.0; extra == \"lab\"", "voila>=0.5; extra == \"lab\""} <= set(requires)
    assert any(r.startswith("tqdm") for r in core)
    classifiers = set(re.findall(r"^Classifier: (.*)$", metadata, flags=re.M))
    assert {"Typing :: Typed", "Framework :: Jupyter", "Framework :: Jupyter :: JupyterLab",
            "Programming Language :: Python :: 3.10"} <= classifiers


@pytest.fixture(scope="module")
def wheel_venv(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the built wheel (no editable install, no checkout on the
    path); its dependencies are read from this interpreter's site-packages, so the test
    needs no network. Returns the venv's bin folder."""
    import site
    import venv

    env = tmp_path_factory.mktemp("wheel-venv")
    venv.EnvBuilder(with_pip=False, clear=True).create(env)
    bin_dir = env / "bin"
    (wheel,) = built.glob("*.whl")
    purelib = subprocess.run([str(bin_dir / "python"), "-c",
                              "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-compile", "--target", purelib, str(wheel)], check=True, timeout=300)
    # the dependencies: a path line for each of this venv's site folders -- not their
    # .pth files, so the editable install of the checkout stays out
    (Path(purelib) / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    script = bin_dir / "tavrei-lab"
    script.write_text(f"#!{bin_dir / 'python'}\nfrom tavrei_lab.cli import main\n"
                      "raise SystemExit(main())\n")
    script.chmod(0o755)
    return bin_dir


def _outside(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_wheel_alone_is_not_the_checkout(wheel_venv: Path, tmp_path: Path) -> None:
    run = _outside(wheel_venv, "python", "-c",
                   "import tavrei_lab, importlib.util as u; print(tavrei_lab.__file__); "
                   "print(u.find_spec('jupyterlab') is None or 'shared')", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    where = run.stdout.split()[0]
    assert where.startswith(str(wheel_venv.parent)), where


def test_lessons_writes_the_notebooks_and_keeps_the_ones_you_changed(
        wheel_venv: Path, tmp_path: Path) -> None:
    first = _outside(wheel_venv, "tavrei-lab", "lessons", "class", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lessons = tmp_path / "class"
    written = {p.relative_to(lessons).as_posix() for p in lessons.rglob("*") if p.is_file()}
    assert {"00_quick_start.ipynb", "classroom_demo.ipynb", "rules.md"} <= written
    assert "jupyter lab class" in first.stdout
    quick = lessons / "00_quick_start.ipynb"
    for notebook in lessons.rglob("*.ipynb"):   # the links to the rules reach the copy
        assert "../docs/rules.md" not in notebook.read_text(encoding="utf-8"), notebook
    assert "](rules.md#" in (lessons / "01_meet_the_tavrels.ipynb").read_text()
    assert (lessons / "ru" / "rules.md").read_bytes() == (ROOT / "docs/ru/rules.md").read_bytes()
    # a student's changes are kept; an unchanged copy is written again without a word
    quick.write_text(quick.read_text().replace("in three cells", "My notes"), encoding="utf-8")
    (lessons / "02_towers_and_prisoners.ipynb").unlink()
    again = _outside(wheel_venv, "tavrei-lab", "lessons", "class", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "My notes" in quick.read_text()
    assert "kept" in again.stderr and "00_quick_start.ipynb" in again.stderr
    assert again.stderr.count("\n") == 1   # only the changed one is named
    assert (lessons / "02_towers_and_prisoners.ipynb").is_file()
    default = _outside(wheel_venv, "tavrei-lab", "lessons", cwd=tmp_path)
    assert default.returncode == 0 and (tmp_path / "tavrei-lessons" / "rules.md").is_file()
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    bad = _outside(wheel_venv, "tavrei-lab", "lessons", str(blocked), cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a folder" in bad.stderr


@pytest.mark.slow
def test_a_written_lesson_runs_with_the_wheel_alone(wheel_venv: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from test_notebooks import run_notebook, stderr_tracebacks

    monkeypatch.delenv("PYTHONPATH", raising=False)   # the kernel must not see a checkout

    assert _outside(wheel_venv, "tavrei-lab", "lessons", "l", cwd=tmp_path).returncode == 0
    check = ("import tavrei_lab\n"
             f"assert tavrei_lab.__file__.startswith({str(wheel_venv.parent)!r})")
    nb = run_notebook(tmp_path / "l" / "00_quick_start.ipynb", tmp_path / "run",
                      python=str(wheel_venv / "python"), extra_cells=[check])
    assert not stderr_tracebacks(nb)


def test_svg_pictures_and_networkx_writers_with_the_wheel_alone(wheel_venv: Path,
                                                                  tmp_path: Path) -> None:
    code = ("from tavrei_lab import Game\nfrom tavrei_lab.render import board_svg\n"
            "assert board_svg(Game().position)._repr_svg_().startswith('<svg')\n"
            "import json, networkx as nx\nfrom tavrei_lab.tree import build\n"
            "G = build(Game(), 2)\njson.dumps(nx.node_link_data(G, edges='edges'))\n"
            "json.dumps(nx.node_link_data(build(Game(), 2)))\n"
            "nx.write_gexf(G, 'tree.gexf')\nnx.write_graphml(G, 'tree.graphml')\n"
            "from tavrei_lab.tree.export import write_graphml\nwrite_graphml(G, 'own.graphml')\n")
    run = _outside(wheel_venv, "python", "-c", code, cwd=tmp_path)
    assert run.returncode == 0, run.stderr


# -- The oldest Python claimed: requires-python says 3.10, so 3.10 is tested -------------

#: Tests that need nothing beside the package (no ../shared data, no browser): the model,
#: the notation, a game's edges, the python-chess habits.
PY310_TESTS = ("tests/test_chess_habits.py", "tests/test_notation.py",
               "tests/test_game_edges.py")


def _python310() -> str:
    import glob
    import os

    found = [os.environ.get("TAVREI_PYTHON310", ""),
             *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.10*/bin/python"))),
             shutil.which("python3.10") or ""]
    for candidate in found:
        if candidate and Path(candidate).is_file() and subprocess.run(
                [candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 10)"],
                capture_output=True, timeout=60).returncode == 0:
            return candidate
    pytest.fail("requires-python claims 3.10, and no Python 3.10 was found to test it: "
                "install one (pyenv install 3.10) or set TAVREI_PYTHON310")


@pytest.mark.slow
def test_the_wheel_works_on_the_oldest_python_claimed(built: Path, tmp_path: Path) -> None:
    assert PYPROJECT["project"]["requires-python"] == ">=3.10"
    python = _python310()
    env_dir = tmp_path / "py310"
    subprocess.run([python, "-m", "venv", str(env_dir)], check=True, timeout=120)
    bin_python = str(env_dir / "bin" / "python")
    (wheel,) = built.glob("*.whl")
    import os
    alone = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}   # no checkout
    install = subprocess.run([bin_python, "-m", "pip", "install", "--quiet",
                              "--disable-pip-version-check", str(wheel), "pytest>=8"],
                             capture_output=True, text=True, timeout=600, env=alone,
                             cwd=tmp_path)
    assert install.returncode == 0, install.stderr[-3000:]
    shutil.copytree(ROOT / "tests", tmp_path / "tests")   # a copy: no checkout on the path
    run = subprocess.run([bin_python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-o", "pythonpath=.", "--rootdir", str(tmp_path), *PY310_TESTS],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    version = subprocess.run([bin_python, "-c", "import sys, tavrei_lab; "
                              "print(sys.version_info[:2], tavrei_lab.__file__)"],
                             capture_output=True, text=True, cwd=tmp_path, check=True,
                             env=alone).stdout
    assert version.startswith("(3, 10)") and str(env_dir) in version


def test_habits_that_help_people_carry_the_work_on() -> None:
    """A changelog, a contributing guide, pre-commit, and a fast `make check`."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog") and f"## {tavrei_lab.__version__}" in changelog
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for needed in ("make lab", "make test", "make check", "docs/architecture.md"):
        assert needed in contributing, needed
    hooks = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "id: ruff" in hooks and "entry: lint-imports" in hooks
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = makefile.split("\ncheck:", 1)[1].split("\n\n", 1)[0]
    assert "ruff check" in check and "lint-imports" in check and "mypy" in check
    fast = re.search(r"FAST_TESTS := (.*?)\n(?!\t)", makefile, flags=re.S)
    assert fast is not None
    files = fast.group(1).replace("\\", " ").split()
    assert files and all((ROOT / f).is_file() for f in files), files
