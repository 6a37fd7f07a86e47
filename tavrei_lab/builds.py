"""Which build runs: the compiled hot modules, or the pure Python they are compiled from.

The move generator's modules (``HOT_MODULES``) can be compiled with Cython from
the very same ``.py`` files (``setup.py``; docs/compiled.md). An extension module
beside its source wins the import, so a stale one would silently run old code
after the source was edited. This module, imported first by ``tavrei_lab``,
prevents that: the build writes ``_compiled.json`` with the SHA-256 of each
source it compiled, and a compiled module is used only while its source still
hashes the same, and only while every hot module it was compiled against (its
``cimport`` declarations: a C-level type such as ``BoardTables`` whose layout is built in)
runs compiled too. Otherwise -- or when ``TAVREI_PURE=1`` is set, or with no
record at all -- the ``.py`` is imported instead (with a ``StaleBuildWarning``
when a compiled file is out of date), so the pure Python is always the truth.

It uses the standard library only: it runs before anything else is imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import stat
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TextIO

#: The modules ``setup.py`` compiles, in import order (one list for both).
HOT_MODULES: tuple[str, ...] = (
    "tavrei_lab.core.tavrel",
    "tavrei_lab.core.position",
    "tavrei_lab.rules.base",
    "tavrei_lab.rules.stacking",
    "tavrei_lab.engine.perft",
    # the playing search and its evaluations (nodes/s are what buys depth)
    "tavrei_lab.engine.zobrist",
    "tavrei_lab.engine.play_eval",
    "tavrei_lab.engine.chess_eval",
    "tavrei_lab.engine.play",
    # the game tree: growing, laying out and drawing it (a tree costs up to 3 perfts)
    "tavrei_lab.tree.build",
    "tavrei_lab.tree.layout",
    "tavrei_lab.render.tree",
)

#: The record a compiled build leaves beside the package: module -> source SHA-256.
MANIFEST = "_compiled.json"

PACKAGE_DIR = Path(__file__).resolve().parent


class StaleBuildWarning(UserWarning):
    """A compiled module is older than its source: the source runs instead."""


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The ``.py`` of one of ``HOT_MODULES``."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hash(path: Path) -> str:
    """SHA-256 of a hot module's source: its ``.py``, and the ``.pxd`` beside it (the
    compiled build's declarations), if any. setup.py records the same."""
    digest = hashlib.sha256(path.read_bytes())
    pxd = path.with_suffix(".pxd")
    if pxd.is_file():
        digest.update(pxd.read_bytes())
    return digest.hexdigest()


