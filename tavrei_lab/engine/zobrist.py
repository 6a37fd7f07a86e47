"""Zobrist hashing of tower positions: a 64-bit fingerprint updated move by move.

Why a hash at all? A search meets the same position again and again by
different move orders (a transposition); a table keyed by a fingerprint of
the position lets it reuse what it already worked out. Zobrist's idea (1970):
give every *feature* a position can have a fixed random 64-bit number and
XOR together the numbers of the features present. XOR is its own inverse,
so a move only has to XOR out the features it removes and XOR in the ones
it adds -- a handful of operations instead of re-reading the board.

In Tavreli a square holds a whole tower, so a feature is **a tavrel at a
given height on a given square**, the tavrel's packed value included (colour,
kind, destiny, promoted, moved -- so castling rights and double-step rights,
which live in the moved flags, are covered too). The remaining features are:

- the side to move;
- the en passant square, but only while an en passant capture is really
  possible -- the same rule the repetition key uses (docs/rules.md A9.2), so two
  positions have equal hashes exactly when they count as the same position;
- the die face rolled and not yet used (die games).

The clocks are left out on purpose, as in the repetition key.

A move in the tower-chess family changes only a few squares: where the unit
left, where it landed, the en passant victim's square, the castling
ratoborets's squares (``changed_squares``). ``update_hash`` XORs only those
squares, and on each only the heights where the tower changed (a tower keeps
everything below the unit taken from it). ``zobrist_hash`` recomputes from
scratch; the tests (and the soak of the robustness work) check that the two
always agree.

The random numbers come from SplitMix64 over a feature index, so they are
the same in every process and every run (no dependence on Python's string
hashing): a hash written in one worker means the same in another.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the declarations do nothing
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import PAWN, acting_kind

if cython.compiled:
    # Position as the extension type of core/position.pxd: its fields read as struct
    # members in the hash's hot paths
    from cython.cimports.tavrei_lab.core.position import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        Position as _CPosition,
    )
else:
    _CPosition = Position

_MASK = (1 << 64) - 1
#: Packed tavrels fit in 9 bits (see ``core.tavrel``).
_TAVREL_SPACE = 1 << 9
#: Feature indexes above this belong to the non-board features.
_HEIGHT_SPACE = 1 << 12
_C_HEIGHT_SPACE = cython.declare(cython.longlong, _HEIGHT_SPACE)   # a C int compiled


def splitmix64(x: int) -> int:
    """One step of SplitMix64: a well-mixed 64-bit number from any integer.

    >>> splitmix64(0) != splitmix64(1)
    True
    """
    z = (x + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


_board_keys: dict[int, int] = {}


def tavrel_key(square: int, height: int, tavrel: int) -> int:
    """The random number of ``tavrel`` standing at ``height`` (0 = bottom) on ``square``.

    Numbers are made on first use and cached: a board of up to 26x26
    squares with towers of any height would need too many to precompute.
    """
    index = ((square * _HEIGHT_SPACE + height) << 9) | tavrel
    key = _board_keys.get(index)
    if key is None:
        key = _board_keys[index] = splitmix64(index)
    return key


# Non-board features live in a separate index range (negative seeds).
TURN_KEY = splitmix64(-1 & _MASK)


def ep_key(square: int) -> int:
    """The number of an en passant square that can really be used."""
    return splitmix64(((-2 - square) & _MASK) ^ 0x5EED_E9A5)


_roll_keys: dict[str, int] = {}


def roll_key(face: str | None) -> int:
    """The number of a die face rolled and not yet used (0 when none)."""
    if face is None:
        return 0
    key = _roll_keys.get(face)
    if key is None:
        digest = hashlib.blake2b(face.encode("utf-8"), digest_size=8, person=b"tavrei-roll")
        key = _roll_keys[face] = splitmix64(int.from_bytes(digest.digest(), "little"))
    return key


def tower_hash(square: int, tower: tuple[int, ...], start: int = 0) -> int:
    """XOR of the numbers of the tavrels of ``tower`` from height ``start`` up."""
    return _tower_bits(square, tower, start)


@cython.cfunc
@cython.returns(cython.ulonglong)
@cython.locals(h=cython.ulonglong, height=cython.Py_ssize_t, n=cython.Py_ssize_t,
               base=cython.longlong, index=cython.longlong, square=cython.longlong,
               start=cython.Py_ssize_t, t=cython.longlong)
def _tower_bits(square: int, tower: tuple[int, ...], start: int) -> int:
    """``tower_hash``, as the hot paths call it: in the compiled build the XORs are of
    C 64-bit unsigned ints (every number is below 2**64), not of Python ints, each XOR
    of which made a new object -- the same numbers (``tavrel_key``'s index, inline)."""
    h = 0
    keys = _board_keys
    base = square * _C_HEIGHT_SPACE
    n = len(tower)
    for height in range(start, n):
        t = tower[height]
        index = ((base + height) << 9) | t
        key = keys.get(index)
        if key is None:
            key = keys[index] = splitmix64(index)
        h ^= key
    return h


def live_ep_square(position: Position) -> int | None:
    """The en passant square if it matters: the rule module's ``live_ep_square``
    (the one rule the repetition key uses too)."""
    return position.rules.live_ep_square(position)


@cython.cfunc
@cython.returns(cython.ulonglong)
@cython.locals(h=cython.ulonglong, position=_CPosition)
def _state_hash(position: Position) -> int:
    """The features but the board's. The rule module is asked about the en passant
    square only when the position records one (with none recorded, no capture there
    is possible: ``live_ep_square`` is None), and a die face only when one is rolled
    (``roll_key(None)`` is 0): most positions make neither call."""
    h = TURN_KEY if position.turn else 0
    if position.ep_square is not None:
        ep = live_ep_square(position)
        if ep is not None:
            h ^= ep_key(ep)
    roll = position.roll
    if roll is not None:
        h ^= roll_key(roll)
    return h


@cython.locals(h=cython.ulonglong)
def zobrist_hash(position: Position) -> int:
    """The hash of ``position`` computed from scratch (every tavrel of every tower).

    >>> from tavrei_lab import Game
    >>> a, b = Game(), Game()
    >>> _ = a.play("g1-f3 g8-f6 b1-c3"); _ = b.play("b1-c3 g8-f6 g1-f3")
    >>> zobrist_hash(a.position) == zobrist_hash(b.position)
    True
    """
    h = _state_hash(position)
    for square, tower in enumerate(position.board):
        if tower:
            h ^= _tower_bits(square, tower, 0)
    return h


@cython.ccall
@cython.locals(before=_CPosition, fr=cython.Py_ssize_t, to=cython.Py_ssize_t,
               step=cython.Py_ssize_t, rook=cython.Py_ssize_t, w=cython.Py_ssize_t)
def changed_squares(before: Position, move: Move) -> tuple[int, ...]:
    """The squares whose towers ``move`` can change in the tower-chess family.

    The unit's square and its destination; for castling also the
    ratoborets's start and landing squares; for a ratnik stepping
    diagonally onto the empty en passant square, the victim's square.
    """
    fr, to = move.from_square, move.to_square
    board = before.board
    if move.castling:
        step = 1 if to > fr else -1
        rook = to + step
        while 0 <= rook < len(board) and not board[rook]:
            rook += step
        return (fr, to, rook, fr + step)
    if to == before.ep_square and not board[to]:
        tower = board[fr]
        w = before.geometry.width
        if tower and acting_kind(tower[-1]) == PAWN and (to - fr) % w != 0:
            forward = w if before.turn == 0 else -w
            return (fr, to, to - forward)
    return (fr, to)


@cython.locals(h=cython.ulonglong, n=cython.Py_ssize_t, i=cython.Py_ssize_t,
               square=cython.Py_ssize_t, before=_CPosition, after=_CPosition)
def update_hash(h: int, before: Position, action: Move | Roll, after: Position) -> int:
    """The hash of ``after`` from the hash ``h`` of ``before`` and the action between.

    Only the squares the action can change are read, and on each only the
    heights above the part of the tower that stayed put. ``action`` may be a
    ``Move`` or a die ``Roll`` (which changes the roll feature alone).
    """
    h ^= _state_hash(before) ^ _state_hash(after)
    if isinstance(action, Roll):
        return h
    old_board, new_board = before.board, after.board
    for square in changed_squares(before, action):
        old, new = old_board[square], new_board[square]
        if old is new:
            continue
        # Towers only ever change at the top: skip the common bottom part.
        n = min(len(old), len(new))
        i = 0
        while i < n and old[i] == new[i]:
            i += 1
        h ^= _tower_bits(square, old, i) ^ _tower_bits(square, new, i)
    return h


__all__ = ["changed_squares", "live_ep_square", "splitmix64", "tavrel_key",
           "update_hash", "zobrist_hash"]
