"""The opening explorer's index: for every position of the first plies of many games,
the moves played from it, how many games went through it and how they ended.

A position is known by what decides the game from it -- the board, the side to
move, a live en passant square and a pending roll (``Position.key()``, what
repetition compares), together with the identity of the rules it is played by
(``rules_identity``). So two move orders that reach one position share one entry
(transpositions merge), and the same board under other rules (another variant, or
the same variant with an option changed) is another entry: a ``tavreli-no-split``
game never counts in ``tavreli``'s table.

Each game is counted once per position it passes through, whatever it did there
later (a position repeated inside the first plies is still one game). White's score
is ``(wins + draws / 2) / games`` over the games whose result is known, with the
package's Wilson interval (``lab.statistics.wilson_interval``); a recorded game whose
result was never published counts in "games" and in the moves, not in the score.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.reading import read_regular
from tavrei_lab.errors import TavreiError, quote
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.statistics import wilson_interval
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.session.evaluation import evaluate
from tavrei_lab.variant import rules_hash

#: The format name and version an index's JSON carries (``from_json`` checks both).
FORMAT = "tavrei-lab openings"
VERSION = 1
#: Deepest index: 40 plies is well past any opening and keeps an index of thousands of
#: games to a few hundred thousand entries.
MAX_DEPTH = 40
#: Largest index file read: an index of the deepest, widest book is a few tens of MB.
MAX_INDEX_BYTES = 256 << 20
#: The results a game may carry; anything else is unknown ("*").
RESULTS = ("1-0", "1/2-1/2", "0-1")


class OpeningsError(TavreiError):
    """An index, a book or a position asked of them that cannot be used."""


def rules_identity(rules: RuleModule) -> str:
    """The identity of the rules a position is played by: the hash of the rules as
    played (``variant.rules_hash``), so a variant that differs from another only in
    its id or name (``tavreli`` with ``splits = false`` and ``tavreli-no-split``) shares
    its positions, and any rule that differs keeps them apart. The one place that says
    which rules are "the same"."""
    return rules_hash(rules)


@dataclass
class Tally:
    """How the games through a position (or after a move) ended."""

    white: int = 0      # white won
    draws: int = 0
    black: int = 0      # black won
    unknown: int = 0    # no result known (a record cut short, an unpublished result)
    plies: int = 0      # sum of the lengths of the games with a known result

    def add(self, result: str, plies: int) -> None:
        if result == "1-0":
            self.white += 1
        elif result == "0-1":
            self.black += 1
        elif result == "1/2-1/2":
            self.draws += 1
        else:
            self.unknown += 1
            return
        self.plies += plies

    @property
    def games(self) -> int:
        return self.white + self.draws + self.black + self.unknown

    @property
    def scored(self) -> int:
        """Games whose result is known: what the score, draw rate and length are over."""
        return self.white + self.draws + self.black

    @property
    def points(self) -> float:
        """White's points: a win 1, a draw 1/2."""
        return self.white + self.draws / 2

    @property
    def score(self) -> float | None:
        return self.points / self.scored if self.scored else None

    def interval(self) -> tuple[float, float]:
        """White's score's 95 % Wilson interval (0..1 when no result is known)."""
        return wilson_interval(self.points, self.scored)

    @property
    def draw_rate(self) -> float | None:
        return self.draws / self.scored if self.scored else None

    @property
    def mean_length(self) -> float | None:
        """Average length in plies of the games with a known result."""
        return self.plies / self.scored if self.scored else None

    def as_list(self) -> list[int]:
        return [self.white, self.draws, self.black, self.unknown, self.plies]

    @classmethod
    def from_list(cls, values: Any, where: str) -> Tally:
        if (not isinstance(values, list) or len(values) != 5
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                           for v in values)):
            raise OpeningsError(_("{where}: a tally is five whole numbers (white, draws, "
                                  "black, unknown, plies), not {value}").format(
                where=where, value=repr(values)[:60]))
        return cls(*values)

    def row(self) -> dict[str, Any]:
        """The figures a table shows, as plain values."""
        lo, hi = self.interval()
        return {"games": self.games, "white": self.white, "draws": self.draws,
                "black": self.black, "unknown": self.unknown, "score": self.score,
                "score_low": lo, "score_high": hi, "draw_rate": self.draw_rate,
                "mean_length": self.mean_length}


