"""The replay's fast paths change no answer (they keep replay near python-chess's PGN speed).

Three shortcuts: the tokenizer reads ASCII movetext with one pattern (``_fast_tokens``)
and falls back to the try-per-kind loop (``_slow_tokens``) for anything else; each move
token carries the ``MoveSpec`` read on the way, so the replay does not parse it again;
and the game counts repetition keys only when ``repetitions`` is asked. Each is held
here against the slow way on the same input.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavrei_lab import Game
from tavrei_lab.errors import NotationError
from tavrei_lab.game import read_record
from tavrei_lab.notation import movetext
from tavrei_lab.notation.moves import parse_move_spec


def slow(text: str) -> list[movetext.Token]:
    norm, origin = movetext._fold(text)
    return movetext._slow_tokens(text, norm, origin)


def same_tokens(text: str) -> None:
    """``tokenize`` gives what the slow loop gives (or the same error), specs included."""
    try:
        expected = slow(text)
    except NotationError as exc:
        with pytest.raises(NotationError) as fast_exc:
            movetext.tokenize(text)
        assert str(fast_exc.value) == str(exc)
        return
    got = movetext.tokenize(text)
    assert [(t.kind, t.text, t.offset) for t in got] == \
        [(t.kind, t.text, t.offset) for t in expected]
    for token in got:
        if token.kind != "move":
            assert token.spec is None
            continue
        try:
            spec = parse_move_spec(token.text)
        except NotationError:
            assert token.spec is None     # read again at push time, which raises
            continue
        assert token.spec is None or token.spec == spec


TEXTS = [
    "1. e2-e4 e7-e5 2. g1-f3 {a quiet start} b8-c6 ; a line comment\n3. f1-c4 1-0",
    "1.e2e4 e7e5 2.G1F3 *", "1. e2 - e4 e7 x e5+ 2. 0-0 o-o-o# 1/2-1/2",
    "1. f3(2)-f6!? a7-a8=q a2xb1=N", "@3 e2-e4 @- e7-e5", "e2-e4zz", "e2-e4{c}e7-e5;x",
    "{never closed", "1. e2-e4 0-1 e7-e5", "e2-e4 0-0-1", "a12b3 a1b23c e2-e45",
    "e2(0)-e4", "e2" + " " * 70 + "-e4", "1... e7-e5", "\t\ne2-e4\r\n", "* *", "",
    "e2-e4$", "e2-e4 \x1c e7-e5", "1.e4", "е2-е4 с7-с5",     # Cyrillic look-alikes
]


@pytest.mark.parametrize("text", TEXTS)
def test_fast_tokens_equal_the_slow_loop(text: str) -> None:
    same_tokens(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    ["e2-e4", "E2E4", "f3(2)-f6", "a7-a8=q", "0-0", "o-o-o", "b2xd4+", "1.", "12...", " ",
     "\n", "{c}", "{}", ";x\n", "@3", "@-", "1-0", "*", "x", "(", "=", "-", "9", "e", "2"]),
    max_size=12))
def test_fast_tokens_equal_the_slow_loop_on_any_mix(parts: list[str]) -> None:
    same_tokens("".join(parts))


def test_recorded_games_tokenize_alike(games_data: dict) -> None:
    for game in games_data["games"]:
        same_tokens(" ".join(game["moves"]) if isinstance(game["moves"], list)
                    else str(game["moves"]))


def test_repetitions_counted_lazily_match_counting_every_ply() -> None:
    """Counting keys only when asked gives the count of each position, after pushes,
    pops, redos, copies and a refused play, at every step."""
    rng = random.Random(27)
    game = Game("orthodox")
    seen: list[str] = [game.position.key()]

    def check() -> None:
        assert game.repetitions() == seen.count(game.position.key())

    for step in range(160):
        if step % 7 == 3:
            check()
        choice = rng.random()
        if choice < 0.25 and game.action_count:
            game.pop()
            seen.pop()
        elif choice < 0.35 and game.can_redo():
            game.redo()
            seen.append(game.position.key())
        else:
            moves = game.legal_moves()
            if not moves:
                break
            # vsadniks out and back make repetitions; otherwise any move
            knight = [m for m in moves if game.position.board[m.from_square][-1].kind == 2]
            game.push(rng.choice(knight or moves))
            seen.append(game.position.key())
        if step % 11 == 5:
            game = game.copy()
    check()
    with pytest.raises(NotationError):
        # refused at its second move: the game is as it was
        game.play(game.move_text(game.legal_moves()[0]) + " e9-e5")
    check()


def test_a_replayed_shuffle_counts_its_repetitions() -> None:
    game = read_record('[Variant "orthodox"]\n\n1. g1-f3 g8-f6 2. f3-g1 f6-g8 '
                       '3. g1-f3 g8-f6 4. f3-g1 f6-g8 *')
    assert game.repetitions() == 3
    assert game.outcome(claim_draw=True) is not None
    game.pop()
    assert game.repetitions() == 2
