"""Tactic finders: scan a position for the tower tactics a lesson explains.

Each finder takes a ``Game`` or a ``Position`` and returns a ``Tactic``: the
key move(s) in canonical text, a sentence and the numbers behind each one,
and a small explanatory tree (the key moves and every answer to them, with
values -- ``tavrei_lab.tree.build`` with ``root_moves`` set to the key moves).
A ``Tactic`` is false when nothing was found, so ``if fork(pos): ...`` reads
naturally.

The tactics (docs/rules.md Part A; names from the Tavreli rulebook):

- ``free_prisoners_by_split`` -- a split that carries off the enemy tavrel
  sitting on one of your own, so your tavrel is on top again and acts at once.
- ``discovered_check_by_split`` -- a split that uncovers your own tavrel, and
  the uncovered tavrel attacks the enemy volkhv.
- ``volkhv_escape`` -- in check, the volkhv steps onto a tower of its own
  (something a chess king can never do).
- ``capture_tall_tower`` -- landing on an enemy-topped tower of two or more
  tavrels: every enemy tavrel in it becomes a prisoner at once.
- ``fork`` -- after the move, the moved unit attacks two or more enemy targets
  worth attacking (the volkhv; or a tower worth more than the attacker; or an
  undefended tower), and it cannot simply be taken for less than it attacks.
- ``best_move_per_face`` -- the die game: for each face the die could show,
  the best move (or the pass), found by expectiminimax.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.pictures import picture
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT, COLOR_NAMES, KING, acting_kind
from tavrei_lab.engine.evaluate import VALUES
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import write_move
from tavrei_lab.tree.build import build
from tavrei_lab.tree.filters import freed_prisoner, is_capture, is_split

#: The kinds as message ids: ``Tactic.title`` says each in the language in force
#: (in English the kind itself).
_KINDS = (N_("free-prisoners-by-split"), N_("discovered-check-by-split"), N_("volkhv-escape"),
          N_("capture-tall-tower"), N_("fork"), N_("best-move-per-face"))


@dataclass
class Tactic:
    """What a finder found: key moves (best first), why, and a tree that shows it.

    ``notes[move]`` is a sentence for a learner; ``facts[move]`` the numbers
    (prisoners taken, tavrels freed, targets forked ...). ``tree`` is None
    when nothing was found.
    """

    kind: str
    position: str
    moves: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    tree: nx.DiGraph | None = None

    @property
    def found(self) -> bool:
        return bool(self.moves)

    @property
    def move(self) -> str | None:
        """The first (best) key move, or None."""
        return self.moves[0] if self.moves else None

    @property
    def title(self) -> str:
        """The kind for a learner, in the language in force: "capture-tall-tower",
        "взятие высокой башни"."""
        return _(self.kind)

    def __bool__(self) -> bool:
        return self.found

    def __str__(self) -> str:
        if not self.moves:
            return _("{tactic}: nothing found").format(tactic=self.title)
        return f"{self.title}: " + "; ".join(self.notes.get(m, m) for m in self.moves)

    def _repr_svg_(self) -> str | None:
        """The tree the tactic was found in, drawn by ``render`` (None without one)."""
        return None if self.tree is None else picture("tree", self.tree)


# -- helpers -------------------------------------------------------------------------

def _position(game_or_position: Any) -> Position:
    from tavrei_lab.game import Game
    if isinstance(game_or_position, Game):
        return game_or_position.position
    if isinstance(game_or_position, Position):
        return game_or_position
    raise TypeError(_("a tactic finder reads a Game or a Position, not {type}").format(
        type=type(game_or_position).__name__))


def _name(position: Position, kind: int) -> str:
    return position.pieces.by_kind[kind].name


def _tavrel_name(position: Position, t: int) -> str:
    return f"{COLOR_NAMES[t & COLOR_BIT]} {_name(position, acting_kind(t))}"


def _said_name(position: Position, kind: int) -> str:
    """A kind's name for a note, in the language in force (facts keep the English one)."""
    return speech.kind_name(position.pieces.by_kind[kind])


def _said_tavrel(position: Position, t: int) -> str:
    """"white luchnik", "лучник белых": a tavrel for a note, in the language in force."""
    color = 1 if t & COLOR_BIT else 0
    return speech.tavrel_name(color, position.pieces.by_kind[acting_kind(t)])


