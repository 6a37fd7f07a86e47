"""Drawing speed: tavrei_lab's ``board_svg`` against python-chess's ``chess.svg.board``.

(a) the orthodox initial position, drawn by both (goal: tavrei_lab at most
    1.0x chess.svg's time); the same with svgwrite's own serializer and with
    the ElementTree backend, to show what the renderer interface buys;
(b) the Tavreli initial position, and Tavreli middlegames with towers of
    height 5-11 reached by replaying recorded games (game 10 to ply 34:
    towers of 9 and 6; game 2 to ply 31: a tower of 11), plain and with the
    overlays a widget click redraws (selection, destinations, split count,
    last move).

Each case runs in short rounds, all cases interleaved, and the best round
counts: on a shared machine the minimum is the figure least disturbed by the
neighbours. python-chess is a test-only dependency (GPL): used here only as
the yardstick.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.svg

from tavrei_lab import Game
from tavrei_lab.render import board_svg
from tavrei_lab.render.backend import SvgwriteRenderer

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games.json"
ROUNDS = 12
CALLS = 25


def replay(n: int, ply: int) -> Game:
    """Recorded game ``n`` replayed to ``ply``."""
    record = next(g for g in json.loads(GAMES.read_text(encoding="utf-8"))["games"]
                  if g["n"] == n)
    game = Game()
    game.play(" ".join(record["moves"][:ply]))
    return game


def best_times(cases: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Seconds per call of each case: the best of ``ROUNDS`` interleaved rounds."""
    best = {name: float("inf") for name in cases}
    for fn in cases.values():
        fn()  # warm caches (glyph definitions, layouts) as a notebook session would
    for _ in range(ROUNDS):
        for name, fn in cases.items():
            start = time.perf_counter()
            for _ in range(CALLS):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / CALLS)
    return best


def widget_overlays(game: Game) -> dict[str, object]:
    """What the board widget asks for after a click on the tallest own tower."""
    pos = game.position
    own = [(len(t), s) for s, t in enumerate(pos.board) if t and t[-1].color == pos.turn]
    _, square = max(own)
    moves = [m for m in game.legal_moves() if m.from_square == square]
    count = max((m.count for m in moves), default=len(pos.board[square]))
    return dict(selected=square, destinations=[m for m in moves if m.count == count],
                split_count=count, lastmove=game.moves[-1] if game.moves else None)


def main() -> None:
    ortho = Game("orthodox").position
    board = chess.Board()
    tavreli = Game().position
    mid10 = replay(10, 34)
    mid2 = replay(2, 31)
    heights10 = sorted((len(t) for t in mid10.position.board if t), reverse=True)[:3]
    heights2 = sorted((len(t) for t in mid2.position.board if t), reverse=True)[:3]
    over10 = widget_overlays(mid10)

    cases: dict[str, Callable[[], object]] = {
        "chess.svg.board, orthodox start": lambda: chess.svg.board(board),
        "board_svg, orthodox start": lambda: board_svg(ortho),
        "board_svg, orthodox start, svgwrite tostring": lambda: board_svg(
            ortho, backend=lambda *a: SvgwriteRenderer(*a, serializer="svgwrite")),
        "board_svg, orthodox start, etree backend": lambda: board_svg(ortho, backend="etree"),
        "board_svg, Tavreli start": lambda: board_svg(tavreli),
        "board_svg, game 10 ply 34": lambda: board_svg(mid10.position),
        "board_svg, game 10 ply 34 + widget overlays": lambda: board_svg(mid10.position,
                                                                         **over10),
        "board_svg, game 2 ply 31": lambda: board_svg(mid2.position),
    }
    times = best_times(cases)
    yardstick = times["chess.svg.board, orthodox start"]
    print(f"best of {ROUNDS} interleaved rounds of {CALLS} calls each")
    print(f"game 10 ply 34: tallest towers {heights10}; game 2 ply 31: {heights2}")
    print(f"{'case':48} {'time':>10} {'x chess.svg':>12}")
    for name, t in times.items():
        print(f"{name:48} {t * 1e6:8.0f} us {t / yardstick:11.2f}x")
    ratio = times["board_svg, orthodox start"] / yardstick
    verdict = "meets" if ratio <= 1.0 else "MISSES"
    print(f"orthodox start: tavrei_lab / chess.svg = {ratio:.2f}x ({verdict} the goal <= 1.0x)")
    sizes = {"tavrei_lab": len(board_svg(ortho)), "chess.svg": len(chess.svg.board(board))}
    print(f"SVG size, orthodox start: tavrei_lab {sizes['tavrei_lab']} bytes, "
          f"chess.svg {sizes['chess.svg']} bytes")


if __name__ == "__main__":
    main()
