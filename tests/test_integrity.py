"""Integrity: what the package writes it reads, bounded work, output files.

Each test reproduces a finding and failed before its fix.
"""
from __future__ import annotations

import pytest

from tavrei_lab.errors import IllegalMoveError
from tavrei_lab.game import Game, read_record


# -- item 1: no move before the roll ---------------------------------------------------
def test_die_game_refuses_a_move_object_before_the_roll() -> None:
    g = Game(variant="gavrilov-die-8x8")
    assert g.is_chance_node()
    assert g.legal_moves() == []            # the action due is a roll, not a move
    face_moves = g.rules.legal_moves(g.position)   # the rules still list every face's moves
    assert face_moves
    before = (g.record(), g.action_count, g.position.string)
    with pytest.raises(IllegalMoveError, match="roll the die first"):
        g.push(face_moves[0])
    assert (g.record(), g.action_count, g.position.string) == before
    # after the roll a legal move is accepted and the record reads back
    g.roll()
    if g.is_chance_node():      # the face passed the turn: roll again
        g.roll()
    if g.legal_moves():
        g.push(g.legal_moves()[0])
    again = read_record(g.record())
    assert again.action_texts() == g.action_texts()


# -- item 2: every limit on what is written within the limit on what is read -------------
def _named_variant(tmp_path, length: int):
    path = tmp_path / "named.toml"
    path.write_text(f'extends = "tavreli"\nname = "{"n" * length}"\n', encoding="utf-8")
    return path


def test_a_variant_whose_record_could_not_be_read_is_refused_by_check(tmp_path) -> None:
    from tavrei_lab.errors import VariantError
    from tavrei_lab.variant import check_variant_file
    with pytest.raises(VariantError, match="the limit is 65536"):
        check_variant_file(_named_variant(tmp_path, 250_000))


def test_a_variant_at_the_name_limit_writes_a_record_that_reads_back(tmp_path) -> None:
    from tavrei_lab.errors import VariantError
    from tavrei_lab.variant import MAX_VARIANT_DATA_CHARS, check_variant_file, load_variant
    base = len(load_variant("tavreli").variant.name)
    # the longest name check accepts: the definition exactly at the record's limit
    rules = check_variant_file(_named_variant(tmp_path, base))
    import json

    from tavrei_lab.variant import variant_data
    overhead = len(json.dumps(variant_data(rules), ensure_ascii=False,
                              separators=(",", ":"))) - base
    longest = MAX_VARIANT_DATA_CHARS - overhead
    with pytest.raises(VariantError):
        check_variant_file(_named_variant(tmp_path, longest + 1))
    path = _named_variant(tmp_path, longest)
    check_variant_file(path)
    g = Game(str(path))
    g.play("e2-e4 e7-e5")
    again = read_record(g.record())
    assert again.action_texts() == ["e2-e4", "e7-e5"]
    assert len(again.rules.variant.name) == longest


def test_game_length_limits_fit_the_record_reader() -> None:
    from tavrei_lab.notation.record import MAX_GAME_PLIES, MAX_RECORD_TOKENS
    # a die roll before every move, and as many lone rolls (passes): still readable
    assert 2 * MAX_GAME_PLIES + MAX_GAME_PLIES <= MAX_RECORD_TOKENS


@pytest.mark.parametrize("kwargs, message", [
    (dict(max_plies=25_000), "max_plies must be 1..4000"),
    (dict(games=1_000_000_000), "the limit is 100000"),
    (dict(games=2 ** 63), "the limit is 100000"),
])
def test_sweep_refuses_what_it_could_not_read_back_or_plan(kwargs, message) -> None:
    from tavrei_lab.errors import LimitError
    from tavrei_lab.lab.sweep import sweep
    with pytest.raises(LimitError, match=message):
        sweep("tavreli", {}, agents="random", executor="inline", progress=False,
              **{"games": 1, **kwargs})


# -- item 4: cells capped before any is built -------------------------------------------
def test_sweep_grid_cells_are_capped_before_building(monkeypatch) -> None:
    from tavrei_lab.errors import LimitError
    from tavrei_lab.lab import cells
    built = []
    monkeypatch.setattr(cells, "load_variant",
                        lambda *a, **k: built.append(a) or pytest.fail("built a cell"))
    grid = {f"o{i}": ["true", "false"] for i in range(15)}
    with pytest.raises(LimitError, match="32768 cells .* the limit is 256"):
        cells.build_cells(["tavreli"], grid)
    assert not built


