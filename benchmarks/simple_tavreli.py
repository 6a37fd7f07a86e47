"""A deliberately simple Tavreli move generator, written from RULES.md Part A: the yardstick.

Nothing clever: a tavrel is a small tuple, the board a tuple of 64 towers, a
move copies the board, and every move is made and tested for volkhv safety.
It is what a newcomer would write from the rules, and what
``python -m benchmarks movegen`` measures the package's generator against
(perft from the same positions, every leaf played by both). It is checked to
count the same perft numbers before it is timed.
"""

from __future__ import annotations

from typing import NamedTuple

KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, HELGI = 1, 2, 3, 4, 5, 6, 7
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class T(NamedTuple):
    """A tavrel: colour (0 white), kind, destiny, promoted, moved."""

    color: int
    kind: int
    destiny: int
    promoted: bool
    moved: bool

    def acting(self) -> int:
        return self.destiny if self.promoted else self.kind


class State(NamedTuple):
    board: tuple[tuple[T, ...], ...]      # 64 towers, bottom to top
    turn: int
    ep: int | None                        # the square a double step crossed


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def top(state: State, s: int) -> T | None:
    tower = state.board[s]
    return tower[-1] if tower else None


def attacked(state: State, sq: int, by: int) -> bool:
    """A5.1: could a top tavrel of ``by`` move to ``sq`` by its pattern?"""
    f, r = sq % 8, sq // 8
    for df, dr in ORTHOGONAL + DIAGONAL:
        ff, rr = f + df, r + dr
        steps = 1
        while on_board(ff, rr):
            t = top(state, rr * 8 + ff)
            if t is not None:
                if t.color == by:
                    k = t.acting()
                    line = (df, dr) in ORTHOGONAL
                    if line and k in (ROOK, QUEEN, HELGI) or not line and k in (BISHOP, QUEEN,
                                                                                 HELGI):
                        return True
                    if steps == 1 and k == KING:
                        return True
                    if steps == 1 and k == PAWN and not line and dr == (-1 if by == 0 else 1):
                        return True
                break
            ff, rr, steps = ff + df, rr + dr, steps + 1
    for df, dr in KNIGHT_LEAPS:
        if on_board(f + df, r + dr):
            t = top(state, (r + dr) * 8 + f + df)
            if t is not None and t.color == by and t.acting() in (KNIGHT, HELGI):
                return True
    return False


def can_land(state: State, to: int) -> bool:
    """A3.3/A3.5: anything but a volkhv may be landed on."""
    t = top(state, to)
    return t is None or t.kind != KING


def destinations(state: State, s: int) -> list[int]:
    t = top(state, s)
    assert t is not None
    me, k = t.color, t.acting()
    f, r = s % 8, s // 8
    out = []
    if k == PAWN:
        fwd = 1 if me == 0 else -1
        if on_board(f, r + fwd):
            one = (r + fwd) * 8 + f
            o = top(state, one)
            if o is None or (o.color == me and o.kind != KING):
                out.append(one)
            if o is None and not t.moved and on_board(f, r + 2 * fwd):
                two = (r + 2 * fwd) * 8 + f
                w = top(state, two)
                if w is None or (w.color == me and w.kind != KING):
                    out.append(two)
        for df in (-1, 1):
            if on_board(f + df, r + fwd):
                d = (r + fwd) * 8 + f + df
                o = top(state, d)
                enemy = o is not None and o.color != me and o.kind != KING
                if enemy or (o is None and d == state.ep):
                    out.append(d)
        return out
    if k in (KNIGHT, HELGI):
        for df, dr in KNIGHT_LEAPS:
            if on_board(f + df, r + dr) and can_land(state, (r + dr) * 8 + f + df):
                out.append((r + dr) * 8 + f + df)
    if k == KING:
        for df, dr in ORTHOGONAL + DIAGONAL:
            if on_board(f + df, r + dr) and can_land(state, (r + dr) * 8 + f + df):
                out.append((r + dr) * 8 + f + df)
    lines = {QUEEN: ORTHOGONAL + DIAGONAL, HELGI: ORTHOGONAL + DIAGONAL, ROOK: ORTHOGONAL,
             BISHOP: DIAGONAL}.get(k, ())
    for df, dr in lines:
        ff, rr = f + df, r + dr
        while on_board(ff, rr):
            d = rr * 8 + ff
            if can_land(state, d):
                out.append(d)
            if state.board[d]:
                break
            ff, rr = ff + df, rr + dr
    return out


