#!/usr/bin/env python3
"""Build the zero-install classroom: the tutorials as an offline JupyterLite site.

``make site`` runs this script. The result is one static folder (``_site/`` by
default) that a teacher can publish anywhere that serves files over HTTP; a
student needs nothing but a browser. Everything the page loads at run time
comes from the folder itself:

* the **Pyodide runtime** (CPython 3.14 compiled to WebAssembly), taken from
  the npm registry with ``npm pack pyodide@<version>`` -- the version must be
  exactly the one the installed jupyterlite-pyodide-kernel was made for;
* **tavrei_lab's own wheel**, built from this checkout, and the pure-Python
  wheels it needs (ipywidgets, anywidget, svgwrite, networkx, ...), solved for
  the ``wasm32-pyodide`` platform and downloaded by jupyterlite-pyodide-kernel's
  ``PyodideLockAddon``, which then rewrites the Pyodide lock file to point at
  the copies inside the site;
* the **widget JavaScript** from the build environment's labextensions;
* the **notebooks** (the tutorials in ``notebooks/``) as the site's contents.

Why a separate build environment: the ``[lock]`` extra needs Python >= 3.12,
while the project itself supports 3.10+. The script looks for a Python >= 3.12
on ``PATH`` and under pyenv, creates ``build/lite/venv`` with it and installs
the pinned tooling from ``lite/requirements-build.txt``. If it finds none, it
stops with a message saying so -- it never skips silently.

Why always clean: an incremental JupyterLite rebuild after a configuration
change was seen to drop the local ``pyodideUrl`` and fall back to a CDN, which
breaks a classroom without internet. So every build removes the output folder,
the staging folder and any ``.jupyterlite.doit.db`` first, and every build
ends with ``jupyter lite check`` plus :func:`verify_site`, which fails if any
address in the kernel settings or the lock file leaves the site.

Run ``python scripts/build_site.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LITE_SOURCE = ROOT / "lite"
REQUIREMENTS = LITE_SOURCE / "requirements-build.txt"
WORK = ROOT / "build" / "lite"
BUILD_VENV = WORK / "venv"
STAGE = WORK / "stage"
DEFAULT_OUTPUT = ROOT / "_site"
DEFAULT_CONTENTS = (ROOT / "notebooks",)

#: The kernel's plugin id in jupyter-lite.json ``litePluginSettings``.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: Files of the npm ``pyodide`` package that the kernel loads at run time. The rest
#: of the package (source maps, type declarations, the demo consoles) is left out.
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)

#: Packages of Pyodide's own distribution that the kernel loads at start-up whatever
#: the notebook does (``loadPackage(["micropip"])``; piplite builds on micropip). The
#: npm package has no wheels for them, so they are locked from PyPI at the version
#: Pyodide's own lock file names.
KERNEL_RUNTIME_PACKAGES = ("micropip",)

#: Standard-library packages the tutorials need that some Pyodide releases ship as
#: separate packages ("unvendored") rather than in ``python_stdlib.zip``: notebook 10
#: keeps its games in SQLite (``tavrei_lab.lab``). Pyodide 314 has ``sqlite3`` in the
#: zip and ``_sqlite3`` built into the runtime; a release without it would need its
#: ``sqlite3`` package, which the npm package does not carry, so the build stops.
STDLIB_PACKAGES = ("sqlite3",)

#: Python versions the ``[lock]`` extra is known to build with, best first.
BUILD_PYTHON_VERSIONS = ((3, 12), (3, 13), (3, 14))

#: Where distributions put versioned interpreters, looked at even when not on PATH.
SYSTEM_BIN_DIRS = ("/usr/local/bin", "/usr/bin")


class SiteBuildError(RuntimeError):
    """The site could not be built, or a built site breaks the offline promise."""


@dataclass(frozen=True)
class BuildReport:
    """What a build produced, for the Makefile's summary and the tests' figures."""

    output: Path
    seconds: float
    size_bytes: int
    notebooks: tuple[str, ...]
    pyodide_version: str
    locked_packages: tuple[str, ...]

    def summary(self) -> str:
        """A few lines a teacher can read: where the site is, how big, what is in it."""
        return "\n".join(
            [
                f"site:      {self.output}",
                f"size:      {self.size_bytes / 1e6:.1f} MB",
                f"built in:  {self.seconds:.1f} s",
                f"pyodide:   {self.pyodide_version}",
                f"notebooks: {', '.join(self.notebooks)}",
                f"wheels:    {', '.join(self.locked_packages)}",
            ]
        )


# -- finding a Python for the build ----------------------------------------------------


def _probe_python(candidate: str) -> tuple[int, int] | None:
    """Return the (major, minor) of a working interpreter with venv, or None.

    pyenv puts shims on PATH for every version it knows; a shim for a version that is
    not selected exits with an error. Running the candidate is the only honest test.
    """
    try:
        result = subprocess.run(
            [candidate, "-c", "import sys, venv, ensurepip; print(*sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    try:
        major, minor = (int(part) for part in result.stdout.split())
    except ValueError:
        return None
    return major, minor


def _python_candidates() -> Iterator[str]:
    """Interpreters worth probing: an explicit override, PATH, then pyenv's versions."""
    override = os.environ.get("LITE_PYTHON")
    if override:
        yield override
    for major, minor in BUILD_PYTHON_VERSIONS:
        found = shutil.which(f"python{major}.{minor}")
        if found:
            yield found
    pyenv_roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv")]
    for root in filter(None, pyenv_roots):
        for major, minor in BUILD_PYTHON_VERSIONS:
            pattern = f"{root}/versions/{major}.{minor}*/bin/python{major}.{minor}"
            yield from sorted(glob.glob(pattern))
    for major, minor in BUILD_PYTHON_VERSIONS:
        for prefix in SYSTEM_BIN_DIRS:
            yield f"{prefix}/python{major}.{minor}"
    running = _running_python()
    if running:
        yield running


