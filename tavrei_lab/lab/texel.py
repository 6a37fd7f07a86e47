"""The playing evaluation as a linear model of its terms, and its Texel fit.

``features`` lists a position's terms as sparse (weight index, amount) pairs, so
the evaluation is ``linear_value(weights, features)``: a sum of weight times amount,
but a prisoner's or a buried tavrel's share, which multiplies its kind's value.
``fit_weights_to`` fits the weights to game results (Texel's method): the scale
``k`` first, then Adam steps on the mean squared error of the logistic of ``k``
times the evaluation, with a small pull toward the start. ``lab.tune`` plays the
games and gates the fits; this module only does the arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

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
)
from tavrei_lab.engine.play_eval import GATE_CP, die_faces, hunter, tables_for
from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    KIND_NAMES,
    NAMES,
    WEIGHT_RANGES,
    Weights,
)

#: Adam steps of one round of the fit.
FIT_STEPS = 250

WEIGHT_INDEX = {name: i for i, name in enumerate(NAMES)}
# the weights a fit leaves as they are:
# a volkhv is never taken off the board, so its value is not a term of any position and
# is left as it is; the conversion terms are left as they are too: a result says who won,
# not how a won ending was finished, so the games cannot pin them (the fit left them at
# ~1 cp, and the won endings were shuffled to the ply cap)
FIXED_IN_A_FIT = {"value_volkhv", "held_volkhv", "buried_volkhv", "hunt_edge", "hunt_near",
          "hunt_room", "hunt_ratnik", "hunt_trade"}
#: per weight, the size of an Adam step: pawns for values, fractions, centipawns
_STEP = {n: (0.05 if n.startswith("value_") else 0.02 if n.startswith(("held_", "buried_"))
             else 0.5)
         for n in NAMES}
# the die's terms: a volkhv the roll lets the enemy take is a lost game (thousands of
# centipawns, per unit of probability), a threat's share a fraction of its gain
_STEP.update(die_hit_volkhv=30.0, die_hit_volkhv_waiting=30.0, die_threat=0.03,
             die_threat_waiting=0.03)
#: per weight, the change the pull toward the start counts as one unit: a few hundred
#: games cannot pin two dozen terms, so a term moves far only when the games insist
_UNIT = {n: (1.0 if n.startswith("value_") else 0.2 if n.startswith("held_")
             else 0.5 if n.startswith("buried_") else 5.0)
         for n in NAMES}
_UNIT.update(die_hit_volkhv=1000.0, die_hit_volkhv_waiting=1000.0, die_threat=1.0,
             die_threat_waiting=1.0)


def features(position: Any) -> list[tuple[int, float]]:
    """The evaluation's terms in ``position`` (white's view), as sparse (weight index,
    amount) pairs: the playing evaluation is ``sum(w * amount)`` but for the prisoners,
    whose amounts come as ("held_K", count) and multiply ``value_K`` (see ``linear_value``)."""
    g = position.geometry
    w, h = g.width, g.height
    cf = (w - 1) / 2
    acc: dict[int, float] = {}

    def add(name: str, amount: float) -> None:
        i = WEIGHT_INDEX[name]
        acc[i] = acc.get(i, 0.0) + amount

    for s, tower in enumerate(position.board):
        if not tower:
            continue
        top = tower[-1]
        owner = top & COLOR_BIT
        n = len(tower)
        for i, t in enumerate(tower):
            k = ACTING[t] if i == n - 1 else KIND_OF[t]
            if k not in KIND_NAMES:
                continue
            sign = 1.0 if t & COLOR_BIT == 0 else -1.0
            if t & COLOR_BIT == owner:
                add(("value_" if i == n - 1 else "buried_") + KIND_NAMES[k], 100 * sign)
            else:
                add("held_" + KIND_NAMES[k], 100 * sign)
        kind = ACTING[top]
        sign = 1.0 if owner == 0 else -1.0
        f, r = s % w, s // w
        c = min(f, w - 1 - f, r, h - 1 - r)
        advance = r if owner == 0 else h - 1 - r
        if kind == KNIGHT:
            add("centre_vsadnik", sign * c)
        elif kind == BISHOP:
            add("centre_luchnik", sign * c)
        elif kind == HELGI:
            add("centre_volkhvica", sign * c)
        elif kind == QUEEN:
            add("centre_knyaz", sign * c)
        elif kind == PAWN:
            add("ratnik_advance", sign * advance)
            add("ratnik_central", sign * (1.0 - abs(f - cf) / max(cf, 1)) * min(advance, 3))
        elif kind == KING:
            add("volkhv_advance", sign * min(advance, 3))
            add("volkhv_edge", sign * (1.0 if c == 0 else 0.0))
    kings = (position.king_square(0), position.king_square(1))
    rules = position.rules
    pass_own = rules.pass_over_own
    mob = tables_for(g, _MOBILITY_ONLY).activity(position.board, kings, pass_own)
    att = tables_for(g, _ATTACK_ONLY).activity(position.board, kings, pass_own)
    if mob:
        add("mobility", float(mob))
    if att:
        add("volkhv_attack", float(att))
    if kings[0] is not None and kings[1] is not None:
        tops = [0, 0]
        for tower in position.board:
            if tower:
                tops[tower[-1] & COLOR_BIT] += GATE_CP[ACTING[tower[-1]]]
        strong = hunter(tops)
        if strong is not None:
            edge, near = tables_for(g).hunt_terms(strong, kings[0], kings[1])
            add("hunt_edge", float(edge))
            add("hunt_near", float(near))
            add("hunt_room", float(tables_for(g).room_lost(position.board, strong,
                                                           kings[1 - strong], pass_own)))
            march, left = tables_for(g).hunt_material(position.board, strong, tops[1 - strong])
            add("hunt_ratnik", float(march))
            add("hunt_trade", float(left))
            # the hunting volkhv's home bonus is left out (play_eval.BoardTables.activity)
            ks = kings[strong]
            tower = position.board[ks]
            if tower and tower[-1] & COLOR_BIT == strong and ACTING[tower[-1]] == KING:
                sign = 1.0 if strong == 0 else -1.0
                r = ks // w
                advance = r if strong == 0 else h - 1 - r
                c = min(ks % w, w - 1 - ks % w, r, h - 1 - r)
                add("volkhv_advance", -sign * min(advance, 3))
                add("volkhv_edge", -sign * (1.0 if c == 0 else 0.0))
    faces = die_faces(rules)
    if faces:
        # the die's threats, as the side to roll and the waiting side see them (the
        # amounts of ``BoardTables.die_score``, white's view)
        hit, threat, hit_w, threat_w = tables_for(g).die_threats(
            position.board, kings, position.turn, faces, pass_own)
        sign = 1.0 if position.turn == 0 else -1.0
        add("die_hit_volkhv", sign * hit)
        add("die_threat", sign * threat)
        add("die_hit_volkhv_waiting", -sign * hit_w)
        add("die_threat_waiting", -sign * threat_w)
    return sorted((i, a) for i, a in acc.items() if abs(a) > 1e-9)


_NO_HUNT = {"hunt_edge": 0.0, "hunt_near": 0.0, "hunt_room": 0.0, "hunt_ratnik": 0.0,
            "hunt_trade": 0.0}
_MOBILITY_ONLY = DEFAULT_WEIGHTS.with_(mobility=1.0, volkhv_attack=0.0, **_NO_HUNT)
_ATTACK_ONLY = DEFAULT_WEIGHTS.with_(mobility=0.0, volkhv_attack=1.0, **_NO_HUNT)
# for a "held_K" or "buried_K" feature: the index of value_K it multiplies
HELD_OF = {WEIGHT_INDEX[part + n]: WEIGHT_INDEX["value_" + n] for n in KIND_NAMES.values()
            for part in ("held_", "buried_")}


def linear_value(w: Sequence[float], feats: Sequence[tuple[int, float]]) -> float:
    """The evaluation (centipawns, white's view) of a position's features."""
    q = 0.0
    held = HELD_OF
    for i, a in feats:
        j = held.get(i)
        q += a * w[i] * w[j] if j is not None else a * w[i]
    return q


def fit_loss(w: Sequence[float], data: Sequence[tuple[float, list[tuple[int, float]]]],
             k: float) -> float:
    """The mean squared error of the results ``data`` against the logistic of ``k`` times
    the weights' evaluation: what the fit makes small."""
    total = 0.0
    for r, feats in data:
        x = k * linear_value(w, feats)
        s = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))
        total += (r - s) ** 2
    return total / max(1, len(data))


