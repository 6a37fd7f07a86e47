"""The tree-floor benchmark's edits of tree/build.py still apply, and do what it says.

``benchmarks/bench_tree_floor.py`` times copies of the compiled build with content
taken out of ``tree/build.py`` by replacing a few lines. Were those lines to change,
its figures would silently measure something else; here the edited source is run (as
pure Python) and must grow the same tree with the content gone.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from benchmarks.bench_tree import POSITION
from benchmarks.bench_tree_floor import NO_OUTCOME, NO_TEXT, VARIANTS, cython_directives, patched
from tavrei_lab import Game
from tavrei_lab.builds import source_path
from tavrei_lab.tree import build


def _source() -> str:
    return source_path("tavrei_lab.tree.build").read_text(encoding="utf-8")


def _edited(edits: tuple[tuple[str, str], ...], name: str) -> ModuleType:
    """tree/build.py with ``edits``, imported from its text as a module of its own."""
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # (while it runs, as an import would have it)
    try:
        exec(compile(patched(_source(), edits), f"<{name}>", "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def test_every_variant_edits_lines_that_are_there() -> None:
    source = _source()
    for edits in VARIANTS.values():
        text = patched(source, edits)
        assert (text == source) == (not edits)


def test_a_missing_line_is_an_error_not_a_silent_no_op() -> None:
    with pytest.raises(ValueError, match="update benchmarks/bench_tree_floor.py"):
        patched("no such lines", (NO_TEXT,))


def test_the_edited_builds_grow_the_same_tree_without_its_content() -> None:
    game = Game(position=POSITION)
    real = build(game, 2, values=False, progress=False)
    no_text = _edited((NO_TEXT,), "tree_floor_no_text").build(
        game, 2, values=False, progress=False)
    assert no_text.number_of_nodes() == real.number_of_nodes() > 100
    assert sorted(no_text.edges) == sorted(real.edges)
    below_root = [n for n in no_text.nodes if n]
    assert {no_text.nodes[n]["position"] for n in below_root} == {"s"}
    assert {no_text.edges[e]["move"] for e in no_text.edges} == {"m"}
    assert real.nodes[below_root[-1]]["position"] != "s"


def test_without_outcomes_a_mate_is_not_seen() -> None:
    # black's lone volkhv in the corner, white plays the mate: the real tree ends there
    game = Game(position="7v/8/6V1/8/8/8/8/R7 w - 0 1")
    real = build(game, 1, values=False, progress=False)
    mates = [n for n in real.nodes if real.nodes[n]["type"] == "terminal"]
    assert mates, "the test position lost its mate in one"
    blind = _edited((NO_TEXT, NO_OUTCOME), "tree_floor_blind").build(
        game, 1, values=False, progress=False)
    assert not [n for n in blind.nodes if blind.nodes[n]["type"] == "terminal"]
    assert blind.number_of_nodes() == real.number_of_nodes()


def test_the_copies_compile_with_setup_pys_directives() -> None:
    assert cython_directives() == {"language_level": 3, "binding": True,
                                   "annotation_typing": False}