def compiled_files(module: str, package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Extension files of ``module`` beside its source (``stacking.cpython-311-...so``)."""
    py = source_path(module, package_dir)
    return [py.with_name(py.stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if py.with_name(py.stem + suffix).is_file()]


def pure_requested() -> bool:
    """``TAVREI_PURE=1`` (or true/yes/on): run the pure Python even where compiled."""
    return os.environ.get("TAVREI_PURE", "").strip().lower() in {"1", "true", "yes", "on"}


#: Largest manifest read: one hash a hot module is about 2 KB in all.
MAX_MANIFEST_BYTES = 64 * 1024


def _manifest(package_dir: Path) -> dict[str, str]:
    """The build's record, module -> source hash; {} when it cannot be used (missing, not
    a regular file, too large, not JSON, another shape): then no compiled module is
    trusted, and the package imports its pure Python. Importing must never fail or wait
    on it (a FIFO there is not waited on)."""
    try:
        fd = os.open(package_dir / MANIFEST, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return {}
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        os.set_blocking(fd, True)
        raw = os.read(fd, MAX_MANIFEST_BYTES + 1)
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_MANIFEST_BYTES else None
    except (OSError, ValueError, RecursionError):
        return {}
    finally:
        os.close(fd)
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(sources, dict):
        return {}
    return {k: v for k, v in sources.items() if isinstance(k, str) and isinstance(v, str)}


#: A C-level import of another module's declarations: ``from tavrei_lab.x cimport``
#: in a ``.pxd``, ``from cython.cimports.tavrei_lab.x import`` in pure-mode ``.py``.
_CIMPORTS = {
    ".pxd": re.compile(r"^[ \t]*from[ \t]+(tavrei_lab(?:\.\w+)+)[ \t]+cimport\b", re.M),
    ".py": re.compile(r"^[ \t]*from[ \t]+cython\.cimports\.(tavrei_lab(?:\.\w+)+)[ \t]+import\b",
                      re.M),
}


def cimported(module: str, package_dir: Path = PACKAGE_DIR) -> frozenset[str]:
    """The hot modules ``module`` is compiled against: their extension types and C
    functions are built into its extension file, so it cannot run beside their pure
    Python (the import fails: "BoardTables size changed ... binary incompatibility")."""
    py = source_path(module, package_dir)
    found: set[str] = set()
    for suffix, pattern in _CIMPORTS.items():
        try:
            text = py.with_suffix(suffix).read_text(encoding="utf-8")
        except OSError:
            continue
        found.update(pattern.findall(text))
    return frozenset(found & set(HOT_MODULES)) - {module}


def modules_to_run_pure(package_dir: Path = PACKAGE_DIR) -> tuple[list[str], list[str]]:
    """(hot modules that have a compiled file but must import their source, the stale
    ones among them): all of them under ``TAVREI_PURE``; else those whose source no
    longer hashes as the build recorded (or that the build did not record), and those
    compiled against a module that runs its source (``cimported``), however far down:
    a source edited without a rebuild must never make the package fail to import."""
    pure: set[str] = set()
    recorded = _manifest(package_dir)
    forced = pure_requested()
    built = [m for m in HOT_MODULES if compiled_files(m, package_dir)]
    for module in built:
        py = source_path(module, package_dir)
        if forced or (py.is_file() and recorded.get(module) != source_hash(py)):
            pure.add(module)
    if pure and not forced:
        grew = True
        while grew:   # (a dozen modules: the closure takes a few rounds at most)
            grew = False
            for module in built:
                if module not in pure and cimported(module, package_dir) & pure:
                    pure.add(module)
                    grew = True
    in_order = [m for m in HOT_MODULES if m in pure]
    return in_order, ([] if forced else in_order)


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the named modules from their ``.py``, never from an extension file."""

    def __init__(self, modules: Sequence[str], package_dir: Path) -> None:
        self.modules = frozenset(modules)
        self.package_dir = package_dir

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        py = source_path(fullname, self.package_dir)
        return importlib.util.spec_from_file_location(
            fullname, py, loader=importlib.machinery.SourceFileLoader(fullname, str(py)))


def _one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              file: TextIO | None = None, line: str | None = None) -> None:
    """Shows the build's warning as one line, as the command line says everything (Python's
    own form adds the importing file, its line number and that line of source). Where the
    program shows warnings its own way (a notebook, pytest), that way is left in place."""
    stream = file if file is not None else sys.stderr
    try:
        if stream is not None:
            stream.write(f"{category.__name__}: {message}\n")
    except (OSError, ValueError):   # a closed or full standard error: nothing to tell
        pass


def install() -> None:
    """Put the finder in front when some compiled module must not run (once)."""
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return
    pure, stale = modules_to_run_pure()
    if stale:
        said = warnings.showwarning
        if getattr(said, "__module__", None) == "warnings":   # Python's own two-line form
            warnings.showwarning = _one_line
        try:
            warnings.warn(
                f"tavrei_lab: the compiled {', '.join(m.rsplit('.', 1)[1] for m in stale)} "
                "is older than its source (or was compiled against one that is); the pure "
                "Python runs instead (rebuild with "
                "`python setup.py build_ext --inplace`, or delete the .so files)",
                StaleBuildWarning, stacklevel=3)
        finally:
            warnings.showwarning = said
    if pure:
        sys.meta_path.insert(0, _SourceFirst(pure, PACKAGE_DIR))


def compiled_modules() -> tuple[str, ...]:
    """The hot modules that run compiled in this process (imported as extensions)."""
    out = []
    for module in HOT_MODULES:
        loaded = sys.modules.get(module)
        spec = getattr(loaded, "__spec__", None)
        if isinstance(getattr(spec, "loader", None), importlib.machinery.ExtensionFileLoader):
            out.append(module)
    return tuple(out)


def describe() -> str:
    """One line for ``tavrei-lab --version``: which build runs."""
    done = compiled_modules()
    if len(done) == len(HOT_MODULES):
        return f"compiled build ({len(done)} modules compiled with Cython)"
    if done:
        return f"partly compiled ({len(done)} of {len(HOT_MODULES)} hot modules)"
    why = " (TAVREI_PURE is set)" if pure_requested() else ""
    return f"pure Python build{why}"


install()