def apply(state: State, move: tuple[int, int, int, bool]) -> State:
    fr, count, to, castling = move
    board = list(state.board)
    me = state.turn
    if castling:
        step = 1 if to > fr else -1
        rook = to + step
        while not board[rook]:
            rook += step
        king, rk = board[fr][-1], board[rook][-1]
        board[fr] = board[rook] = ()
        board[to] = (king._replace(moved=True),)
        board[fr + step] = (rk._replace(moved=True),)
        return State(tuple(board), 1 - me, None)
    tower = board[fr]
    unit = tuple(t._replace(moved=True) for t in tower[len(tower) - count:])
    rest = tower[:len(tower) - count]
    dest = board[to]
    pawn = unit[-1].acting() == PAWN
    if pawn and to == state.ep and not dest and (to - fr) % 8 != 0:
        victim_sq = to - (8 if me == 0 else -8)
        dest = (board[victim_sq][-1],)
        board[victim_sq] = board[victim_sq][:-1]
    elif dest and dest[-1].promoted:                       # A8.3: covered, it reverts
        dest = dest[:-1] + (dest[-1]._replace(promoted=False),)
    if pawn and to // 8 == (7 if me == 0 else 0):          # A8.1: promoted on arrival
        unit = unit[:-1] + (unit[-1]._replace(promoted=True),)
    if rest and rest[-1].acting() == PAWN and fr // 8 == (7 if rest[-1].color == 0 else 0):
        rest = rest[:-1] + (rest[-1]._replace(promoted=True),)   # uncovered on its far rank
    board[to] = dest + unit
    board[fr] = rest
    ep = fr + (8 if me == 0 else -8) if pawn and abs(to - fr) == 16 else None
    return State(tuple(board), 1 - me, ep)


def king_square(state: State, color: int) -> int | None:
    for s, tower in enumerate(state.board):
        if tower and tower[-1].kind == KING and tower[-1].color == color:
            return s
    return None


def legal_moves(state: State) -> list[tuple[int, int, int, bool]]:
    me = state.turn
    pseudo = []
    for s, tower in enumerate(state.board):
        if tower and tower[-1].color == me:
            for to in destinations(state, s):
                for count in range(1, len(tower) + 1):
                    pseudo.append((s, count, to, False))
    ks = king_square(state, me)
    if ks is not None and state.board[ks] == (state.board[ks][-1],) and \
            not state.board[ks][-1].moved and not state.board[ks][-1].promoted:
        for step in (1, -1):                                # A6: castling
            s = ks + step
            while 0 <= s < 64 and s // 8 == ks // 8 and not state.board[s]:
                s += step
            if not (0 <= s < 64 and s // 8 == ks // 8) or abs(s - ks) < 3:
                continue
            rook = state.board[s]
            if len(rook) == 1 and rook[0].color == me and rook[0].kind == ROOK and \
                    not rook[0].moved and not rook[0].promoted and \
                    not any(attacked(state, p, 1 - me) for p in (ks, ks + step, ks + 2 * step)):
                pseudo.append((ks, 1, ks + 2 * step, True))
    legal = []
    for m in pseudo:                                        # A5.2: make and test every move
        after = apply(state, m)
        k = king_square(after, me)
        if k is None or not attacked(after, k, 1 - me):
            legal.append(m)
    return legal


def perft(state: State, depth: int) -> int:
    """Leaves of the move tree, every leaf played (as the package's perft)."""
    moves = legal_moves(state)
    if depth == 1:
        for m in moves:
            apply(state, m)
        return len(moves)
    return sum(perft(apply(state, m), depth - 1) for m in moves)


def from_position(position) -> State:  # type: ignore[no-untyped-def]
    """The package's position in this module's terms (only for the benchmark's set-up)."""
    board = tuple(tuple(T(t & 1, (t >> 1) & 7, (t >> 4) & 7, bool(t & 128), bool(t & 256))
                        for t in tower) for tower in position.board)
    return State(board, position.turn, position.ep_square)
