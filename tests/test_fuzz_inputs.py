"""What the fuzz tests feed the readers, and how they judge what comes back.

The other ``test_fuzz_*`` modules import from here. Inputs come in four
families: random bytes, random unicode (Cyrillic look-alikes,
combining marks, right-to-left marks, fancy digits, ligatures), truncations
and mutations of *valid* inputs (real recorded games, shipped variant files,
position strings of positions reached by seeded random play), and huge
inputs (those have their own tests, next to the limits they hit).

The rule every reader must keep: an input gives either a correct result or
the package's own exception (a ``TavreiError``) with a message -- never
another exception, a hang, or unbounded memory.

Runs are deterministic by default (``derandomize=True``, a fixed number of
examples, so the test command always tries the same inputs). The longer,
randomised run is::

    HYPOTHESIS_PROFILE=long .venv/bin/python -m pytest -q tests/test_fuzz_*.py -p no:nbmake

which multiplies every example count by ``LONG_FACTOR`` and draws fresh
random inputs each time (hypothesis prints any failing input).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from tavrei_lab import Game
from tavrei_lab.engine.agents import RandomAgent
from tavrei_lab.errors import TavreiError
from tavrei_lab.variant import VARIANTS_DIR, variants

T = TypeVar("T")

#: How many times more examples ``HYPOTHESIS_PROFILE=long`` tries.
LONG_FACTOR = 50
LONG = os.environ.get("HYPOTHESIS_PROFILE", "") == "long"

GAMES_JSON = Path(__file__).resolve().parents[2] / "shared" / "data" / "games.json"


def fuzz_settings(examples: int) -> settings:
    """Settings of one fuzz test: ``examples`` fixed inputs, or many random ones when long."""
    return settings(
        max_examples=examples * LONG_FACTOR if LONG else examples,
        derandomize=not LONG,
        deadline=None,          # timing is checked where it matters (the huge inputs)
        database=None,          # no example database in the shared tree
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
    )


def clean(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | TavreiError:
    """Run a reader: its result, or the ``TavreiError`` it raised (which must say what).

    Any other exception propagates and fails the test -- that is the bug a
    fuzzer looks for.
    """
    try:
        result = call(*args, **kwargs)
    except TavreiError as exc:
        message = str(exc)
        assert message.strip(), f"{type(exc).__name__} raised without a message"
        assert len(message) < 2_000, f"error message of {len(message)} characters"
        _tally(f"{getattr(call, '__name__', 'call')}: refused ({type(exc).__name__})")
        return exc
    _tally(f"{getattr(call, '__name__', 'call')}: accepted")
    return result


def _tally(label: str) -> None:
    """Count outcomes in hypothesis's statistics (``--hypothesis-show-statistics``)."""
    try:
        event(label)
    except Exception:  # outside a hypothesis test there is nothing to count in
        pass


# -- characters that confuse readers -----------------------------------------------------

#: The characters move text is made of, so random text often parses part way.
MOVE_CHARS = "abcdefghz0123456789-x:()=+#!?* ./@{};\n\tQRNBKHPVSLo"
#: Cyrillic look-alikes and transliterations (the reader folds some of them).
CYRILLIC = "асвдефгнхоАСВДЕФГНХОеёЁрРтТкКмМуУиИ"
#: Combining marks, right-to-left text and marks, zero-width and other oddities.
ODD = ("\u0301\u0308\u0336\u20dd"          # combining acute, diaeresis, overlay, circle
       "\u202e\u202d\u200f\u200e\u061c"     # RTL/LTR overrides and marks
       "\u05d0\u05d1\u0627\u0628"           # Hebrew and Arabic letters
       "\u200b\u200d\ufeff\u00ad"           # zero-width space/joiner, BOM, soft hyphen
       "²٣①ｅ２ﬁİß½\u2044\u2028\u0085\x00\x0b\x1c"   # digits, fullwidth, ligature, ...
       "–—−×")                              # dashes and the times sign
ALPHABET = MOVE_CHARS + CYRILLIC + ODD


def odd_text(max_size: int = 80) -> st.SearchStrategy[str]:
    """Text drawn mostly from move characters, look-alikes and troublemakers."""
    return st.one_of(
        st.text(alphabet=ALPHABET, max_size=max_size),
        st.text(max_size=max_size),                         # any unicode at all
        st.binary(max_size=max_size).map(lambda b: b.decode("latin-1")),
        st.binary(max_size=max_size).map(lambda b: b.decode("utf-8", "replace")),
    )