# -- item 17: input that is not moves is an error --------------------------------------
def _cli(*argv: str, **kw):  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys
    from pathlib import Path
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *argv], env=env,
                          capture_output=True, text=True, timeout=120, **kw)


def test_sweep_base_of_only_commas_is_one_line() -> None:
    proc = _cli("sweep", "--strength-games", "0",
                "--base", ",", "--agents", "random", "--games", "1")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "--base ','" in proc.stderr


def test_play_with_standard_input_closed_is_one_line() -> None:
    import os
    def close_stdin() -> None:
        os.close(0)
    proc = _cli("play", "--human", "white", "--seed", "1", preexec_fn=close_stdin)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "input is closed" in proc.stderr


def test_play_reading_nul_bytes_is_an_error_and_keeps_the_record(tmp_path) -> None:
    out = tmp_path / "game.txt"
    with open("/dev/zero", "rb") as zero:
        proc = _cli("play", "--human", "white", "--seed", "1", "--out", str(out), stdin=zero)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "not moves" in proc.stderr
    assert read_record(out.read_text()).tags["Termination"] == "abandoned"


def test_play_at_the_end_of_input_still_ends_quietly() -> None:
    proc = _cli("play", "--human", "white", "--seed", "1", input="")
    assert proc.returncode == 0, proc.stderr


# -- item 19: a variant file swapped for a FIFO does not hang ---------------------------
def test_a_variant_path_swapped_for_a_fifo_is_refused_not_waited_on(tmp_path,
                                                                    monkeypatch) -> None:
    import os
    import threading
    from pathlib import Path

    from tavrei_lab import variant
    from tavrei_lab.errors import VariantError
    fifo = tmp_path / "swapped.toml"
    os.mkfifo(fifo)
    # what the path was when it was checked: a regular file (the swap comes after)
    monkeypatch.setattr(Path, "is_file", lambda self: True)
    outcome: list[BaseException | object] = []

    def read() -> None:
        try:
            outcome.append(variant._read_toml(fifo))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            outcome.append(exc)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():                    # unstick the reader before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO as a variant file hung")
    assert isinstance(outcome[0], VariantError)
    assert "not a regular file" in str(outcome[0])


# -- item 16: output files are replaced whole or not at all ------------------------------
class _FullDisk:
    """An open file whose writes fail as on a full disk, after part of the data."""

    def __init__(self, real):  # type: ignore[no-untyped-def]
        self.real = real

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc):  # type: ignore[no-untyped-def]
        self.real.close()

    def write(self, data):  # type: ignore[no-untyped-def]
        import errno
        import os
        self.real.write(data[: len(data) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self.real, name)


@pytest.fixture
def full_disk(monkeypatch):  # type: ignore[no-untyped-def]
    import builtins

    from tavrei_lab.core import files
    monkeypatch.setattr(files, "open", lambda *a, **k: _FullDisk(builtins.open(*a, **k)),
                        raising=False)


@pytest.mark.parametrize("argv", [
    ["svg", "--out", "{out}"],
    ["tree", "--depth", "1", "--svg", "{out}"],
    ["play", "--seed", "1", "--agent", "random", "--max-plies", "4", "--out", "{out}"],
])
def test_a_full_disk_keeps_the_old_file_and_names_it(argv, tmp_path, full_disk,
                                                    capsys) -> None:
    from tavrei_lab.cli import main
    out = tmp_path / "kept.out"
    out.write_text("the good old file\n")
    rc = main([a.format(out=out) for a in argv])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and str(out) in err and "No space left" in err
    assert "cannot write standard output" not in err   # `play` prints the record there
    assert out.read_text() == "the good old file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.out"]   # no temporary left


def test_a_full_disk_leaves_no_half_written_new_file(tmp_path, full_disk) -> None:
    from tavrei_lab.core.files import write_atomically
    target = tmp_path / "new.svg"
    with pytest.raises(OSError) as caught:
        write_atomically(target, "<svg/>" * 1000)
    assert caught.value.filename == str(target)
    assert list(tmp_path.iterdir()) == []


def test_sweep_and_compare_out_on_a_full_disk_name_the_file(tmp_path, full_disk,
                                                           capsys) -> None:
    from tavrei_lab.cli import main
    for argv in (["sweep", "--strength-games", "0",
                  "--agents", "random", "--games", "1", "--max-plies", "4",
                  "--executor", "inline", "--out", str(tmp_path / "s")],
                 ["compare", "--variants", "tavreli", "--agents", "random", "--games", "1",
                  "--max-plies", "4", "--executor", "inline", "--out", str(tmp_path / "c")]):
        rc = main(argv)
        err = capsys.readouterr().err
        assert rc == 2, err
        assert err.count("\n") == 1 and str(tmp_path) in err and "standard output" not in err
    leftovers = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert leftovers == []     # not one 0-byte or truncated table


