"""Replay speed: plies per second for a legal 20,000-ply record, beside a 2,000-ply one.

A record of 20,000 plies (the record limit, ``MAX_RECORD_TOKENS``) is made of
vsadnik moves out and back, so every ply is legal and the game never ends. Replay
must be linear in the record's length (issue 17: ``Game.ply`` recounted the whole
history on every move, so 20,000 plies took 12.5-48 s): the per-ply cost of the long
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
