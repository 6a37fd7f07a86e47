"""Coverage-guided fuzzing of every reader with atheris (optional, not in ``make test``).

Hypothesis (``tests/test_fuzz_*.py``) tries a fixed set of inputs on each
test run; atheris instead watches which branches of tavrei_lab an input
reaches and mutates towards new ones, which finds the inputs nobody would
write by hand. One harness covers every reader: the first byte of an input
picks the reader, the rest is its text. The rule is the same as in the
tests: a result or a ``TavreiError`` with a message, nothing else.

Run it (a few minutes finds what it can on a laptop)::

    .venv/bin/pip install -e ".[fuzz]"   # atheris: a wheel, no compiler needed
    .venv/bin/python tests/atheris_readers.py -atheris_runs=300000 -max_len=2000

A crash is written to ``crash-<hash>`` in the current folder; rerun the
harness with that file as its argument to see the traceback.
"""

from __future__ import annotations

import os
import sys
import tempfile

import atheris

with atheris.instrument_imports(include=["tavrei_lab"]):
    from tavrei_lab import Game
    from tavrei_lab.errors import TavreiError
    from tavrei_lab.game import read_record
    from tavrei_lab.notation.moves import parse_move_spec
    from tavrei_lab.notation.movetext import tokenize
    from tavrei_lab.notation.position_string import read_position
    from tavrei_lab.notation.record import parse_record
    from tavrei_lab.variant import check_variant_file, load_variant, variants

RULES = [load_variant(v) for v in variants()]
GAMES = []
for _rules in RULES:
    _game = Game(_rules, seed=1)
    for _ in range(6):
        if _game.is_chance_node():
            _game.roll()
        elif _game.legal_moves():
            _game.push(_game.legal_moves()[len(_game.history) % len(_game.legal_moves())])
    GAMES.append(_game)
VARIANT_FILE = os.path.join(tempfile.mkdtemp(prefix="tavrei-atheris-"), "fuzz.toml")


def snapshot(game: Game) -> tuple:
    return ([p.string for p in game.positions], game.history, list(game._redo),
            dict(game.comments))


def one_input(data: bytes) -> None:
    if not data:
        return
    which, raw = data[0], data[1:]
    text = raw.decode("utf-8", "replace") if which & 1 else raw.decode("latin-1")
    game = GAMES[which % len(GAMES)]
    before = snapshot(game)
    try:
        kind = (which >> 1) % 7
        if kind == 0:
            parse_move_spec(text)
        elif kind == 1:
            tokenize(text)
        elif kind == 2:
            read_position(text, RULES[which % len(RULES)])
        elif kind == 3:
            parse_record(text)
            read = read_record(text)
            again = Game.from_record(read.record())      # what it writes reads back the same
            if [p.string for p in again.positions] != [p.string for p in read.positions]:
                raise AssertionError(f"record of {text!r} read back as another game")
        elif kind == 4:
            with open(VARIANT_FILE, "wb") as f:
                f.write(raw)
            check_variant_file(VARIANT_FILE)
        elif kind == 5:
            game.push(text)
            game.pop()
        else:
            played = game.play(text)
            for _ in range(len(game.history) - len(before[1])):
                game.pop()
            del played
            game._redo[:] = before[2]
            game.comments = dict(before[3])
    except TavreiError as exc:
        if not str(exc).strip():
            raise AssertionError(f"{type(exc).__name__} without a message") from exc
        if snapshot(game) != before:
            raise AssertionError(f"refused {text!r} but the game changed") from exc


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
