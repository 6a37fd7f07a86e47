"""The compiled build and the pure Python it is compiled from (docs/compiled.md).

The same fixtures are played in two child processes, one on the build that runs
here and one with ``TAVREI_PURE=1``, and every answer must be equal: perft counts
of the special positions, of every variant's start and of middlegames, the legal
moves listed in order, and each position of three recorded games replayed.

``make test`` sets ``TAVREI_EXPECT_COMPILED=1`` for its run on the compiled build
(``make compiled``): there a pure Python build fails these tests rather than
comparing the pure Python with itself. Elsewhere they skip without a compiled build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tavrei_lab
from tavrei_lab import builds

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"

#: What the child computes: one JSON document of every answer.
CHILD = textwrap.dedent("""
    import json, random, sys
    import tavrei_lab
    from tavrei_lab import Game
    from tavrei_lab.data import recorded_games
    from tavrei_lab.engine.perft import perft

    special = json.load(open(sys.argv[1], encoding="utf-8"))["positions"]
    out = {"compiled": tavrei_lab.compiled, "perft": {}, "moves": {}, "replays": {}}

    def record(name, game, depth):
        rules, position = game.rules, game.position
        out["perft"][name] = [perft(rules, position, d) for d in range(1, depth + 1)]
        if not rules.is_chance_node(position):
            out["moves"][name] = [repr(m) for m in rules.legal_moves(position)]

    for i, case in enumerate(special):
        record(f"special {i}", Game("tavreli", case["position"]), 2)
    for variant in tavrei_lab.variants():
        record(f"start {variant}", Game(variant), 2)
    record("kiwipete", Game("orthodox",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 2)
    for rec in recorded_games():
        if rec["n"] in (1, 5, 9):
            game, seen = Game(), []
            game.play(" ".join(rec["moves"]))
            while game.ply:       # every position of the game, last first
                seen.append([game.position.string, len(game.legal_moves())])
                game.pop()
                if game.ply == 24:
                    record(f"game {rec['n']} at 24", game, 2)
            out["replays"][str(rec["n"])] = seen
    # the playing search (compiled for depth): node counts, values and lines at
    # fixed node and depth budgets, and the evaluations it reads, must be the pure ones
    from tavrei_lab.engine.chess_eval import chess_tables_for
    from tavrei_lab.engine.play import PlaySearcher
    from tavrei_lab.engine.play_eval import evaluate_for_side
    from tavrei_lab.engine.search import Limits
    out["search"] = {}
    for name, game, limits in (
            ("orthodox start", Game("orthodox"), Limits(nodes=4000)),
            ("kiwipete", Game("orthodox", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/"
                                          "PPPBBPPP/R3K2R w KQkq - 0 1"), Limits(nodes=4000)),
            ("orthodox end", Game("orthodox", "8/5k2/3p4/1p1P4/1P6/4K3/8/8 w - - 0 1"),
             Limits(depth=7)),
            # fixed depths in middlegames: the same tree node for node, not only at a
            # budget (the compiled PlaySearcher types its scores and bounds as C ints)
            ("orthodox start depth 5", Game("orthodox"), Limits(depth=5)),
            ("kiwipete depth 4", Game("orthodox", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/"
                                                  "PPPBBPPP/R3K2R w KQkq - 0 1"),
             Limits(depth=4)),
            ("tavreli start", Game("tavreli"), Limits(nodes=3000)),
            ("tavreli start depth 3", Game("tavreli"), Limits(depth=3)),
            ("die", Game("gavrilov-die", seed=3), Limits(depth=2))):
        if game.is_chance_node():
            game.roll(random.Random(1))
        searcher = PlaySearcher(game.rules)
        answers = []
        for _ in range(2):          # the second search reuses the first one's table
            r = searcher.search(game.position, limits)
            answers.append([r.nodes, r.depth, r.value, [repr(m) for m in r.pv]])
        out["search"][name] = answers
    rng = random.Random(5)
    evals = []
    for variant in ("orthodox", "tavreli"):
        game = Game(variant)
        while game.ply < 80 and not game.is_game_over():
            game.push(rng.choice(game.legal_moves()))
            evals.append(evaluate_for_side(game.position))
            if variant == "orthodox":
                t = chess_tables_for(game.position.geometry, phase=game.ply % 25)
                kings = (game.position.king_square(0), game.position.king_square(1))
                evals.append(t.activity(game.position.board, kings))
    out["evals"] = evals
    json.dump(out, sys.stdout)
""")


def expect_compiled() -> bool:
    return os.environ.get("TAVREI_EXPECT_COMPILED", "").strip().lower() in {"1", "true", "yes"}


def run_child(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "TAVREI_PURE"}
    if pure:
        env["TAVREI_PURE"] = "1"
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run([sys.executable, "-c", CHILD, str(SHARED / "perft-special.json")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def both_builds() -> tuple[dict, dict]:
    if not tavrei_lab.compiled and not expect_compiled():
        pytest.skip("no compiled build here (make compiled builds one)")
    return run_child(pure=False), run_child(pure=True)


def test_the_build_make_test_expects_is_the_one_that_runs() -> None:
    if os.environ.get("TAVREI_PURE"):
        assert not tavrei_lab.compiled and builds.compiled_modules() == ()
    elif expect_compiled():
        assert tavrei_lab.compiled, (
            f"TAVREI_EXPECT_COMPILED=1 but {builds.describe()}: run `make compiled` "
            "(needs Cython and a C compiler)")
    else:
        pytest.skip("neither TAVREI_PURE nor TAVREI_EXPECT_COMPILED is set")


def test_pure_and_compiled_give_the_same_answers(both_builds: tuple[dict, dict]) -> None:
    compiled, pure = both_builds
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(compiled["perft"]) >= 25 and compiled["replays"]
    assert len(compiled["search"]) == 8 and len(compiled["evals"]) > 100
    assert compiled["evals"] == pure["evals"]
    for part in ("perft", "moves", "replays", "search"):
        assert compiled[part].keys() == pure[part].keys(), part
        for name in compiled[part]:
            assert compiled[part][name] == pure[part][name], (part, name)


def test_the_special_positions_count_as_the_independent_figures(
        both_builds: tuple[dict, dict]) -> None:
    special = json.loads((SHARED / "perft-special.json").read_text(encoding="utf-8"))
    for build in both_builds:
        for i, case in enumerate(special["positions"]):
            assert build["perft"][f"special {i}"] == case["perft"][:2], case["label"]


def test_version_names_the_build() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TAVREI_PURE": "1"}
    run = subprocess.run([sys.executable, "-m", "tavrei_lab", "--version"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (f"tavrei-lab {tavrei_lab.__version__}, "
                                  "pure Python build (TAVREI_PURE is set)")
    if tavrei_lab.compiled:
        env.pop("TAVREI_PURE")
        run = subprocess.run([sys.executable, "-m", "tavrei_lab", "--version"], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=120)
        assert (f"compiled build ({len(builds.HOT_MODULES)} modules compiled with Cython)"
                in run.stdout), run.stdout


# -- the guard: a compiled file never shadows a changed source -----------------------------

def fake_build(tmp_path: Path, recorded_source: str) -> Path:
    """A package directory whose stacking module has a compiled file and a manifest that
    recorded the SHA-256 of ``recorded_source``."""
    import hashlib
    package = tmp_path / "tavrei_lab"
    source = builds.source_path("tavrei_lab.rules.stacking", package)
    source.parent.mkdir(parents=True)
    source.write_text("VALUE = 1\n", encoding="utf-8")
    import importlib.machinery
    source.with_name("stacking" + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    digest = hashlib.sha256(recorded_source.encode()).hexdigest()
    (package / builds.MANIFEST).write_text(
        json.dumps({"sources": {"tavrei_lab.rules.stacking": digest}}), encoding="utf-8")
    return package


def test_a_compiled_module_runs_while_its_source_is_the_one_it_was_built_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVREI_PURE", raising=False)
    package = fake_build(tmp_path, "VALUE = 1\n")
    assert builds.modules_to_run_pure(package) == ([], [])


def test_an_edited_source_runs_instead_of_its_stale_compiled_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVREI_PURE", raising=False)
    package = fake_build(tmp_path, "VALUE = 0\n")     # built from another source
    stale = ["tavrei_lab.rules.stacking"]
    assert builds.modules_to_run_pure(package) == (stale, stale)
    (package / builds.MANIFEST).unlink()                # no record at all: not trusted
    assert builds.modules_to_run_pure(package) == (stale, stale)


def test_a_module_compiled_against_a_stale_one_runs_its_source_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: play_eval.py edited without a rebuild made ``import tavrei_lab`` fail ("BoardTables
    size changed, may indicate binary incompatibility"): play's extension was built against
    play_eval's extension type, and play_eval's source ran. A module that cimports a stale one
    -- in its .pxd or, pure mode, from ``cython.cimports`` -- runs its source as well, however
    far down the stale one is; a module that only imports it the Python way stays compiled."""
    import importlib.machinery
    monkeypatch.delenv("TAVREI_PURE", raising=False)
    package = tmp_path / "tavrei_lab"
    texts = {
        "tavrei_lab.engine.play_eval": ("VALUE = 1\n", None),
        "tavrei_lab.engine.chess_eval": (
            "VALUE = 2\n", "from tavrei_lab.engine.play_eval cimport BoardTables\n"),
        "tavrei_lab.engine.play": (
            "if cython.compiled:\n    from cython.cimports.tavrei_lab.engine.chess_eval import X\n",
            None),
        "tavrei_lab.tree.build": ("from tavrei_lab.engine.play import PlaySearcher\n", None),
    }
    sources = {}
    for module, (py_text, pxd_text) in texts.items():
        source = builds.source_path(module, package)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(py_text, encoding="utf-8")
        if pxd_text is not None:
            source.with_suffix(".pxd").write_text(pxd_text, encoding="utf-8")
        source.with_name(source.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
        sources[module] = builds.source_hash(source)
    (package / builds.MANIFEST).write_text(json.dumps({"sources": sources}), encoding="utf-8")
    assert builds.modules_to_run_pure(package) == ([], [])
    assert builds.cimported("tavrei_lab.engine.play", package) == {"tavrei_lab.engine.chess_eval"}
    assert builds.cimported("tavrei_lab.tree.build", package) == frozenset()
    builds.source_path("tavrei_lab.engine.play_eval", package).write_text("VALUE = 3\n")
    down = ["tavrei_lab.engine.play_eval", "tavrei_lab.engine.chess_eval",
            "tavrei_lab.engine.play"]
    assert builds.modules_to_run_pure(package) == (down, down)
    monkeypatch.setenv("TAVREI_PURE", "1")
    assert builds.modules_to_run_pure(package) == ([*down, "tavrei_lab.tree.build"], [])


def test_tavrei_pure_runs_the_source_of_a_good_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVREI_PURE", "1")
    package = fake_build(tmp_path, "VALUE = 1\n")
    assert builds.modules_to_run_pure(package) == (["tavrei_lab.rules.stacking"], [])


def test_the_finder_imports_the_source_and_warns(tmp_path: Path) -> None:
    """A stale compiled file that is not even a library: importing the package through
    the guard reads the ``.py`` (and says so once), never the broken extension."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tavrei_lab", copy / "tavrei_lab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    import importlib.machinery
    stacking = copy / "tavrei_lab" / "rules" / "stacking.py"
    stacking.with_name("stacking" + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(
        b"not a shared library")
    env = {k: v for k, v in os.environ.items() if k != "TAVREI_PURE"}
    env["PYTHONPATH"] = str(copy)
    run = subprocess.run(
        [sys.executable, "-c", "import tavrei_lab.rules.stacking as s; print(s.__file__); "
         "from tavrei_lab import Game; print(len(Game().legal_moves()))"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(stacking), "39"]
    assert run.stderr.count("StaleBuildWarning") == 1, run.stderr



@pytest.mark.slow
def test_a_failed_compile_leaves_the_pure_python_and_does_not_fail(tmp_path: Path) -> None:
    """No C compiler (``CC=false``): build_ext reports and exits 0, no compiled file,
    no manifest -- the install goes on with the pure Python."""
    pytest.importorskip("Cython")
    import setuptools
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("setup.py needs setuptools >= 77 (the test extra installs it)")
    copy = tmp_path / "tree"
    copy.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(ROOT / "tavrei_lab", copy / "tavrei_lab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    if (ROOT / "build" / "cython").is_dir():   # make compiled's translations: Cython reuses
        shutil.copytree(ROOT / "build" / "cython", copy / "build" / "cython")  # them (mtimes)
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    env.pop("TAVREI_PURE", None)
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                         cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "the pure Python is installed instead" in run.stderr
    assert not list((copy / "tavrei_lab").rglob("*.so"))
    assert not (copy / "tavrei_lab" / builds.MANIFEST).exists()


def test_applying_moves_leaves_every_reference_count_as_it_was() -> None:
    """The compiled board copy takes its references by hand (the empty squares' tuple
    counted once per board): a count off by one would leak every board, or free a
    tower still in use. Thousands of moves played and dropped change no count."""
    import gc

    from tavrei_lab import Game
    game = Game()
    game.play("e2-e4 d7-d5 e4xd5 d8xd5")      # towers, a prisoner, empty squares
    rules, position = game.rules, game.position
    moves = rules.legal_moves(position)
    towers = [t for t in position.board if t] + [()]

    def play() -> None:
        for _ in range(200):
            for move in moves:
                rules.apply(position, move)

    play()
    gc.collect()
    before = [sys.getrefcount(t) for t in towers]
    play()
    gc.collect()
    assert [sys.getrefcount(t) for t in towers] == before
