"""Orthodox chess in chess notation, held against python-chess (a test-only oracle) on
generated games: our SAN and FEN are its SAN and FEN at every ply, its PGN replays here
to the same positions, and ours there, comments, NAGs and variations included."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import chess
import chess.pgn
import pytest

from tavrei_lab import Game, read_games, read_record

#: Start positions that make the rare moves common: castling both ways, promotions and
#: under-promotions, en passant, pieces that must be told apart by file, rank or both.
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    "n3k2n/PP4PP/8/8/8/8/pp4pp/N3K2N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/R6R/8/8/8/R3K3 w Q - 0 1",
    "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1",
    "1k6/8/8/3N1N2/8/3N1N2/8/4K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/6QR w - - 0 1",
    "7k/8/8/1Q1Q4/8/1Q1Q4/8/K7 w - - 0 1",
]
GAMES = 1200
SEED = 49


def _pick(board: chess.Board, rng: random.Random) -> chess.Move | None:
    """A random legal move, leaning to the rare kinds so that thousands of games
    hold them by the hundred."""
    moves = list(board.legal_moves)
    if not moves:
        return None
    for wanted, chance in ((lambda m: m.promotion is not None, 0.7),
                           (board.is_en_passant, 0.8), (board.is_castling, 0.6),
                           (board.gives_check, 0.25),
                           (lambda m: board.piece_type_at(m.from_square) == chess.PAWN, 0.3)):
        if rng.random() < chance:    # (the test is costly: asked only when it may count)
            some = [m for m in moves if wanted(m)]
            if some:
                return rng.choice(some)
    return rng.choice(moves)


def _features(board: chess.Board, move: chess.Move, san: str) -> list[str]:
    seen = []
    if move.promotion:
        seen.append("promotion" if move.promotion == chess.QUEEN else "under-promotion")
    if board.is_en_passant(move):
        seen.append("en passant")
    if san.startswith("O-O-O"):
        seen.append("long castling")
    elif san.startswith("O-O"):
        seen.append("short castling")
    if san.endswith("#"):
        seen.append("mate")
    elif san.endswith("+"):
        seen.append("check")
    m = re.match(r"[NBRQK]([a-h]?[1-8]?)x?[a-h][1-8]", san)
    if m and m.group(1):
        seen.append({1: "by file" if m.group(1)[0].isalpha() else "by rank",
                     2: "by square"}[len(m.group(1))])
    return seen


def _play_both(rng: random.Random, seen: Counter[str]) -> tuple[chess.Board, Game]:
    fen = rng.choice(STARTS)
    board, game = chess.Board(fen), Game.from_fen(fen)
    for _ply in range(rng.randrange(8, 40)):
        move = _pick(board, rng)
        if move is None:
            break
        san = board.san(move)
        ours = game.parse_move(san)                 # their SAN read here
        assert game.san(ours) == san, board.fen()   # and written here alike
        seen.update(_features(board, move, san))
        board.push(move)
        game.push(ours)
        assert game.fen() == board.fen()
    assert game.is_checkmate() == board.is_checkmate()
    return board, game


def test_san_and_fen_agree_with_python_chess_move_by_move_on_thousands_of_games() -> None:
    rng = random.Random(SEED)
    seen: Counter[str] = Counter()
    plies = 0
    for _ in range(GAMES):
        board, game = _play_both(rng, seen)
        plies += len(board.move_stack)
    assert plies > 20 * GAMES
    for feature in ("promotion", "under-promotion", "en passant", "short castling",
                    "long castling", "check", "mate", "by file", "by rank", "by square"):
        assert seen[feature] >= (10 if feature == "by square" else 20), (feature, seen)


def _annotated(board: chess.Board, rng: random.Random) -> chess.pgn.Game:
    """python-chess's PGN of the game, with clock comments, NAGs and variations."""
    start = board.root()
    pgn = chess.pgn.Game.from_board(board) if start.fen() == chess.STARTING_FEN else None
    if pgn is None:
        pgn = chess.pgn.Game()
        pgn.setup(start)
        node: chess.pgn.GameNode = pgn
        for move in board.move_stack:
            node = node.add_variation(move)
    for node in list(pgn.mainline()):
        if rng.random() < 0.2:
            node.comment = f"[%clk 0:0{rng.randrange(10)}:00] [%cal Ge2e4] a note"
        if rng.random() < 0.15:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14, 18]))
        parent = node.parent
        assert parent is not None
        if rng.random() >= 0.15:
            continue
        others = [m for m in parent.board().legal_moves if m != node.move]
        if others:
            alt = parent.add_variation(rng.choice(others))
            alt.comment = "instead"
            replies = list(alt.board().legal_moves)
            if replies:
                alt.add_variation(rng.choice(replies))
    return pgn