def _running_python() -> str | None:
    """This interpreter, if it is new enough itself (then no other is needed)."""
    return sys.executable if sys.version_info[:2] >= BUILD_PYTHON_VERSIONS[0] else None


def find_build_python() -> str:
    """The first Python >= 3.12 that runs, or a :class:`SiteBuildError` saying what was tried.

    Set ``LITE_PYTHON=/path/to/python3.12`` to choose one explicitly.
    """
    tried: list[str] = []
    if os.environ.get("LITE_PYTHON") and _probe_python(os.environ["LITE_PYTHON"]) is None:
        raise SiteBuildError(f"LITE_PYTHON={os.environ['LITE_PYTHON']!r} does not run as a Python")
    for candidate in _python_candidates():
        if candidate in tried:
            continue
        tried.append(candidate)
        version = _probe_python(candidate)
        if version is not None and version >= BUILD_PYTHON_VERSIONS[0]:
            return candidate
    raise SiteBuildError(
        "building the JupyterLite site needs Python >= 3.12 (jupyterlite-pyodide-kernel[lock] "
        "requires it), and none was found. Tried: "
        + ", ".join(tried)
        + ". Install one (e.g. `pyenv install 3.12`, or your distribution's python3.12 "
        "with its venv module) or point LITE_PYTHON at it."
    )


# -- the build environment ----------------------------------------------------------------


def _run(command: Sequence[str | os.PathLike[str]], *, cwd: Path | None = None,
         env: dict[str, str] | None = None) -> str:
    """Run a command, returning its output; on failure raise with the tail of the output."""
    result = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-40:])
        shown = " ".join(map(str, command))
        raise SiteBuildError(f"command failed ({result.returncode}): {shown}\n{tail}")
    return result.stdout


