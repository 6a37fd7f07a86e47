"""Replay speed: plies per second for a legal 20,000-ply record, beside a 2,000-ply one.

A record of 20,000 plies (the record limit, ``MAX_RECORD_TOKENS``) is made of
vsadnik moves out and back, so every ply is legal and the game never ends. Replay
must be linear in the record's length (a ``Game.ply`` that recounted the whole
history on every move made 20,000 plies take 12.5-48 s): the per-ply cost of the long
record divided by that of the short one stays near 1.0x (a quadratic replay shows
about 10x). Also timed: writing the record, and the board's End key (stepping from
the start to the last move by redo) on the long game.

Each case runs a few rounds and the best round counts (the figure least disturbed
by the neighbours on a shared machine).
"""

from __future__ import annotations

import time

from tavrei_lab import Game
from tavrei_lab.game import read_record

LONG = 20_000
SHORT = 2_000
ROUNDS = 3


def shuffle_record(plies: int) -> str:
    """A legal record of ``plies`` plies: both sides' vsadniks out and back."""
    game = Game()
    game.play(" ".join(["g1-f3 g8-f6 f3-g1 f6-g8"] * (plies // 4)))
    return game.record()


def best(call, rounds: int = ROUNDS) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    long_text, short_text = shuffle_record(LONG), shuffle_record(SHORT)
    t_long = best(lambda: read_record(long_text))
    t_short = best(lambda: read_record(short_text), rounds=ROUNDS * 3)
    game = read_record(long_text)
    assert game.ply == LONG
    t_write = best(game.record)

    def end_key() -> None:
        while game.action_count:
            game.pop()
        while game.can_redo():
            game.redo()

    t_end = best(end_key)
    per_long, per_short = t_long / LONG, t_short / SHORT
    print(f"replay {LONG:,} plies: {t_long:.2f} s = {LONG / t_long:,.0f} plies/s")
    print(f"replay {SHORT:,} plies: {t_short:.3f} s = {SHORT / t_short:,.0f} plies/s")
    print(f"per-ply cost, {LONG:,} vs {SHORT:,} plies: {per_long / per_short:.2f}x "
          "(linear: about 1.0x)")
    print(f"write the {LONG:,}-ply record: {t_write:.2f} s; "
          f"undo to the start and redo to the end (the board's Home/End): {t_end:.3f} s")
    versus_python_chess()


# -- against python-chess: reading an orthodox record ------------------------------------
PEER_ROUNDS = 5


def orthodox_line(plies: int = 200, seed: int = 27) -> list[str]:
    """A seeded game of random legal moves (UCI), drawn by python-chess until it ends."""
    import random

    import chess

    rng = random.Random(seed)
    board = chess.Board()
    line = []
    while len(line) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        line.append(move.uci())
        board.push(move)
    return line


def versus_python_chess() -> None:
    """Plies/s of ``read_record`` beside python-chess's PGN reading and ``push_uci``.

    Each round times all three on the same game, one after another (interleaved:
    a neighbour's load falls on all three alike); CPU-time medians count.
    """
    import io
    import statistics

    import chess
    import chess.pgn

    line = orthodox_line()
    game = Game("orthodox")
    for uci in line:
        game.push(f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4:].upper()}" if uci[4:] else ""))
    record = game.record()
    board = chess.Board()
    for uci in line:
        board.push_uci(uci)
    pgn = str(chess.pgn.Game.from_board(board))

    def ours() -> None:
        assert read_record(record).ply == len(line)

    def pgn_reading() -> None:
        read = chess.pgn.read_game(io.StringIO(pgn))
        assert read is not None and read.end().ply() == len(line)

    def uci_pushing() -> None:
        b = chess.Board()
        for uci in line:
            b.push_uci(uci)

    cases = {"tavrei_lab read_record": ours, "python-chess PGN reading": pgn_reading,
             "python-chess push_uci": uci_pushing}
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(PEER_ROUNDS):
        for name, call in cases.items():
            start = time.process_time()
            for _ in range(5):
                call()
            times[name].append((time.process_time() - start) / 5)
    rate = {name: len(line) / statistics.median(t) for name, t in times.items()}
    print(f"orthodox record of {len(line)} plies (seeded random game), CPU-time medians "
          f"of {PEER_ROUNDS} interleaved rounds:")
    for name, r in rate.items():
        print(f"  {name}: {r:,.0f} plies/s")
    mine = rate["tavrei_lab read_record"]
    print(f"  ratio vs PGN reading: {mine / rate['python-chess PGN reading']:.2f}x "
          f"(goal >= 1.0x); vs push_uci: {mine / rate['python-chess push_uci']:.2f}x")
