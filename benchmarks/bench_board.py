"""Stepping through a game on the board: a 20,000-ply game beside a 200-ply one.

The board's keys (Home, End, the arrows) and its move list walk the game's line.
Issue: on the 20,000-ply game the End key took ~1.3 s, because every step wrote
the text of every move of the line again (``Board._line``). A step now reuses the
line's texts, so an arrow key should cost about the same in both games (ratio
near 1.0x; the move list finds its entry by bisection, where ipywidgets scanned
every option); Home and End still undo or redo every action between the two ends
(about 1 µs of work each), so they grow with the distance, not with rebuilding.

Each figure is the best of a few rounds in CPU time (least disturbed by the
neighbours on a shared machine); the two games are measured in the same run, side
by side.
"""

from __future__ import annotations

import time

from tavrei_lab import Game
from tavrei_lab.widgets import Board

LONG = 20_000
SHORT = 200
ROUNDS = 5
STEPS = 20


def shuffled(plies: int) -> Game:
    """A legal game of ``plies`` plies: both sides' vsadniks out and back."""
    game = Game()
    game.play(" ".join(["g1-f3 g8-f6 f3-g1 f6-g8"] * (plies // 4)))
    return game


def best(call, rounds: int = ROUNDS) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(rounds):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def measure(board: Board) -> dict[str, float]:
    key = board.view.simulate_key
    out = {}

    def home_end() -> None:
        key("Home")
        key("End")

    out["Home then End"] = best(home_end)

    def arrows() -> None:
        for _ in range(STEPS):
            key("ArrowLeft")
        for _ in range(STEPS):
            key("ArrowRight")

    out["one arrow step"] = best(arrows) / (2 * STEPS)

    def list_click() -> None:          # a click on the move list's middle entry, then back
        board.move_list.value = board.move_list.options[len(board.move_list.options) // 2][1]
        key("End")

    out["move list click and End"] = best(list_click)
    return out


def main() -> None:
    long_board, short_board = Board(shuffled(LONG)), Board(shuffled(SHORT))
    long, short = measure(long_board), measure(short_board)
    for what in long:
        print(f"{what:>24}: {LONG:,} plies {long[what] * 1000:8.2f} ms, "
              f"{SHORT:,} plies {short[what] * 1000:6.2f} ms ({long[what] / short[what]:.1f}x)")
