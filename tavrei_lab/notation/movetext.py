"""Movetext: the moves of a game as people write them, with numbers and comments.

``1. e2-e4 e7-e5 {a quiet start} 2. g1-f3 ...`` -- move numbers, comments in
braces or after ``;``, a result at the end (``1-0``, ``0-1``, ``1/2-1/2``,
``*``) and, in die games, a roll token ``@X`` before each move (``@-`` style
skip faces are just faces: the variant says which faces skip).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavrei_lab.errors import NotationError
from tavrei_lab.notation.moves import _SUFFIX, match_move, normalize

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"[0-9]+\s*\.+")
_RESULT = re.compile(r"(1-0|0-1|1/2-1/2|½-½|\*)(?=\s|$)")
_ROLL = re.compile(r"@(\S+)")


@dataclass(frozen=True)
class Token:
    """One thing the movetext says: a move, a roll, a comment or the result."""

    kind: str          # "move" | "roll" | "comment" | "result"
    text: str          # the original text of the token
    offset: int        # character offset in the movetext


def tokenize(movetext: str) -> list[Token]:
    """Split movetext into tokens; raises ``NotationError`` at the first unreadable bit."""
    norm = normalize(movetext)
    if len(norm) != len(movetext):  # NFKC changed lengths: report on the folded text
        movetext = norm
    out: list[Token] = []
    pos = 0
    n = len(norm)
    moves_seen = 0
    while pos < n:
        m = _SPACE.match(norm, pos)
        if m:
            pos = m.end()
            continue
        c = norm[pos]
        if c == "{":
            end = norm.find("}", pos)
            if end < 0:
                raise NotationError(f"comment opened at character {pos + 1} is never closed",
                                    movetext[pos:pos + 20], where=f"character {pos + 1}")
            out.append(Token("comment", movetext[pos + 1:end].strip(), pos))
            pos = end + 1
            continue
        if c == ";":
            end = norm.find("\n", pos)
            end = n if end < 0 else end
            out.append(Token("comment", movetext[pos + 1:end].strip(), pos))
            pos = end
            continue
        m = _RESULT.match(norm, pos)
        if m:
            out.append(Token("result", m.group(1), pos))
            pos = m.end()
            continue
        m = _NUMBER.match(norm, pos)
        if m:
            pos = m.end()
            continue
        m = _ROLL.match(norm, pos)
        if m:
            out.append(Token("roll", movetext[pos + 1:m.end()], pos))
            pos = m.end()
            continue
        m = match_move(norm, pos)
        if m:
            end = m.end()
            sm = _SUFFIX.match(norm, end)
            if sm:
                end = sm.end()
            # a suffix must end the token: "e2-e4zz" is not a move
            if end < n and not norm[end].isspace() and norm[end] not in "{;":
                bad = norm[pos:].split()[0]
                raise NotationError(
                    f"move {moves_seen + 1}: {movetext[pos:pos + len(bad)]!r} is not a move",
                    movetext[pos:pos + len(bad)], where=f"move {moves_seen + 1}")
            out.append(Token("move", movetext[pos:end].strip(), pos))
            moves_seen += 1
            pos = end
            continue
        bad = norm[pos:].split()[0]
        raise NotationError(
            f"move {moves_seen + 1}: {movetext[pos:pos + len(bad)][:40]!r} is not a move",
            movetext[pos:pos + len(bad)][:40], where=f"move {moves_seen + 1}")
    return out