def _worth(tower: Iterable[int]) -> float:
    """What a whole tower is worth to whoever takes it: all its tavrels by kind."""
    return sum(VALUES[acting_kind(t)] for t in tower)


def _decision_moves(position: Position) -> list[Move]:
    rules = position.rules
    if rules.is_chance_node(position):
        return []
    return list(rules.legal_moves(position))


def _result(kind: str, position: Position, found: list[tuple[Move, str, dict[str, Any]]],
            depth: int, evaluate: Callable[[Position], float] | None,
            sort_key: Callable[[dict[str, Any]], Any] | None = None) -> Tactic:
    """Assemble a Tactic and its explanatory tree (key moves, then every answer)."""
    tactic = Tactic(kind, position.string)
    if not found:
        return tactic
    if sort_key is not None:
        found = sorted(found, key=lambda item: sort_key(item[2]))
    keys = set()
    for move, note, facts in found:
        text = write_move(position, move)
        tactic.moves.append(text)
        tactic.notes[text] = f"{text}: {note}"
        tactic.facts[text] = facts
        keys.add(move)
    G = build(position, depth, root_moves=lambda p, m: m in keys, evaluate=evaluate,
              values=True)
    G.graph["tactic"] = kind
    for child in G.successors(0):
        edge = G.edges[0, child]
        if edge.get("move") in tactic.notes:
            edge["tactic"] = kind
            edge["note"] = tactic.notes[edge["move"]]
    tactic.tree = G
    return tactic


# -- the finders ---------------------------------------------------------------------

