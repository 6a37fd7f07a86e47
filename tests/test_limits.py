"""Every enforced resource limit, just under and just over (docs/limits.md).

Just under, the input is read (or fails later, for its own reason -- never
for the limit); just over, it is refused with the package's own error naming
the limit. Huge inputs -- a 10 MB record, a tower of 10,000
tavrels, a 1,000x1,000 board -- are refused at once and without using much
memory.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tavrei_lab import Game
from tavrei_lab.core.geometry import MAX_SIDE, MIN_SIDE, Geometry
from tavrei_lab.errors import (
    IllegalMoveError,
    LimitError,
    NotationError,
    RecordError,
    TavreiError,
    VariantError,
)
from tavrei_lab.game import read_record
from tavrei_lab.notation.moves import MAX_MOVE_CHARS, parse_move_spec
from tavrei_lab.notation.position_string import (
    MAX_CLOCK,
    MAX_POSITION_CHARS,
    MAX_TOWER_HEIGHT,
    read_position,
)
from tavrei_lab.notation.record import MAX_RECORD_BYTES, MAX_RECORD_TOKENS
from tavrei_lab.rules.die import MAX_FACES
from tavrei_lab.tree.build import MAX_DEPTH, build
from tavrei_lab.variant import (
    MAX_EXTENDS_DEPTH,
    MAX_VARIANT_FILE_BYTES,
    MAX_VARIANT_LINE_DOTS,
    check_variant_file,
    load_variant,
)

TAVRELI = load_variant("tavreli")


def refused_quickly(call: Callable[[], Any], error: type[TavreiError], match: str,
                    seconds: float = 2.0, megabytes: float = 64.0) -> None:
    """``call`` raises ``error`` within ``seconds`` and allocates under ``megabytes`` more."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(error, match=match):
            call()
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    assert peak < megabytes * 2**20, f"peak {peak / 2**20:.0f} MB"


# -- board size ------------------------------------------------------------------------------

def board_file(tmp_path: Path, width: int, height: int) -> Path:
    path = tmp_path / f"b{width}x{height}.toml"
    path.write_text(f'extends = "tavreli"\n[board]\nwidth = {width}\nheight = {height}\n'
                    f'[setup]\nback_rank = "V{"R" * (width - 2)}K"\nratniks = false\n'
                    f'[options]\ncastling = false\n')
    return path


def test_the_board_side_limit(tmp_path: Path) -> None:
    assert Geometry(MAX_SIDE, MAX_SIDE).size == 26 * 26
    assert Geometry(MIN_SIDE, MIN_SIDE).size == 4
    for w, h in ((MAX_SIDE + 1, 8), (8, MAX_SIDE + 1), (MIN_SIDE - 1, 8)):
        with pytest.raises(LimitError, match="outside the supported range"):
            Geometry(w, h)
    rules = check_variant_file(board_file(tmp_path, MAX_SIDE, 5))
    assert rules.geometry.width == MAX_SIDE and rules.legal_moves(rules.initial_position())
    with pytest.raises(VariantError, match=r"board.width.*2\.\.26"):
        check_variant_file(board_file(tmp_path, MAX_SIDE + 1, 5))


def test_a_1000_by_1000_board_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_text('extends = "tavreli"\n[board]\nwidth = 1000\nheight = 1000\n')
    refused_quickly(lambda: check_variant_file(path), VariantError, "board limit")


# -- position strings ------------------------------------------------------------------------

def tower_position(height: int) -> str:
    """One tower of ``height`` tavrels (the white volkhv on top) and nothing else."""
    return f"8/8/8/8/8/8/8/({'R' * (height - 1)}V)7 w - 0 1"


def test_the_tower_height_limit() -> None:
    # one side only (no black volkhv): read, not validated -- the limit is the reader's
    pos = read_position(tower_position(MAX_TOWER_HEIGHT), TAVRELI, validate=False)
    assert len(pos.board[0]) == MAX_TOWER_HEIGHT
    with pytest.raises(LimitError, match=f"taller than the limit of {MAX_TOWER_HEIGHT}"):
        read_position(tower_position(MAX_TOWER_HEIGHT + 1), TAVRELI)