def test_writing_replaces_a_file_whole_and_keeps_its_permissions(tmp_path) -> None:
    import os

    from tavrei_lab.core.files import write_atomically
    target = tmp_path / "table.csv"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomically(target, "new")
    assert target.read_text() == "new" and (os.stat(target).st_mode & 0o777) == 0o640
    write_atomically("/dev/null", "into a device, in place")    # not renamed over
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


# -- item 5: output size and memory bounded, not only counts ------------------------------
def test_empty_comments_cost_no_memory() -> None:
    import tracemalloc
    text = "{}" * 200_000 + " *"
    tracemalloc.start()
    try:
        game = read_record(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert game.action_count == 0
    assert peak < 15_000_000        # 400 KB of {} held 38 MB before (1 MB: 189 MB)


def test_movetext_tokens_are_capped() -> None:
    from tavrei_lab.errors import TavreiError
    from tavrei_lab.notation.movetext import MAX_MOVETEXT_TOKENS
    with pytest.raises(TavreiError, match=f"more than {MAX_MOVETEXT_TOKENS}"):
        read_record("{a}" * (MAX_MOVETEXT_TOKENS + 1) + " *")


def test_a_long_game_with_a_tall_tower_is_refused_before_drawing(monkeypatch) -> None:
    from tavrei_lab.errors import LimitError
    from tavrei_lab.render import animation
    # a whole 32-tavrel game of the longest drawn length still fits the real limit
    assert animation.MAX_ANIMATION_POSITIONS * 32 <= animation.MAX_ANIMATION_TAVRELS
    assert animation.MAX_ANIMATION_TAVRELS * 400 <= 30_000_000     # about 400 B a tavrel
    monkeypatch.setattr(animation, "MAX_ANIMATION_TAVRELS", 2_000)   # the same, smaller
    g = Game(position="4v3/8/8/8/8/8/8/(" + "k" * 20 + "K" * 20 + ")3V3 w - 0 1")
    for _ in range(12):      # 49 positions of 42 tavrels: far under 1,000 positions
        for text in ("e1-f1", "e8-f8", "f1-e1", "f8-e8"):
            g.push(text)
    drawn = []
    monkeypatch.setattr(animation, "board_svg",
                        lambda *a, **k: drawn.append(1) or pytest.fail("drew a frame"),
                        raising=False)
    with pytest.raises(LimitError, match="2058 tavrels in all; at most 2000"):
        animation.game_svg_animation(g)
    assert not drawn


def test_tree_nodes_are_capped_where_memory_stays_in_hundreds_of_megabytes() -> None:
    from tavrei_lab.errors import LimitError
    from tavrei_lab.tree.build import MAX_TREE_NODES, build
    assert MAX_TREE_NODES * 2_500 <= 1_000_000_000     # about 2 KB a node, measured
    with pytest.raises(LimitError):
        build(Game(), 5, max_nodes=1_000_000)


# -- item 3: a sweep plans its games as it goes -----------------------------------------
def test_sweep_draws_its_plan_as_games_finish(monkeypatch) -> None:
    import importlib
    import time
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace
    sweep_module = importlib.import_module("tavrei_lab.lab.sweep")
    monkeypatch.setattr(sweep_module, "IN_FLIGHT", 4)
    finished = 0
    most_ahead = 0

    def play(task):  # type: ignore[no-untyped-def]
        time.sleep(0.002)
        return task, {}

    monkeypatch.setattr(sweep_module, "play_lab_game", play)
    unit = SimpleNamespace(cell=SimpleNamespace(name="c", option_dict={}),
                           settings={"variant": "tavreli"}, hash="h")

    def plan():  # type: ignore[no-untyped-def]
        nonlocal most_ahead
        for i in range(200):
            most_ahead = max(most_ahead, i - finished)
            yield unit, i

    def add(*args):  # type: ignore[no-untyped-def]
        nonlocal finished
        finished += 1

    db = SimpleNamespace(add=add)
    bar = SimpleNamespace(update=lambda n=1: None)
    with ThreadPoolExecutor(2) as pool:
        count = sweep_module._play(pool, db, plan(), {"c": None}, 1, bar)
    assert count == finished == 200
    assert most_ahead <= 4          # never more planned than in flight (was: all 200)


def test_writing_through_a_symbolic_link_keeps_the_link(tmp_path) -> None:
    from tavrei_lab.core.files import write_atomically
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