@st.composite
def mutated(draw: st.DrawFn, corpus: list[str], max_insert: int = 12) -> str:
    """A valid input from ``corpus``, truncated and/or mutated a few times."""
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["truncate", "delete", "insert", "replace", "duplicate",
                                   "swapcase", "lookalike"]))
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 30)))
        if op == "truncate":
            text = text[:i]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(alphabet=ALPHABET, max_size=max_insert)) + text[i:]
        elif op == "replace" and i < n:
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "swapcase":
            text = text[:i] + text[i:j].swapcase() + text[j:]
        elif op == "lookalike":
            table = str.maketrans("aceoxABCEHOX", "асеохАВСЕНОХ")
            text = text[:i] + text[i:j].translate(table) + text[j:]
    return text


# -- valid inputs to start from ----------------------------------------------------------

def play_randomly(variant: str, seed: int, plies: int) -> Game:
    """A game of ``variant`` played by a seeded random agent (rolls too)."""
    game = Game(variant, seed=seed)
    agent = RandomAgent(seed=seed)
    for _ in range(plies):
        if game.is_game_over(claim_draw=True):
            break
        if game.is_chance_node():
            game.roll()
            continue
        game.push(agent.choose(game))
    return game


@cache
def random_games() -> tuple[Game, ...]:
    """A few seeded random games of every shipped variant (the corpus source)."""
    out = []
    for i, vid in enumerate(variants()):
        for seed in range(2):
            out.append(play_randomly(vid, seed=100 * i + seed, plies=60))
    return tuple(out)


@cache
def recorded_games() -> tuple[dict[str, Any], ...]:
    """The twenty tournament games of ../shared/data/games.json (typos and all)."""
    data = json.loads(GAMES_JSON.read_text(encoding="utf-8"))
    games = []
    for g in data["games"]:
        moves = g["moves"]
        if isinstance(moves, str):  # stored as the text of a list in some entries
            import ast
            moves = ast.literal_eval(moves)
        games.append({"title": g["title"], "moves": list(moves)})
    return tuple(games)


@cache
def move_corpus() -> list[str]:
    """Move texts: canonical ones from random play and the real records' own spellings."""
    texts: set[str] = set()
    for game in random_games():
        texts.update(a for a in game.action_texts() if not a.startswith("@"))
    for g in recorded_games():
        texts.update(g["moves"])
    return sorted(texts)


@cache
def position_corpus() -> list[tuple[str, str]]:
    """(variant, position string) of positions reached by random play, FEN included."""
    out = []
    for game in random_games():
        for pos in game.positions[::7]:
            out.append((game.variant.id, pos.string))
    out.append(("orthodox", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"))
    out.append(("tavreli", "rslkvlsr/pppppppp/8/8/8/8/PPPPPPPP/RSLKVLSR w KQkq - 0 1"))
    return out


@cache
def record_corpus() -> list[str]:
    """Records: the twenty real games as records, and records written by ``Game.record``."""
    out = []
    for g in recorded_games():
        out.append(f'[Event "{g["title"]}"]\n[Variant "tavreli"]\n\n' + " ".join(g["moves"]))
    for game in random_games():
        game = game.copy()
        if game.history:
            game.comments[1] = "a comment {nested?"
        out.append(game.record(White="Анна", Black="Bob \"the\" \\ builder"))
    return out


@cache
def variant_corpus() -> list[str]:
    """The text of every shipped variant file."""
    return [(VARIANTS_DIR / f"{vid}.toml").read_text(encoding="utf-8") for vid in variants()]


def corpus_rng(seed: int) -> random.Random:
    return random.Random(seed)


def test_the_corpus_covers_every_variant_and_every_recorded_game() -> None:
    """The fuzzers start from real inputs: every variant plays, all twenty games are there."""
    assert {g.variant.id for g in random_games()} == set(variants())
    assert all(g.ply > 0 for g in random_games())
    assert len(recorded_games()) == 20
    assert len(record_corpus()) == 20 + len(random_games())
    assert len(move_corpus()) > 200
    assert any("(" in m for m in move_corpus())            # splits are in it
    assert {v for v, _ in position_corpus()} == set(variants())
