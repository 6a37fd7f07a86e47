"""Chess movetext (PGN): SAN moves, numbers, comments, NAGs, variations, the result.

::

    1. e4 e5 2. Nf3 $1 {[%clk 0:03:00] the usual} 2... Nc6 (2... d6 3. d4) 3. Bb5!? *

A word is cut at white space or at ``{ } ( ) ; $``, so ``1.e4`` and
``e4{comment}`` read as written. ``{...}`` and ``;...`` (to the end of the line)
are comments; a line starting with ``%`` is left out, as the standard says.
``$n`` is a numeric annotation glyph, and so are ``!``, ``?``, ``!!``, ``??``,
``!?`` and ``?!`` written alone or after a move. ``( ... )`` is a variation: an
alternative to the move before it, kept as one token whose text is the
variation's own movetext (read with this tokenizer again when it is checked).

Moves are read case-sensitively, as SAN must be (``Bc4`` is a bishop, ``bxc4``
a pawn); a word the SAN grammar does not read is left for the move-text reader
of ``notation.moves``, which reads the coordinate forms (``E2-E4``, ``0-0``).
"""

from __future__ import annotations

import re

from tavrei_lab.errors import NotationError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.movetext import MAX_MOVETEXT_TOKENS, Token, tokenize
from tavrei_lab.notation.san import GLYPH_NAGS

_WORD = re.compile(r"[^\s{}();$]+")
_NUMBER = re.compile(r"[0-9]+\.+")
_NAG = re.compile(r"\$([0-9]{1,3})")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*", "½-½")
#: A null move, which python-chess's files may hold: no variant here can pass its move.
_NULL_MOVES = ("--", "Z0", "0000", "@@@@")
_TRAILING_GLYPH = re.compile(r"(?<=[^!?])([!?]{1,2})\Z")
#: Deepest nesting of variations read (each level is checked by replaying it, in turn).
MAX_VARIATION_DEPTH = 64


def _closing(text: str, start: int) -> int:
    """The offset of the ``)`` that closes the variation opened at ``start``; comments
    inside it (``{...}``, ``;...``) may hold parentheses of their own."""
    depth = 0
    pos = start
    n = len(text)
    while pos < n:
        c = text[pos]
        if c == "{":
            end = text.find("}", pos)
            if end < 0:
                break
            pos = end + 1
            continue
        if c == ";":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if c == "(":
            depth += 1
            if depth > MAX_VARIATION_DEPTH:
                raise NotationError(_("variations are nested more than {limit} deep at "
                                      "character {at}").format(limit=MAX_VARIATION_DEPTH,
                                                               at=pos + 1),
                                    text[pos:pos + 20], where=f"character {pos + 1}")
        elif c == ")":
            depth -= 1
            if depth == 0:
                return pos
        pos += 1
    at = start + 1
    raise NotationError(_("variation opened at character {at} is never closed").format(at=at),
                        text[start:start + 20], where=f"character {at}")


def tokenize_pgn(movetext: str) -> list[Token]:
    """Split chess movetext into tokens (kinds ``move``, ``comment``, ``nag``,
    ``variation``, ``result``); raises ``NotationError`` at the first unreadable bit."""
    out: list[Token] = []
    pos = 0
    n = len(movetext)
    moves_seen = 0
    while pos < n:
        if len(out) > MAX_MOVETEXT_TOKENS:
            raise NotationError(_("movetext has more than {limit} moves, "
                                  "comments and annotations").format(
                                      limit=MAX_MOVETEXT_TOKENS),
                                      where=f"character {pos + 1}")
        c = movetext[pos]
        if c.isspace():
            pos += 1
            continue
        if c == "%" and (pos == 0 or movetext[pos - 1] in "\r\n"):
            end = movetext.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if c == "{":
            end = movetext.find("}", pos)
            if end < 0:
                raise NotationError(_("comment opened at character {at} is never closed").format(
                    at=pos + 1), movetext[pos:pos + 20], where=f"character {pos + 1}")
            text = movetext[pos + 1:end].strip()
            if text:
                out.append(Token("comment", text, pos))
            pos = end + 1
            continue
        if c == ";":
            end = movetext.find("\n", pos)
            end = n if end < 0 else end
            text = movetext[pos + 1:end].strip()
            if text:
                out.append(Token("comment", text, pos))
            pos = end
            continue
        if c == "(":
            end = _closing(movetext, pos)
            out.append(Token("variation", movetext[pos + 1:end].strip(), pos))
            pos = end + 1
            continue
        if c in ")}":
            raise NotationError(_("character {at}: {char} closes nothing").format(
                at=pos + 1, char=repr(c)), c, where=f"character {pos + 1}")
        m = _NAG.match(movetext, pos)
        if m:
            out.append(Token("nag", m.group(1), pos))
            pos = m.end()
            continue
        m = _NUMBER.match(movetext, pos)
        if m:
            pos = m.end()
            continue
        m = _WORD.match(movetext, pos)
        if m is None:   # a lone "$": no digits after it
            raise NotationError(_("move {number}: {text} is not a move").format(
                number=moves_seen + 1, text=repr(movetext[pos:pos + 20])),
                movetext[pos:pos + 20], where=f"move {moves_seen + 1}")
        word = m.group()
        if word in _RESULTS:
            out.append(Token("result", word, pos))
        elif word in GLYPH_NAGS:
            out.append(Token("nag", str(GLYPH_NAGS[word]), pos))
        elif word in _NULL_MOVES:
            raise NotationError(_("move {number}: {text} is a null move, which no variant "
                                  "here plays").format(number=moves_seen + 1, text=repr(word)),
                                word, where=f"move {moves_seen + 1}")
        else:
            glyph = _TRAILING_GLYPH.search(word)
            move = word[:glyph.start()] if glyph else word
            out.append(Token("move", move, pos))
            moves_seen += 1
            if glyph and glyph.group() in GLYPH_NAGS:
                out.append(Token("nag", str(GLYPH_NAGS[glyph.group()]), pos + glyph.start()))
            elif glyph:
                out[-1] = Token("move", word, pos)   # "e4!!!": left for the move reader to refuse
        pos = m.end()
    return out


#: Characters after which chess movetext may mean what move text does not: glyphs (kept
#: as NAGs here, dropped there), NAGs, variations, escape lines.
_CHESS_ONLY = frozenset("!?$()%")


def tokenize_chess(movetext: str) -> list[Token]:
    """``tokenize_pgn``, taking the move-text tokenizer's fast road where it reads the
    same: ASCII movetext of moves that name both squares (``e2-e4``, ``g1f3``,
    ``0-0``: what ``Game.record`` writes), which it reads once with their ``spec``;
    anything else -- SAN, glyphs, variations, a move it cut across a space (``e4 e5``
    is one move to it) -- is read by ``tokenize_pgn``."""
    if movetext.isascii() and _CHESS_ONLY.isdisjoint(movetext):
        try:
            tokens = tokenize(movetext)
        except NotationError:
            return tokenize_pgn(movetext)
        if all(t.kind != "move" or (t.spec is not None and t.text[:1] in _PLAIN_START
                                    and not any(c.isspace() for c in t.text))
               for t in tokens):
            return tokens
    return tokenize_pgn(movetext)


#: How a move the fast road may take starts: a lower-case file, or castling.
_PLAIN_START = frozenset("abcdefghijklmnopqrstuvwxyz0O")

__all__ = ["tokenize_chess", "tokenize_pgn"]