def _check_same(ours: Game, pgn: chess.pgn.Game) -> None:
    """The same positions, comments, NAGs and variations."""
    nodes = list(pgn.mainline())
    board = pgn.board()
    fens = [board.fen()]
    for node in nodes:
        board.push(node.move)
        fens.append(board.fen())
    assert [p.fen() for p in ours.positions] == fens
    for i, node in enumerate(nodes, 1):
        assert ours.comments.get(i, "") == node.comment.strip()
        assert sorted(ours.nags.get(i, [])) == sorted(node.nags)
        alternatives = node.parent.variations[1:] if node.parent else []
        lines = ours.variations.get(i, [])
        assert len(lines) == len(alternatives)
        for line, alt in zip(lines, alternatives):
            here = Game(ours.rules, ours.positions[i - 1])
            here.play(line)
            first = Game(ours.rules, ours.positions[i - 1]).parse_move(alt.san())
            assert here.moves[0] == first and len(here.moves) == 1 + len(list(alt.mainline()))


def test_python_chess_pgn_replays_here_and_ours_there_to_the_same_positions() -> None:
    rng = random.Random(SEED + 1)
    for _ in range(300):
        board, game = _play_both(rng, Counter())
        pgn = _annotated(board, rng)
        theirs = str(pgn)
        ours = read_record(theirs, variant="orthodox")
        _check_same(ours, pgn)
        back = chess.pgn.read_game(io.StringIO(ours.pgn()))
        assert back is not None and back.errors == []
        # python-chess writes the movetext we wrote as it wrote its own
        assert str(back).split("\n\n", 1)[1] == theirs.split("\n\n", 1)[1]
        assert read_record(ours.record()).positions == ours.positions


def test_a_standard_pgn_reads_as_orthodox_chess() -> None:
    """Morphy's Opera game: SAN, seven tags, no Variant tag (as every chess site writes)."""
    text = (OPERA_TAGS + "\n" + OPERA_MOVES)
    game = next(read_games(text, variant="orthodox"))
    board = chess.pgn.read_game(io.StringIO(text))
    assert board is not None
    assert game.fen() == board.end().board().fen() and game.is_checkmate()
    assert game.tags["White"] == "Paul Morphy" and game.result() == "1-0"
    for spelling in ("Standard", "chess", "orthodox", "Chess", "From Position", "normal"):
        tagged = OPERA_TAGS + f'[Variant "{spelling}"]\n\n' + OPERA_MOVES
        assert next(read_games(tagged)).fen() == game.fen()


OPERA_TAGS = """[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
"""
OPERA_MOVES = """1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"""


@pytest.mark.parametrize("fen", STARTS)
def test_game_from_fen_writes_the_fen_back_as_python_chess_does(fen: str) -> None:
    assert Game.from_fen(fen).fen() == chess.Board(fen).fen()


CORPUS = (
    "\ufeff" + '[Event "Rated blitz game"]\r\n[Site "https://lichess.org/abc"]\r\n'
    '[White "a"]\r\n[Black "b"]\r\n[Result "1-0"]\r\n[Variant "Standard"]\r\n'
    '[TimeControl "180+0"]\r\n\r\n'
    "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... c5 { [%eval 0.19]\r\n"
    "[%clk 0:03:00] } 2. Nf3 $1 d6?! (2... Nc6 3. d4 (3. Bb5 g6) 3... cxd4) 3. d4 cxd4\r\n"
    "% an escape line the standard leaves out\r\n"
    "4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 9. Qd2 O-O 10. O-O-O Nbd7\r\n"
    "11. g4 b5 12. g5 b4 13. Ne2 Ne8 14. f4 a5 15. f5 a4 16. Nbd4 exd4 17. Nxd4 b3\r\n"
    "18. Kb1 bxc2+ 19. Nxc2 Bb3 20. axb3 axb3 21. Na3 Ne5 22. h4 Ra5 23. Qc3 Qa8\r\n"
    "24. Bg2 Nc4 25. Nxc4 1-0\r\n\r\n"
    '[Event "Study"]\n[SetUp "1"]\n[FEN "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"]\n'
    '[Result "1-0"]\n\n{ White to move wins } 1. Kd6 Kd8 2. e6 Ke8 3. e7 Kf7 4. Kd7 Kf6\n'
    "5. e8=Q Kf5 6. Qe3 Kg4 7. Ke6 1-0\n\n"
    '[Event "Short"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')


def test_a_corpus_file_reads_game_by_game_as_python_chess_reads_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A BOM, CRLF line ends, a lichess header, clock comments wrapped onto a line
    starting with "[", NAGs, nested variations, an escape line, a set-up study."""
    path = tmp_path / "corpus.pgn"
    path.write_bytes(CORPUS.encode("utf-8"))
    ours = list(read_games(path, variant="orthodox"))
    handle = io.StringIO(CORPUS.replace("\r\n", "\n").lstrip("\ufeff"))
    theirs = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert game.errors == []
        theirs.append(game)
    assert [g.tags["Event"] for g in ours] == [g.headers["Event"] for g in theirs]
    for mine, their in zip(ours, theirs):
        _check_same(mine, their)
        back = chess.pgn.read_game(io.StringIO(mine.pgn()))
        assert back is not None and back.errors == [] and back.end().board() == their.end().board()
    assert ours[0].comments[2].split() == ["[%eval", "0.19]", "[%clk", "0:03:00]"]
    assert ours[0].nags == {3: [1], 4: [6]} and len(ours[0].variations[4]) == 1
    assert ours[1].comments[0] == "White to move wins" and ours[2].is_checkmate()