def fit_k(w: Sequence[float], data: Sequence[tuple[float, list[tuple[int, float]]]]) -> float:
    """The scale ``k`` (per centipawn) that makes the current weights' evaluation best
    predict the results: a golden-section search on log k."""
    lo, hi = math.log(1e-4), math.log(0.05)
    phi = (math.sqrt(5) - 1) / 2
    a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
    fa, fb = fit_loss(w, data, math.exp(a)), fit_loss(w, data, math.exp(b))
    for _round in range(30):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - phi * (hi - lo)
            fa = fit_loss(w, data, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + phi * (hi - lo)
            fb = fit_loss(w, data, math.exp(b))
    return math.exp((lo + hi) / 2)


def fit_weights_to(data: Sequence[tuple[float, list[tuple[int, float]]]], start: Weights,
                   steps: int = FIT_STEPS, ridge: float = 1e-3,
                   rounds: int = 1) -> tuple[Weights, float, float]:
    """Texel fit: ``k`` first, then the weights by Adam steps on the mean squared error,
    with a small pull toward ``start`` (few games cannot pin two dozen terms).
    ``rounds`` > 1 refits ``k`` to the fitted weights and fits again from them: where
    the terms that decide the games start at 0 (the die's), the first ``k`` is the
    scale of an evaluation that cannot predict them, far too flat.
    Returns the weights, ``k`` and the final loss."""
    fitted, k, loss = fit_round(data, start, start, steps, ridge)
    for _round in range(rounds - 1):
        fitted, k, loss = fit_round(data, fitted, start, steps, ridge)
    return fitted, k, loss


def fit_round(data: Sequence[tuple[float, list[tuple[int, float]]]], begin: Weights,
              start: Weights, steps: int, ridge: float) -> tuple[Weights, float, float]:
    """One round of ``fit_weights_to``: ``k`` for ``begin``, then Adam from ``begin``
    with the pull toward ``start``."""
    w = begin.vector()
    w0 = start.vector()
    n = len(w)
    k = fit_k(w, data)
    movable = [i for i, name in enumerate(NAMES) if name not in FIXED_IN_A_FIT]
    scale = [_STEP[name] for name in NAMES]
    unit = [_UNIT[name] for name in NAMES]
    m = [0.0] * n
    v = [0.0] * n
    b1, b2, eps = 0.9, 0.999, 1e-12
    held = HELD_OF
    count = max(1, len(data))
    for step in range(1, steps + 1):
        grad = [0.0] * n
        for r, feats in data:
            x = k * linear_value(w, feats)
            s = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))
            d = -2.0 * (r - s) * s * (1.0 - s) * k / count     # dLoss/dq
            if d == 0.0:
                continue
            for i, a in feats:
                j = held.get(i)
                if j is None:
                    grad[i] += d * a
                else:
                    grad[i] += d * a * w[j]
                    grad[j] += d * a * w[i]
        lr = 1.0 - step / (steps + 1)          # steps shrink toward the end
        for i in movable:
            g = grad[i] + 2 * ridge * (w[i] - w0[i]) / (unit[i] * unit[i])
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            mh = m[i] / (1 - b1 ** step)
            vh = v[i] / (1 - b2 ** step)
            w[i] -= lr * scale[i] * mh / (math.sqrt(vh) + eps)
    for name in ("held_ratnik", "held_vsadnik", "held_luchnik", "held_ladya", "held_knyaz",
                 "held_volkhvica"):
        i = WEIGHT_INDEX[name]
        w[i] = max(-1.0, min(1.0, w[i]))       # a prisoner is not worth more than free
        b = WEIGHT_INDEX[name.replace("held_", "buried_")]
        w[b] = max(0.0, min(1.0, w[b]))        # nor a buried tavrel more than a free one
    for name in NAMES:
        if name.startswith("value_") and name not in FIXED_IN_A_FIT:
            w[WEIGHT_INDEX[name]] = max(0.0, w[WEIGHT_INDEX[name]])
        low, high = WEIGHT_RANGES[name]             # what a weights file may hold
        w[WEIGHT_INDEX[name]] = max(low, min(high, w[WEIGHT_INDEX[name]]))
    fitted = Weights.from_vector([round(x, 4) for x in w])
    return fitted, k, fit_loss(fitted.vector(), data, k)

__all__ = ["FIT_STEPS", "FIXED_IN_A_FIT", "HELD_OF", "WEIGHT_INDEX", "features", "fit_k",
           "fit_loss", "fit_round", "fit_weights_to", "linear_value"]
