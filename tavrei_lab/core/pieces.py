"""How a variant names its pieces: letters for notation, display names for people.

The engine thinks in roles (king, queen, ... — see ``tavrel.KINDS``); the
variant decides that the king is called "volkhv" and written ``V`` in Tavreli,
or "king" and ``K`` in orthodox chess. Teaching material shows the Russian
name, its transliteration and the chess analogue side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tavrei_lab.core.tavrel import BISHOP, HELGI, KINDS, KING, KNIGHT, PAWN, QUEEN, ROOK
from tavrei_lab.i18n import gettext as _

#: The orthodox role of each kind, used as the "moves like" column and as the
#: keys of a variant file's ``[pieces]`` table.
ROLE_NAMES = {KING: "king", QUEEN: "queen", ROOK: "rook", BISHOP: "bishop",
              KNIGHT: "knight", PAWN: "pawn", HELGI: "helgi"}
ROLE_BY_NAME = {v: k for k, v in ROLE_NAMES.items()}


@dataclass(frozen=True)
class PieceKind:
    """One kind as a variant presents it."""

    kind: int
    letter: str          # upper case; white writes it upper, black lower
    name: str            # transliterated / English name used in text ("volkhv")
    russian: str         # Russian name ("волхв")
    english: str         # the chess analogue ("king")


class PieceSet:
    """The seven kinds of one variant, indexable by kind or by letter."""

    def __init__(self, kinds: Mapping[int, PieceKind]) -> None:
        self.by_kind: dict[int, PieceKind] = dict(kinds)
        self.by_letter: dict[str, PieceKind] = {p.letter: p for p in kinds.values()}
        if len(self.by_letter) != len(self.by_kind):
            raise ValueError(_("two piece kinds share a letter"))

    def letter(self, kind: int) -> str:
        return self.by_kind[kind].letter

    def kind(self, letter: str) -> int:
        return self.by_letter[letter.upper()].kind

    def __iter__(self):
        return iter(self.by_kind.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PieceSet) and self.by_kind == other.by_kind

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.by_kind.items())))


def _set(rows: list[tuple[int, str, str, str, str]]) -> PieceSet:
    return PieceSet({k: PieceKind(k, letter, name, ru, en) for k, letter, name, ru, en in rows})


TAVRELI_PIECES = _set([
    (KING, "V", "volkhv", "волхв", "king"),
    (QUEEN, "K", "knyaz", "князь", "queen"),
    (ROOK, "R", "ratoborets", "ратоборец", "rook"),
    (BISHOP, "L", "luchnik", "лучник", "bishop"),
    (KNIGHT, "S", "vsadnik", "всадник", "knight"),
    (PAWN, "P", "ratnik", "ратник", "pawn"),
    (HELGI, "H", "helgi", "хелги", "queen + knight"),
])

ORTHODOX_PIECES = _set([
    (KING, "K", "king", "король", "king"),
    (QUEEN, "Q", "queen", "ферзь", "queen"),
    (ROOK, "R", "rook", "ладья", "rook"),
    (BISHOP, "B", "bishop", "слон", "bishop"),
    (KNIGHT, "N", "knight", "конь", "knight"),
    (PAWN, "P", "pawn", "пешка", "pawn"),
    (HELGI, "A", "amazon", "амазонка", "queen + knight"),
])

BUILTIN_PIECE_SETS = {"tavreli": TAVRELI_PIECES, "orthodox": ORTHODOX_PIECES}

assert set(TAVRELI_PIECES.by_kind) == set(KINDS)