@dataclass
class Entry:
    """One position of the index: the games through it and the moves played from it."""

    rules: str                   # rules_identity of the rules it is played by
    key: str                     # Position.key(): board, side, live en passant, roll
    position: str                # the position string as first met (clocks included)
    ply: int                     # the ply it was first met at
    tally: Tally = field(default_factory=Tally)
    moves: dict[str, Tally] = field(default_factory=dict)
    evaluation: str | None = None   # the engine's figure (``Evaluation.text()``)
    pawns: float | None = None      # its value in pawns, white's side

    def move_rows(self) -> list[dict[str, Any]]:
        """One row per move played here, the most played first (then by its text)."""
        ordered = sorted(self.moves.items(), key=lambda kv: (-kv[1].games, kv[0]))
        return [{"move": text, **tally.row()} for text, tally in ordered]


@dataclass
class IndexedGame:
    """A game as the index reads it: its rules, its positions and moves (as text) up
    to the depth, its result and length, and where it came from."""

    rules: RuleModule
    positions: list[Position]    # one more than the moves: the last is where they lead
    moves: list[str]
    result: str
    plies: int
    source: str = ""


def game_line(game: Game, depth: int, result: str | None = None,
              source: str = "") -> IndexedGame:
    """``game`` as the index reads it, to ``depth`` plies. ``result`` is its result
    when known from elsewhere (a store's row); else the record's Result tag, else
    how the rules end it, else unknown. A die's roll is not a ply: the positions are
    the ones a player moves from."""
    if result is None:
        result = game.tags.get("Result", "*")
        if result not in RESULTS:
            outcome = game.outcome(claim_draw=True)
            result = outcome.result() if outcome is not None else "*"
    every = game.positions
    positions: list[Position] = [every[0]]
    texts: list[str] = []
    for i, action in enumerate(game.history):
        if len(texts) >= depth:
            break
        if isinstance(action, Move):
            positions[-1] = every[i]          # the roll before it is part of the position
            texts.append(game.move_text(action, every[i]))
            positions.append(every[i + 1])
    return IndexedGame(game.rules, positions, texts, result, int(game.ply), source)


