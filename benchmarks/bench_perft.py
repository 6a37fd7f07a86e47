"""Move generation speed: tavrei_lab against python-chess, and Tavreli against orthodox.

(a) orthodox perft, every leaf played (push and pop / apply), from the initial
    position to depth 4 and Kiwipete to depth 3, tavrei_lab vs python-chess;
(b) Tavreli perft from the initial position to depth 3 and from three
    middlegame positions of the recorded games, nodes per second, beside the
    orthodox figure of (a);
(c) legal move generation per second for those positions.

Goals (issue 10): (a) ratio >= 1.0; (b) Tavreli nodes/s within 2x of orthodox.
Each figure is the best of three runs: the machine is shared and noisy.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import chess

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft

ORTHODOX = [
    ("initial", chess.STARTING_FEN, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
]
GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games.json"
MIDDLEGAMES = [(5, 26), (7, 42), (12, 34)]   # (game number, plies played)


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess with every leaf pushed and popped, as we do."""
    if depth == 0:
        return 1
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


REPEATS = 3


def timed(fn, *args):  # type: ignore[no-untyped-def]
    """The value and the best of ``REPEATS`` timings (the machine is shared and noisy)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        value = fn(*args)
        best = min(best, time.perf_counter() - start)
    return value, best


def generations(rules, position, reps: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(reps):
        rules.legal_moves(position)


def chess_generations(board: chess.Board, reps: int) -> None:
    for _ in range(reps):
        list(board.legal_moves)


def middlegames() -> list[tuple[str, Game]]:
    out = []
    if GAMES.exists():
        data = json.loads(GAMES.read_text(encoding="utf-8"))["games"]
    else:  # the package ships the same records
        from importlib import resources
        data = json.loads(resources.files("tavrei_lab.data").joinpath("games.json")
                          .read_text(encoding="utf-8"))["games"]
    for n, plies in MIDDLEGAMES:
        record = next(g for g in data if g["n"] == n)
        game = Game()
        game.play(" ".join(record["moves"]))
        while game.ply > plies:
            game.pop()
        out.append((f"game{n}@{plies}", game))
    return out


def main() -> None:
    print("(a) orthodox perft, every leaf played")
    ortho_nodes = ortho_time = 0.0
    for name, fen, depth in ORTHODOX:
        game = Game("orthodox", fen)
        ours, t_ours = timed(perft, game.rules, game.position, depth)
        theirs, t_theirs = timed(chess_perft, chess.Board(fen), depth)
        assert ours == theirs, (name, ours, theirs)
        ortho_nodes += ours
        ortho_time += t_ours
        print(f"  {name:10} d{depth} {ours:>8} nodes  tavrei_lab {t_ours:6.2f}s "
              f"({ours / t_ours:>8.0f}/s)  python-chess {t_theirs:6.2f}s  "
              f"ratio {t_theirs / t_ours:.2f}x")
    ortho_nps = ortho_nodes / ortho_time
    print(f"  orthodox nodes/s: {ortho_nps:.0f}")

    print("(b) Tavreli perft, nodes/s beside the orthodox figure")
    cases = [("initial", Game(), 3)] + [(n, g, 2) for n, g in middlegames()]
    t_nodes = t_time = 0.0
    for name, game, depth in cases:
        nodes, t = timed(perft, game.rules, game.position, depth)
        t_nodes += nodes
        t_time += t
        print(f"  {name:12} d{depth} {nodes:>8} nodes {t:6.2f}s ({nodes / t:>8.0f}/s)")
    tav_nps = t_nodes / t_time
    print(f"  Tavreli nodes/s: {tav_nps:.0f}; orthodox/Tavreli = {ortho_nps / tav_nps:.2f}x "
          "(goal <= 2)")

    print("(c) legal move generation per second")
    for name, game, _ in cases:
        rules, pos = game.rules, game.position
        reps = 300
        _, t = timed(generations, rules, pos, reps)
        print(f"  {name:12} {len(rules.legal_moves(pos)):>4} moves  {reps / t:>8.0f} "
              "generations/s")
    for name, fen, _ in ORTHODOX:
        game = Game("orthodox", fen)
        board = chess.Board(fen)
        reps = 1000
        _, t_ours = timed(generations, game.rules, game.position, reps)
        _, t_theirs = timed(chess_generations, board, reps)
        print(f"  orthodox {name:10} tavrei_lab {reps / t_ours:>8.0f}/s  python-chess "
              f"{reps / t_theirs:>8.0f}/s  ratio {t_theirs / t_ours:.2f}x")


if __name__ == "__main__":
    main()