def test_a_tower_of_10000_tavrels_is_refused_at_once() -> None:
    refused_quickly(lambda: read_position(tower_position(10_000), TAVRELI), LimitError,
                    "taller than the limit")


def test_the_position_string_length_limit() -> None:
    base = TAVRELI.initial_position().string
    under = base + " " * (MAX_POSITION_CHARS - len(base))   # spaces between fields are free
    assert len(under) == MAX_POSITION_CHARS
    assert read_position(under, TAVRELI).string == base
    with pytest.raises(LimitError, match=f"the limit is {MAX_POSITION_CHARS}"):
        read_position(under + " ", TAVRELI)
    refused_quickly(lambda: read_position("x" * 10_000_000, TAVRELI), LimitError, "limit",
                    megabytes=32)


def test_the_clock_limit() -> None:
    base = TAVRELI.initial_position().string[:-len("0 1")]
    assert read_position(f"{base}{MAX_CLOCK} {MAX_CLOCK}", TAVRELI).fullmove_number == MAX_CLOCK
    for half, full in ((MAX_CLOCK + 1, 1), (0, MAX_CLOCK + 1)):
        with pytest.raises(LimitError, match=f"over the limit {MAX_CLOCK}"):
            read_position(f"{base}{half} {full}", TAVRELI)


# -- move text -------------------------------------------------------------------------------

def test_the_move_text_length_limit() -> None:
    under = "e2-e4" + " " * (MAX_MOVE_CHARS - 5)
    assert parse_move_spec(under).to_square == "e4"
    Game().push(under)
    with pytest.raises(NotationError, match=f"at most {MAX_MOVE_CHARS}"):
        parse_move_spec(under + " ")
    game = Game()
    with pytest.raises(NotationError):
        game.push(under + " ")
    assert game.history == []


# -- records ---------------------------------------------------------------------------------

def test_the_record_size_limit() -> None:
    head = '[Event "limit"]\n\n1. e2-e4 '
    under = head + " " * (MAX_RECORD_BYTES - len(head))
    assert len(under) == MAX_RECORD_BYTES
    assert read_record(under).ply == 1
    with pytest.raises(RecordError, match=f"the limit is {MAX_RECORD_BYTES}"):
        read_record(under + " ")


def test_a_10_megabyte_record_is_refused_at_once() -> None:
    record = '[Event "big"]\n\n' + "1. e2-e4 e7-e5 2. e4-e5 " * 420_000
    assert len(record) > 10_000_000
    refused_quickly(lambda: read_record(record), RecordError, "the limit is", megabytes=64)
    game = Game()
    refused_quickly(lambda: Game.from_record(record), RecordError, "the limit is")
    assert game.history == []


def test_the_record_move_count_limit() -> None:
    """20,000 moves pass the count (this record then fails on its own first move);
    20,001 are refused before anything is played."""
    under = "e2-e5 " + "g1-f3 " * (MAX_RECORD_TOKENS - 1)
    with pytest.raises(IllegalMoveError, match="ply 1"):
        read_record(under)
    with pytest.raises(RecordError, match=f"more than {MAX_RECORD_TOKENS}"):
        read_record(under + "g8-f6")


