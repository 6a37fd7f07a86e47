"""One small exception hierarchy, so callers can catch exactly what they mean.

Every error carries the offending text and where it was found, because the
people who meet these errors are learners typing moves in a notebook: the
message must say what to fix, not just that something failed.
"""

from __future__ import annotations


class TavreiError(Exception):
    """Base class of every error raised on purpose by tavrei_lab."""


class NotationError(TavreiError, ValueError):
    """Text that does not follow a notation: a move, a square, movetext."""

    def __init__(self, message: str, text: str = "", where: str = "") -> None:
        self.text = text
        self.where = where
        super().__init__(message)


class IllegalMoveError(TavreiError, ValueError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, message: str, move_text: str = "", ply: int | None = None,
                 position: str = "") -> None:
        self.move_text = move_text
        self.ply = ply
        self.position = position
        super().__init__(message)


class PositionError(TavreiError, ValueError):
    """A position string, or a set-up, that cannot stand."""

    def __init__(self, message: str, text: str = "", where: str = "") -> None:
        self.text = text
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
