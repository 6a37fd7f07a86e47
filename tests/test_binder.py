"""The notebooks run in an environment installed exactly the way mybinder installs it.

mybinder clones the repository and, from its root, runs
``pip install -r binder/requirements.txt`` with the Python of
``binder/runtime.txt``. This test does the same in a fresh virtual
environment: it copies the repository's files (what a clone would hold --
tracked and not-ignored files, so no ``.venv``, ``build`` or egg-info) to a
scratch folder, creates a venv, installs the requirements from the copy's
root, and runs every notebook with a kernel of that venv, in a folder where
the repository is not on the path. A file missing from the package data, a
dependency missing from ``pyproject.toml`` or a notebook that reads the
repository would fail here, even when the developer's editable install hides
it.

It downloads from PyPI on a cold pip cache, so it is the slowest test of the
suite (about a minute with a warm cache); it is marked ``slow`` but runs in
``make test``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from test_notebooks import NOTEBOOKS, run_notebook, stderr_tracebacks

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
#: Folders a clone never holds (ignored) -- used only when git cannot list the files.
_NOT_IN_A_CLONE = (".venv", "build", "dist", ".git", "__pycache__", ".pytest_cache",
                   ".hypothesis", ".ruff_cache", "test-artifacts", "_site")


def _clone_files() -> list[str]:
    """The repository's files as a clone would have them (tracked or new, not ignored)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "-z"], cwd=ROOT, capture_output=True, check=True)
    return [f for f in out.stdout.decode().split("\0") if f and (ROOT / f).is_file()]


def _copy_clone(dest: Path) -> None:
    try:
        files = _clone_files()
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*_NOT_IN_A_CLONE,
                                                                  "*.egg-info"))
        return
    for name in files:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)


def test_binder_folder_says_what_mybinder_needs() -> None:
    requirements = (BINDER / "requirements.txt").read_text().splitlines()
    lines = [r.split("#")[0].strip() for r in requirements]
    assert ".[lab]" in lines, "binder must install the package itself, with its front ends"
    runtime = (BINDER / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.(1[0-9])", runtime), runtime
    post_build = BINDER / "postBuild"
    if post_build.exists():
        assert "set -e" in post_build.read_text()


@pytest.fixture(scope="session")
def binder_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with ``binder/requirements.txt`` installed from a clone's root."""
    base = tmp_path_factory.mktemp("binder")
    clone = base / "repo"
    _copy_clone(clone)
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-r", "binder/requirements.txt"],
        cwd=clone, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"pip install failed:\n{result.stdout}\n{result.stderr}"
    shutil.rmtree(clone)  # the notebooks must not need the repository at all
    return python


@pytest.mark.slow
def test_binder_install_is_not_the_development_tree(binder_python: Path,
                                                      tmp_path: Path) -> None:
    out = subprocess.run(
        [str(binder_python), "-c",
         "import tavrei_lab, tavrei_lab.data as d; print(tavrei_lab.__file__); "
         "print(len(d.recorded_games())); import tavrei_lab.variant as v; "
         "print(len(v.variants()))"],
        cwd=tmp_path, capture_output=True, text=True, check=True)
    where, games, variants = out.stdout.split()
    assert Path(where).is_relative_to(binder_python.parent.parent), where
    assert int(games) == 20 and int(variants) >= 6


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_in_the_binder_environment(binder_python: Path, path: Path,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # what is checked here is the environment; the tutorials' own sizes play elsewhere
    monkeypatch.setenv("TAVREI_LAB_QUICK", "1")
    check = ("import sys, tavrei_lab\n"
             f"assert sys.executable == {str(binder_python)!r}, sys.executable\n"
             f"assert tavrei_lab.__file__.startswith({str(binder_python.parent.parent)!r})")
    nb = run_notebook(path, tmp_path, python=str(binder_python), extra_cells=[check])
    assert not stderr_tracebacks(nb), stderr_tracebacks(nb)[0]
