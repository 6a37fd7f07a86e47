"""Perft of the chess-die game: the table in perft/gavrilov-die.perft, checked two ways.

1. ``engine.perft`` (which hands die games to ``DieRules.perft``) must give the
   table's figures.
2. Every figure is recomputed by ``naive_perft`` below: a deliberately plain
   generator written here from RULES.md Part B (towers as lists of small
   tuples, squares as (file, rank) pairs, no tables, no caches shared with
   the package). Only the start position is read through the package; moves,
   attacks, promotion and the die are all redone here. So a table figure
   that the engine reproduces but this generator does not fails the test --
   the table is never just the engine's own output copied back.

Perft definition (see ``tavrei_lab.rules.die``): depth counts turns; a turn is
a roll followed by a move, or a roll that passes; each die face is expanded
once and its subtrees' counts are added.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tests.perft_tables import read_table

TABLE = Path(__file__).with_name("perft") / "gavrilov-die.perft"

# -- the independent generator --------------------------------------------------------
# A piece is (colour, kind, destiny, promoted, moved); kinds are letters K Q R B N P.
RANKS = {"K": 6, "Q": 5, "R": 4, "B": 3, "N": 2, "P": 1}
LINES = {"R": [(1, 0), (-1, 0), (0, 1), (0, -1)],
         "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
LINES["Q"] = LINES["R"] + LINES["B"]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def acting(p: tuple) -> str:
    """A promoted pawn moves as its destiny."""
    return p[2] if p[3] else p[1]


class Naive:
    """Tower chess with a die on a w x h board, straight from RULES.md (no castling, no ep)."""

    def __init__(self, w: int, h: int, mate: bool, double_step: bool,
                 faces: list[tuple[str, int]]) -> None:
        self.w, self.h, self.mate, self.double_step, self.faces = w, h, mate, double_step, faces

    def on(self, f: int, r: int) -> bool:
        return 0 <= f < self.w and 0 <= r < self.h

    def attacks_from(self, board: dict, sq: tuple) -> list[tuple]:
        """Squares the top of the tower on ``sq`` attacks (pawns: the diagonals only)."""
        top = board[sq][-1]
        kind, (f, r) = acting(top), sq
        out = []
        if kind == "P":
            dr = 1 if top[0] == 0 else -1
            out = [(f + df, r + dr) for df in (-1, 1) if self.on(f + df, r + dr)]
        elif kind == "N":
            out = [(f + a, r + b) for a, b in KNIGHT if self.on(f + a, r + b)]
        elif kind == "K":
            out = [(f + a, r + b) for a, b in KING if self.on(f + a, r + b)]
        else:
            for a, b in LINES[kind]:
                ff, rr = f + a, r + b
                while self.on(ff, rr):
                    out.append((ff, rr))
                    if board.get((ff, rr)):
                        break          # nothing crosses an occupied square (B5.1)
                    ff, rr = ff + a, rr + b
        return out

    def attacked(self, board: dict, target: tuple, by: int) -> bool:
        return any(t and t[-1][0] == by and target in self.attacks_from(board, sq)
                   for sq, t in board.items())

    def may_land(self, board: dict, me: int, kind: str, to: tuple) -> bool:
        t = board.get(to)
        if not t:
            return True
        top = t[-1]
        if top[1] == "K":                 # never onto one's own king (B5.3);
            return top[0] != me and not self.mate   # the enemy king only to take it (B6)
        if top[0] == me and kind == "K":  # the king onto own pieces only if unattacked
            return self.mate or not self.attacked(board, to, 1 - me)
        return True

    def moves(self, board: dict, me: int) -> list[tuple]:
        out = []
        for sq, tower in board.items():
            if not tower or tower[-1][0] != me:
                continue
            top = tower[-1]
            kind, (f, r) = acting(top), sq
            dests = []
            if kind == "P":
                dr = 1 if me == 0 else -1
                one = (f, r + dr)
                if self.on(*one):
                    t1 = board.get(one)
                    if not t1 or (t1[-1][0] == me and t1[-1][1] != "K"):
                        dests.append(one)
                    two = (f, r + 2 * dr)
                    if (self.double_step and not t1 and not top[4] and self.on(*two)):
                        t2 = board.get(two)
                        if not t2 or (t2[-1][0] == me and t2[-1][1] != "K"):
                            dests.append(two)
                for df in (-1, 1):
                    d = (f + df, r + dr)
                    t = board.get(d)
                    if self.on(*d) and t and t[-1][0] != me and self.may_land(board, me, "P", d):
                        dests.append(d)
            else:
                dests = [d for d in self.attacks_from(board, sq)
                         if self.may_land(board, me, kind, d)]
            for d in dests:
                for k in range(1, len(tower) + 1):
                    out.append((sq, k, d))
        if self.mate:
            out = [m for m in out if not self.king_attacked(self.apply(board, me, m), me)]
        return out

    def king_attacked(self, board: dict, me: int) -> bool:
        for sq, t in board.items():
            if t and t[-1][1] == "K" and t[-1][0] == me:
                return self.attacked(board, sq, 1 - me)
        return False

    def far(self, color: int) -> int:
        return self.h - 1 if color == 0 else 0

    def apply(self, board: dict, me: int, move: tuple) -> dict:
        fr, k, to = move
        new = dict(board)
        tower = list(board[fr])
        unit = [(c, kd, de, pr, mv or kd in "KRP") for c, kd, de, pr, mv in tower[-k:]]
        rest = tower[:-k]
        dest = list(board.get(to, []))
        if dest and dest[-1][3]:           # anything placed on a promoted pawn demotes it
            c, kd, de, _, mv = dest[-1]
            dest[-1] = (c, kd, de, False, mv)
        top = unit[-1]
        if acting(top) == "P" and to[1] == self.far(me):
            unit[-1] = top[:3] + (True,) + top[4:]         # promotes to its destiny
        new[to] = tuple(dest + unit)
        if rest:
            rt = rest[-1]
            if acting(rt) == "P" and fr[1] == self.far(rt[0]):
                rest[-1] = rt[:3] + (True,) + rt[4:]       # uncovered on its far rank
        new[fr] = tuple(rest)
        return {s: t for s, t in new.items() if t}

    def over(self, board: dict, me: int) -> bool:
        if self.mate:
            return not self.moves(board, me)
        return any(p[1] == "K" for t in board.values() for p in t[:-1])

    def perft(self, board: dict, me: int, depth: int) -> int:
        return self._count(frozenset(board.items()), me, depth)

    @cache  # noqa: B019 - the few Naive instances live as long as the tests
    def _count(self, frozen: frozenset, me: int, depth: int) -> int:
        board = dict(frozen)
        if depth == 0:
            return 1
        if self.over(board, me):
            return 0
        moves = self.moves(board, me)
        total = 0
        for _face, limit in self.faces:
            allowed = [m for m in moves if RANKS[acting(board[m[0]][-1])] <= limit]
            if not allowed:
                total += self._count(frozen, 1 - me, depth - 1)          # the turn passes
            for m in allowed:
                total += self._count(frozenset(self.apply(board, me, m).items()), 1 - me,
                                     depth - 1)
        return total


def naive_board(game: Game) -> dict:
    """Read the start position into the naive representation (letters, flags)."""
    letter = game.rules.pieces.letter
    board = {}
    w = game.rules.geometry.width
    for s, tower in enumerate(game.position.board):
        if tower:
            board[(s % w, s // w)] = tuple(
                (t.color, letter(t.kind), letter(t.destiny) if t.destiny else "",
                 t.promoted, t.moved) for t in tower)
    return board


# Hand-made dice for the naive generator: face -> rank, 0 for a skip.
SIX_BY_SIX_DIE = [("K", 6), ("Q", 5), ("R", 4), ("B", 0), ("N", 2), ("P", 1)]
FULL_DIE = [("K", 6), ("Q", 5), ("R", 4), ("B", 3), ("N", 2), ("P", 1)]
_KING_CAPTURE_6X6 = Naive(6, 6, mate=False, double_step=False, faces=SIX_BY_SIX_DIE)
NAIVE = {
    "gavrilov-die": _KING_CAPTURE_6X6,
    # the blank face skips just as the absent bishop does: the same game in law
    "gavrilov-die-skip-face": _KING_CAPTURE_6X6,
    "gavrilov-die-mate": Naive(6, 6, mate=True, double_step=False, faces=SIX_BY_SIX_DIE),
    "gavrilov-die-8x8": Naive(8, 8, mate=False, double_step=True, faces=FULL_DIE),
}


CASES = [pytest.param(e.variant, e.position, depth, count, id=f"{e.ident}-d{depth}")
         for e in read_table(TABLE, "gavrilov-die")
         for depth, count in e.figures]


@pytest.mark.parametrize(("variant", "position", "depth", "count"), CASES)
def test_engine_matches_the_table(variant: str, position: str | None, depth: int,
                                  count: int) -> None:
    game = Game(variant, position)
    assert perft(game.rules, game.position, depth) == count


@pytest.mark.parametrize(("variant", "position", "depth", "count"), CASES)
def test_independent_generator_matches_the_table(variant: str, position: str | None,
                                                 depth: int, count: int) -> None:
    game = Game(variant, position)
    naive = NAIVE[variant]
    assert naive.perft(naive_board(game), game.position.turn, depth) == count


def test_the_table_covers_depth_one_to_three_of_the_default_game() -> None:
    depths = {d for e in read_table(TABLE, "gavrilov-die")
              if e.variant == "gavrilov-die" and e.position is None for d, _ in e.figures}
    assert {1, 2, 3} <= depths


def test_depth_one_by_hand() -> None:
    """80 = K 25 + Q 20 + R 16 + B (skip: one pass) 1 + N 12 + P 6 (derivation in the table)."""
    game = Game("gavrilov-die")
    rules = game.rules
    by_face = {f: len(rules.moves_for_face(game.position, f)) for f in rules.faces}
    assert by_face == {"K": 25, "Q": 20, "R": 16, "B": 0, "N": 12, "P": 6}
    assert perft(rules, game.position, 1) == 25 + 20 + 16 + 1 + 12 + 6


def test_perft_from_a_decision_node_counts_only_that_face() -> None:
    game = Game("gavrilov-die")
    game.apply_roll("P")
    assert perft(game.rules, game.position, 1) == 6          # six one-step pawn moves
    assert perft(game.rules, game.position, 0) == 1
