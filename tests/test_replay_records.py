"""``replay`` on a file of several records, and on a record with a huge tag."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

from tavrei_lab.notation.record import parse_record

ROOT = Path(__file__).resolve().parents[1]
TWO = ('[Event "a"]\n[Variant "orthodox"]\n\n1. e2-e4 e7-e5 *\n\n'
       '[Event "b"]\n[Variant "orthodox"]\n\n1. d2-d4 *\n')


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tavrei_lab", "replay", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_a_file_of_two_records_is_refused_naming_them_and_game_chooses_one(
        tmp_path: Path) -> None:
    """It said "move 3: '[Event' is not a move"."""
    file = tmp_path / "two.pgn"
    file.write_text(TWO, encoding="utf-8")
    whole = replay(str(file))
    assert whole.returncode == 2
    assert whole.stderr == (f"tavrei-lab replay: error: {file} holds 2 game records (the "
                            "second from line 6); replay reads one: choose it with --game N\n")
    second = replay("--game", "2", "--json", str(file))
    assert second.returncode == 0, second.stderr
    assert '"plies": 1' in second.stdout
    first = replay("--game", "1", "--json", str(file))
    assert '"plies": 2' in first.stdout
    past = replay("--game", "3", str(file))
    assert past.returncode == 2
    assert past.stderr == f"tavrei-lab replay: error: --game 3: {file} holds 2 game records\n"


def test_a_record_saved_with_a_byte_order_mark_is_one_game(tmp_path: Path) -> None:
    """An editor that writes a UTF-8 byte order mark (Windows Notepad) leaves it before
    the first tag: replay splits the file as read_games does, so its two tag lines are
    one record, not two."""
    file = tmp_path / "bom.pgn"
    file.write_bytes('\ufeff[Variant "tavreli"]\n[Seed "1"]\n\n1. e2-e4 e7-e5 *\n'
                     .encode("utf-8"))
    run = replay("--json", str(file))
    assert run.returncode == 0, run.stderr
    assert '"plies": 2' in run.stdout
    two = tmp_path / "two.pgn"
    two.write_bytes(('\ufeff[Variant "tavreli"]\n[Seed "1"]\n\n1. e2-e4 *\n\n'
                     '[Variant "tavreli"]\n\n1. d2-d4 d7-d5 *\n').encode("utf-8"))
    second = replay("--game", "2", "--json", str(two))
    assert second.returncode == 0, second.stderr
    assert '"plies": 2' in second.stdout
    first = replay("--game", "1", "--json", str(two))
    assert '"plies": 1' in first.stdout


def test_a_comment_wrapped_onto_a_line_starting_with_a_bracket_is_no_second_game(
        tmp_path: Path) -> None:
    file = tmp_path / "clock.pgn"
    file.write_text('[Variant "orthodox"]\n\n1. e2-e4 {a long comment\n[%clk 0:01:00]} e7-e5 *\n',
                    encoding="utf-8")
    run = replay("--json", str(file))
    assert run.returncode == 0, run.stderr
    assert '"plies": 2' in run.stdout


def test_a_huge_tag_is_matched_in_memory_of_its_own_size() -> None:
    """A 990 KB Event tag cost 193 MB (207 MB RSS for ``replay``) to match."""
    text = '[Event "' + "x" * 990_000 + '"]\n[Variant "orthodox"]\n\n1. e2-e4 *\n'
    tracemalloc.start()
    try:
        tags, _movetext = parse_record(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(tags["Event"]) == 990_000
    assert peak < 10 * 990_000, peak
    assert parse_record('[A "x\\"y\\\\"]\n\n*')[0] == {"A": 'x"y\\'}
