"""Movetext: the moves of a game as people write them, with numbers and comments.

``1. e2-e4 e7-e5 {a quiet start} 2. g1-f3 ...`` -- move numbers, comments in
braces or after ``;``, a result at the end (``1-0``, ``0-1``, ``1/2-1/2``,
``*``) and, in die games, a roll token ``@X`` before each move (``@-`` style
skip faces are just faces: the variant says which faces skip).
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field

from tavrei_lab.errors import NotationError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import (
    CASTLE_RE,
    MAX_MOVE_CHARS,
    MOVE_RE,
    MOVE_SUFFIX,
    MoveSpec,
    match_move,
    normalize,
)

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"[0-9]+\s*\.+")
# "½" folds (NFKC) to "1⁄2" (with a fraction slash) before the grammar sees it.
_RESULT = re.compile(r"(1-0|0-1|1/2-1/2|1\u20442-1\u20442|½-½|\*)(?=\s|$)")
_ROLL = re.compile(r"@(\S+)")


@dataclass(frozen=True)
class Token:
    """One thing the movetext says: a move, a roll, a comment or the result.

    ``spec``: what a move token says, read while tokenizing (the same
    ``MoveSpec`` that ``parse_move_spec(text)`` gives), so a replay does not read
    each move twice; None where the move must be read again to raise its error.
    """

    kind: str          # "move" | "roll" | "comment" | "result"
    text: str          # the original text of the token
    offset: int        # character offset in the movetext
    spec: MoveSpec | None = field(default=None, compare=False, repr=False)


def _fold(movetext: str) -> tuple[str, array[int] | None]:
    """The folded text the grammar reads, and where each of its characters came from.

    Folding (NFKC, look-alikes, lower case) can change lengths -- ``ﬁ`` becomes
    two letters, ``İ`` lower-cases to two -- so offsets in the folded text
    would cut the original at the wrong places (a valid move sliced into
    ``"e2-e"``, or every comment lower-cased). Folding character by character
    keeps a map back to the original; ``None`` means the offsets are the same.
    """
    if movetext.isascii():
        return movetext.lower(), None
    folded = {c: _fold_char(c) for c in set(movetext)}
    if all(len(f) == 1 for f in folded.values()):
        return "".join(folded[c] for c in movetext), None
    parts: list[str] = []
    origin = array("I")          # 4 bytes per folded character, not a Python int each
    for i, c in enumerate(movetext):
        f = folded[c]
        parts.append(f)
        origin.extend([i] * len(f))
    origin.append(len(movetext))
    return "".join(parts), origin


#: Longest fold of one character the grammar can use ("½" folds to "1⁄2"). Longer
#: folds (U+FDFA is 18 letters) can be part of no move, number or result, so they fold
#: to one placeholder: a record of them costs memory in proportion to its length.
MAX_FOLD = 3


def _fold_char(c: str) -> str:
    f = normalize(c)
    return f if len(f) <= MAX_FOLD else "\ufffd"


class _Original:
    """Slices of the original movetext addressed by offsets in the folded text."""

    def __init__(self, text: str, origin: array[int] | None) -> None:
        self.text = text
        self.origin = origin

    def __getitem__(self, span: slice) -> str:
        if self.origin is None:
            return self.text[span]
        last = len(self.origin) - 1
        start = self.origin[min(span.start, last)]
        stop = self.origin[min(span.stop, last)]
        return self.text[start:stop]

    def at(self, offset: int) -> int:
        """The original offset of a folded one."""
        if self.origin is None:
            return offset
        return self.origin[min(offset, len(self.origin) - 1)]


#: Most tokens (moves, rolls, comments, the result) kept from one movetext: what
#: ``write_record`` writes for the longest readable game (20,000 moves and rolls, each
#: with a comment) and some to spare. A token costs about 190 bytes: 1 MB of ``{}{}``
#: pairs held 189 MB before; empty comments carry nothing and are not kept at all.
MAX_MOVETEXT_TOKENS = 40_100


class _Tokens(list[Token]):
    def append(self, token: Token) -> None:
        if len(self) >= MAX_MOVETEXT_TOKENS:
            raise NotationError(_("movetext has more than {limit} moves, rolls "
                                  "and comments").format(
                                      limit=MAX_MOVETEXT_TOKENS),
                                      where=f"character {token.offset + 1}")
        super().append(token)


#: The whole grammar as one pattern, for the common movetext (no folding that changes
#: offsets): one match per token instead of a try per kind. Each alternative is the
#: slow loop's rule in the slow loop's order; the move is matched inside a lookahead
#: (atomic: the first match of ``match_move`` at that place, never another split of it)
#: and must end where the slow loop wants a token to end. Anything it does not read --
#: an error, an unclosed comment -- is left to the slow loop, which says what is wrong.
#: (The first character decides which alternative can match, so the move, the most
#: common token, may come first.)
_TOKEN = re.compile(
    r"(?=(?P<move>" + CASTLE_RE.pattern + "|" + MOVE_RE.pattern + r"))(?P=move)"
    r"(?P<suffix>[+#x!?*]*)(?=[\s{;]|\Z)"
    r"|\s+"
    r"|\{(?P<brace>[^}]*)\}"
    r"|;(?P<semi>[^\n]*)"
    r"|(?P<result>" + _RESULT.pattern[1:_RESULT.pattern.index(")(?=")] + r")(?=\s|$)"
    r"|[0-9]+\s*\.+"
    r"|@(?P<roll>\S+)")
_new = object.__new__


def _token(kind: str, text: str, offset: int, spec: MoveSpec | None = None) -> Token:
    """``Token(kind, text, offset, spec)`` made without the frozen dataclass's
    ``__init__`` (its field-by-field ``object.__setattr__`` cost a replay a tenth)."""
    token = _new(Token)
    token.__dict__.update(kind=kind, text=text, offset=offset, spec=spec)
    return token


def _move_spec(text: str, castle: str | None, fr: str, count: str | None, sep: str | None,
               to: str, promo: str | None, suffix: str) -> MoveSpec | None:
    """The ``MoveSpec`` that ``parse_move_spec(text)`` gives for a move the token
    pattern has read (made as ``_token`` is); None where it would raise."""
    if len(text) > MAX_MOVE_CHARS or (count is not None and not int(count)):
        return None
    spec = _new(MoveSpec)
    if castle is not None:
        spec.__dict__.update(text=text, from_square="", to_square="", count=None,
                             promotion="", castle="long" if castle.count("-") == 2
                             else "short", separator="", suffix=suffix)
    else:
        spec.__dict__.update(text=text, from_square=fr, to_square=to,
                             count=int(count) if count else None, promotion=promo or "",
                             castle=None, separator=sep or "", suffix=suffix)
    return spec


_SPEC_GROUPS = ("castle", "from", "count", "sep", "to", "promo", "suffix")


def _fast_tokens(movetext: str, norm: str) -> list[Token] | None:
    """``tokenize`` for movetext whose folded offsets are the original's; None when
    the text needs the slow loop (which then raises, or reads it alike)."""
    out: list[Token] = []
    append = out.append
    pos = 0
    groups = re.Match.group
    for m in _TOKEN.finditer(norm):   # (it skips what it cannot read: a gap falls back)
        if m.start() != pos:
            return None
        end = m.end()
        kind = m.lastgroup
        if kind == "suffix":
            text = movetext[pos:end].strip()
            append(_token("move", text, pos, _move_spec(text, *groups(m, *_SPEC_GROUPS))))
        elif kind == "brace" or kind == "semi":
            text = movetext[pos + 1:end - (kind == "brace")].strip()
            if text:
                append(_token("comment", text, pos))
        elif kind == "result":
            append(_token("result", m.group("result"), pos))
        elif kind == "roll":
            append(_token("roll", movetext[pos + 1:end], pos))
        pos = end
    if pos != len(norm) or len(out) > MAX_MOVETEXT_TOKENS:
        return None
    return out


def tokenize(movetext: str) -> list[Token]:
    """Split movetext into tokens; raises ``NotationError`` at the first unreadable bit."""
    norm, origin = _fold(movetext)
    if movetext.isascii():
        fast = _fast_tokens(movetext, norm)
        if fast is not None:
            return fast
    return _slow_tokens(movetext, norm, origin)


def _slow_tokens(movetext: str, norm: str, origin: array[int] | None) -> list[Token]:
    """``tokenize`` one try per kind of token: any movetext, and every error message."""
    original = _Original(movetext, origin)
    out: list[Token] = _Tokens()
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
                at = original.at(pos) + 1
                raise NotationError(_("comment opened at character {at} is never closed").format(
                    at=at),
                                    original[pos:pos + 20], where=f"character {at}")
            text = original[pos + 1:end].strip()
            if text:
                out.append(Token("comment", text, original.at(pos)))
            pos = end + 1
            continue
        if c == ";":
            end = norm.find("\n", pos)
            end = n if end < 0 else end
            text = original[pos + 1:end].strip()
            if text:
                out.append(Token("comment", text, original.at(pos)))
            pos = end
            continue
        # a result, a move number or a roll starts with no letter: a move's square
        # does (most tokens), and skips the three tries
        letter = "a" <= c <= "z"
        m = None if letter else _RESULT.match(norm, pos)
        if m:
            out.append(Token("result", m.group(1), original.at(pos)))
            pos = m.end()
            continue
        m = None if letter else _NUMBER.match(norm, pos)
        if m:
            pos = m.end()
            continue
        m = None if letter else _ROLL.match(norm, pos)
        if m:
            out.append(Token("roll", original[pos + 1:m.end()], original.at(pos)))
            pos = m.end()
            continue
        m = match_move(norm, pos)
        if m:
            end = m.end()
            sm = MOVE_SUFFIX.match(norm, end)
            if sm:
                end = sm.end()
            # a suffix must end the token: "e2-e4zz" is not a move
            if end < n and not norm[end].isspace() and norm[end] not in "{;":
                bad = norm[pos:].split()[0]
                raise NotationError(
                    _("move {number}: {text} is not a move").format(
                        number=moves_seen + 1, text=repr(original[pos:pos + len(bad)])),
                    original[pos:pos + len(bad)], where=f"move {moves_seen + 1}")
            out.append(Token("move", original[pos:end].strip(), original.at(pos)))
            moves_seen += 1
            pos = end
            continue
        bad = norm[pos:].split()[0]
        raise NotationError(
            _("move {number}: {text} is not a move").format(
                number=moves_seen + 1, text=repr(original[pos:pos + len(bad)][:40])),
            original[pos:pos + len(bad)][:40], where=f"move {moves_seen + 1}")
    return out
