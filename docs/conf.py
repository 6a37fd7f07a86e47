"""Sphinx configuration of the tavrei_lab documentation site (``make docs``).

The site is built from the repository root (``sphinx-build -c docs . build/docs/html``)
so that the tutorials in notebooks/ and the pages in docs/ keep the relative links
they have on a code host: ``../docs/rules.md#a3-towers`` from a notebook works in
both places. Three parts are generated at build time and cannot drift:

- the API reference: one page per module of the package, from its docstrings
  (written to docs/api/, which git ignores);
- the CLI reference: the ``--help`` of every ``tavrei-lab`` command, from the
  argparse parser itself (docs/_ext/cli_reference.py);
- the tutorials' outputs: every notebook is executed while the site is built
  (they are stored without outputs); a cell that raises fails the build.

Warnings are errors (``make docs`` passes ``-W``).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import tavrei_lab  # noqa: E402  (after the path set-up above)

project = "tavrei_lab"
author = "tavrei_lab developers"
copyright = "tavrei_lab developers, MIT licence"
release = version = tavrei_lab.__version__

extensions = [
    "myst_nb",                   # Markdown pages and executed notebooks
    "sphinx.ext.autodoc",        # the API reference, from the docstrings
    "sphinx.ext.napoleon",       # docstrings written with Args:/Returns: sections
    "sphinx.ext.viewcode",
    "cli_reference",             # the tavrei-lab commands, from the argparse parser
]

root_doc = "docs/index"
# the tutorials in both languages, and the rules pages beside them that their links open
# (notebooks/rules.md and notebooks/ru/rules.md are links to the pages in docs/)
include_patterns = ["docs/**.md", "notebooks/*.ipynb", "notebooks/ru/*.ipynb",
                    "notebooks/rules.md", "notebooks/ru/rules.md"]
exclude_patterns = ["build", "_build", ".venv", "**/.ipynb_checkpoints"]

# -- MyST and notebooks ---------------------------------------------------------------------
myst_heading_anchors = 3              # "#a3-towers" links, as a code host makes them
myst_enable_extensions = ["colon_fence"]
nb_execution_mode = "force"           # executed at every build: outputs are today's
nb_execution_in_temp = True           # in a scratch folder, as tests/test_notebooks.py runs them
nb_execution_timeout = 300            # seconds per cell
nb_execution_raise_on_error = True    # a tutorial that fails breaks the build
nb_execution_show_tb = True
nb_merge_streams = True
# The site is static and offline: no widget manager from a CDN. A widget shows its
# picture where it offers one (the board's image/svg+xml); a widget with only a text
# repr is replaced by a note (widget_note below).
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# -- API reference --------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_inherit_docstrings = False    # the standard library's are not ours (nor valid here)
autodoc_typehints = "description"
autodoc_preserve_defaults = True
#: Modules with nothing to document for a reader of the API.
NOT_IN_API = {"tavrei_lab.__main__"}


#: Module pages listed apart, after the rest: the command line's implementation.
INTERNAL_PREFIXES = ("tavrei_lab.cli", "tavrei_lab.qa")
#: The public surface, curated: what a notebook imports, in reading order.
#: Each entry is documented in full on its module's page too; here with ``:no-index:``.
PUBLIC = [
    ("A game", "tavrei_lab", ["Game", "Move", "Roll", "Position", "Outcome", "read_games",
                              "read_record", "variants", "load_variant"]),
    ("Boards and trees in a notebook", "tavrei_lab.widgets", ["Board", "TreeView",
                                                              "PositionEditor"]),
    ("Pictures", "tavrei_lab.render", ["board_svg", "die_svg", "game_svg_animation", "SVG",
                                       "Theme"]),
    ("Game trees", "tavrei_lab.tree", ["build", "minimax", "TreeCutWarning", "nodes_per_depth",
                                      "principal_variation", "history"]),
    ("Comparing variants", "tavrei_lab.lab", ["tournament", "TournamentResult"]),
    ("The variant lab", "tavrei_lab.lab", ["sweep", "SweepResult", "ResultsTable"]),
    ("Errors", "tavrei_lab", ["TavreiError", "IllegalMoveError", "NotationError",
                              "PositionError", "RecordError", "VariantError", "LimitError",
                              "ChessHabitError"]),
]


def public_page() -> str:
    """docs/api/public.md: the curated public surface, each name with its members."""
    out = ["# Public API\n",
           "What a notebook imports, with its members; `from tavrei_lab import Game` is "
           "where most start. [Every module](index.md) is documented too.\n"]
    for title, module, members in PUBLIC:
        out.append(f"## {title}\n\n```{{eval-rst}}")
        for member in members:
            obj = getattr(importlib.import_module(module), member)
            kind = ("autoexception" if isinstance(obj, type) and issubclass(obj, BaseException)
                    else "autoclass" if isinstance(obj, type) else "autofunction")
            out.append(f".. {kind}:: {module}.{member}\n   :no-index:"
                       + ("\n   :members:" if kind == "autoclass" else "") + "\n")
        out.append("```\n")
    return "\n".join(out)


def write_api_pages() -> None:
    """docs/api/: an index and one page per module, each an ``automodule``.

    Each object is documented once, on the page of the module that defines it
    (``:ignore-module-all:``): a package's re-exports are not repeated.
    """
    out = DOCS / "api"
    out.mkdir(exist_ok=True)
    names = ["tavrei_lab"] + sorted(
        m.name for m in pkgutil.walk_packages(tavrei_lab.__path__, "tavrei_lab.")
        if m.name not in NOT_IN_API)
    pages = {}
    for name in names:
        # eval-rst: autodoc writes reStructuredText, which MyST must not read as Markdown
        pages[f"{name}.md"] = (f"# `{name}`\n\n```{{eval-rst}}\n.. automodule:: {name}\n"
                               "   :members:\n   :show-inheritance:\n   :ignore-module-all:\n```\n")
    internal = [n for n in names if n.startswith(INTERNAL_PREFIXES)]
    toc = "\n".join(name for name in names if name not in internal)
    pages["index.md"] = ("# API reference\n\nEvery module of the package, from its docstrings. "
                         "Start with [the public API](public.md): what a notebook "
                         "imports, with its members.\n\n"
                         f"```{{toctree}}\n:maxdepth: 1\n:caption: Modules\n\n{toc}\n```\n\n"
                         f"```{{toctree}}\n:maxdepth: 1\n:caption: Internals (the command "
                         f"line's implementation)\n\n" + "\n".join(internal) + "\n```\n")
    pages["public.md"] = public_page()
    for stale in out.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    for filename, text in pages.items():
        path = out / filename
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


write_api_pages()

# -- Widgets without a picture -------------------------------------------------------------
WIDGET_REPR = re.compile(r"^[A-Z]\w*\((children|layout|value)=")
WIDGET_NOTE = ("(An interactive widget: to use it, open this notebook in JupyterLab: "
               "tavrei-lab lessons, then jupyter lab tavrei-lessons.)")
#: The same note on the Russian tutorials' pages (notebooks/ru/).
WIDGET_NOTE_RU = ("(Живая доска: чтобы играть на ней, откройте урок в JupyterLab: "
                  "tavrei-lab lessons, затем jupyter lab tavrei-lessons.)")


def widget_note(app: Sphinx, doctree: nodes.document) -> None:
    """Replace a widget's text repr (ipywidgets' 'Board(children=(HTML(...' ) by a note,
    in the language of the page."""
    note = WIDGET_NOTE_RU if app.env.docname.startswith("notebooks/ru/") else WIDGET_NOTE
    for block in list(doctree.findall(nodes.literal_block)):
        if "text_plain" in block.get("classes", []) and WIDGET_REPR.match(block.astext()):
            block.replace_self(nodes.paragraph(text=note, classes=["widget-note"]))


def download_button(app: Sphinx, doctree: nodes.document) -> None:
    """A download button atop each tutorial: the notebook itself (without outputs), to
    open in JupyterLab. Runs before Sphinx's download collector, which copies the file."""
    docname = app.env.docname
    if not str(app.env.doc2path(docname)).endswith(".ipynb"):   # not the rules beside them
        return
    name = docname.rsplit("/", 1)[-1] + ".ipynb"
    link = addnodes.download_reference("", "", nodes.Text(f"Download {name}"),
                                       reftarget=f"/{docname}.ipynb", refdoc=docname,
                                       refexplicit=True, refdomain="", reftype="download")
    button = nodes.paragraph("", "", link, classes=["tavrei-download"])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None:
        section.insert(1, button)    # under the tutorial's title


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", widget_note)
    app.connect("doctree-read", download_button, priority=400)


# -- HTML -----------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"tavrei_lab {version}"
html_static_path = ["_static"]
html_css_files = ["tavrei.css"]     # code blocks and wide tables scroll, the download button
html_extra_path = ["_root"]           # index.html at the top, pointing at docs/index.html
html_theme_options = {"description": "Tavreli (Russian tower chess) in Jupyter",
                      "fixed_sidebar": True}