def _build_env() -> dict[str, str]:
    """The environment for the build tools.

    ``UV_PYTHON_DOWNLOADS=never``: the lock solver runs uv, which otherwise tries to
    download a CPython 3.14 to match Pyodide's -- there is no route for that here, and
    it is not needed. ``JUPYTERLITE_PYODIDE_URL`` is dropped so that nothing outside
    this script can point the kernel at a remote Pyodide.
    """
    env = dict(os.environ)
    env["UV_PYTHON_DOWNLOADS"] = "never"
    env.pop("JUPYTERLITE_PYODIDE_URL", None)
    env["PYTHONNOUSERSITE"] = "1"
    return env


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Hold a file lock so that two builds (say ``make site`` and the tests) don't collide."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_build_env(venv: Path = BUILD_VENV) -> Path:
    """Create (or reuse) the Python >= 3.12 build environment; return its ``bin`` folder.

    The environment is recreated whenever the pinned requirements change, recorded
    by a stamp holding their hash; otherwise it is reused (installing takes ~15 s).
    """
    stamp = venv / ".requirements.sha256"
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    bin_dir = venv / "bin"
    if stamp.is_file() and stamp.read_text().strip() == wanted and (bin_dir / "jupyter").exists():
        return bin_dir
    python = find_build_python()
    shutil.rmtree(venv, ignore_errors=True)
    _run([python, "-m", "venv", venv])
    env = _build_env()
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip"], env=env)
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "-r", REQUIREMENTS], env=env)
    stamp.write_text(wanted + "\n")
    return bin_dir


def _installed_versions(bin_dir: Path, names: Sequence[str]) -> dict[str, str]:
    """Versions of distributions installed in the build environment."""
    code = (
        "import importlib.metadata as m, json, sys; "
        "print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))"
    )
    return json.loads(_run([bin_dir / "python", "-c", code, *names]))


def _pyodide_version(bin_dir: Path) -> str:
    """The Pyodide version the installed kernel was made for (and must be served with)."""
    code = (
        "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION; "
        "print(PYODIDE_VERSION)"
    )
    return _run([bin_dir / "python", "-c", code]).strip()


# -- the pieces of the site -----------------------------------------------------------


def build_package_wheel(bin_dir: Path, wheel_dir: Path) -> Path:
    """Build tavrei_lab's wheel from a copy of the checkout.

    A copy, because setuptools leaves ``build/lib`` and ``*.egg-info`` behind and
    reuses them: a module deleted from the checkout could otherwise ride along in
    the wheel. Without build isolation, so no network round trip for setuptools.
    """
    wheel_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tavrei-wheel-") as tmp:
        source = Path(tmp) / "src"
        source.mkdir()
        # setup.py copies notebooks/ and the rules (both languages) into the wheel as
        # the lessons
        for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE",
                     "docs/rules.md", "docs/ru/rules.md"):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
        shutil.copytree(
            ROOT / "notebooks",
            source / "notebooks",
            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
        )
        shutil.copytree(
            ROOT / "tavrei_lab",
            source / "tavrei_lab",
            # a checkout's compiled build (make compiled) stays out: Pyodide runs the source
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd",
                                          "_compiled.json"),
        )
        _run(
            [bin_dir / "python", "-m", "pip", "wheel", "--quiet", "--no-deps",
             "--no-build-isolation", "--wheel-dir", wheel_dir, source],
            env={**_build_env(), "TAVREI_PURE": "1"},   # the pure wheel (docs/compiled.md)
        )
    wheels = sorted(wheel_dir.glob("tavrei_lab-*.whl"))
    if len(wheels) != 1:
        raise SiteBuildError(f"expected one tavrei_lab wheel in {wheel_dir}, found {wheels}")
    if not wheels[0].name.endswith("-py3-none-any.whl"):
        raise SiteBuildError(f"the site needs the pure wheel, not {wheels[0].name}")
    return wheels[0]


