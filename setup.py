"""Build steps pyproject.toml cannot say (the rest of the metadata lives there).

1. The lessons: ``notebooks/`` (the one source of the tutorials, the classroom demo
   and their translations in subfolders) and the rules are copied into the wheel as
   ``tavrei_lab/lessons/``, which ``tavrei-lab lessons`` writes out. Each rules page
   goes beside the notebooks of its language (``rules.md``, ``ru/rules.md``), where
   the notebooks link to it (in a checkout ``notebooks/rules.md`` is a link to
   ``docs/rules.md``; the page is copied from ``docs/``, its one source).
2. The long description (the page a package index shows) is the README with every
   relative link and image taken out: they point into the repository, which a reader
   of the index does not have. Link texts stay; pictures go.
3. The optional compiled build (docs/compiled.md): the hot modules
   (``tavrei_lab.builds.HOT_MODULES``) compiled by Cython from the same ``.py`` files,
   where Cython and a C compiler are there. Nothing here may fail an install: without
   Cython, without a compiler, with a compile error, or with ``TAVREI_PURE=1`` the
   wheel is the pure Python (``TAVREI_PURE=1`` makes it a ``py3-none-any`` wheel, which
   the offline site ships). Editable installs (``pip install -e``) stay
   pure unless ``TAVREI_COMPILE=1``: there an extension file beside its source would
   run instead of the source being edited. ``python setup.py build_ext --inplace``
   compiles in the checkout on purpose (``make compiled``, which ``make lab`` and
   ``make test`` end with); ``tavrei_lab.builds`` then
   refuses any compiled module whose source has changed since. A plain ``pip install .``
   is the pure Python too, unless ``TAVREI_COMPILE=1``: compiling takes minutes of CPU
   that pip shows no progress for, and an install should take seconds.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Each rules page in the lessons folder, and its source in docs/.
RULES_PAGES = {"rules.md": "docs/rules.md", "ru/rules.md": "docs/ru/rules.md"}
YES = {"1", "true", "yes", "on"}


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in YES


def hot_modules() -> tuple[str, ...]:
    """``HOT_MODULES`` of tavrei_lab/builds.py, read without importing the package."""
    tree = ast.parse((ROOT / "tavrei_lab" / "builds.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "HOT_MODULES" and node.value is not None):
            return tuple(ast.literal_eval(node.value))
    raise SystemExit("setup.py: tavrei_lab/builds.py has no HOT_MODULES")


def _source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _source_hash(path: Path) -> str:
    """As ``tavrei_lab.builds.source_hash``: the ``.py`` and its ``.pxd``, if any."""
    digest = hashlib.sha256(path.read_bytes())
    if path.with_suffix(".pxd").is_file():
        digest.update(path.with_suffix(".pxd").read_bytes())
    return digest.hexdigest()


def _progress(message: str) -> None:
    """One line a step of the compiled build, so a long compile is never silent."""
    print(f"setup.py: {message}", file=sys.stderr, flush=True)


def _warn(message: str) -> None:
    print(f"setup.py: {message}; the pure Python is installed instead", file=sys.stderr)


def compiled_extensions() -> list[Extension]:
    """The hot modules as extensions to build, or none (pure build; why, on stderr).

    Cython translates them only when build_ext runs (``OptionalBuildExt``), so an
    sdist or an editable install does not pay for it.
    """
    if _flag("TAVREI_PURE"):
        return []
    if not (_flag("TAVREI_COMPILE") or "build_ext" in sys.argv[1:]):
        print("setup.py: installing the pure Python (quick). For the compiled engine, 3-4x "
              "faster in search and sweeps and about 5 minutes of C compiling on 2 cores: "
              "TAVREI_COMPILE=1 pip install -v . (or `make compiled` in a checkout); "
              "docs/compiled.md", file=sys.stderr)
        return []
    try:
        import Cython  # noqa: F401
    except ImportError:
        _warn("Cython is not installed, so nothing is compiled")
        return []
    return [Extension(m, [str(_source(m).relative_to(ROOT))]) for m in hot_modules()]


#: ``annotation_typing`` off: the type hints are for mypy and readers; were Cython to read
#: them, ``x: int`` would refuse None and ``x: float`` would become a C double -- not the
#: pure Python's behaviour. Only the explicit ``@cython.locals`` declarations count.
#: ``binding``: functions keep their Python signatures (docs, inspect).
CYTHON_DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install, and records what it compiled.

    Each module that compiles goes into ``_compiled.json`` with the SHA-256 of its
    source; one that does not stays pure Python (its ``.py`` is always shipped).
    """

    def run(self) -> None:
        self.built_modules: list[str] = []
        if getattr(self, "editable_mode", False) and not _flag("TAVREI_COMPILE"):
            print("setup.py: an editable install stays pure Python (TAVREI_COMPILE=1 to "
                  "compile in the checkout)", file=sys.stderr)
            return
        try:
            from Cython.Build import cythonize
            total = len(self.extensions)
            for number, ext in enumerate(self.extensions, 1):   # the .py becomes its .c
                _progress(f"[{number}/{total}] Cython: {ext.name}")
                (translated,) = cythonize(
                    [Extension(ext.name, ext.sources)], build_dir="build/cython", quiet=True,
                    compiler_directives=CYTHON_DIRECTIVES)
                ext.sources = translated.sources
            super().run()
        except Exception as error:   # Cython refusing the source, no compiler at all
            _warn(f"the hot modules could not be compiled ({error})")
        self._write_manifest()

    def build_extension(self, ext: Extension) -> None:
        _progress(f"compiling {ext.name} (C)")
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(f"{ext.name} did not compile ({error})")
            return
        self.built_modules.append(ext.name)

    def _write_manifest(self) -> None:
        package = ROOT / "tavrei_lab" if self.inplace else Path(self.build_lib) / "tavrei_lab"
        manifest = package / "_compiled.json"
        if not self.built_modules:
            manifest.unlink(missing_ok=True)
            return
        package.mkdir(parents=True, exist_ok=True)
        sources = {m: _source_hash(_source(m)) for m in sorted(self.built_modules)}
        manifest.write_text(json.dumps({"compiler": "cython", "sources": sources}, indent=1)
                            + "\n", encoding="utf-8")


