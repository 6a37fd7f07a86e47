"""Fuzzing the notation readers: move text, movetext and position strings.

Each test throws random, odd-unicode and mutated-valid text at a reader and
checks the contract: a correct result, or a ``TavreiError`` with a message,
and -- when the reader belongs to a ``Game`` -- the game exactly as before.
What "correct" means is checked too: a move that parses is one of the legal
moves, a position that parses round-trips and can be played from.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_inputs import (
    clean,
    fuzz_settings,
    move_corpus,
    mutated,
    odd_text,
    position_corpus,
    random_games,
    record_corpus,
)

from tavrei_lab import Game
from tavrei_lab.errors import TavreiError
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.notation.movetext import tokenize
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.variant import load_variant, variants


def snapshot(game: Game) -> tuple:
    """Everything a refused operation must leave alone."""
    return (game.position.string, [p.string for p in game.positions], game.history,
            game._redo[:], dict(game.comments), dict(game.tags), game.repetitions(),
            game.rng.getstate())


@cache
def sample_games() -> list[Game]:
    """Mid-game positions of every variant, with an undone move waiting on the redo stack."""
    out = []
    for game in random_games():
        g = game.copy()
        if len(g.history) > 2:
            g.pop()
        out.append(g)
    return out


move_texts = st.one_of(odd_text(24), mutated(move_corpus(), max_insert=4),
                       st.sampled_from(move_corpus()))


@fuzz_settings(600)
@given(text=move_texts)
def test_parse_move_spec_reads_or_refuses_clearly(text: str) -> None:
    spec = clean(parse_move_spec, text)
    if isinstance(spec, TavreiError):
        return
    assert spec.castle in ("short", "long") or (spec.from_square and spec.to_square)
    assert spec.count is None or spec.count >= 1


def tolerant_spellings(text: str) -> list[str]:
    """Ways real records write a canonical move (A10): upper case, Cyrillic, no separator."""
    return [text, text.upper(), text.replace("-", " "), text.replace("-", ""),
            text.replace("c", "с").replace("e", "е"), f" {text}+ ", text.replace("x", ":")]


@fuzz_settings(250)
@given(text=st.one_of(move_texts, st.just("")), which=st.integers(0, 10_000),
       pick=st.integers(0, 10_000))
def test_push_text_is_a_legal_move_or_changes_nothing(text: str, which: int, pick: int) -> None:
    game = sample_games()[which % len(sample_games())]
    game = game.copy()
    if text == "" and not game.is_chance_node() and game.legal_moves():
        # often a legal move, spelled as people spell it
        legal = game.legal_moves()
        spellings = tolerant_spellings(game.move_text(legal[pick % len(legal)]))
        text = spellings[pick % len(spellings)]
    before = snapshot(game)
    if game.is_chance_node():
        result = clean(game.push, text)
        assert isinstance(result, TavreiError)   # a move while the die must roll
        assert snapshot(game) == before
        return
    legal = game.legal_moves()
    parsed = clean(game.parse_move, text)
    assert snapshot(game) == before
    result = clean(game.push, text)
    if isinstance(result, TavreiError):
        assert isinstance(parsed, TavreiError)
        assert snapshot(game) == before, f"refused {text!r} but the game changed"
        return
    assert result == parsed and result in legal
    assert game.positions[-2].string == before[0]
    game.pop()
    assert game.position.string == before[0]


movetexts = st.one_of(
    odd_text(200),
    mutated(record_corpus()),
    st.lists(st.sampled_from(move_corpus()), max_size=12).map(" ".join),
)


@fuzz_settings(300)
@given(text=movetexts)
def test_tokenize_reads_or_refuses_clearly(text: str) -> None:
    tokens = clean(tokenize, text)
    if isinstance(tokens, TavreiError):
        return
    for tok in tokens:
        assert tok.kind in ("move", "roll", "comment", "result")
        assert 0 <= tok.offset <= len(text)
        if tok.kind == "move":
            assert tok.text and tok.text in text   # the original spelling, not a folded copy


@fuzz_settings(150)
@given(text=movetexts, which=st.integers(0, 10_000))
def test_play_is_all_or_nothing(text: str, which: int) -> None:
    """``Game.play`` plays every move or none: a refusal restores the exact game."""
    game = sample_games()[which % len(sample_games())].copy()
    before = snapshot(game)
    result = clean(game.play, text)
    if isinstance(result, TavreiError):
        assert snapshot(game) == before, f"play({text!r}) was refused but changed the game"
        return
    assert game.history[:len(before[2])] == before[2]
    again = Game.from_record(game.record())                 # a played game saves and reloads
    assert [p.string for p in again.positions] == [p.string for p in game.positions]


@cache
def rules_by_variant() -> dict[str, object]:
    return {vid: load_variant(vid) for vid in variants()}


position_texts = st.one_of(
    mutated([s for _, s in position_corpus()]),
    odd_text(120),
    st.sampled_from([s for _, s in position_corpus()]),
)


@fuzz_settings(500)
@given(text=position_texts, variant=st.sampled_from(variants()))
def test_read_position_reads_or_refuses_clearly(text: str, variant: str) -> None:
    rules = rules_by_variant()[variant]
    pos = clean(read_position, text, rules)
    if isinstance(pos, TavreiError):
        return
    # Correct means: it round-trips, and a game can be played from it.
    assert read_position(pos.string, rules).string == pos.string
    game = Game(rules, pos.string)
    if game.is_chance_node():
        outcomes = game.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 or not outcomes
        return
    moves = game.legal_moves()
    game.outcome()
    for move in moves[:3]:
        game.push(move)
        game.pop()
        assert game.position.string == pos.string


@fuzz_settings(150)
@given(text=position_texts, variant=st.sampled_from(variants()))
def test_a_bad_position_string_leaves_a_new_game_unmade(text: str, variant: str) -> None:
    """``Game(variant, text)``: a game, or a clear error -- never a half-made game."""
    game = clean(Game, variant, text)
    if not isinstance(game, TavreiError):
        assert game.position.string == read_position(text, game.rules).string
        assert game.history == []