def test_the_cli_reads_no_more_than_the_record_limit(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from tavrei_lab.cli import main
    path = tmp_path / "big.txt"
    path.write_text("1. e2-e4 " + " " * (MAX_RECORD_BYTES * 10))
    assert main(["replay", str(path)]) == 2
    assert "the limit is" in capsys.readouterr().err


# -- variant files ---------------------------------------------------------------------------

def test_the_variant_file_size_limit(tmp_path: Path) -> None:
    text = 'extends = "tavreli"\n'
    pad = "# " + "x" * 98 + "\n"
    body = text + pad * ((MAX_VARIANT_FILE_BYTES - len(text)) // len(pad))
    body += "#" * (MAX_VARIANT_FILE_BYTES - len(body) - 1) + "\n"
    path = tmp_path / "big.toml"
    path.write_text(body)
    assert path.stat().st_size == MAX_VARIANT_FILE_BYTES
    assert check_variant_file(path).variant.id == "big"
    path.write_text(body + "\n")
    with pytest.raises(VariantError, match=f"the limit is {MAX_VARIANT_FILE_BYTES}"):
        check_variant_file(path)


def test_the_extends_chain_limit(tmp_path: Path) -> None:
    """A chain of files each extending the next, the last extending the shipped Tavreli."""
    def chain(length: int) -> Path:
        d = tmp_path / f"chain{length}"
        d.mkdir()
        for i in range(length):
            parent = f"v{i + 1}" if i + 1 < length else "tavreli"
            (d / f"v{i}.toml").write_text(f'extends = "{parent}"\n')
        return d / "v0.toml"

    # the shipped tavreli.toml is the last link, so MAX_EXTENDS_DEPTH - 1 files fit before it
    assert len(check_variant_file(chain(MAX_EXTENDS_DEPTH - 1)).variant.chain) == \
        MAX_EXTENDS_DEPTH
    with pytest.raises(VariantError, match=f"chain longer than {MAX_EXTENDS_DEPTH}"):
        check_variant_file(chain(MAX_EXTENDS_DEPTH))


def test_the_dotted_key_limit(tmp_path: Path) -> None:
    path = tmp_path / "dots.toml"
    path.write_text('extends = "tavreli"\n[die]\n' + "a" + ".a" * MAX_VARIANT_LINE_DOTS
                    + " = 1\n")
    # under the limit the TOML is read: what is refused then is its meaning (a [die]
    # table belongs only to die variants), not the number of dots
    with pytest.raises(VariantError, match="die") as under:
        check_variant_file(path)
    assert "'.'" not in str(under.value)
    path.write_text('extends = "tavreli"\n[die]\n' + "a" + ".a" * (MAX_VARIANT_LINE_DOTS + 1)
                    + " = 1\n")
    with pytest.raises(VariantError, match=f"more than {MAX_VARIANT_LINE_DOTS} '.'"):
        check_variant_file(path)


def test_the_die_face_limit(tmp_path: Path) -> None:
    def die(n: int) -> Path:
        faces = ["K", "Q", "R", "N", "P"] + [f"s{i}" for i in range(n - 5)]
        path = tmp_path / f"die{n}.toml"
        path.write_text('extends = "gavrilov-die"\n[die]\nfaces = ['
                        + ", ".join(f'"{f}"' for f in faces) + "]\nskips = ["
                        + ", ".join(f'"{f}"' for f in faces[5:]) + "]\nweights = ["
                        + ", ".join("1" for _ in faces) + "]\n")
        return path

    assert len(check_variant_file(die(MAX_FACES)).faces) == MAX_FACES
    with pytest.raises(VariantError, match=f"1..{MAX_FACES} faces"):
        check_variant_file(die(MAX_FACES + 1))


# -- game trees ------------------------------------------------------------------------------

def test_the_tree_depth_limit() -> None:
    tree = build(Game(), MAX_DEPTH, max_nodes=50, values=False)
    assert tree.graph["truncated"]
    with pytest.raises(LimitError, match=f"between 0 and {MAX_DEPTH}"):
        build(Game(), MAX_DEPTH + 1, max_nodes=50, values=False)


def test_the_tavrel_count_limit_keeps_every_tower_within_the_height_limit() -> None:
    from tavrei_lab.notation.position_string import MAX_TAVRELS
    assert MAX_TOWER_HEIGHT == MAX_TAVRELS   # no tower can outgrow it in play
    per_square = MAX_TAVRELS // 64
    full = "/".join(["".join([f"({'R' * per_square})"] * 8)] * 8) + " w - 0 1"
    pos = read_position(full, TAVRELI, validate=False)   # no volkhvs: read, not validated
    assert sum(len(t) for t in pos.board) == MAX_TAVRELS
    one_more = full.replace(f"({'R' * per_square})", f"({'R' * (per_square + 1)})", 1)
    with pytest.raises(LimitError, match=f"more than {MAX_TAVRELS} tavrels"):
        read_position(one_more, TAVRELI)