def fetch_pyodide(version: str, cache: Path = WORK) -> Path:
    """The npm tarball of Pyodide ``version`` (fetched once with ``npm pack``, then cached).

    npm checks the tarball against the registry's integrity hash as it downloads.
    """
    tarball = cache / f"pyodide-{version}.tgz"
    if tarball.is_file():
        return tarball
    if shutil.which("npm") is None:
        raise SiteBuildError("npm is needed to fetch the Pyodide runtime (`npm pack pyodide@...`)")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pyodide-pack-", dir=cache) as tmp:
        _run(["npm", "pack", "--silent", f"pyodide@{version}", "--pack-destination", tmp])
        packed = Path(tmp) / f"pyodide-{version}.tgz"
        if not packed.is_file():
            raise SiteBuildError(f"`npm pack pyodide@{version}` produced no {packed.name}")
        packed.replace(tarball)
    return tarball


def stage_pyodide(tarball: Path, version: str, target: Path) -> dict[str, str]:
    """Unpack the runtime into ``<lite dir>/static/pyodide`` with an empty package list.

    The npm package carries Pyodide's full lock file (356 packages) but none of their
    wheels; left as is, the lock addon would point every one of them at a CDN. With
    ``packages`` emptied (``info`` kept: it names the ABI the solver targets), only
    the wheels the lock addon downloads into the site are listed. Returns the pins
    (``name==version`` by name) of :data:`KERNEL_RUNTIME_PACKAGES` from the full lock.
    """
    target.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for name in PYODIDE_RUNTIME_FILES:
            try:
                member = archive.getmember(f"package/{name}")
            except KeyError as error:
                raise SiteBuildError(f"{tarball.name} has no {name}") from error
            source = archive.extractfile(member)
            if source is None:
                raise SiteBuildError(f"{tarball.name}: {name} is not a file")
            with source, open(target / name, "wb") as sink:
                shutil.copyfileobj(source, sink)
    with zipfile.ZipFile(target / "python_stdlib.zip") as stdlib:
        present = set(stdlib.namelist())
    missing = [name for name in STDLIB_PACKAGES if f"{name}/__init__.py" not in present]
    if missing:
        raise SiteBuildError(f"{tarball.name}: python_stdlib.zip lacks {', '.join(missing)} "
                             "(the tutorials need it; this Pyodide ships it separately)")
    package = json.loads((target / "package.json").read_text())
    if package.get("version") != version:
        found = package.get("version")
        raise SiteBuildError(f"{tarball.name} holds pyodide {found}, not {version}")
    lock_path = target / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    runtime_pins: dict[str, str] = {}
    for name in KERNEL_RUNTIME_PACKAGES:
        if name not in lock["packages"]:
            raise SiteBuildError(f"pyodide {version}'s lock file has no {name}")
        runtime_pins[name] = lock["packages"][name]["version"]
    lock["packages"] = {}
    lock_path.write_text(json.dumps(lock, indent=1) + "\n")
    return runtime_pins


def stage_lite_dir(stage: Path, bin_dir: Path, pyodide_tarball: Path, pyodide_version: str) -> None:
    """Assemble the JupyterLite source folder the build reads.

    ``lite/`` in the repository holds only configuration; the runtime and wheels are
    put next to it here, so nothing large is committed. The lock specs get exact pins
    for anywidget and ipywidgets -- the widget JavaScript in the site comes from the
    build environment, so the Python side in the browser must be the same version --
    and for the kernel's own start-up packages (micropip) at Pyodide's versions.
    """
    only_for_people = shutil.ignore_patterns("requirements-build.txt", "README.md")
    shutil.copytree(LITE_SOURCE, stage, ignore=only_for_people)
    runtime_pins = stage_pyodide(pyodide_tarball, pyodide_version, stage / "static" / "pyodide")
    build_package_wheel(bin_dir, stage / "wheels")
    config_path = stage / "jupyter_lite_config.json"
    config = json.loads(config_path.read_text())
    pins = {**runtime_pins, **_installed_versions(bin_dir, ["anywidget", "ipywidgets"])}
    lock_config = config.setdefault("PyodideLockAddon", {})
    lock_config["specs"] = [
        *lock_config.get("specs", []),
        *(f"{name}=={version}" for name, version in pins.items()),
    ]
    config_path.write_text(json.dumps(config, indent=2) + "\n")