def long_description() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    # HTML pictures (<p ...><img src="docs/..."></p>) and Markdown ones ![alt](docs/...)
    text = re.sub(r'<p[^>]*>\s*<img\s[^>]*src="(?!https?:)[^"]*"[^>]*>\s*</p>\s*', "", text,
                  flags=re.S)
    text = re.sub(r'<img\s[^>]*src="(?!https?:)[^"]*"[^>]*>', "", text, flags=re.S)
    text = re.sub(r"!\[[^\]]*\]\((?!https?:)[^)]*\)", "", text)
    # [text](relative) -> text; [text](#anchor) stays a link within the page
    return re.sub(r"\[([^\]]+)\]\((?!https?:|#|mailto:)[^)]*\)", r"\1", text)


class BuildWithLessons(build_py):
    """build_py, then the lessons into the built package."""

    def run(self) -> None:
        super().run()
        notebooks = ROOT / "notebooks"
        if not notebooks.is_dir():   # an sdist made without them: nothing to ship
            raise SystemExit("setup.py: notebooks/ is missing; the lessons cannot be built")
        lessons = Path(self.build_lib) / "tavrei_lab" / "lessons"
        shutil.rmtree(lessons, ignore_errors=True)
        for source in sorted(notebooks.rglob("*.ipynb")):
            if ".ipynb_checkpoints" in source.parts:
                continue
            target = lessons / source.relative_to(notebooks)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        for page, source in RULES_PAGES.items():
            (lessons / page).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / source, lessons / page)


setup(cmdclass={"build_py": BuildWithLessons, "build_ext": OptionalBuildExt},
      ext_modules=compiled_extensions(),
      long_description=long_description(), long_description_content_type="text/markdown")
