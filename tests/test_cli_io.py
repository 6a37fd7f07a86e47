"""The command line's input and output: bounded typed input, errors that are one short
line, standard output closed or full, a FIFO with no writer -- and the words it uses.

Each test runs the command as a user would (a subprocess where the file descriptors
matter) and is a reproduction of what was seen, kept.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.cli.common import MAX_TYPED_LINE, TypedLines, read_input
from tavrei_lab.errors import MAX_MESSAGE_CHARS, NotationError, RecordError, TavreiError
from tavrei_lab.game import read_record
from tavrei_lab.notation.record import MAX_RECORD_BYTES

CLI = [sys.executable, "-m", "tavrei_lab"]


def cli(*argv: str, **kw) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    if "stdout" in kw:
        kw.setdefault("stderr", subprocess.PIPE)
    else:
        kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 120)
    return subprocess.run([*CLI, *argv], **kw)


def one_line_error(stderr: bytes | str) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = text.strip().splitlines()
    assert len(lines) == 1, text[:500]
    assert len(lines[0]) < MAX_MESSAGE_CHARS + 60
    assert "Traceback" not in text
    return lines[0]


# -- item 1: typed input is bounded -------------------------------------------------------

def test_play_human_reads_dev_zero_with_a_bound() -> None:
    # `play --human white </dev/zero` reached 7.1 GB in 20 s and kept growing
    with open("/dev/zero", "rb") as zero:
        proc = cli("play", "--human", "white", "--seed", "1", stdin=zero)
    assert proc.returncode == 2        # input that is not moves is an error
    out = proc.stdout.decode()
    assert f"more than {MAX_RECORD_BYTES} characters typed" in out
    assert '[Termination "abandoned"]' in out


def test_typed_lines_skip_a_long_line_and_go_on() -> None:
    text = "x" * 100_000 + "\ne2-e4\n"
    typed = TypedLines(io.StringIO(text))
    assert typed.readline() == "" and typed.last_too_long
    assert typed.readline() == "e2-e4" and not typed.last_too_long
    assert typed.readline() is None and typed.ended == "end of input"


def test_typed_lines_stop_at_the_total_bound_inside_one_endless_line() -> None:
    class Endless(io.TextIOBase):
        read_chars = 0

        def readline(self, size: int = -1) -> str:
            assert 0 < size <= 4096 + MAX_TYPED_LINE
            Endless.read_chars += size
            return "\x00" * size

    typed = TypedLines(Endless(), total_limit=50_000)
    assert typed.readline() is None
    assert typed.ended == "more than 50000 characters typed"
    assert Endless.read_chars <= 50_000


def test_a_too_long_move_line_is_refused_and_the_game_goes_on() -> None:
    typed = "e2-e4\n" + "x" * 5000 + "\nresign\n"
    proc = cli("play", "--human", "white", "--seed", "1", input=typed.encode())
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "line too long: a move is at most 64 characters" in out
    assert '[Termination "resignation"]' in out


# -- item 6: errors are one short line ------------------------------------------------------

def test_a_huge_roll_token_gives_a_short_error() -> None:
    # a 1M-character roll token gave a 2 MB error line
    with pytest.raises(TavreiError) as info:
        Game("gavrilov-die").play("@" + "Q" * 1_000_000)
    assert len(str(info.value)) <= MAX_MESSAGE_CHARS + 40


def test_newline_and_nul_in_a_quoted_input_are_escaped() -> None:
    with pytest.raises(NotationError) as info:
        Game().play("e2-e4\x00\ne7-e5zz\nx")
    message = str(info.value)
    assert "\n" not in message and "\x00" not in message


def test_every_error_message_is_one_short_line() -> None:
    error = RecordError("line 1: " + "a\nb\x00\u2028" * 100_000)
    text = str(error)
    assert len(text) <= MAX_MESSAGE_CHARS + 40
    assert text.isprintable()


def test_a_path_with_a_newline_gives_one_line(tmp_path: Path) -> None:
    proc = cli("replay", str(tmp_path / "no\nsuch\x01file.txt"))
    assert proc.returncode == 2
    line = one_line_error(proc.stderr)
    assert "no\\nsuch\\x01file.txt" in line


def test_argparse_errors_are_capped_too() -> None:
    proc = cli("perft", "x" * 100_000 + "\nsecond line")
    assert proc.returncode == 2
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines[-1]) < MAX_MESSAGE_CHARS + 80 and "cut at" in lines[-1]
    assert not any(line.startswith("second line") for line in lines)


def test_a_record_of_long_folding_characters_stays_small() -> None:
    # a 3 MB record of U+FDFA (it folds to 18 letters) used 551 MB while folding
    script = ("import resource\n"
              "from tavrei_lab.game import read_record\n"
              "g = read_record('{' + '\\ufdfa' * 999_990 + '} e2-e4')\n"
              "assert g.ply == 1\n"
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n")
    base = subprocess.run([sys.executable, "-c", "import resource, tavrei_lab.game\n"
                           "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"],
                          capture_output=True, text=True, check=True)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert int(proc.stdout) - int(base.stdout) < 120      # megabytes (it was ~500 more)


# -- item 8: closed or full standard output, a FIFO with no writer ---------------------------

@pytest.mark.parametrize("argv", [["show"], ["svg", "--out", "-"], ["play", "--seed", "1"],
                                  ["variants"]])
def test_a_closed_stdout_is_one_line_not_a_traceback(argv: list[str]) -> None:
    # `svg --out -` and `play` with a closed stdout gave an AttributeError traceback
    proc = cli(*argv, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
               preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2
    assert one_line_error(proc.stderr).endswith("standard output is closed")


@pytest.mark.parametrize("argv", [["variants"], ["svg", "--out", "-"], ["show"]])
def test_a_full_stdout_says_so(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        proc = cli(*argv, stdout=full)
    assert proc.returncode == 2
    line = one_line_error(proc.stderr)
    assert line.endswith("cannot write standard output: No space left on device")


@pytest.mark.parametrize("argv", [["svg", "--out", "/dev/full"],
                                  ["play", "--seed", "1", "--out", "/dev/full"]])
def test_a_full_output_file_is_named(argv: list[str]) -> None:
    # writing to /dev/full said "No space left on device: None"; `play` goes on to print
    # the record it could not write (test_play_prints_the_record_when_its_file_cannot_take_it)
    proc = cli(*argv)
    assert proc.returncode == 2
    assert "'/dev/full': No space left on device" in one_line_error(proc.stderr)


def test_replay_of_a_fifo_with_no_writer_ends(tmp_path: Path) -> None:
    # `replay` of a FIFO with no writer blocked forever
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(RecordError, match="sent nothing in 0.3 s"):
        read_input(str(fifo), wait=0.3)
    assert time.monotonic() - start < 5


def test_replay_of_a_fifo_with_a_writer_reads_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.2; printf 'e2-e4 e7-e5' > '{fifo}'"])
    try:
        assert read_input(str(fifo), wait=30) == "e2-e4 e7-e5"
    finally:
        writer.wait(timeout=30)


def test_replay_of_dev_zero_and_a_directory_are_one_line(tmp_path: Path) -> None:
    for path, expected in (("/dev/zero", "limit is"), (str(tmp_path), "is a directory")):
        proc = cli("replay", path)
        assert proc.returncode == 2
        assert expected in one_line_error(proc.stderr)


# -- the words -------------------------------------------------------------------------------

def test_show_calls_a_single_tavrel_a_tavrel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--moves", "e2-e4 d7-d5 e4xd5"]) == 0
    out = capsys.readouterr().out
    towers = out.split("towers, bottom -> top:")[1].split("single tavrels:")
    assert towers[0].strip() == "d5: p:K' P:H'"       # the only tower: two tavrels
    assert "a1 R," in towers[1] and "h8 r" in towers[1]
    assert main(["show"]) == 0
    assert "towers: none" in capsys.readouterr().out


def test_play_and_replay_give_a_game_length_in_the_same_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `play` said "after 58 turns" where `replay` of the same record said "plies: 47"
    record = tmp_path / "g.txt"
    assert main(["play", "--variant", "gavrilov-die", "--seed", "3", "--out",
                 str(record)]) == 0
    played = capsys.readouterr().out
    game = read_record(record.read_text())
    rolls = game.action_count - game.ply
    length = f"plies: {game.ply}, die rolls: {rolls}"
    assert length in played
    assert main(["replay", str(record)]) == 0
    assert length in capsys.readouterr().out


def test_svg_out_says_what_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.svg"
    assert main(["svg", "--moves", "e2-e4", "--out", str(out)]) == 0
    said = capsys.readouterr().out.strip()
    assert said == f"wrote {out}: the position after 1 plies, {len(out.read_text())} characters"
    assert main(["svg", "--out", "-"]) == 0
    assert capsys.readouterr().out.startswith("<svg")    # the picture alone on stdout


def test_exercise_feedback_does_not_repeat_a_huge_answer() -> None:
    # exercise feedback repeated a 100 KB answer
    from tavrei_lab.exercises import EXERCISES, MAX_ANSWER_CHARS
    for exercise in list(EXERCISES.values())[:4]:
        feedback = exercise.check("x" * 100_000)
        assert not feedback and len(str(feedback)) < 200
        assert f"at most {MAX_ANSWER_CHARS}" in str(feedback)


def test_writing_to_a_fifo_nobody_reads_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.svg"
    os.mkfifo(fifo)
    proc = cli("svg", "--out", str(fifo), timeout=60)
    assert proc.returncode == 2
    assert one_line_error(proc.stderr).endswith("a pipe (FIFO) that nobody reads")


# -- a bad --out is said before any game is played, and a failed write loses nothing -------

def test_compare_out_naming_a_file_is_refused_before_any_game(tmp_path: Path) -> None:
    # the tables printed, then "'afile/records': Not a directory": four games lost
    afile = tmp_path / "afile"
    afile.touch()
    proc = cli("compare", "--agents", "random", "--games", "4", "--max-plies", "10",
               "--executor", "inline", "--no-progress", "--out", str(afile))
    assert proc.returncode == 2
    assert proc.stdout == b""                      # no table: no game was played
    line = one_line_error(proc.stderr)
    assert line.endswith(f"--out '{afile}' is not a folder; no game was played")


def test_sweep_out_under_a_file_is_refused_before_any_game(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.touch()
    proc = cli("sweep", "--strength-games", "0",
               "--agents", "random", "--games", "2", "--max-plies", "6",
               "--executor", "inline", "--no-progress", "--out", str(afile / "tables"))
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert one_line_error(proc.stderr).endswith(
        f"--out '{afile}/tables': '{afile}' is not a folder; no game was played")


def test_play_out_naming_a_folder_is_refused_before_the_first_move(tmp_path: Path) -> None:
    # the person typed the whole game, then "'d1': Is a directory" and no record anywhere
    proc = cli("play", "--human", "white", "--agent", "random", "--seed", "3",
               "--max-plies", "6", "--out", str(tmp_path), input=b"e2-e4\nd2-d4\ng1-f3\n")
    assert proc.returncode == 2
    assert b"your move" not in proc.stdout         # never asked for a move
    assert one_line_error(proc.stderr).endswith(
        f"--out '{tmp_path}' is a folder, not a file; no game was played")
    proc = cli("play", "--seed", "1", "--out", str(tmp_path / "nowhere" / "g.tvr"))
    assert proc.returncode == 2
    assert one_line_error(proc.stderr).endswith(f"'{tmp_path}/nowhere': no such folder; no "
                                                "game was played")


def test_play_prints_the_record_when_its_file_cannot_take_it() -> None:
    proc = cli("play", "--seed", "1", "--max-plies", "6", "--out", "/dev/full")
    assert proc.returncode == 2
    game = read_record(proc.stdout.decode())       # the whole record, on standard output
    assert game.ply == 6 and game.seed == 1
    assert one_line_error(proc.stderr).endswith(
        "'/dev/full': No space left on device; the record is printed on standard output "
        "instead")


def test_compare_keeps_its_games_when_the_folder_fails_after_the_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # a disk that fills up during the run: the games go to a temporary folder, said where
    import importlib
    tournament_module = importlib.import_module("tavrei_lab.lab.tournament")
    real = tournament_module.write_atomically
    out = tmp_path / "run"

    def full(path: str | os.PathLike[str], data: str | bytes) -> None:
        if str(out) in os.fspath(path):
            raise OSError(28, "No space left on device", os.fspath(path))
        real(path, data)

    monkeypatch.setattr(tournament_module, "write_atomically", full)
    assert main(["compare", "--agents", "random", "--games", "3", "--max-plies", "6",
                 "--executor", "inline", "--no-progress", "--out", str(out)]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert "No space left on device; the results are saved in " in line
    spare = Path(line.split("the results are saved in ")[1].removesuffix(" instead"))
    try:
        assert len(list((spare / "records").glob("*.tvr"))) == 3
        assert (spare / "settings.json").exists()
    finally:
        import shutil
        shutil.rmtree(spare)
    assert not out.exists() or not any(out.iterdir())   # nothing half-written left
