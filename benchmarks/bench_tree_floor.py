"""How close to perft can a tree get? The compiled build with its content taken out.

Run: ``python -m benchmarks.bench_tree_floor`` (needs the compiled build, Cython and a C
compiler: ``make compiled``).

The target is that building, laying out and drawing ``bench_tree``'s 10,629-node tree
cost at most 3 perfts of the same tree. ``bench_tree`` prints the figure and a
"floor" walked in plain Python; this benchmark asks the same question of the compiled
build itself. It copies the package to a scratch folder, takes content out of
``tree/build.py`` there (a few lines replaced, below), compiles that one module as
``setup.py`` does, and times perft, the build, the layout and the drawing of each copy
in its own process, the copies' rounds interleaved, CPU time, best round kept:

- **as shipped**: ``tree/build.py`` unchanged (compiled the same way, so the three
  rows differ only in the lines replaced);
- **no position strings or move texts**: every node's ``position`` is ``"s"`` and every
  move's text ``"m"`` (no rank looked up, no string joined, no move written);
- **and no outcomes**: moreover no node below the root asks whether the game is over
  there (at this tree's leaves: whether black's lone volkhv can step).

The last row is a tree that shows nothing -- the moves played, each node a networkx
node with one-letter texts, laid out and drawn -- and what it costs over perft is what
the dicts, the layout and the drawing cost whatever the content. Nothing here changes
the package: the copies live in a temporary folder and are deleted.
"""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import tavrei_lab
from tavrei_lab.builds import MANIFEST, PACKAGE_DIR, source_hash

ROUNDS = 3
#: Rounds of perft, build, layout and drawing in each process (its best is kept).
REPEATS = 5
TARGET = 3.0
MODULE = "tavrei_lab.tree.build"

#: (old lines, new lines) of ``tree/build.py``; each old text occurs exactly once.
NO_TEXT = ("""                if not by_ranks:
                    text = write_legal_move(position, m)
                    string = write_position(child)""",
           """                if True:   # (benchmarks/bench_tree_floor.py: no content)
                    text = "m"
                    string = "s\"""")
NO_OUTCOME = ("""                outcome = outcome_of(child)
""", """                outcome = None   # (benchmarks/bench_tree_floor.py: no outcome)
""")
VARIANTS: dict[str, tuple[tuple[str, str], ...]] = {
    "as shipped": (),
    "no position strings or move texts": (NO_TEXT,),
    "and no outcomes": (NO_TEXT, NO_OUTCOME),
}

#: What each copy's process runs: bench_tree's rounds, as JSON on stdout.
_TIMING = r"""
import json, math, sys, time
import tavrei_lab
from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tavrei_lab.render.tree import draw_svg
from tavrei_lab.tree import build
from tavrei_lab.tree.layout import layered_layout
from benchmarks.bench_tree import DEPTH, POSITION

def timed(fn, *args, **options):
    start = time.process_time()
    result = fn(*args, **options)
    return time.process_time() - start, result

game = Game(position=POSITION)
best = dict.fromkeys(("perft", "build", "layout", "draw"), math.inf)
for _ in range(int(sys.argv[1])):
    seconds, _ = timed(perft, game.rules, game.position, DEPTH)
    best["perft"] = min(best["perft"], seconds)
    seconds, G = timed(build, game, DEPTH, values=False, progress=False)
    best["build"] = min(best["build"], seconds)
    seconds, pos = timed(layered_layout, G)
    best["layout"] = min(best["layout"], seconds)
    seconds, svg = timed(draw_svg, G, layout=pos)
    best["draw"] = min(best["draw"], seconds)
leaf = max(G.nodes)
print(json.dumps({"best": best, "nodes": G.number_of_nodes(), "build": tavrei_lab.builds.describe(),
                  "leaf": G.nodes[leaf]["position"], "svg_bytes": len(svg)}))
"""


def patched(source: str, edits: tuple[tuple[str, str], ...]) -> str:
    """``source`` with each edit's old text replaced by its new one (each must occur once:
    a build.py that changed under these lines is an error, not a silent no-op)."""
    for old, new in edits:
        found = source.count(old)
        if found != 1:
            raise ValueError(f"tree/build.py has {found} copies of the lines this benchmark "
                             f"replaces ({old.strip().splitlines()[0]!r}): update "
                             "benchmarks/bench_tree_floor.py")
        source = source.replace(old, new)
    return source


