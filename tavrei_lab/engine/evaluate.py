"""A documented evaluation for Tavreli-family positions.

Towers change what "material" means: a tavrel buried under an enemy is
out of play but not gone, and may be freed by a split. So material is
counted by **who holds whom**:

- an own tavrel in an own-topped tower (top or below) counts fully
  (``VALUES`` of its acting kind);
- an enemy tavrel held prisoner in an own-topped tower counts ``PRISONER``
  of its value for us (it is out of the enemy's play, and ours to carry);
- an own tavrel held prisoner under an enemy top counts ``HELD`` of its
  value (it may still be freed).

Plus ``MOBILITY`` per move of the side to move minus the same for the other
side (both counted as *pseudo* moves, by the movement rules alone: the
legality test costs six times more and changes the count little), and
``VOLKHV_THREAT`` per enemy attacker of the squares around each volkhv. The
score is in pawn units (centipawns / 100) from the point of view of the side
to move, as negamax search wants it. Terminal positions score ``MATE`` (won),
``-MATE`` (lost) or 0 (drawn); the search subtracts the distance so that
quicker mates score higher.

Speed matters because a search calls this at every leaf: where a rule module
offers the tower kernel (``RuleModule.fast_paths``), the end of the game is
found with an early-exit "is there any legal move?" (usually one trial move)
instead of generating every legal move, and the moves and volkhv attacks are
*counted*, never listed: one pass over each side's units (``TowerKernel.activity``)
adds up the landings of each pattern and marks the attacked squares around the
enemy volkhv. The numbers are exactly those of listing the moves and asking
``is_attacked`` square by square, which is what a module without the kernel
gets (``mobility_counts``, ``volkhv_danger``): one formula, two speeds.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import (
    ACTING,
    BISHOP,
    COLOR_BIT,
    HELGI,
    KIND_OF,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    TAVREL_VALUES,
)
from tavrei_lab.rules.base import Outcome, RuleModule

VALUES = {PAWN: 1.0, KNIGHT: 3.0, BISHOP: 3.0, ROOK: 5.0, QUEEN: 9.0, HELGI: 12.0,
          KING: 0.0}
PRISONER = 0.5
HELD = 0.4
MOBILITY = 0.02
VOLKHV_THREAT = 0.15
MATE = 10_000.0

# Indexed by kind for the inner loop.
_VALUE_BY_KIND = [VALUES.get(k, 0.0) for k in range(8)]
# Per packed tavrel, its value signed for white (+) or black (-): as the top of its
# tower (the kind it acts as) and as a tavrel under the top (its own kind).
_TOP_VALUE = [(1.0 if t & COLOR_BIT == 0 else -1.0) * _VALUE_BY_KIND[ACTING[t]]
              for t in range(TAVREL_VALUES)]
_UNDER_VALUE = [(1.0 if t & COLOR_BIT == 0 else -1.0) * _VALUE_BY_KIND[KIND_OF[t]]
                for t in range(TAVREL_VALUES)]


def material(position: Position) -> float:
    """Material for white minus black, counted by who holds whom.

    >>> from tavrei_lab import Game
    >>> material(Game().position)
    0.0
    """
    score = 0.0
    top_value = _TOP_VALUE
    under_value = _UNDER_VALUE
    for tower in position.board:
        if not tower:
            continue
        top = tower[-1]
        if len(tower) == 1:
            score += top_value[top]
            continue
        owner = top & COLOR_BIT
        for t in tower:
            v = top_value[t] if t is top else under_value[t]
            if t & COLOR_BIT == owner:
                score += v
            else:
                # t is a prisoner of ``owner``: partly ours (if we hold it) ...
                score -= v * PRISONER
                # ... and its own side keeps HELD of its value (it may be freed).
                score += v * HELD
    return score


def volkhv_danger(rules: RuleModule, position: Position, color: int) -> int:
    """Enemy attacks on the volkhv's square and the squares around it (how many
    of those squares the enemy attacks)."""
    ks = position.king_square(color)
    if ks is None:
        return 0
    zone = (ks, *position.geometry.king[ks])
    kernel = rules.fast_paths().tower
    if kernel is not None:      # the kernel counts them in one pass
        return kernel.attacked_count(position.board, zone, 1 - color)
    return sum(1 for s in zone if rules.is_attacked(position, s, 1 - color))


def has_legal_move(rules: RuleModule, position: Position, pseudo: list[Any] | None = None) -> bool:
    """Is there at least one legal move? Stops at the first one found where the
    rule module can (``RuleModule.has_legal_move``). ``pseudo`` is accepted for old
    callers and unused.
    """
    return rules.has_legal_move(position)


def quick_outcome(rules: RuleModule, position: Position) -> Outcome | None:
    """The game's end by the rules in ``position`` alone (no repetition, no clocks).

    ``rules.outcome`` already stops at the first legal move, so this is it.
    """
    return rules.outcome(position)


def evaluate(position: Position, rules: RuleModule | None = None) -> float:
    """Score for the side to move (positive: good for it).

    >>> from tavrei_lab import Game
    >>> g = Game()
    >>> evaluate(g.position)   # the start is symmetric
    0.0
    >>> g = Game("orthodox"); _ = g.play("f2-f3 e7-e5 g2-g4 d8-h4")  # fool's mate
    >>> evaluate(g.position)
    -10000.0
    """
    rules = rules or position.rules
    me = position.turn
    chance = rules.is_chance_node(position)
    outcome = rules.outcome(position) if chance else quick_outcome(rules, position)
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return MATE if outcome.winner == me else -MATE
    return positional_score(position, rules)


def leaf_evaluation(position: Position, rules: RuleModule) -> tuple[Outcome | None, float]:
    """``(outcome, score)`` at a search horizon: the end of the game by the rules, or
    else ``positional_score``. Where the tower kernel decides the whole game
    (``FastPaths.whole_game``) the end is asked the cheap way: is there one legal
    move, and if not, is the volkhv in check."""
    if not rules.fast_paths().whole_game or rules.king_capture:
        outcome = quick_outcome(rules, position)
        return outcome, 0.0 if outcome is not None else positional_score(position, rules)
    if not rules.has_legal_move(position):
        if rules.is_check(position):
            return Outcome("checkmate", 1 - position.turn), 0.0  # type: ignore[arg-type]
        return Outcome("stalemate"), 0.0
    return None, positional_score(position, rules)


def mobility_counts(position: Position, rules: RuleModule) -> tuple[int, int]:
    """(the side to move's pseudo moves, the other side's as if it were its turn with no
    en passant square): the mobility every module's evaluation counts. A die game's
    moves are its family's (``inner``), whatever the die shows. Through the contract's
    ``pseudo_moves``; the tower kernel (``FastPaths.tower``) counts the same numbers
    without listing a move."""
    movers = rules.inner or rules
    mine = position if position.roll is None else position.replace(roll=None)
    other = position.replace(turn=1 - position.turn, ep_square=None, roll=None)
    return len(movers.pseudo_moves(mine)), len(movers.pseudo_moves(other))


def positional_score(position: Position, rules: RuleModule, mobility: int | None = None) -> float:
    """The evaluation of a position known not to be over (what a search's leaves use):
    material, ``MOBILITY`` per pseudo move of the side to move minus the other side's
    (``mobility_counts``), and ``VOLKHV_THREAT`` per square around the enemy volkhv
    attacked minus the same around one's own -- one formula for every rule module.

    ``mobility``: the side to move's pseudo-move count, if the caller already has it;
    it replaces the count made here (optional: the count is always made).
    """
    me = position.turn
    white_view = material(position)
    score = white_view if me == 0 else -white_view
    kernel = rules.fast_paths().tower
    if kernel is not None:
        # the kernel counts both sides' moves and volkhv attacks in two passes
        mine, theirs, my_danger, their_danger = kernel.activity(position)
    else:
        mine, theirs = mobility_counts(position, rules)
        my_danger = volkhv_danger(rules, position, me)
        their_danger = volkhv_danger(rules, position, 1 - me)
    if mobility is not None:
        mine = mobility
    score += MOBILITY * (mine - theirs)
    return score + VOLKHV_THREAT * (their_danger - my_danger)
