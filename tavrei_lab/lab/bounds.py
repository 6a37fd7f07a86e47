"""Caps as bounds: a ply cap never decides a difference silently.

A game stopped at the ply cap (reason ``max-plies``, ``engine.selfplay``) has no
result by the rules: it is scored a draw, which is the least decisive guess. If one
cell's games are longer or harder to convert, the cap alone makes that cell look less
decisive. Where a result rests on such games, the honest answer is a pair of bounds
(partial identification, after Manski): recompute the measure with every capped game
counted each way, and call a difference *established* only if it holds at both ends.

The two bounds of a cell's result measures (white's score, the decisive and the draw
rate):

- **as draws**: the capped games as the table counts them (``1/2-1/2``);
- **for the side ahead**: each capped game counted as a win for the side a deeper
  search of its final position says is ahead (``final_lead``: the playing search at
  ``JUDGE_NODES`` nodes with the default weights, the same yardstick for every cell,
  whatever the players were). A capped game that search sees level (within
  ``LEVEL_MARGIN`` ratniks) stays a draw at both ends.

Why a node-limited search of the stored final position, and not the evaluation the
game stored: the record is in the store, so the final position is, and a search limited
by nodes gives the same value on any machine under any load (a clock would not); the
last static evaluation misses what hangs (a piece en prise), which a search sees. The
stored last evaluation is used where only a yardstick of "far ahead" is wanted: the
``draws_ahead`` column counts the drawn games (any ending) whose last evaluation had
one side ``AHEAD_RATNIKS`` or more ahead, read from the store without searching.

A difference that holds at one end and not at the other is *undecided*: it depends on
the capped games, and ``replay_command`` gives the command that plays them on from
where they stopped (``lab.continuation``) to a larger cap; the replayed games take
their place in every table and the verdict is made again by the same rule. Holm's
correction runs over the worse (the larger) of the two bounds' p-values.

The length is not bounded here: a capped game's length is a lower bound of what it
would have been, and the differences table says so by its ``capped`` count.
"""

from __future__ import annotations

import functools
import json
import math
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from tavrei_lab.engine.evaluate import evaluate
from tavrei_lab.engine.selfplay import MAX_PLIES
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.differences import Difference, difference_of
from tavrei_lab.lab.measures import EVAL_CLIP, LEAD_MARGIN
from tavrei_lab.lab.store import StoredGame
from tavrei_lab.notation.record import MAX_GAME_PLIES

#: Ratniks one side must be ahead by, at a drawn game's last evaluation, for the draw
#: to count in ``draws_ahead`` (the tune's matches count ``draws_3_ahead`` the same way).
AHEAD_RATNIKS = 3.0
#: Nodes of the deeper search that says which side is ahead in a capped game's final
#: position: more than the lab's players spend a move (150 to 20,000), and bounded, so
#: the judgement is the same everywhere.
JUDGE_NODES = 20_000
#: A capped game the deeper search sees within this many ratniks of level has no side
#: ahead: it stays a draw at both bounds.
LEVEL_MARGIN = LEAD_MARGIN
#: The measures whose value a capped game's result changes (the length does not).
BOUNDED_MEASURES = ("white_score", "decisive", "draw")
#: How much larger a cap the replay command proposes than the one in force.
REPLAY_FACTOR = 2


def replayed(record: str, variant: str, options: Mapping[str, Any]) -> Any:
    """A stored game replayed from its record, as the store reads a row: a shipped
    variant by its id and options, anything else from the record (a stored row is data:
    a variant file's path is never opened)."""
    from tavrei_lab.game import read_record
    from tavrei_lab.variant import load_variant, variants
    if variant in variants():
        return read_record(record, variant=load_variant(variant, **dict(options)),
                           progress=False)
    return read_record(record, progress=False)


@functools.lru_cache(maxsize=4096)
def _lead_of(record: str, variant: str, options: str, nodes: int) -> float:
    from tavrei_lab.engine.agents import make_agent
    from tavrei_lab.engine.search import Limits, game_history

    played = replayed(record, variant, json.loads(options))
    rules, position = played.rules, played.position
    agent = make_agent(f"play:nodes={nodes}", seed=0)
    searcher = agent.searcher(rules)      # type: ignore[attr-defined]
    history = game_history(played)

    def white_value(pos: Any) -> float:
        if rules.is_chance_node(pos) or rules.outcome(pos) is not None:
            value = evaluate(pos, rules)
        else:
            value = searcher.search(pos, Limits(nodes=nodes), history).value
        value = max(-EVAL_CLIP, min(EVAL_CLIP, value))
        return value if pos.turn == 0 else -value
    if rules.is_chance_node(position):      # the die's expectation over its faces
        return sum(p * white_value(rules.apply_roll(position, face))
                   for face, p in rules.chance_outcomes(position))
    return white_value(position)