def stage_contents(contents: Sequence[Path], target: Path) -> list[Path]:
    """Copies of the contents folders, with links replaced by the files they point to.

    ``notebooks/rules.md`` is a link to ``docs/rules.md`` (the rules page beside the
    tutorials that link to it); JupyterLite resolves a link to its target and then
    fails, as the target is outside the contents folder. A copy has the page itself.
    """
    shutil.rmtree(target, ignore_errors=True)
    staged = []
    for number, folder in enumerate(contents):
        copy = target / f"{number}" / folder.name
        shutil.copytree(folder, copy, symlinks=False,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        staged.append(copy)
    return staged


def _notebooks_in(contents: Sequence[Path]) -> list[str]:
    """Notebook paths, relative to their contents folder, skipping checkpoints."""
    found: list[str] = []
    for folder in contents:
        found += sorted(
            str(path.relative_to(folder))
            for path in folder.rglob("*.ipynb")
            if ".ipynb_checkpoints" not in path.parts
        )
    return found


# -- checks on a built site -------------------------------------------------------------


def _is_local(address: str) -> bool:
    """An address that stays inside the site: relative, no scheme, no host."""
    return "://" not in address and not address.startswith("//")


def verify_site(output: Path) -> list[str]:
    """Check that a built site needs nothing from outside itself; return locked packages.

    Raises :class:`SiteBuildError` naming the first problem: the kernel's Pyodide
    address, the lock file address or a wheel index address is remote or missing;
    a lock entry points at a remote address or at a file the site lacks; or the app
    is not exposed as ``window.jupyterapp`` (the browser test needs it, and it must
    be the boolean ``true`` for ``jupyter lite check``).
    """
    configs = sorted(output.glob("**/jupyter-lite.json"))
    if not configs:
        raise SiteBuildError(f"{output} has no jupyter-lite.json: was it built?")
    root_config = json.loads((output / "jupyter-lite.json").read_text())["jupyter-config-data"]
    if root_config.get("exposeAppInBrowser") is not True:
        raise SiteBuildError("jupyter-lite.json: exposeAppInBrowser must be the boolean true")
    kernel = root_config.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    pyodide_url = kernel.get("pyodideUrl", "")
    if not pyodide_url or not _is_local(pyodide_url):
        raise SiteBuildError(f"kernel pyodideUrl is not local: {pyodide_url!r}")
    if not (output / pyodide_url).is_file():
        raise SiteBuildError(f"kernel pyodideUrl {pyodide_url!r} is missing from the site")
    if kernel.get("disablePyPIFallback") is not True:
        raise SiteBuildError("kernel disablePyPIFallback must be true (no silent PyPI fetches)")
    for index_url in kernel.get("pipliteUrls", []):
        if not _is_local(index_url):
            raise SiteBuildError(f"kernel pipliteUrls holds a remote address: {index_url!r}")
    lock_url = kernel.get("loadPyodideOptions", {}).get("lockFileURL", "")
    if not lock_url or not _is_local(lock_url):
        raise SiteBuildError(f"kernel lockFileURL is not local: {lock_url!r}")
    lock_path = output / lock_url
    if not lock_path.is_file():
        raise SiteBuildError(f"kernel lockFileURL {lock_url!r} is missing from the site")
    # Every app folder's jupyter-lite.json is merged over the root one in the page;
    # none may reintroduce a remote Pyodide.
    for config_path in configs:
        settings = json.loads(config_path.read_text()).get("jupyter-config-data", {})
        app_kernel = settings.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
        app_pyodide = app_kernel.get("pyodideUrl")
        if app_pyodide is not None and not _is_local(app_pyodide):
            raise SiteBuildError(f"{config_path}: pyodideUrl is remote: {app_pyodide!r}")
    lock = json.loads(lock_path.read_text())
    if not lock.get("packages"):
        raise SiteBuildError(f"{lock_path} lists no packages")
    # Lock file names are resolved against the Pyodide runtime's folder.
    runtime_dir = (output / pyodide_url).parent
    for name, package in lock["packages"].items():
        file_name = package.get("file_name", "")
        if not _is_local(file_name):
            raise SiteBuildError(f"lock entry {name!r} points at a remote address: {file_name!r}")
        if not (runtime_dir / file_name).resolve().is_file():
            raise SiteBuildError(f"lock entry {name!r}: {file_name!r} is not in the site")
    return sorted(lock["packages"])


def site_size(output: Path) -> int:
    """Bytes in the site folder (what a teacher uploads)."""
    return sum(path.stat().st_size for path in output.rglob("*") if path.is_file())


# -- the whole build --------------------------------------------------------------------


def _check_replaceable(output: Path) -> None:
    """Refuse to wipe a folder that is not an earlier site (``--output ~`` is a typo away).

    A build deletes its output folder first; that is only safe for a folder that is
    missing, empty, or holds a JupyterLite site (its ``jupyter-lite.json``), and that
    does not contain this checkout.
    """
    if output == ROOT or output in ROOT.parents:
        raise SiteBuildError(f"refusing to build the site into {output}: it holds the project")
    if output.is_file():
        raise SiteBuildError(f"the site's output {output} is a file")
    if output.is_dir() and any(output.iterdir()) and not (output / "jupyter-lite.json").is_file():
        raise SiteBuildError(
            f"refusing to replace {output}: it is not empty and not a site built before "
            "(no jupyter-lite.json); choose another --output")


def build_site(output: Path = DEFAULT_OUTPUT, contents: Sequence[Path] = DEFAULT_CONTENTS,
               *, log: bool = True) -> BuildReport:
    """Build the site from a clean state into ``output`` and verify it; see the module doc."""
    started = time.perf_counter()
    output = output.resolve()
    contents = [Path(folder).resolve() for folder in contents]
    _check_replaceable(output)
    notebooks = _notebooks_in(contents)
    if not notebooks:
        raise SiteBuildError(f"no notebooks to publish in {', '.join(map(str, contents))}")

    def say(message: str) -> None:
        if log:
            print(f"[site] {message}", flush=True)

    with _exclusive(WORK / ".build.lock"):
        say("build environment (Python >= 3.12) ...")
        bin_dir = ensure_build_env()
        pyodide_version = _pyodide_version(bin_dir)
        say(f"pyodide {pyodide_version} from the npm registry ...")
        tarball = fetch_pyodide(pyodide_version)
        # Clean state: no earlier output, staging folder or doit database survives.
        for stale in (output, STAGE):
            shutil.rmtree(stale, ignore_errors=True)
        for database in (ROOT / ".jupyterlite.doit.db", Path.cwd() / ".jupyterlite.doit.db"):
            database.unlink(missing_ok=True)
        say("staging lite dir, building the tavrei_lab wheel ...")
        stage_lite_dir(STAGE, bin_dir, tarball, pyodide_version)
        lite_args = ["--lite-dir", STAGE, "--output-dir", output]
        for folder in stage_contents(contents, WORK / "contents"):
            lite_args += ["--contents", folder]
        say("jupyter lite build (solving and downloading wheels for wasm32) ...")
        _run([bin_dir / "jupyter", "lite", "build", *lite_args], cwd=STAGE, env=_build_env())
        say("jupyter lite check ...")
        _run([bin_dir / "jupyter", "lite", "check", *lite_args], cwd=STAGE, env=_build_env())
    locked = verify_site(output)
    return BuildReport(
        output=output,
        seconds=time.perf_counter() - started,
        size_bytes=site_size(output),
        notebooks=tuple(notebooks),
        pyodide_version=pyodide_version,
        locked_packages=tuple(locked),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python scripts/build_site.py [--output DIR] [--contents DIR ...]``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help="folder to (re)create with the site (default: _site)")
    parser.add_argument("--contents", type=Path, action="append",
                        help="folder of notebooks to publish (repeatable; default: notebooks)")
    args = parser.parse_args(argv)
    try:
        report = build_site(args.output, args.contents or DEFAULT_CONTENTS)
    except SiteBuildError as error:
        print(f"[site] FAILED: {error}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