class OpeningIndex:
    """Positions to a depth, each with its games and moves (see the module's note).

    >>> from tavrei_lab import Game
    >>> a, b = Game(), Game()
    >>> _ = a.play("e2-e3 e7-e6 d2-d3"), b.play("d2-d3 e7-e6 e2-e3")
    >>> index = OpeningIndex(depth=4)
    >>> index.add_games([a, b])
    2
    >>> index.entry_after("e2-e3 e7-e6 d2-d3").tally.games   # one position, both games
    2
    """

    def __init__(self, depth: int = 12, *, name: str = "") -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise OpeningsError(_("an index's depth is a whole number of plies 1..{most}, not "
                                  "{value}").format(most=MAX_DEPTH, value=repr(depth)[:40]))
        self.depth = depth
        self.name = name
        self.entries: dict[tuple[str, str], Entry] = {}
        self.rules: dict[str, dict[str, Any]] = {}   # identity -> variant id and options
        self.sources: dict[str, int] = {}            # where the games came from -> games
        self._modules: dict[str, RuleModule] = {}

    # -- filling --------------------------------------------------------------------
    def add(self, line: IndexedGame) -> None:
        """Count one game: each position it passes through once, with the move it
        played there."""
        ident = rules_identity(line.rules)
        if ident not in self.rules:
            variant = line.rules.variant
            self.rules[ident] = {"variant": variant.id, "options": dict(variant.options)}
            self._modules[ident] = line.rules
        self.sources[line.source] = self.sources.get(line.source, 0) + 1
        seen: set[str] = set()
        for ply, text in enumerate(line.moves):
            position = line.positions[ply]
            key = position.key()
            entry = self._entry(ident, key, position, ply)
            if key not in seen:      # a position repeated in one game counts it once
                entry.tally.add(line.result, line.plies)
            entry.moves.setdefault(text, Tally()).add(line.result, line.plies)
            seen.add(key)
        last = line.positions[len(line.moves)]
        if last.key() not in seen:   # where the depth (or the game) ends: no move from it
            self._entry(ident, last.key(), last, len(line.moves)).tally.add(line.result,
                                                                             line.plies)

    def _entry(self, ident: str, key: str, position: Position, ply: int) -> Entry:
        entry = self.entries.get((ident, key))
        if entry is None:
            entry = Entry(ident, key, position.string, ply)
            self.entries[(ident, key)] = entry
        return entry

    def add_games(self, games: Iterable[Game], source: str = "records") -> int:
        """Count each game of ``games`` (``Game`` objects: a ``read_games`` file, games
        played in a notebook); returns how many."""
        n = 0
        for game in games:
            self.add(game_line(game, self.depth, source=source))
            n += 1
        return n

    def add_lines(self, lines: Iterable[IndexedGame]) -> int:
        n = 0
        for line in lines:
            self.add(line)
            n += 1
        return n

    # -- asking ---------------------------------------------------------------------
    def entry(self, position: Position) -> Entry | None:
        """The entry of ``position`` (under its own rules), or None if no game of the
        index passed through it."""
        return self.entries.get((rules_identity(position.rules), position.key()))

    def entry_after(self, moves: str | Iterable[str] = "", variant: Any = "tavreli",
                    **options: Any) -> Entry | None:
        """The entry of the position after ``moves`` from ``variant``'s start."""
        game = Game(variant, **options)
        if moves:
            game.play(moves if isinstance(moves, str) else " ".join(moves))
        return self.entry(game.position)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries.values())

    def games(self) -> int:
        return sum(self.sources.values())

    def evaluate(self, nodes: int, *, min_games: int = 1) -> int:
        """Give every entry with at least ``min_games`` games the engine's figure: the
        playing search with ``nodes`` nodes and a fresh table from the position alone
        (``session.evaluation.evaluate``), so the figure does not depend on the order
        or on what was searched before. Returns how many entries were evaluated."""
        done = 0
        for entry in sorted(self.entries.values(), key=lambda e: (e.ply, e.rules, e.key)):
            if entry.tally.games < min_games or entry.evaluation is not None:
                continue
            game = Game(self.rules_module(entry.rules), entry.position)
            figure = evaluate(game, game.position, nodes)
            entry.evaluation, entry.pawns = figure.text(), figure.pawns
            done += 1
        return done

    def rules_module(self, ident: str) -> RuleModule:
        """The rule module of the rules the index knows as ``ident``."""
        if ident in self._modules:
            return self._modules[ident]
        from tavrei_lab.variant import load_variant
        spec = self.rules[ident]
        try:
            rules = load_variant(spec["variant"], **spec["options"])
        except TavreiError as exc:
            raise OpeningsError(_("the index's rules {ident} ({variant}) cannot be loaded "
                                  "here: {why}").format(ident=ident, variant=spec["variant"],
                                                        why=exc)) from None
        self._modules[ident] = rules
        return rules

    # -- saving ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        positions = []
        for entry in sorted(self.entries.values(), key=lambda e: (e.rules, e.ply, e.key)):
            item: dict[str, Any] = {"rules": entry.rules, "key": entry.key,
                                    "position": entry.position, "ply": entry.ply,
                                    "tally": entry.tally.as_list(),
                                    "moves": {t: m.as_list()
                                              for t, m in sorted(entry.moves.items())}}
            if entry.evaluation is not None:
                item["evaluation"], item["pawns"] = entry.evaluation, entry.pawns
            positions.append(item)
        return {"format": FORMAT, "version": VERSION, "name": self.name, "depth": self.depth,
                "sources": dict(sorted(self.sources.items())),
                "rules": dict(sorted(self.rules.items())), "positions": positions}

    @classmethod
    def from_json(cls, doc: Any, where: str = "index") -> OpeningIndex:
        """An index from ``to_json``'s object; what is not one is said in one line."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise OpeningsError(_("{where}: not an openings index (no \"format\": "
                                  "\"{format}\")").format(where=where, format=FORMAT))
        if doc.get("version") != VERSION:
            raise OpeningsError(_("{where}: openings index version {version!r}; this "
                                  "tavrei_lab reads version {ours}").format(
                where=where, version=doc.get("version"), ours=VERSION))
        try:
            index = cls(doc["depth"], name=str(doc.get("name", "")))
            index.sources = {str(k): int(v) for k, v in doc["sources"].items()}
            index.rules = {str(k): {"variant": str(v["variant"]), "options": dict(v["options"])}
                           for k, v in doc["rules"].items()}
            for n, item in enumerate(doc["positions"]):
                at = f"{where}: position {n + 1}"
                entry = Entry(str(item["rules"]), str(item["key"]), str(item["position"]),
                              int(item["ply"]), Tally.from_list(item["tally"], at),
                              {str(t): Tally.from_list(m, at) for t, m in item["moves"].items()})
                if entry.rules not in index.rules:
                    raise OpeningsError(_("{where}: rules {ident} are not listed").format(
                        where=at, ident=entry.rules))
                if "evaluation" in item:
                    entry.evaluation = str(item["evaluation"])
                    entry.pawns = float(item["pawns"])
                index.entries[(entry.rules, entry.key)] = entry
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise OpeningsError(_("{where}: a damaged openings index ({why})").format(
                where=where, why=f"{type(exc).__name__}: {exc}"[:120])) from None
        return index


def read_index(path: str | os.PathLike[str]) -> OpeningIndex:
    """The index saved in the file at ``path`` (``to_json``'s object as JSON)."""
    shown = quote(os.fsdecode(path), 200)

    def refused(why: str) -> OpeningsError:
        return OpeningsError(_("{path}: {why}").format(path=shown, why=why))

    raw = read_regular(path, MAX_INDEX_BYTES, refused)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError as exc:
        raise refused(_("not JSON ({why})").format(why=str(exc)[:80])) from None
    return OpeningIndex.from_json(doc, shown)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def entry_table(entry: Entry) -> str:
    """A position's table as text: a line for the position (games, white's score with
    its interval, draws, average length, the engine's figure), then one a move."""
    row = entry.tally.row()
    head = _("{games} games, white scores {score} [{low}, {high}], draws {draws}, "
             "average {length} plies, engine {figure}").format(
        games=row["games"], score=_percent(row["score"]), low=_percent(row["score_low"]),
        high=_percent(row["score_high"]), draws=_percent(row["draw_rate"]),
        length="-" if row["mean_length"] is None else f"{row['mean_length']:.1f}",
        figure=entry.evaluation or "-")
    lines = [head, f"{_('move'):<12} {_('games'):>6} {_('white'):>6} {_('draws'):>6} "
                   f"{_('black'):>6} {_('score'):>6} {_('95% interval')}"]
    for r in entry.move_rows():
        lines.append(f"{r['move']:<12} {r['games']:>6} {r['white']:>6} {r['draws']:>6} "
                     f"{r['black']:>6} {_percent(r['score']):>6} "
                     f"[{_percent(r['score_low'])}, {_percent(r['score_high'])}]")
    return "\n".join(lines)
