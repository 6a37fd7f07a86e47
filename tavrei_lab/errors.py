"""One small exception hierarchy, so callers can catch exactly what they mean.

Every error carries the offending text and where it was found, because the
people who meet these errors are learners typing moves in a notebook: the
message must say what to fix, not just that something failed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: Longest error message kept, in characters: an error is one short line, whatever it quotes.
MAX_MESSAGE_CHARS = 300
#: Longest piece of input an error quotes (``quote``).
MAX_QUOTE_CHARS = 60

# Characters that would break the line or hide what follows: C0/C1 controls (newline, NUL,
# escape), the line and paragraph separators and the bidirectional overrides.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


#: How the notes ``one_line`` and ``quote`` add are said: the message catalogue (which
#: imports this module, so cannot be imported by it) puts its own ``gettext`` and
#: ``ngettext`` here when it loads; until then they are said in English.
SAYING: dict[str, Callable[..., str]] = {
    "gettext": lambda message: message,
    "ngettext": lambda singular, plural, n: singular if n == 1 else plural,
}


def _escape_char(m: re.Match[str]) -> str:
    c = m.group()
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if c in named:
        return named[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one short, printable line: line breaks, NUL and other control
    characters escaped (``\\n``, ``\\x00``), and cut after ``limit`` characters with a
    note of how much was left out. Every ``TavreiError`` message goes through it."""
    if len(text) > 4 * limit:        # escaping at most quadruples what is kept
        text = text[:4 * limit] + "\u2026"
    text = _UNSAFE.sub(_escape_char, text)
    if len(text) > limit:
        text = text[:limit] + SAYING["gettext"]("... (cut at {limit} characters)").format(
            limit=limit)
    return text


def quote(text: object, limit: int = MAX_QUOTE_CHARS) -> str:
    """``repr`` of a piece of input for an error message, at most ``limit`` characters of it."""
    s = str(text)
    if len(s) > limit:
        more = len(s) - limit
        return repr(s[:limit]) + SAYING["ngettext"](
            "... ({count} more characters)", "... ({count} more characters)", more).format(
                count=more)
    return repr(s)


class TavreiError(Exception):
    """Base class of every error raised on purpose by tavrei_lab.

    Its message is always one short line (see ``one_line``): errors quote what
    was typed or read, and a learner's paste -- or a hostile file in a server --
    can be a megabyte long or hold newlines and NUL bytes.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (one_line(args[0]), *args[1:])
        super().__init__(*args)


class NotationError(TavreiError, ValueError):
    """Text that does not follow a notation: a move, a square, movetext."""

    def __init__(self, message: str, text: str = "", where: str = "") -> None:
        self.text = text[:MAX_MESSAGE_CHARS] if isinstance(text, str) else text
        self.where = where
        super().__init__(message)


class IllegalMoveError(TavreiError, ValueError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, message: str, move_text: str = "", ply: int | None = None,
                 position: str = "") -> None:
        self.move_text = move_text[:MAX_MESSAGE_CHARS] if isinstance(move_text, str) else move_text
        self.ply = ply
        self.position = position
        super().__init__(message)


class PositionError(TavreiError, ValueError):
    """A position string, or a set-up, that cannot stand."""

    def __init__(self, message: str, text: str = "", where: str = "") -> None:
        self.text = text[:MAX_MESSAGE_CHARS] if isinstance(text, str) else text
        self.where = where
        super().__init__(message)


class RecordError(TavreiError, ValueError):
    """A game record whose tags or structure cannot be read."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(message)


class VariantError(TavreiError, ValueError):
    """A variant file or option that cannot be used; names file, key and expectation."""

    def __init__(self, message: str, file: str = "", key: str = "") -> None:
        self.file = file
        self.key = key
        super().__init__(message)


class LimitError(TavreiError, ValueError):
    """An input past one of the documented resource limits (board size, tower height, ...)."""


class RenderError(TavreiError, ValueError):
    """Drawing options that cannot be drawn (an unknown option, die face, colour
    or a split count the selected tower cannot give); the message names which."""


class ArgumentError(TavreiError, ValueError):
    """An argument a function or command cannot use: a seed that is not a whole number, a
    size that is not a finite positive number, a count past its documented bound."""


class OutputError(TavreiError):
    """A place a command cannot write its output to (``--out`` a file where a folder is
    needed, a folder where a file is, no permission). Said before the games are played
    when it can be; after, the message says where the output went instead, so that a
    run or a typed game is never lost to a path."""


class ChessHabitError(AttributeError):
    """A python-chess name (``push_san``, ``fen``, ``chess.Board``) that this package
    spells otherwise: an ``AttributeError``, as the missing name is, whose message
    gives the Tavreli spelling."""


class ChessHabitWarning(UserWarning):
    """A python-chess habit that runs but means something else here: ``if game.turn:``
    is true for black, as WHITE is 0 (python-chess's WHITE is True)."""
