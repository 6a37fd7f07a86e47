"""Every game of a text or a file of records (``read_games``), each replayed as
``read_record`` replays one; a file is read line by line, refused in one line when
it is not a regular file of UTF-8 text.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

from tavrei_lab.core.reading import open_regular
from tavrei_lab.errors import RecordError, TavreiError
from tavrei_lab.game.arguments import DEFAULT_REPLAY_SECONDS, replay_deadline
from tavrei_lab.game.game import Game, read_record
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.record import (
    MAX_RECORD_BYTES,
)


def read_games(source: str | os.PathLike[str] | IO[str], variant: Any = None, *,
               allow_files: bool = False,
               time_limit: float | None = DEFAULT_REPLAY_SECONDS) -> Iterator[Game]:
    """Each game of a file of many records, in turn (as ``chess.pgn.read_game`` is
    called until it gives None): ``source`` is an open text file, a path, or the text.

    A record begins at its first tag line after the movetext of the one before (a
    file of bare movetext is one game). Each is replayed as ``read_record`` does; one
    that does not read raises ``RecordError`` naming the game's number and first
    line, after the games before it were given.

    >>> text = '[Variant "orthodox"]\\n\\n1. e2-e4 *\\n\\n[Variant "tavreli"]\\n\\n1. d2-d4 *\\n'
    >>> [g.move_text(g.moves[0], g.positions[0]) for g in read_games(text)]
    ['e2-e4', 'd2-d4']
    """
    replay_deadline(time_limit)   # a bad limit is said before anything is read
    if isinstance(source, str) and _is_record_text(source):
        lines: Iterable[str] = io.StringIO(source)
    elif isinstance(source, (str, os.PathLike)):
        lines = _record_file_lines(source)
    else:
        lines = source
    for number, (first, text) in enumerate(split_records(lines), 1):
        yield _one_of_many(text, number, first, variant, allow_files, time_limit)


def split_records(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Each record of a text's lines, as (the number of its first line, its text).

    A record begins at its first tag line after the movetext of the one before (a
    text of bare movetext is one record); a byte order mark on the first line begins
    nothing, and neither does a line of a ``{...}`` comment that starts with "[" (a
    wrapped ``[%clk]``). A record of blank lines only is not one.

    >>> [first for first, _ in split_records(['[A "1"]', "1. e2-e4 *", '[A "2"]', "d2-d4"])]
    [1, 3]
    """
    first, in_moves, in_comment = 1, False, False
    chunk: list[str] = []
    for line_no, line in enumerate(lines, 1):
        if line_no == 1:
            line = line.removeprefix("\ufeff")   # a byte order mark starts no game
        stripped = line.strip()
        if in_comment:   # a comment's next line may start with "[" (a wrapped [%clk])
            in_comment = _ends_in_comment(line, True)
        elif stripped.startswith("[") and in_moves:
            yield first, "".join(chunk)
            chunk, in_moves, first = [], False, line_no
        elif stripped and not stripped.startswith("["):
            in_moves = True
            in_comment = _ends_in_comment(line, False)
        chunk.append(line if line.endswith("\n") else line + "\n")
    if any(c.strip() for c in chunk):
        yield first, "".join(chunk)


def _ends_in_comment(line: str, inside: bool) -> bool:
    """Whether a line of movetext ends inside a ``{...}`` comment (``inside``: it
    starts inside one); a ``;`` comment ends with its line."""
    pos = 0
    while True:
        if inside:
            end = line.find("}", pos)
            if end < 0:
                return True
            inside, pos = False, end + 1
        else:
            opened = line.find("{", pos)
            semi = line.find(";", pos)
            if opened < 0 or 0 <= semi < opened:
                return False
            inside, pos = True, opened + 1


def _is_record_text(source: str) -> bool:
    """Is ``source`` a record's text rather than a file's name? Text with a line break or
    a tag is; so is one line of movetext ("1. e2-e4 e7-e5 *": a move number, or words
    with spaces), unless a file of that name exists."""
    if "\n" in source or source.lstrip().startswith("["):
        return True
    if not source.strip() or os.path.lexists(source):
        return False
    return bool(re.match(r"\s*\d+\s*\.", source)) or " " in source.strip()


def _record_file_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a file of records, refused in one line (a ``RecordError`` naming the
    file) when it is not a regular file -- a FIFO is not waited on, a folder or a device
    not read -- or not UTF-8 text (naming the line)."""
    name = os.fspath(path)

    def refused(reason: str) -> RecordError:
        return RecordError(_("{path}: cannot read the records: {reason}").format(
            path=name, reason=reason))
    fd = open_regular(name, refused)
    longest = 4 * MAX_RECORD_BYTES   # UTF-8 takes at most 4 bytes a character
    with open(fd, "rb") as handle:
        for number, raw in enumerate(iter(lambda: handle.readline(longest + 1), b""), 1):
            if len(raw) > longest:   # no record holds such a line: not read to its end
                raise RecordError(_("{path}: line {line} is longer than a record may be "
                                    "({limit} characters)").format(
                                        path=name, line=number, limit=MAX_RECORD_BYTES))
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(_("{path}: line {line} is not UTF-8 text ({reason} at byte "
                                    "{start} of the line)").format(
                                        path=name, line=number, reason=exc.reason,
                                        start=exc.start)) from None


def _one_of_many(text: str, number: int, line: int, variant: Any, allow_files: bool,
                 time_limit: float | None) -> Game:
    try:
        return read_record(text, variant, allow_files=allow_files, time_limit=time_limit)
    except TavreiError as exc:   # a bad tag, an illegal move: the game's number says which
        raise RecordError(_("game {number} (from line {line}): {reason}").format(
            number=number, line=line, reason=exc.args[0])) from exc


__all__ = ["read_games", "split_records"]
