"""A game as a row of the results store: written whole, read back checked.

Each row holds the game's settings hash, cell, seed, agents, result, how it
ended, its measures (JSON) and its full record (``Game.from_record`` replays
it, ``StoredGame.replay`` checks that it replays to the stored result).

**What is read is checked, row by row.** Damage inside a page (a flipped byte
in a record, a result or a measure) passes SQLite's own checks and would be
counted as if it had been played. Replaying every record on every read would
catch the records, but it costs about 25 ms a game (measured: a store of 300
random-agent games, 80,000 plies, replays in 7.5 s where its table is read in
0.16 s), 45 times the read, on every table a notebook shows. So each record is
replayed *once*, before it is written, and ``row_of`` writes a checksum of every
field of the row with it (in the row's ``summary``, so the schema is unchanged).

**Where the replay runs.** Replayed in the store's ``add``, it ran in the one
process that writes the store, after the game, and cost 5.3 % of a greedy game
there (``python -m benchmarks lab``), serialised behind every worker. So the
worker that played the game replays it (``sweep.play_lab_game``, the same
``StoredGame.replay``) and hands back a *verification*: a keyed BLAKE2b digest
(``verification``) of everything the replay checked -- cell, variant, options,
record and every field of the result -- under the store's ``verify_key``, a random
key each store object makes and a sweep sends with its tasks. The store's ``add``
recomputes the digest over what it received, microseconds a row, and replays
only when there is no verification or it does not match (a game changed between
the worker and the store, a key of another store, a game played without a key).
So a game whose record does not lead to its result is still refused, whoever
calls ``add``.

Reading (``checked_row``) recomputes the checksum -- microseconds a row -- and a
row whose fields no longer match it (any field: the record, the result, a
measure, the time) is refused. A row without a checksum (written by another
program, or by a tavrei_lab that wrote none) has its record replayed to its
result when it is first read, once per row content in a process (cached by the
row's checksum in ``REPLAYED``), and is refused if it does not replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game, read_record
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.results import GameResult
from tavrei_lab.lab.store_file import one_line
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import load_variant, variants

#: Bumped when what a game row means changes (new measures, new meaning of a field):
#: it is part of every settings hash, so old rows are then never counted as new ones.
#: Kept apart from the file's layout (``store_file.STORE_VERSION``), so adding a
#: table does not orphan the stored games.
ROWS_VERSION = 1

#: The games table's columns, in order: what ``row_of`` makes and the checksum covers.
COLUMNS = ("settings_hash", "game_index", "cell", "variant", "options", "agent_a",
           "agent_b", "white", "black", "seed", "result", "winner", "termination", "plies",
           "summary", "measures", "record", "seconds")
_SUMMARY = COLUMNS.index("summary")
#: Columns that repeat a field of the summary (for SQL and CSV): they must agree with it.
_REPEATED = ("agent_a", "agent_b", "white", "black", "seed", "result", "winner",
             "termination", "plies", "seconds")
_RESULT_FIELDS = [f.name for f in fields(GameResult)]

#: Checksums of rows without a stored checksum whose records replayed in this process.
REPLAYED: set[str] = set()
_MAX_REPLAYED = 1_000_000      # about 100 MB of checksums; past it the cache starts over


def checksum(row: Sequence[Any]) -> str:
    """The checksum of a row's fields (the summary without its checksum, as sorted JSON).

    Text from a damaged page carries surrogates (``surrogateescape``); ``json.dumps``
    escapes them, so damage changes the checksum instead of failing.
    """
    text = json.dumps(list(row), allow_nan=True)
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def verification(key: bytes, cell: str, variant: str, options: dict[str, Any],
                 result: GameResult) -> str:
    """The digest a worker that replayed a game hands back with it: keyed by ``key``
    (the store's ``verify_key``), over everything ``StoredGame.replay`` checked."""
    text = json.dumps([cell, variant, options, asdict(result)], sort_keys=True,
                      allow_nan=True, default=str)
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), key=key,
                           digest_size=16).hexdigest()


