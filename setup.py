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
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Each rules page in the lessons folder, and its source in docs/.
RULES_PAGES = {"rules.md": "docs/rules.md", "ru/rules.md": "docs/ru/rules.md"}


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


setup(cmdclass={"build_py": BuildWithLessons},
      long_description=long_description(), long_description_content_type="text/markdown")
