"""Move generation speed: tavrei_lab against python-chess, and Tavreli against orthodox.

(a) orthodox perft, every leaf played (push and pop / apply), from the initial
    position to depth 4 and Kiwipete to depth 3, tavrei_lab vs python-chess;
(b) Tavreli perft from the initial position to depth 3 and from three
    middlegame positions of the recorded games, nodes per second, beside the
    orthodox figure of (a);
(c) legal move generation per second for those positions.

Goals: (a) at least 3x python-chess (at the least 1.0x); (b) Tavreli nodes/s within 2x of
orthodox. The run says which build it measures
(``tavrei_lab.builds``), and (d) measures the pure Python build too, in a child
process with ``TAVREI_PURE=1``, on the same positions in the same run.
Each figure is the best of three runs in CPU time: the machine is shared and noisy.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import chess

import tavrei_lab
from benchmarks import on_pure_build
from tavrei_lab import Game, builds
from tavrei_lab.core.position import Position
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
    """The value and the best of ``REPEATS`` CPU timings (the machine is shared and noisy)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        value = fn(*args)
        best = min(best, time.process_time() - start)
    return value, best


def copies_of(position: Position, reps: int) -> list[Position]:
    """``reps`` distinct copies of ``position``, made before the timing: a rule module
    remembers the moves of the last position it was asked about (a game asks twice),
    so generating for the same object again would time that memory, not the
    generator. The copies keep the volkhv squares, as positions made by moves do."""
    return [Position(position.rules, position.board, position.turn, position.ep_square,
                     position.halfmove_clock, position.fullmove_number, position.roll,
                     volkhv_squares=position.known_volkhv_squares) for _ in range(reps)]


def generations(rules, copies: list[Position]) -> None:  # type: ignore[no-untyped-def]
    legal_moves = rules.legal_moves
    for copy in copies:
        legal_moves(copy)


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


def perft_cases() -> list[tuple[str, Game, int]]:
    """The perft positions of (a) and (b): orthodox first, then Tavreli."""
    return ([(name, Game("orthodox", fen), depth) for name, fen, depth in ORTHODOX]
            + [("initial", Game(), 3)] + [(n, g, 2) for n, g in middlegames()])


def measure() -> dict[str, list[float]]:
    """``{position: [nodes, CPU seconds]}`` on the build that runs (the pure build's child
    prints this as JSON)."""
    out = {}
    for name, game, depth in perft_cases():
        key = f"{game.variant.id} {name} d{depth}"
        out[key] = list(timed(perft, game.rules, game.position, depth))
    return out


def pure_build() -> dict[str, list[float]] | None:
    """``measure()`` on the pure Python build, in a child process (None if it failed)."""
    result: dict[str, list[float]] | None = on_pure_build("bench_perft.measure")
    return result


def main() -> None:
    print(f"tavrei_lab build: {builds.describe()}")
    ours = measure()
    print("(a) orthodox perft, every leaf played")
    ortho_nodes = ortho_time = 0.0
    chess_nodes = chess_time = 0.0
    for name, fen, depth in ORTHODOX:
        nodes, t_ours = ours[f"orthodox {name} d{depth}"]
        theirs, t_theirs = timed(chess_perft, chess.Board(fen), depth)
        assert nodes == theirs, (name, nodes, theirs)
        ortho_nodes += nodes
        ortho_time += t_ours
        chess_nodes += theirs
        chess_time += t_theirs
        print(f"  {name:10} d{depth} {nodes:>8.0f} nodes  tavrei_lab {t_ours:6.2f}s "
              f"({nodes / t_ours:>8.0f}/s)  python-chess {t_theirs:6.2f}s "
              f"({theirs / t_theirs:>8.0f}/s)  ratio {t_theirs / t_ours:.2f}x")
    ortho_nps = ortho_nodes / ortho_time
    print(f"  orthodox nodes/s: {ortho_nps:.0f}; python-chess {chess_nodes / chess_time:.0f}; "
          f"ratio {ortho_nps / (chess_nodes / chess_time):.2f}x (goal: >= 3x)")

    print("(b) Tavreli perft, nodes/s beside the orthodox figure")
    t_nodes = t_time = 0.0
    for key, (nodes, t) in ours.items():
        if key.startswith("orthodox"):
            continue
        t_nodes += nodes
        t_time += t
        print(f"  {key:24} {nodes:>8.0f} nodes {t:6.2f}s ({nodes / t:>8.0f}/s)")
    tav_nps = t_nodes / t_time
    print(f"  Tavreli nodes/s: {tav_nps:.0f}; orthodox/Tavreli = {ortho_nps / tav_nps:.2f}x "
          "(goal <= 2)")

    print("(d) the same perft on the pure Python build (TAVREI_PURE=1, a child process)")
    if tavrei_lab.compiled:
        pure = pure_build()
        if pure is not None:
            for variant in ("orthodox", "tavreli"):
                keys = [k for k in ours if k.startswith(variant)]
                for key in keys:
                    assert pure[key][0] == ours[key][0], (key, pure[key], ours[key])
                mine = sum(ours[k][0] for k in keys) / sum(ours[k][1] for k in keys)
                plain = sum(pure[k][0] for k in keys) / sum(pure[k][1] for k in keys)
                print(f"  {variant:9} compiled {mine:>8.0f}/s  pure {plain:>8.0f}/s  "
                      f"compiled/pure {mine / plain:.2f}x")
    else:
        print("  this run is the pure build (make compiled, or pip install, compiles)")

    print("(c) legal move generation per second")
    for name, game, _ in perft_cases()[len(ORTHODOX):]:
        rules, pos = game.rules, game.position
        reps = 300
        _, t = timed(generations, rules, copies_of(pos, reps))
        print(f"  {name:12} {len(rules.legal_moves(pos)):>4} moves  {reps / t:>8.0f} "
              "generations/s")
    for name, fen, _ in ORTHODOX:
        game = Game("orthodox", fen)
        board = chess.Board(fen)
        reps = 1000
        _, t_ours = timed(generations, game.rules, copies_of(game.position, reps))
        _, t_theirs = timed(chess_generations, board, reps)
        print(f"  orthodox {name:10} tavrei_lab {reps / t_ours:>8.0f}/s  python-chess "
              f"{reps / t_theirs:>8.0f}/s  ratio {t_theirs / t_ours:.2f}x")


if __name__ == "__main__":
    main()