def settings_hash(settings: dict[str, Any]) -> str:
    """The hash a row carries: of the settings as canonical JSON.

    >>> settings_hash({"b": 1, "a": 2}) == settings_hash({"a": 2, "b": 1})
    True
    """
    text = json.dumps({**settings, "store_version": ROWS_VERSION}, sort_keys=True,
                      default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


@dataclass
class StoredGame:
    """One game as the store holds it."""

    settings_hash: str
    cell: str
    variant: str                 # the variant id or file the cell's base names
    options: dict[str, Any]      # the options the cell sets on it
    result: GameResult
    measures: dict[str, Any]

    @property
    def index(self) -> int:
        return self.result.index

    @property
    def record(self) -> str:
        return self.result.record

    def rules(self) -> RuleModule:
        """The rule module the game was played with.

        A stored row is data: a shipped variant's id is loaded by id, anything else
        (a variant file's path) is never opened -- the record carries the cell's whole
        definition, so the rules come from the record, as ``read_record`` builds them.
        """
        if self.variant in variants():
            return load_variant(self.variant, **self.options)
        return Game.from_record(self.record).rules

    def replay(self) -> Any:
        """The game replayed from its record; raises ``TavreiError`` if the record
        does not lead to the stored result (``Game.from_record`` checks each move)."""
        if self.variant in variants():
            game = read_record(self.record, variant=self.rules(), progress=False)
        else:
            game = read_record(self.record, progress=False)    # a store's reads: no bars
        outcome = game.outcome(claim_draw=True)
        r = self.result
        for tag, stored in (("Result", r.result), ("White", r.white), ("Black", r.black),
                            ("Seed", str(r.seed))):
            if tag in game.tags and game.tags[tag] != stored:   # an adjudicated result too
                raise TavreiError(_("{cell} game {index}: the record's {tag} is {value!r}, the "
                                    "store says {value2!r}")
                                      .format(cell=self.cell, index=r.index, tag=tag,
                                              value=game.tags[tag][:40], value2=stored[:40]))
        if game.ply != r.plies:
            raise TavreiError(_("{cell} game {index}: the record has {ply} plies, the store "
                                "says {plies}")
                                  .format(cell=self.cell, index=r.index, ply=game.ply,
                                          plies=r.plies))
        if r.adjudicated:
            ok = outcome is None
        else:
            ok = (outcome is not None and outcome.result() == r.result
                  and outcome.termination == r.termination)
        if not ok:
            raise TavreiError(_("{cell} game {index}: the record ends in {outcome}, the store "
                                "says {result} by {termination}")
                                  .format(cell=self.cell, index=r.index, outcome=outcome,
                                          result=r.result, termination=r.termination))
        return game


def row_of(h: str, cell: str, variant: str, options: dict[str, Any], result: GameResult,
           measures: dict[str, Any]) -> list[Any]:
    """The games-table row of one game, in ``COLUMNS`` order, its checksum in its
    summary."""
    summary = {k: v for k, v in asdict(result).items() if k != "record"}
    summary["seconds"] = float(result.seconds)
    row: list[Any] = [
        h, int(result.index), cell, variant, json.dumps(options, sort_keys=True),
        result.agent_a, result.agent_b, result.white, result.black, int(result.seed),
        result.result, result.winner, result.termination, int(result.plies),
        json.dumps(summary, sort_keys=True), json.dumps(measures), result.record,
        float(result.seconds)]
    row[_SUMMARY] = json.dumps({**summary, "checksum": checksum(row)}, sort_keys=True)
    return row


def checked_row(row: Sequence[Any]) -> StoredGame:
    """One row read back as a ``StoredGame``; ValueError, TypeError or KeyError saying
    why it is refused (it does not decode, its fields do not match their checksum, or,
    without a checksum, its record does not replay to its result)."""
    values = dict(zip(COLUMNS, row))
    summary = json_object(values["summary"])
    written = summary.pop("checksum", None)
    game = _stored_game(values["settings_hash"], values["game_index"], values["cell"],
                        values["variant"], values["options"], summary,
                        values["measures"], values["record"])
    for name in _REPEATED:
        if summary.get(name) != values[name]:
            raise ValueError(_("its {name} column disagrees with its summary (damaged)")
                                 .format(name=name))
    plain = list(row)
    plain[_SUMMARY] = json.dumps(summary, sort_keys=True)
    digest = checksum(plain)
    if written is not None:
        if written != digest:
            raise ValueError(_("its fields do not match the checksum written with them "
                               "(damaged)"))
        return game
    if digest not in REPLAYED:
        try:
            game.replay()
        except TavreiError as exc:
            raise ValueError(_("its record does not replay ({value})")
                                 .format(value=one_line(exc)[:100])) from None
        if len(REPLAYED) >= _MAX_REPLAYED:
            REPLAYED.clear()
        REPLAYED.add(digest)
    return game


def text_field(value: Any) -> str:
    """A stored text field, refused when it is not text or not UTF-8 (damage)."""
    if not isinstance(value, str):
        raise TypeError(_("a text field holds {name}").format(name=type(value).__name__))
    try:
        value.encode("utf-8")         # surrogates from undecodable bytes raise here
    except UnicodeEncodeError:
        raise ValueError(_("a text field is not UTF-8 (damaged)")) from None
    return value


def json_object(value: Any) -> dict[str, Any]:
    """A stored JSON field that must hold an object, refused otherwise (damage)."""
    data = json.loads(text_field(value))
    if not isinstance(data, dict):
        raise ValueError(_("a JSON field is not an object"))
    return data


def _stored_game(sh: Any, index: Any, cell: Any, variant: Any, options: Any,
                 data: dict[str, Any], measures: Any, record: Any) -> StoredGame:
    """One row as a ``StoredGame``; ValueError/TypeError/KeyError when it does not decode."""
    result = GameResult(**{k: data[k] for k in _RESULT_FIELDS if k in data},
                        record=text_field(record))
    if not (isinstance(index, int) and result.index == index):
        raise ValueError(_("the game number {index!r} disagrees with its summary")
                             .format(index=index))
    if not isinstance(result.plies, int) or result.result not in ("1-0", "0-1", "1/2-1/2"):
        raise ValueError(_("the summary's result or plies are not a game's"))
    return StoredGame(text_field(sh), text_field(cell), text_field(variant),
                      json_object(options), result, json_object(measures))


__all__ = ["COLUMNS", "REPLAYED", "ROWS_VERSION", "StoredGame", "checked_row", "checksum",
           "json_object", "row_of", "settings_hash", "text_field", "verification"]