def cython_directives() -> dict[str, object]:
    """setup.py's ``CYTHON_DIRECTIVES``, read without running setup.py."""
    tree = ast.parse((PACKAGE_DIR.parent / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "CYTHON_DIRECTIVES"):
            return dict(ast.literal_eval(node.value))
    raise SystemExit("setup.py has no CYTHON_DIRECTIVES")


def make_copy(root: Path, edits: tuple[tuple[str, str], ...]) -> Path:
    """A copy of the package (with its compiled modules) under ``root``, ``tree/build.py``
    edited and compiled alone, its record in ``_compiled.json`` updated."""
    package = root / "tavrei_lab"
    shutil.copytree(PACKAGE_DIR, package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "*.html"))
    shutil.copytree(PACKAGE_DIR.parent / "benchmarks", root / "benchmarks",
                    ignore=shutil.ignore_patterns("__pycache__", "results"))
    source = package / "tree" / "build.py"
    source.write_text(patched(source.read_text(encoding="utf-8"), edits), encoding="utf-8")
    script = (
        "import sys\n"
        "from Cython.Build import cythonize\n"
        "from setuptools import Extension, setup\n"
        f"extensions = cythonize([Extension({MODULE!r}, ['tavrei_lab/tree/build.py'])], "
        f"build_dir='build/cython', quiet=True, compiler_directives={cython_directives()!r})\n"
        "setup(name='floor', ext_modules=extensions, "
        "script_args=['-q', 'build_ext', '--inplace'])\n")
    # (in the copy's folder: no pyproject.toml there for setuptools to read)
    subprocess.run([sys.executable, "-c", script], cwd=root, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manifest = package / MANIFEST
    record = json.loads(manifest.read_text(encoding="utf-8"))
    record["sources"][MODULE] = source_hash(source)
    manifest.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return root


def time_copy(root: Path, repeats: int) -> dict[str, Any]:
    """One process's best round in the copy at ``root`` (its package imported first)."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    environment.pop("TAVREI_PURE", None)
    out = subprocess.run([sys.executable, "-c", _TIMING, str(repeats)], cwd=root,
                         env=environment, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if not tavrei_lab.compiled:
        print("needs the compiled build (make compiled): this floor is the compiled "
              "tree's; skipped")
        return
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("needs Cython to compile the copies; skipped")
        return
    with tempfile.TemporaryDirectory(prefix="tree-floor-") as scratch:
        copies = {name: make_copy(Path(scratch) / str(i), edits)
                  for i, (name, edits) in enumerate(VARIANTS.items())}
        best: dict[str, dict[str, float]] = {
            name: dict.fromkeys(("perft", "build", "layout", "draw"), math.inf)
            for name in copies}
        seen: dict[str, dict[str, Any]] = {}
        for _ in range(ROUNDS):   # interleaved: a slow spell of the machine hits all alike
            for name, root in copies.items():
                result = time_copy(root, REPEATS)
                for part, seconds in result["best"].items():
                    best[name][part] = min(best[name][part], seconds)
                seen[name] = result
    counts = {result["nodes"] for result in seen.values()}
    if len(counts) != 1:
        raise SystemExit(f"the copies grew different trees: {counts} nodes")
    for name, result in seen.items():
        if not str(result["build"]).startswith("compiled build"):
            raise SystemExit(f"copy {name!r} did not run compiled: {result['build']}")
    print(f"bench_tree's tree: {counts.pop()} nodes, each copy's tree/build.py compiled "
          f"alone (best of {ROUNDS} x {REPEATS} rounds, CPU time; ratios to the copy's "
          "own perft)")
    print(f"{'':<36}{'perft':>8}{'build':>8}{'layout':>8}{'drawing':>9}{'total':>8}")
    for name, parts in best.items():
        perft_seconds = parts["perft"]
        total = parts["build"] + parts["layout"] + parts["draw"]
        ratios = [parts[p] / perft_seconds for p in ("build", "layout", "draw")]
        print(f"{name:<36}{perft_seconds * 1e3:6.1f}ms"
              + "".join(f"{r:7.2f}x" for r in ratios[:2]) + f"{ratios[2]:8.2f}x"
              + f"{total / perft_seconds:7.2f}x"
              + f"   (leaf position {str(seen[name]['leaf'])[:18]!r}, "
              f"{seen[name]['svg_bytes'] / 1e6:.1f} MB)")
    bare = best["and no outcomes"]
    bare_total = (bare["build"] + bare["layout"] + bare["draw"]) / bare["perft"]
    print(f"a tree that shows nothing costs {bare_total:.2f}x perft (the target for "
          f"the whole tree: at most {TARGET:g}x)")


if __name__ == "__main__":
    main()