def free_prisoners_by_split(game_or_position: Any, *, depth: int = 2,
                            evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """Splits that free one of the mover's own tavrels held prisoner under an enemy.

    Facts: ``freed`` (the freed tavrel), ``square``, ``own_left`` (own
    tavrels in the part left behind, now in an own-topped tower),
    ``prisoners_carried`` (enemy tavrels the moving unit takes along).
    """
    position = _position(game_or_position)
    me = position.turn
    found = []
    for m in _decision_moves(position):
        square = freed_prisoner(position, m)
        if square is None:
            continue
        tower = position.board[square]
        h = len(tower)
        rest, unit = tower[:h - m.count], tower[h - m.count:]
        freed = rest[-1]
        own_left = sum(1 for t in rest if t & COLOR_BIT == me)
        carried = sum(1 for t in unit if t & COLOR_BIT != me)
        name = position.geometry.name(square)
        facts = {"freed": _tavrel_name(position, freed), "square": name,
                 "own_left": own_left, "prisoners_carried": carried}
        note = (_("frees the {tavrel} on {square} (it acts again at once)").format(
                    tavrel=_said_tavrel(position, freed), square=name)
                + (ngettext(" and carries {count} enemy tavrel away as prisoners",
                            " and carries {count} enemy tavrels away as prisoners",
                            carried).format(count=carried) if carried else ""))
        found.append((m, note, facts))
    return _result("free-prisoners-by-split", position, found, depth, evaluate,
                   sort_key=lambda f: (-f["own_left"], -f["prisoners_carried"]))


def discovered_check_by_split(game_or_position: Any, *, depth: int = 2,
                              evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """Splits after which the uncovered own tavrel checks the enemy volkhv.

    Facts: ``checker`` (the uncovered tavrel and its square) and ``double``
    (the moved unit gives check too).
    """
    position = _position(game_or_position)
    rules = position.rules
    me = position.turn
    found = []
    for m in _decision_moves(position):
        if not is_split(position, m):
            continue
        tower = position.board[m.from_square]
        uncovered = tower[len(tower) - m.count - 1]
        if uncovered & COLOR_BIT != me:
            continue
        after = rules.apply(position, m)
        king = after.king_square(1 - me)
        if king is None or not rules.is_check(after):
            continue
        attackers = rules.attackers(after, king, me)
        if m.from_square not in attackers:
            continue
        double = m.to_square in attackers
        name = position.geometry.name(m.from_square)
        checker = f"{_tavrel_name(position, after.board[m.from_square][-1])} on {name}"
        facts = {"checker": checker, "double": double}
        note = (_("uncovers the {tavrel} on {square}, which checks the {king}").format(
                    tavrel=_said_tavrel(position, after.board[m.from_square][-1]), square=name,
                    king=_said_name(position, KING))
                + (_(" -- a double check") if double else ""))
        found.append((m, note, facts))
    return _result("discovered-check-by-split", position, found, depth, evaluate,
                   sort_key=lambda f: not f["double"])


def volkhv_escape(game_or_position: Any, *, depth: int = 2,
                  evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """In check, the volkhv escapes by stepping onto a tower of its own side.

    Facts: ``height`` of the tower it stands on afterwards, ``only_escape``
    (no other volkhv move gets out of check).
    """
    position = _position(game_or_position)
    rules = position.rules
    me = position.turn
    moves = _decision_moves(position)
    if not moves or not rules.is_check(position):
        return Tactic("volkhv-escape", position.string)
    king_moves = [m for m in moves
                  if not m.castling and acting_kind(position.board[m.from_square][-1]) == KING]
    found = []
    board = position.board
    onto_own = [m for m in king_moves
                if board[m.to_square] and board[m.to_square][-1] & COLOR_BIT == me]
    for m in onto_own:
        height = len(position.board[m.to_square]) + m.count
        name = position.geometry.name(m.to_square)
        facts = {"height": height, "only_escape": len(king_moves) == 1}
        note = _("the {king} escapes the check onto its own tower on {square} (now {height} "
                 "high)").format(king=_said_name(position, KING), square=name, height=height)
        found.append((m, note, facts))
    return _result("volkhv-escape", position, found, depth, evaluate,
                   sort_key=lambda f: not f["only_escape"])


def capture_tall_tower(game_or_position: Any, *, min_height: int = 2, depth: int = 2,
                       evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """Captures that land on an enemy-topped tower of at least ``min_height`` tavrels.

    Facts: ``height`` of the tower taken, ``prisoners`` (enemy tavrels it
    takes prisoner), ``rescued`` (own tavrels in it, back under an own top).
    Best first: the most prisoners.
    """
    position = _position(game_or_position)
    me = position.turn
    found = []
    for m in _decision_moves(position):
        dest = position.board[m.to_square]
        if len(dest) < min_height or not is_capture(position, m):
            continue
        prisoners = sum(1 for t in dest if t & COLOR_BIT != me)
        rescued = len(dest) - prisoners
        name = position.geometry.name(m.to_square)
        facts = {"height": len(dest), "prisoners": prisoners, "rescued": rescued}
        note = (ngettext("takes the tower of {height} on {square}: {count} enemy tavrel becomes "
                         "a prisoner",
                         "takes the tower of {height} on {square}: {count} enemy tavrels "
                         "become prisoners", prisoners).format(height=len(dest), square=name,
                                                               count=prisoners)
                + (ngettext(", {count} own tavrel is held by us again",
                            ", {count} own tavrels are held by us again",
                            rescued).format(count=rescued) if rescued else ""))
        found.append((m, note, facts))
    return _result("capture-tall-tower", position, found, depth, evaluate,
                   sort_key=lambda f: (-f["prisoners"], -f["height"]))


def fork(game_or_position: Any, *, depth: int = 2,
         evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """Moves after which the moved unit attacks two or more enemy targets worth taking.

    A target is an enemy-topped tower the unit could land on next move, or
    the enemy volkhv (check). It is worth attacking if it is the volkhv, or
    worth more than the attacking unit, or not defended. The fork counts only
    if the unit cannot simply be taken for less than it attacks: its square
    is not attacked, or every target is worth at least as much as the unit.
    Facts: ``targets`` (square names), ``check``, ``unit_worth``.
    """
    position = _position(game_or_position)
    rules = position.rules
    me = position.turn
    enemy = 1 - me
    found = []
    for m in _decision_moves(position):
        if m.castling:
            continue
        after = rules.apply(position, m)
        unit = after.board[m.to_square]
        unit = unit[len(unit) - m.count:]
        unit_worth = _worth(unit)
        mine = after.replace(turn=me, ep_square=None, roll=None)
        targets: dict[int, float] = {}
        for reply in rules.pseudo_moves(mine):
            if reply.from_square != m.to_square or reply.castling:
                continue
            dest = after.board[reply.to_square]
            if dest and dest[-1] & COLOR_BIT == enemy and reply.to_square not in targets:
                worth = _worth(dest)
                defended = rules.is_attacked(after, reply.to_square, enemy)
                if worth > unit_worth or not defended:
                    targets[reply.to_square] = worth
        king = after.king_square(enemy)
        check = king is not None and m.to_square in rules.attackers(after, king, me)
        if check:
            targets[king] = float("inf")  # type: ignore[index]
        if len(targets) < 2:
            continue
        safe = not rules.is_attacked(after, m.to_square, enemy)
        if not safe and min(targets.values()) < unit_worth:
            continue
        names = [position.geometry.name(s) for s in sorted(targets)]
        facts = {"targets": names, "check": check, "unit_worth": unit_worth}
        note = ((_("the unit on {square} attacks {targets} with check") if check
                 else _("the unit on {square} attacks {targets}")).format(
                    square=position.geometry.name(m.to_square),
                    targets=_(" and ").join(names)))
        found.append((m, note, facts))
    return _result("fork", position, found, depth, evaluate,
                   sort_key=lambda f: (not f["check"], -len(f["targets"])))


def best_move_per_face(game_or_position: Any, *, depth: int = 1,
                       evaluate: Callable[[Position], float] | None = None) -> Tactic:
    """The die game: for each face the die could show here, the best move (expectiminimax).

    Works from a chance node (a face already showing is ignored: the
    question is "what if the die shows ..."). ``depth`` counts turns after
    the roll; values are exact (no pruning). ``moves`` lists the best move of
    each face that allows one; ``facts[face]`` has ``move`` (or None for a
    pass), ``value`` (white's view) and ``probability``. Nothing is found in a
    game without a die, or when the game is over.
    """
    position = _position(game_or_position)
    rules = position.rules
    if position.roll is not None:
        position = position.replace(roll=None)
    tactic = Tactic("best-move-per-face", position.string)
    if not rules.is_chance_node(position):
        return tactic
    G = build(position, depth, values=True, evaluate=evaluate, alphabeta=False)
    keep = {0}
    for face_node in G.successors(0):
        edge = G.edges[0, face_node]
        face = edge["face"]
        keep.add(face_node)
        node = G.nodes[face_node]
        best_move, best_child = None, None
        if node["type"] == "decision" and node["depth"] == 0:  # the face allows moves
            maximizing = node["turn"] == "white"
            for child in G.successors(face_node):
                keep.add(child)
                v = G.nodes[child]["value"]
                if best_child is None or (v > G.nodes[best_child]["value"] if maximizing
                                          else v < G.nodes[best_child]["value"]):
                    best_child = child
            if best_child is not None:
                best_move = G.edges[face_node, best_child]["move"]
                G.edges[face_node, best_child]["tactic"] = "best-move-per-face"
        tactic.facts[face] = {"move": best_move, "value": node["value"],
                              "probability": edge["probability"]}
        if best_move is not None:
            tactic.moves.append(best_move)
            tactic.notes[best_move] = (f"@{face}: {best_move}" if best_move not in tactic.notes
                                       else tactic.notes[best_move] + f", @{face}")
        else:
            tactic.notes[f"@{face}"] = _("@{face}: the turn passes").format(face=face)
    if not tactic.moves:
        return Tactic("best-move-per-face", position.string)
    tactic.moves = list(dict.fromkeys(tactic.moves))
    small = G.subgraph(keep).copy()
    small.graph["tactic"] = "best-move-per-face"
    tactic.tree = small
    return tactic


#: Every finder by the name ``Tactic.kind`` uses.
FINDERS: dict[str, Callable[..., Tactic]] = {
    "free-prisoners-by-split": free_prisoners_by_split,
    "discovered-check-by-split": discovered_check_by_split,
    "volkhv-escape": volkhv_escape,
    "capture-tall-tower": capture_tall_tower,
    "fork": fork,
    "best-move-per-face": best_move_per_face,
}


def find_all(game_or_position: Any, **kwargs: Any) -> dict[str, Tactic]:
    """Run every finder; only the tactics found are returned."""
    out = {}
    for name, finder in FINDERS.items():
        t = finder(game_or_position, **kwargs)
        if t:
            out[name] = t
    return out
