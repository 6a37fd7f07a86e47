"""What ``Game`` and the record readers are given, checked before anything is played:
a seed, a variant or a position string, a time limit.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from tavrei_lab.errors import ArgumentError, PositionError, quote
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.rules.base import RuleModule, missing_members
from tavrei_lab.variant import load_variant

#: Largest die seed a game accepts (in absolute value): it is written into the record's
#: ``Seed`` tag, which must read back, and 2**64 covers every seed anyone types.
MAX_SEED = 2**64


def check_seed(seed: Any) -> int | None:
    """``seed`` if it can be stored in a record and read back (None or a whole number
    within +-``MAX_SEED``); otherwise an ``ArgumentError`` saying what a seed is."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(_("seed must be a whole number (or None), got {type}").format(
            type=type(seed).__name__))
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise ArgumentError(_("seed is out of range: at most {limit} in absolute value").format(
            limit=MAX_SEED))
    return int(seed)


#: A board field of a position string: ranks of letters, digits and tower brackets, cut by "/".
_BOARD_FIELD = re.compile(r"[A-Za-z0-9()\[\]{}.:+*-]+(/[A-Za-z0-9()\[\]{}.:+*-]+){3,}")


def looks_like_position(text: Any) -> bool:
    """Whether ``Game(text)`` was given a position string, as ``chess.Board(fen)`` is:
    several fields, the first ranks cut by "/" -- no variant name or file reads so."""
    if not isinstance(text, str):
        return False
    fields = text.split()
    return len(fields) >= 2 and _BOARD_FIELD.fullmatch(fields[0]) is not None


def position_variant(text: str) -> str:
    """The variant ``Game(text)`` plays when ``text`` is a position string
    (``chess.Board(fen)``'s habit): Tavreli's if it reads so, else orthodox chess's (a
    python-chess FEN); neither raises the Tavreli reading's error, naming ``position=``."""
    try:
        read_position(text, load_variant("tavreli"))
        return "tavreli"
    except PositionError as tavreli_error:
        try:
            read_position(text, load_variant("orthodox"))
            return "orthodox"
        except PositionError:
            raise PositionError(
                _("{value} -- Game(text) reads a position of Tavreli (or of orthodox chess); "
                  "for another variant write Game(variant, position=text)").format(
                      value=tavreli_error.args[0])) from None


def rules_for(variant: Any, options: dict[str, Any]) -> RuleModule:
    """A variant name or file, loaded with ``options``; or a rule module, used as it is."""
    if isinstance(variant, RuleModule):
        if options:
            raise TypeError(_("options can only be given with a variant name"))
        return variant
    missing = missing_members(variant)
    if "legal_moves" not in missing:  # meant as a rule module: say what it lacks
        raise ArgumentError(_("{type} is not a whole rule module: it lacks {names} "
                              "(docs/rule-modules.md; subclassing RuleModuleBase gives the "
                              "defaults)").format(
                                  type=type(variant).__name__, names=', '.join(missing)))
    return load_variant(variant, **options)


#: Movetext of this many tokens or more replays with a progress bar (shown after a second).
LONG_MOVETEXT = 1000

#: How long ``read_record`` replays by default, in seconds: every legal record of the
#: shipped variants replays in well under a second; a hostile one may not run for hours.
DEFAULT_REPLAY_SECONDS = 60.0


def replay_deadline(time_limit: float | None) -> float | None:
    """The ``time.monotonic()`` past which a replay stops, for ``time_limit`` seconds (a
    finite number 0 or more; None: no limit). ``nan`` compares false with every time, so
    taken as given it would silently mean no limit: it is refused, as is any other
    number that is not a time."""
    if time_limit is None:
        return None
    try:
        seconds = float(time_limit)
    except (TypeError, ValueError, OverflowError):
        seconds = math.nan
    if isinstance(time_limit, (bool, str)) or not 0 <= seconds < math.inf:
        raise ArgumentError(_("time_limit must be a finite number of seconds, 0 or more (None "
                              "for no limit), not {value}").format(value=quote(time_limit)))
    return time.monotonic() + seconds


__all__ = ["DEFAULT_REPLAY_SECONDS", "LONG_MOVETEXT", "MAX_SEED", "check_seed",
           "looks_like_position", "position_variant", "replay_deadline", "rules_for"]