def final_lead(game: StoredGame, nodes: int | None = None) -> float:
    """White's lead in ratniks at ``game``'s final position by the deeper search
    (``JUDGE_NODES`` nodes unless given; a mate clipped to ``EVAL_CLIP``), replayed from
    its stored record; the same game always gets the same value (kept per process)."""
    count = JUDGE_NODES if nodes is None else nodes
    return _lead_of(game.record, game.variant, json.dumps(game.options, sort_keys=True),
                    count)


def last_lead(game: StoredGame) -> float:
    """White's lead in ratniks at the game's last stored evaluation (0 with none)."""
    evals = game.measures.get("evals") or [0.0]
    value = evals[-1]
    return float(value) if isinstance(value, (int, float)) else 0.0


def cap_fields(games: Sequence[StoredGame], cap: int, replayed: int = 0
               ) -> list[tuple[str, Any, str]]:
    """A cell's cap columns: its capped games, who the deeper search puts ahead in them,
    its draws with one side far ahead, the cap in force and the games replayed past it."""
    capped = [g for g in games if g.result.termination == MAX_PLIES]
    leads = [final_lead(g) for g in capped]
    draws = [g for g in games if g.result.winner is None]
    far = sum(1 for g in draws if abs(last_lead(g)) >= AHEAD_RATNIKS)
    return [
        ("capped", len(capped), _("games stopped at the ply cap (max-plies), counted as "
                                  "draws")),
        ("capped_white_ahead", sum(1 for v in leads if v >= LEVEL_MARGIN),
         _("of those, games a deeper search ({nodes} nodes) of the final position puts "
           "white ahead in").format(nodes=JUDGE_NODES)),
        ("capped_black_ahead", sum(1 for v in leads if v <= -LEVEL_MARGIN),
         _("of those, games it puts black ahead in")),
        ("draws_ahead", far, _("drawn games (any ending) with one side {ratniks:g} ratniks or "
                               "more ahead at the last evaluation").format(
                                   ratniks=AHEAD_RATNIKS)),
        ("max_plies", cap, _("the ply cap the games were played to")),
        ("replayed", replayed, _("capped games played on from where they stopped to that "
                                 "cap (tavrei-lab sweep --replay-capped)")),
    ]


def ahead_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's row with its capped games counted as wins for the side ahead."""
    white, black = (int(row.get(k) or 0) for k in ("capped_white_ahead", "capped_black_ahead"))
    out = dict(row)
    out["white_wins"] = int(row["white_wins"]) + white
    out["black_wins"] = int(row["black_wins"]) + black
    out["draws"] = int(row["draws"]) - white - black
    if out["draws"] < 0:
        raise TavreiError(_("cell {cell}: more capped games ahead ({count}) than draws")
                          .format(cell=row.get("cell"), count=white + black))
    return out


def judged(row: Mapping[str, Any]) -> int:
    """The capped games of a row the bound for the side ahead counts as won."""
    return int(row.get("capped_white_ahead") or 0) + int(row.get("capped_black_ahead") or 0)


def bounded_difference(row_a: Mapping[str, Any], row_b: Mapping[str, Any], measure: str,
                       a: str, b: str) -> tuple[Difference, Difference | None]:
    """The difference as the table counts it (capped games as draws) and, where the
    capped games could change it, the difference with them counted for the side ahead
    (None when no capped game of either cell has a side ahead, or for the length)."""
    as_draws = difference_of(dict(row_a), dict(row_b), measure, a, b)
    if as_draws.measure not in BOUNDED_MEASURES or not (judged(row_a) or judged(row_b)):
        return as_draws, None
    return as_draws, difference_of(ahead_row(row_a), ahead_row(row_b), measure, a, b)


def worse_p(as_draws: Difference, ahead: Difference | None) -> float:
    """The bound-aware p-value: the larger of the two bounds' (nan if either has none)."""
    if ahead is None:
        return as_draws.p_value
    if math.isnan(as_draws.p_value) or math.isnan(ahead.p_value):
        return math.nan
    return max(as_draws.p_value, ahead.p_value)


def same_side(as_draws: Difference, ahead: Difference | None) -> bool:
    """Do both bounds put the difference on the same side of 0?"""
    return ahead is None or (as_draws.difference > 0) == (ahead.difference > 0)


def replay_command(store: str | None, cap: int) -> str:
    """The command that plays a store's capped games on to ``REPLAY_FACTOR`` times
    ``cap`` plies, from where they stopped."""
    larger = min(MAX_GAME_PLIES, REPLAY_FACTOR * cap)
    return "tavrei-lab " + shlex.join(["sweep", "--store", store or "FILE", "--replay-capped",
                                       "--max-plies", str(larger)])


__all__ = ["AHEAD_RATNIKS", "BOUNDED_MEASURES", "JUDGE_NODES", "LEVEL_MARGIN", "REPLAY_FACTOR",
           "ahead_row", "bounded_difference", "cap_fields", "final_lead", "judged",
           "last_lead", "replay_command", "replayed", "same_side", "worse_p"]
