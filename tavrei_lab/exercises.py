"""Exercises with immediate feedback, for the tutorials and the classroom.

A learner answers a question about a position ("find the split that frees
your luchnik", "where can this vsadnik go?", "which faces let you save the
volkhv?") and a *checker* says at once whether the answer is right and, when
it is not, **why** -- in the words of the rules (docs/rules.md), not just "wrong".

Every checker works out the right answers from the rules themselves (legal
moves, the position after a move, the die's faces); nothing here stores an
expected answer. So a checker stays right when a teacher edits the puzzle's
position, and the ready-made puzzles below stay right if the rules change.

Two layers:

- **checker functions** ``check_*(game, answer, ...) -> Feedback`` -- usable
  on any position;
- **exercises** (``Exercise``): a title, a prompt, a position and a checker
  bound together; ``exercise.check(answer)`` gives ``Feedback``, the object
  shows its board in a notebook, and ``exercise.widget()`` gives a text box
  and a *Check* button so a class can play without writing code.

>>> ex = EXERCISES["free-the-luchnik"]
>>> bool(ex.check("d4(2)-d6"))
True
>>> print(ex.check("d4(1)-d6").message)  # doctest: +ELLIPSIS
d4(1)-d6 takes only the white ratoborets: the black vsadnik on d4 is now on top -- you freed ...
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.pieces import ORTHODOX_PIECES
from tavrei_lab.core.tavrel import COLOR_NAMES, KING, PAWN, Tavrel
from tavrei_lab.data import recorded_game
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import get_language, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import write_move
from tavrei_lab.render import board_svg

# -- feedback ----------------------------------------------------------------------------


#: Longest answer an exercise reads (a move, a list of squares, a name).
MAX_ANSWER_CHARS = 1_000


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right or not, and a sentence that explains it.

    It is truthy exactly when the answer is right, so ``assert ex.check(a)``
    and ``if feedback:`` read naturally; in a notebook it shows as a coloured
    line.
    """

    correct: bool
    message: str
    #: True when no answer was given yet (the notebook's ``answer = None``).
    missing: bool = False

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        mark = (_("Right!") if self.correct
                else _("No answer yet.") if self.missing else _("Not yet."))
        return f"{mark} {self.message}"

    def _repr_html_(self) -> str:
        if self.correct:
            colour, mark = "#1b5e20", "&#10004; " + html.escape(_("Right!"))
        elif self.missing:
            colour, mark = "#555555", "&#9998; " + html.escape(_("No answer yet."))
        else:
            colour, mark = "#b71c1c", "&#10008; " + html.escape(_("Not yet."))
        return (f'<div style="border-left:6px solid {colour};padding:4px 10px;'
                f'font-size:1.1em"><b style="color:{colour}">{mark}</b> '
                f"{html.escape(self.message)}</div>")


def _no_answer(what: str) -> Feedback:
    return Feedback(False, _("Type your answer ({what}) and run the cell again.").format(
        what=_(what)), missing=True)


# -- naming tavrels ----------------------------------------------------------------------

def tavrel_name(game: Game, tavrel: Tavrel, *, acting: bool = True) -> str:
    """"the white luchnik": colour and the variant's name of the tavrel's kind."""
    kind = tavrel.acting_kind if acting else tavrel.kind
    return f"{COLOR_NAMES[tavrel.color]} {game.position.pieces.by_kind[kind].name}"


def _named(game: Game, tavrel: Tavrel, *, acting: bool = True) -> str:
    """``tavrel_name`` in the language in force: "the white luchnik", "лучник белых"
    (the Russian sentences keep the name in the nominative, so it never declines)."""
    if get_language() != "ru":
        return tavrel_name(game, tavrel, acting=acting)
    side = _("{piece} of white") if tavrel.color == 0 else _("{piece} of black")
    kind = tavrel.acting_kind if acting else tavrel.kind
    return side.format(piece=game.position.pieces.by_kind[kind].russian)


def _king_name(game: Game) -> str:
    king = game.position.pieces.by_kind[KING]
    return king.russian if get_language() == "ru" else king.name


def _kind_from_name(game: Game, answer: str) -> int | None:
    """The kind a learner means: Russian name, transliteration, letter or chess analogue."""
    text = answer.strip().lower().replace("ё", "е")
    if not text:
        return None
    for p in game.position.pieces:
        chess = ORTHODOX_PIECES.by_kind[p.kind]  # "bishop" and "слон" name the luchnik's role
        names = {p.name.lower(), p.russian.lower(), p.english.lower(), p.letter.lower(),
                 chess.name.lower(), chess.russian.lower()}
        if p.kind == 7:  # the helgi: "queen+knight", "queen and knight"
            names |= {"queen+knight", "queen and knight"}
        if text in names or text.replace(" ", "") in {n.replace(" ", "") for n in names}:
            return p.kind
    return None


def _describe_kind(game: Game, kind: int) -> str:
    p = game.position.pieces.by_kind[kind]
    if get_language() == "ru":
        return _("{piece}, moves like a {analogue}").format(piece=p.russian,
                                                          analogue=_(p.english))
    return f"{p.name} ({p.russian}, moves like a {p.english})"


def _kind_named(game: Game, kind: int) -> str:
    """A kind's name in the language in force: "vsadnik", "всадник"."""
    p = game.position.pieces.by_kind[kind]
    return p.russian if get_language() == "ru" else p.name


# -- checkers ----------------------------------------------------------------------------

def check_chess_analogue(game: Game, name: str, answer: str | None) -> Feedback:
    """Which orthodox chess piece moves like the tavrel called ``name``?

    ``name`` and ``answer`` may each be a Russian name, a transliteration, a
    letter or a chess name; the two must name the same kind.
    """
    if answer is None or not str(answer).strip():
        return _no_answer("a chess piece, e.g. 'rook'")
    kind = _kind_from_name(game, name)
    if kind is None:
        raise TavreiError(f"{name!r} is not a tavrel of {game.variant.id}")
    given = _kind_from_name(game, str(answer))
    p = game.position.pieces.by_kind[kind]
    if given == kind:
        piece = p.russian if get_language() == "ru" else f"the {p.name} ({p.russian})"
        return Feedback(True, _("{piece} moves like a {analogue}.").format(
            piece=piece, analogue=_(p.english)))
    if given is None:
        return Feedback(False, _("{answer} is not a piece name I know; try a chess piece "
                                 "such as king, queen, rook, bishop, knight or pawn.").format(
            answer=repr(answer)))
    if get_language() == "ru":
        other = game.position.pieces.by_kind[given]
        return Feedback(False, _("{answer} is the {other}, which moves like a {analogue}; the "
                                 "{piece} moves differently. Look at its board again.").format(
            answer=repr(answer), other=other.russian, analogue=_(other.english),
            piece=p.russian))
    return Feedback(False, f"{answer!r} is the {_describe_kind(game, given)}; the "
                           f"{p.name} ({p.russian}) moves differently. Look at its board "
                           "again.")


def destinations(game: Game, square: str) -> set[str]:
    """Every square the whole tower on ``square`` may move to (castling excluded)."""
    pos = game.position
    g = pos.geometry
    fr = g.parse(square.lower())
    height = len(pos.board[fr])
    return {g.name(m.to_square) for m in game.legal_moves()
            if m.from_square == fr and m.count == height and not m.castling}


@dataclass(frozen=True)
class Reach:
    """The squares the tavrel (or tower) on one square can reach, for a lesson.

    In a notebook it shows as the board with that tower selected and its
    destinations marked, under a line naming them; ``str()`` is the line alone.
    Made by ``moves_from``.
    """

    game: Game
    square: str
    squares: tuple[str, ...]

    def __str__(self) -> str:
        return _("from {square}: {squares}").format(
            square=self.square, squares=" ".join(self.squares) or _("no moves"))

    def svg(self, size: int = 360) -> str:
        g = self.game.position.geometry
        return board_svg(self.game.position, size=size, selected=g.parse(self.square),
                         destinations=[g.parse(s) for s in self.squares])

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return f"<p><code>{html.escape(str(self))}</code></p>{self.svg()}"


def moves_from(position: str | None, square: str, variant: str = "tavreli") -> Reach:
    """Where the tavrel on ``square`` can go in ``position``: notebook 01's pictures.

    Every legal move from the square counts (any number of tavrels taken, castling
    too), so the picture shows what the rules allow, not what a newcomer expects.
    The squares are listed rank by rank from white's side, as the board is read.

    >>> print(moves_from(None, "b1"))       # onto its own ratnik on d2, too
    from b1: d2 a3 c3
    """
    game = Game(variant, position)
    g = game.position.geometry
    start = g.parse(square.lower())
    targets = sorted({m.to_square for m in game.legal_moves() if m.from_square == start})
    return Reach(game, g.name(start), tuple(g.name(t) for t in targets))


def _squares(answer: Iterable[str] | str) -> list[str]:
    if isinstance(answer, str):
        answer = answer.replace(",", " ").split()
    return [str(a).strip().lower() for a in answer if str(a).strip()]


def check_destinations(game: Game, square: str, answer: Iterable[str] | str | None) -> Feedback:
    """Where can the tower on ``square`` go? ``answer``: squares, e.g. ``"a3 c3"``.

    Explains each square that is missing (with what stands there, since
    stepping onto towers is what newcomers forget) and each square that is
    not reachable (with the rules' reason).
    """
    if answer is None:
        return _no_answer("squares such as 'a3 c3'")
    pos = game.position
    g = pos.geometry
    expected = destinations(game, square)
    given = set(_squares(answer))
    for s in given:
        try:
            g.parse(s)
        except TavreiError:
            return Feedback(False, _("{square} is not a square of this board.").format(
                square=repr(s)))
    if given == expected:
        occupied = sorted(s for s in expected if pos.tower(s))
        extra = (" " + _("Note {squares}: a tavrel may land on the tavrels standing "
                         "there.").format(squares=", ".join(occupied)) if occupied else "")
        return Feedback(True, ngettext("all {count} squares: {squares}.",
                                       "all {count} squares: {squares}.", len(expected)).format(
            count=len(expected), squares=", ".join(sorted(expected))) + extra)
    problems = []
    for s in sorted(expected - given):
        tower = pos.tower(s)
        if tower:
            top = tower[-1]
            said = (_("{square} is missing: the {tavrel} stands there, and in Tavreli a tavrel "
                      "may land on it (forming a tower with its own).") if top.color == pos.turn
                    else _("{square} is missing: the {tavrel} stands there, and in Tavreli a "
                           "tavrel may land on it (taking it prisoner)."))
            problems.append(said.format(square=s, tavrel=_named(game, top)))
        else:
            problems.append(_("{square} is missing: it is empty and within reach.").format(
                square=s))
    for s in sorted(given - expected):
        target = pos.tower(s)
        if (target and target[-1].color == pos.turn
                and game.rules.options.get("own_towers") is False):
            reason = _("your own tavrel stands there, and with own_towers off a tavrel "
                       "may not land on its own")
        else:
            try:  # the game's own explanation of why the whole tower cannot go there
                game.parse_move(f"{square}-{s}")
                reason = _("only castling goes there")
            except TavreiError as exc:
                reason = str(exc).split(": ", 1)[-1]
        problems.append(_("{square} is not reachable: {reason}.").format(square=s,
                                                                         reason=reason))
    return Feedback(False, " ".join(problems))


def _illegal(answer: Any, exc: TavreiError) -> Feedback:
    return Feedback(False, _("{answer} cannot be played here: {reason}").format(
        answer=answer, reason=exc))


def _answered_move(game: Game, answer: str | Move | None,
                   example: str = "a move") -> Move | Feedback:
    """The legal move an answer names, or the feedback that says why there is none
    (``example``: what an empty answer is told to type)."""
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return _no_answer(example)
    try:
        return game.find_move(answer if isinstance(answer, Move) else str(answer))
    except TavreiError as exc:
        return _illegal(answer, exc)


def check_frees(game: Game, answer: str | Move | None, square: str, kind: int) -> Feedback:
    """Does ``answer`` free the mover's own tavrel of ``kind`` buried on ``square``?

    Freed means: after the move it is the top of the tower left on ``square``,
    so it acts at once (A3.4). The explanation of a wrong split says which
    tavrel it uncovered instead -- often an enemy prisoner, freed by mistake.
    """
    move = _answered_move(game, answer, "a move such as 'd4(2)-d6'")
    if isinstance(move, Feedback):
        return move
    pos = game.position
    g = pos.geometry
    sq = g.parse(square.lower())
    me = pos.turn
    name = _kind_named(game, kind)
    text = game.move_text(move)
    tower = pos.board[sq]
    if move.from_square != sq:
        return Feedback(False, _("{move} does not touch the tower on {square}: the {piece} is "
                                 "still buried there. Take tavrels off the top of "
                                 "{square}.").format(move=text, square=square, piece=name))
    after = game.rules.apply(pos, move)
    rest = after.board[sq]
    if not rest:
        return Feedback(False, _("{move} carries the whole tower, the {piece} inside it, to "
                                 "{to}: it is still covered there. Split the tower instead: "
                                 "write how many tavrels to take, as in {square}(2)-...").format(
            move=text, piece=name, to=g.name(move.to_square), square=square))
    top = rest[-1]
    if top.color == me and top.kind == kind:
        return Feedback(True, _("{move} leaves the {piece} on top of {square}: it acts at "
                                "once, and the rest of the tower moved away.").format(
            move=text, piece=name, square=square))
    moved = [_named(game, t, acting=False) for t in tower[len(tower) - move.count:]]
    verdict = (_("the {tavrel} on {square} is now on top -- you freed an enemy prisoner, and "
                 "it acts at once!") if top.color != me
               else _("the {tavrel} on {square} is now on top.")).format(
        tavrel=_named(game, top), square=square)
    need = len(tower) - max(i for i, t in enumerate(tower)
                            if t.color == me and t.kind == kind) - 1
    return Feedback(False, _("{move} takes only the {moved}: {verdict}").format(
        move=text, moved=", ".join(moved), verdict=verdict) + " " + ngettext(
        "To uncover the {piece} the split must take exactly the {count} tavrel above it.",
        "To uncover the {piece} the split must take exactly the {count} tavrels above it.",
        need).format(piece=name, count=need))


def check_promotion(game: Game, square: str, answer: str | None) -> Feedback:
    """What will the ratnik on ``square`` become on its far rank? (A2 destiny, A8)."""
    if answer is None or not str(answer).strip():
        return _no_answer("a tavrel's name, e.g. 'luchnik'")
    pos = game.position
    tower = pos.tower(square)
    if not tower or tower[-1].kind != PAWN:
        raise TavreiError(f"no ratnik on top of {square}")
    ratnik = tower[-1]
    destiny = ratnik.destiny
    given = _kind_from_name(game, str(answer))
    right = _describe_kind(game, destiny)
    if given == destiny:
        return Feedback(True, _("its destiny is the {tavrel}. The destiny belongs to the "
                                "ratnik, whatever file it walks on.").format(tavrel=right))
    if given is None:
        return Feedback(False, _("{answer} is not a tavrel name I know.").format(
            answer=repr(answer)))
    file_destiny = _file_destiny(game, pos.geometry.file_of(pos.geometry.parse(square)))
    if file_destiny == given and given != destiny:
        return Feedback(False, _("that is the destiny of the ratniks that *start* on the "
                                 "{file}-file. This ratnik started elsewhere: it keeps the "
                                 "destiny of the tavrel it first stood in front of.").format(
            file=square[0]))
    return Feedback(False, _("a ratnik becomes the tavrel it stood in front of at the start "
                             "(its destiny), not a {tavrel}.").format(
        tavrel=_describe_kind(game, given)))


def _file_destiny(game: Game, file: int) -> int | None:
    """The destiny of the ratnik that starts on ``file`` in this variant's set-up."""
    start = game.rules.initial_position()
    g = start.geometry
    for rank in range(g.height):
        tower = start.board[g.square(file, rank)]
        if tower and tower[-1].kind == PAWN and tower[-1].color == 0:
            return tower[-1].destiny
    return None


def check_prisoners(game: Game, answer: int | str | None, color: int | None = None) -> Feedback:
    """How many enemy tavrels does ``color`` (default: the side to move) hold prisoner?

    A prisoner is an enemy tavrel anywhere below an own-topped tower's top.
    """
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return _no_answer("a number")
    pos = game.position
    me = pos.turn if color is None else color
    held = [(name, t) for name, tower in pos.towers().items() if tower[-1].color == me
            for t in tower[:-1] if t.color != me]
    try:
        n = int(answer)
    except (TypeError, ValueError):
        return Feedback(False, _("{answer} is not a number.").format(answer=repr(answer)))
    if get_language() == "ru":
        listing = ", ".join(_("{tavrel} on {square}").format(
            tavrel=_named(game, t, acting=False), square=s)
            for s, t in held)
    else:
        listing = ", ".join(f"{tavrel_name(game, t, acting=False)} on {s}" for s, t in held)
    if n == len(held):
        said = (ngettext("white holds {count}: {listing}.", "white holds {count}: {listing}.",
                         n) if me == 0 else
                ngettext("black holds {count}: {listing}.", "black holds {count}: {listing}.",
                         n))
        return Feedback(True, said.format(count=n, listing=listing or _("none")))
    own_buried = sum(1 for tower in pos.towers().values() if tower[-1].color == me
                     for t in tower[:-1] if t.color == me)
    hint = ""
    if n == len(held) + own_buried:
        hint = " " + _("You counted your own tavrels inside your towers too: those are "
                       "passengers, not prisoners.")
    again = (_("count again: look inside every tower white tops, bottom to top, for tavrels "
               "of the other colour.") if me == 0 else
             _("count again: look inside every tower black tops, bottom to top, for tavrels "
               "of the other colour."))
    return Feedback(False, again + hint)


def check_discovered_check(game: Game, answer: str | Move | None) -> Feedback:
    """Is ``answer`` a split that gives check with the tavrel it uncovers?

    The check must come from the part left behind (its new top attacks the
    enemy volkhv), not only from the unit that moved.
    """
    move = _answered_move(game, answer, "a move such as 'e2(1)-c3'")
    if isinstance(move, Feedback):
        return move
    pos = game.position
    rules = game.rules
    text = game.move_text(move)
    tower = pos.board[move.from_square]
    vname = _king_name(game)
    if move.castling or len(tower) == 1:
        return Feedback(False, _("{move} does not split a tower: it moves a single tavrel, "
                                 "so nothing is uncovered.").format(move=text))
    if move.count == len(tower):
        return Feedback(False, _("{move} moves the whole tower, so nothing is uncovered. "
                                 "Take only the top tavrel(s): write the count, as in "
                                 "{square}(1)-...").format(
            move=text, square=pos.geometry.name(move.from_square)))
    after = rules.apply(pos, move)
    enemy_king = after.king_square(1 - pos.turn)
    left = after.board[move.from_square][-1]
    attackers = (rules.attackers(after, enemy_king, pos.turn)
                 if enemy_king is not None else [])
    if move.from_square in attackers:
        double = " " + _("It is even a double check.") if len(attackers) > 1 else ""
        return Feedback(True, _("{move} uncovers the {tavrel}, which now attacks the enemy "
                                "{king}.").format(move=text, tavrel=_named(game, left),
                                                  king=vname) + double)
    if left.color != pos.turn:
        return Feedback(False, _("{move} uncovers the {tavrel} -- an enemy tavrel: it cannot "
                                 "check its own {king}.").format(
            move=text, tavrel=_named(game, left), king=vname))
    return Feedback(False, _("{move} uncovers the {tavrel}, but it does not attack the enemy "
                             "{king} from {square}.").format(
        move=text, tavrel=_named(game, left), king=vname,
        square=pos.geometry.name(move.from_square)))


def check_mate_in_one(game: Game, answer: str | Move | None) -> Feedback:
    """Is ``answer`` a move that checkmates at once? Any mating move is right."""
    move = _answered_move(game, answer)
    if isinstance(move, Feedback):
        return move
    text = game.move_text(move)
    after = game.rules.apply(game.position, move)
    vname = _king_name(game)
    if not game.rules.is_check(after):
        return Feedback(False, _("{move} does not even give check: the enemy {king} is not "
                                 "attacked after it.").format(move=text, king=vname))
    replies = game.rules.legal_moves(after)
    if not replies:
        return Feedback(True, _("{move} is mate: check, and no legal reply.").format(move=text))
    sample = ", ".join(sorted(write_move(after, m) for m in replies)[:4])
    return Feedback(False, ngettext(
        "{move} gives check, but {count} reply gets out of it (for example {sample}).",
        "{move} gives check, but {count} replies get out of it (for example {sample}).",
        len(replies)).format(move=text, count=len(replies), sample=sample))


def check_escape(game: Game, answer: str | Move | None) -> Feedback:
    """The side to move is in check: is ``answer`` a legal way out?"""
    move = _answered_move(game, answer)
    if isinstance(move, Feedback):
        return move
    text = game.move_text(move)
    dest = game.position.board[move.to_square]
    if dest and game.position.board[move.from_square][-1].kind == KING:
        return Feedback(True, _("{move} gets out of check -- onto a tower: the volkhv may "
                                "stand on towers, if the square is safe.").format(move=text))
    return Feedback(True, _("{move} gets out of check.").format(move=text))


def check_takes_prisoner(game: Game, answer: str | Move | None,
                         square: str | None = None) -> Feedback:
    """Does ``answer`` take an enemy prisoner (on ``square``, when one is named)?

    Taking prisoner means landing on a tower whose top is an enemy tavrel
    (A3.3): the whole tower goes under the moving unit. A wrong answer is
    explained by where the unit landed.
    """
    move = _answered_move(game, answer, "a move such as 'e4xd5'")
    if isinstance(move, Feedback):
        return move
    pos = game.position
    g = pos.geometry
    text = game.move_text(move)
    to = g.name(move.to_square)
    target = pos.board[move.to_square]
    if square is not None and to != square.lower():
        return Feedback(False, _("{move} goes to {to}, but the tavrel to take stands on "
                                 "{square}.").format(move=text, to=to, square=square.lower()))
    if move.castling or not target:
        return Feedback(False, _("{move} lands on an empty square: nobody is taken "
                                 "prisoner.").format(move=text))
    if target[-1].color == pos.turn:
        return Feedback(False, _("{move} lands on your own {tavrel}: that builds a tower, it "
                                 "takes nobody prisoner.").format(
            move=text, tavrel=_named(game, target[-1])))
    enemies = sum(1 for t in target if t.color != pos.turn)
    after = game.copy()
    after.push(move)
    outcome = after.outcome()
    wins = (" " + _("Taking the king wins the game.") if outcome is not None
            and outcome.winner == pos.turn else "")
    if len(target) > 1:
        said = ngettext(
            "{move} takes the {tavrel} on {to} prisoner, and with it the whole tower of "
            "{height} ({count} enemy tavrel). It stays on the board, under its captor.",
            "{move} takes the {tavrel} on {to} prisoner, and with it the whole tower of "
            "{height} ({count} enemy tavrels). It stays on the board, under its captor.",
            enemies)
    else:
        said = _("{move} takes the {tavrel} on {to} prisoner. It stays on the board, under "
                 "its captor.")
    return Feedback(True, said.format(move=text, tavrel=_named(game, target[-1]), to=to,
                                      height=len(target), count=enemies) + wins)


def check_gives_check(game: Game, answer: str | Move | None) -> Feedback:
    """Does ``answer`` attack the enemy volkhv (give check) under the game's rules?

    The rules decide, so the same answer can be right in one variant and wrong
    in another -- which is what a puzzle about variants wants to show.
    """
    move = _answered_move(game, answer)
    if isinstance(move, Feedback):
        return move
    text = game.move_text(move)
    after = game.rules.apply(game.position, move)
    vname = _king_name(game)
    if game.rules.is_check(after):
        return Feedback(True, _("{move} attacks the enemy {king}: check.").format(
            move=text, king=vname))
    return Feedback(False, _("{move} does not attack the enemy {king}; after it the {king} "
                             "is not in check.").format(move=text, king=vname))


# -- commentary ------------------------------------------------------------------------------

def commentary(game: Game, ply: int) -> str:
    """One line of commentary on move ``ply`` (1 = the first move) of ``game``.

    Written from the rules, for replaying games in class: which tavrel moved,
    whether it split or carried a tower, whom it took prisoner (and how many
    enemy tavrels came with the tower), whom a split freed, promotions --
    including a ratnik promoted because a split uncovered it on its far rank --
    and check or mate. Die rolls in the game are skipped over.

    >>> g = Game(); _ = g.play("e2-e4 d7-d5 e4xd5")
    >>> commentary(g, 3)
    '2. e4xd5: the white ratnik takes the black ratnik on d5 prisoner'
    """
    moves = game.moves
    if not 1 <= ply <= len(moves):
        raise TavreiError(f"ply {ply} is outside the game (1..{len(moves)})")
    move = moves[ply - 1]
    index = [i for i, a in enumerate(game.history) if isinstance(a, Move)][ply - 1]
    before, after = game.positions[index], game.positions[index + 1]
    me = before.turn
    g = before.geometry
    frm, to = g.name(move.from_square), g.name(move.to_square)

    ru = get_language() == "ru"

    def name(position: Any, t: Tavrel) -> str:
        piece = position.pieces.by_kind[t.acting_kind]
        if ru:
            side = _("{piece} of white") if t.color == 0 else _("{piece} of black")
            return side.format(piece=piece.russian)
        return f"{COLOR_NAMES[t.color]} {piece.name}"

    def kind_name(position: Any, t: Tavrel) -> str:
        piece = position.pieces.by_kind[t.acting_kind]
        return piece.russian if ru else piece.name

    if move.castling:
        short = move.to_square > move.from_square
        line = ((_("white castles short") if short else _("white castles long")) if me == 0
                else (_("black castles short") if short else _("black castles long")))
    else:
        tower, target = before.board[move.from_square], before.board[move.to_square]
        if not target:
            action = _("goes to {to}").format(to=to)
        elif target[-1].color == me:
            action = _("lands on its own {own} on {to}").format(
                own=kind_name(before, target[-1]), to=to)
        elif len(target) == 1:
            action = _("takes the {victim} on {to} prisoner").format(
                victim=name(before, target[-1]), to=to)
        else:
            enemy = sum(1 for t in target if t.color != me)
            action = ngettext("takes the tower of {height} on {to} prisoner ({count} enemy "
                              "tavrel in it)",
                              "takes the tower of {height} on {to} prisoner ({count} enemy "
                              "tavrels in it)", enemy).format(height=len(target), to=to,
                                                              count=enemy)
        mover = name(before, tower[-1])
        if move.count < len(tower):
            line = _("the {tavrel} splits the tower on {square} (takes {count} of {height}) "
                     "and {action}").format(tavrel=mover, square=frm, count=move.count,
                                            height=len(tower), action=action)
        elif len(tower) > 1:
            line = _("the {tavrel} carries its tower of {height} from {square} and "
                     "{action}").format(tavrel=mover, height=len(tower), square=frm,
                                        action=action)
        else:
            line = _("the {tavrel} {action}").format(tavrel=mover, action=action)
        landed = after.board[move.to_square][-1]
        if landed.promoted and not tower[-1].promoted:
            line += _(", and is promoted to its destiny: a {tavrel}!").format(
                tavrel=name(after, landed))
        if move.count < len(tower):
            left = after.board[move.from_square][-1]
            if left.color != me:
                line += _("; this frees the {tavrel} left on {square}").format(
                    tavrel=name(after, left), square=frm)
            elif left.promoted and not tower[len(tower) - move.count - 1].promoted:
                line += _("; the ratnik left on {square} is uncovered on its far rank and "
                          "becomes a {tavrel}").format(square=frm, tavrel=name(after, left))
    if game.rules.is_check(after) and not game.rules.is_chance_node(after):
        line += _(" -- mate!") if not game.rules.legal_moves(after) else _(" -- check")
    number = before.fullmove_number
    return f"{number}{'.' if me == 0 else '...'} {write_move(before, move)}: {line}"


# -- die games -----------------------------------------------------------------------------

def faces_that_save_the_king(game: Game) -> set[str]:
    """At a die roll where the roller's king is attacked: the faces after which
    some legal move leaves it unattacked.

    Each face is tried through the rules themselves (``apply_roll``), so the
    hierarchy rule, skip faces and passes are decided exactly as in a game: a
    face that passes the turn saves nothing.
    """
    rules = game.rules
    pos = game.position
    if not rules.is_chance_node(pos):
        raise TavreiError("this is not a die roll: the die must be rolled next")
    me = pos.turn
    good = set()
    for face, _p in rules.chance_outcomes(pos):
        after_roll = rules.apply_roll(pos, face)
        if after_roll.turn != me or rules.is_chance_node(after_roll):
            continue  # a skip face, or no move for this face: the turn passed
        for m in rules.legal_moves(after_roll):
            after = rules.apply(after_roll, m)
            ks = after.king_square(me)
            if ks is not None and not rules.is_attacked(after, ks, 1 - me):
                good.add(face)
                break
    return good


def check_saving_faces(game: Game, answer: Iterable[str] | str | None) -> Feedback:
    """Which die faces let the side to roll save its attacked king?"""
    if answer is None:
        return _no_answer("faces such as 'K Q'")
    faces = [f for f, _ in game.chance_outcomes()]
    upper = {f.upper(): f for f in faces}
    given = set()
    for a in _squares(answer):
        if a.upper() not in upper:
            return Feedback(False, _("{answer} is not a face of this die ({faces}).").format(
                answer=repr(a), faces=", ".join(faces)))
        given.add(upper[a.upper()])
    good = faces_that_save_the_king(game)

    def in_die_order(chosen: set[str]) -> str:
        return ", ".join(f for f in faces if f in chosen)

    probability = sum(p for f, p in game.chance_outcomes() if f in good)
    if given == good:
        return Feedback(True, _("{faces}: the chance of rolling one of them is "
                                "{percent}.").format(faces=in_die_order(good) or _("none"),
                                                     percent=f"{probability:.0%}"))
    notes = []
    if given - good:
        notes.append(_("{faces}: no move such a face allows leaves the king safe").format(
            faces=in_die_order(given - good)))
    if good - given:
        notes.append(_("{faces} missing: such a face allows a saving move -- remember the "
                       "hierarchy, a face lets every lower piece move too").format(
            faces=in_die_order(good - given)))
    return Feedback(False, "; ".join(notes) + ".")


# -- exercises -------------------------------------------------------------------------------

Checker = Callable[[Game, Any], Feedback]

#: How a learner answers an exercise: by playing the move on the board, by clicking
#: squares on it, or by typing a word or a number.
ANSWER_KINDS = ("move", "squares", "text")


@dataclass
class Exercise:
    """A puzzle: a position, a question and a checker, shown as a board in notebooks."""

    key: str
    title: str
    prompt: str
    position: str | None
    checker: Checker
    variant: str = "tavreli"
    hint: str = ""
    moves: str = ""
    #: squares to highlight on the board (e.g. the tower the question is about)
    focus: tuple[str, ...] = field(default_factory=tuple)
    #: candidate answers a teacher's "solution" button tries (None: legal moves)
    candidates: Callable[[Game], Iterable[Any]] | None = None
    #: "move" (played on the board), "squares" (clicked on it) or "text" (typed)
    answer: str = "text"
    #: rule options the variant is loaded with (``{"own_towers": False}``): a puzzle
    #: about what one option changes
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.answer not in ANSWER_KINDS:
            raise TavreiError(f"exercise {self.key!r}: answer must be one of "
                              f"{', '.join(ANSWER_KINDS)}, not {self.answer!r}")

    def game(self) -> Game:
        """A fresh game at the puzzle's position (answers never change it)."""
        g = Game(self.variant, self.position, **self.options)
        if self.moves:
            g.play(self.moves)
        return g

    def check(self, answer: Any) -> Feedback:
        """Check an answer; a wrong one is explained.

        An answer longer than ``MAX_ANSWER_CHARS`` is not read (its feedback would
        quote it whole: a pasted 100 KB answer came back as 100 KB of feedback)."""
        size = len(answer) if isinstance(answer, str) else len(str(answer)) \
            if isinstance(answer, (list, tuple, set)) else 0
        if size > MAX_ANSWER_CHARS:
            return Feedback(False, _("that answer is {size} characters long; an answer is "
                                     "at most {limit} (a move, a few squares or a "
                                     "name).").format(size=size, limit=MAX_ANSWER_CHARS))
        return self.checker(self.game(), answer)

    def solutions(self) -> list[str]:
        """Every answer the checker accepts among the candidates (for the teacher).

        Move puzzles try every legal move, so this is how a teacher sees all the
        solutions without knowing them in advance.
        """
        game = self.game()
        cands = (self.candidates(game) if self.candidates is not None
                 else [game.move_text(m) for m in game.legal_moves()])
        return [str(c) for c in cands if self.checker(game, c)]

    def board_svg(self, size: int = 360, *, hint: bool = False,
                  marked: Iterable[str] = ()) -> str:
        """The puzzle's board; ``hint`` tints the focus squares, ``marked`` shows clicked ones."""
        g = self.game()
        squares = [g.position.geometry.parse(s) for s in self.focus]
        selected = squares[0] if squares and self.answer == "text" else None
        highlights = [(s, "green") for s in self.focus] if hint else []
        return board_svg(g.position, size=size, selected=selected, highlights=highlights,
                         destinations=list(marked) or None,
                         lastmove=g.moves[-1] if g.moves else None)

    def _repr_html_(self, board_size: int = 360) -> str:
        try:
            board = self.board_svg(board_size)
        except ImportError:  # rendering not installed: the text board still teaches
            board = f"<pre>{html.escape(self.game().position.text())}</pre>"
        return (f"<div><h3>{html.escape(_(self.title))}</h3>{board}"
                f"<p style='font-size:1.15em'>{html.escape(_(self.prompt))}</p></div>")

    def widget(self, board_size: int | None = 360, lesson: Lesson | None = None,
               projector: bool = False) -> Any:
        """The puzzle on a live board, as in lichess's lessons (``PuzzleWidget``).

        A move puzzle is solved by playing the move on the board (a wrong one is
        taken back with the checker's explanation); a squares puzzle by clicking
        the squares; the others by typing the answer. The hint waits behind a
        button. ``board_size`` is the board's width in pixels; ``projector=True``
        uses the board's projector mode (large, readable from the back of a
        room); ``lesson`` counts this puzzle in a notebook's progress.
        """
        from tavrei_lab.widgets.puzzle import PuzzleWidget
        return PuzzleWidget(self, board_size=board_size, lesson=lesson, projector=projector)


class Lesson:
    """The puzzles of one notebook and which of them are solved: "2 of 3 solved".

    Puzzle widgets report to their lesson when solved; whoever shows the
    progress listens (``on_change``). Solving a puzzle twice counts once.

    >>> lesson = Lesson("free-the-luchnik", "ratnik-destiny")
    >>> lesson.solve("ratnik-destiny"); lesson.progress_text()
    '1 of 2 solved'
    """

    def __init__(self, *keys: str) -> None:
        for key in keys:
            exercise(key)  # an unknown key is an error now, not when the puzzle opens
        self.keys: list[str] = list(keys)
        self.solved: set[str] = set()
        self._listeners: list[Callable[[Lesson], None]] = []

    def solve(self, key: str) -> None:
        """Count ``key`` as solved (a puzzle outside the lesson joins it: a teacher's
        own ``Exercise`` counts too)."""
        if key not in self.keys:
            self.keys.append(key)
        if key not in self.solved:
            self.solved.add(key)
            for listener in list(self._listeners):
                listener(self)

    def on_change(self, listener: Callable[[Lesson], None], *, remove: bool = False) -> None:
        """Call ``listener(lesson)`` when a puzzle is solved; ``remove=True`` stops that.

        A puzzle widget that is closed or replaced removes its listener, or the
        lesson would keep every puzzle ever shown alive (and update it)."""
        if remove:
            self._listeners = [f for f in self._listeners if f != listener]  # bound methods: ==
        else:
            self._listeners.append(listener)

    def progress_text(self) -> str:
        return _("{solved} of {total} solved").format(solved=len(self.solved),
                                                      total=len(self.keys))

    def _repr_html_(self) -> str:
        stars = "".join("&#9733;" if k in self.solved else "&#9734;" for k in self.keys)
        return f"<b>{stars}</b> {self.progress_text()}"


def describe_tower(position: Any, square: str) -> str:
    """The tower on ``square`` in words, bottom to top, with its owner::

        d5: black ratnik  /  white ratnik  /  black knyaz    (bottom -> top; black's tower)

    A single tavrel is not a tower, and is described as one. In Russian the names
    stay in the nominative: "d5: ратник чёрных  /  ратник белых  /  князь чёрных".
    """
    tower = position.tower(square)
    if not tower:
        return _("{square}: empty").format(square=square)
    names = position.pieces.by_kind
    if get_language() == "ru":
        layers = [(_("{piece} of white") if t.color == 0 else _("{piece} of black")).format(
            piece=names[t.acting_kind].russian) for t in tower]
    else:
        layers = [f"{COLOR_NAMES[t.color]} {names[t.acting_kind].name}" for t in tower]
    if len(tower) == 1:
        return _("{square}: {tavrel} (a single tavrel, not a tower)").format(
            square=square, tavrel=layers[0])
    owner = (_("bottom -> top; white's tower") if tower[-1].color == 0
             else _("bottom -> top; black's tower"))
    return f"{square}: " + "  /  ".join(layers) + f"    ({owner})"


def _piece_candidates(game: Game) -> list[str]:
    return [p.name for p in game.position.pieces]


def _square_candidates(square: str) -> Callable[[Game], list[str]]:
    return lambda game: [" ".join(sorted(destinations(game, square)))]


def _count_candidates(game: Game) -> list[int]:
    return list(range(0, 33))


def _build_exercises() -> dict[str, Exercise]:
    kupreichik = recorded_game(2)["moves"]
    ex = [
        Exercise(
            "first-prisoner", "Take your first prisoner",
            "White to move. Take a black tavrel prisoner: move onto it.",
            None, check_takes_prisoner, moves="e2-e4 d7-d5", answer="move", focus=("e4",),
            hint="A ratnik takes one square diagonally forward, like a pawn."),
        Exercise(
            "luchnik-analogue", "Name the analogue",
            "Which chess piece moves like the luchnik (лучник)?",
            None, lambda g, a: check_chess_analogue(g, "luchnik", a), focus=("c1",),
            hint="лучник means 'archer': it shoots along diagonals.",
            candidates=lambda g: [p.english for p in g.position.pieces]),
        Exercise(
            "vsadnik-squares", "Where can the vsadnik go?",
            "List every square the white vsadnik (всадник) on b1 can move to at the start.",
            None, lambda g, a: check_destinations(g, "b1", a), focus=("b1",),
            hint="A tavrel may also step onto its own pieces, forming a tower.",
            candidates=_square_candidates("b1"), answer="squares"),
        Exercise(
            "count-prisoners", "Count the prisoners",
            "After this little skirmish, how many black tavrels does white hold prisoner?",
            None, lambda g, a: check_prisoners(g, a, color=0),
            moves="e2-e4 d7-d5 e4xd5 d8xd5 b1-c3 d5xa2 a1xa2", focus=("a2",),
            hint="Look inside every white-topped tower.",
            candidates=_count_candidates),
        Exercise(
            "free-the-luchnik", "Find the split that frees your luchnik",
            "Your ratoborets (ратоборец) on d4 stands on a black vsadnik, which stands on "
            "your luchnik (лучник). Free the luchnik with one move.",
            "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1",
            lambda g, a: check_frees(g, a, "d4", 4), focus=("d4",), answer="move",
            hint="Choose how many tavrels to take from the top: start from that layer of "
                 "the tower's strip (click or drag it), or write d4(2)-... for two."),
        Exercise(
            "free-the-vsadnik", "Dig out your vsadnik",
            "Your vsadnik (всадник) lies at the bottom of the tower on c3, under two black "
            "prisoners and your ratoborets. Free it with one move.",
            "4v3/8/8/8/8/2(SrlR)5/8/4V3 w - 0 1",
            lambda g, a: check_frees(g, a, "c3", 5), focus=("c3",), answer="move",
            hint="Count the tavrels above the vsadnik: all of them must leave together. "
                 "And mind your volkhv on e1 -- what would a black luchnik on top see?"),
        Exercise(
            "ratnik-destiny", "What does this ratnik become?",
            "This white ratnik (ратник) on c7 began the game on e2. What will it become "
            "on c8?",
            "4v3/2P:H'5/8/8/8/8/8/4V3 w - 0 1",
            lambda g, a: check_promotion(g, "c7", a), focus=("c7",),
            hint="A ratnik's destiny is the piece it stood in front of.",
            candidates=_piece_candidates),
        Exercise(
            "escape-onto-a-tower", "Save the volkhv",
            "White's volkhv (волхв) on g1 is in check. Find a way out.",
            "4v3/8/8/8/8/8/5(P:LS)P:SP:R/4r1V1 w - 0 1",
            check_escape, focus=("g1",), answer="move",
            hint="The volkhv may step onto towers -- its own too -- if the square is safe."),
        Exercise(
            "mate-in-one", "Mate in one (Anderson - Zhmurov, Moscow 1997)",
            "Black to move and mate at once, as Zhmurov did in this tournament game.",
            None, check_mate_in_one, focus=("e1",), answer="move",
            moves=("h1-h2 e7-e5 e2-e3 g8-f6 d2-d4 b8-c6 g1-f3 d7-d6 f1-e2 f8-d6 h2(1)-h1 "
                   "d8-d6 h2-h3 c8-e6 b1-a3 a8-a7 c2-c3 a7-a3 b2-a3 d6(1)-a3 c1-a3 d6(1)-a3 "
                   "a1-b1 a3(2)-b4 g2-g3 a3(2)-c3 e1-f1 a3-a2 f1-g2 0-0 h1-e1 f8-a8 d1-d3 "
                   "e5-e4 d3-b5 e4-f3 e2-f3 c3-e1 b1-e1 b4-e1 b5-b7 a2(1)-f2 g2-g1"),
            hint="Black tavrels lie inside the tall tower on e1. Which of them would act if "
                 "the tavrels above it moved away?"),
        Exercise(
            "discovered-check", "Check by splitting",
            "Your vsadnik on e2 stands on your own ratoborets. Give check to the black "
            "volkhv by splitting the tower.",
            "4v3/8/8/8/8/8/4(RS)3/V7 w - 0 1", check_discovered_check, focus=("e2",),
            answer="move",
            hint="A covered tavrel does not attack. What does the ratoborets see once the "
                 "vsadnik has gone?"),
        Exercise(
            "die-save-the-king", "Which faces save the king?",
            "Gavrilov's chess-die game: the black rook attacks your king, and you are about "
            "to roll. Which faces let you save the king? (List them, e.g. 'K N'.)",
            "3k2/6/6/4N1/6/2K2r w - 0 1", check_saving_faces, variant="gavrilov-die",
            focus=("c1",),
            hint="A face lets you move its own piece type and every type below it: "
                 "King > Queen > Rook > Bishop > Knight > Pawn.",
            candidates=lambda g: [" ".join(faces_that_save_the_king(g))]),
        Exercise(
            "die-take-the-king", "Win with one move (chess-die game)",
            "Gavrilov's chess-die game: you rolled a knight, and the black king stands "
            "unguarded. Win the game with one move.",
            "3k2/6/4N1/6/6/2K2r w - 0 1", lambda g, a: check_takes_prisoner(g, a),
            variant="gavrilov-die", moves="@N", focus=("d6",), answer="move",
            hint="In this game a move may land on the enemy king: it is taken prisoner, and "
                 "that wins. Which of your pieces does the knight face allow?"),
        Exercise(
            "check-through-your-own", "Check through your own tavrels",
            "In this variant (tavreli-pass-over-own) the knyaz, ratoborets, luchnik and "
            "helgi pass over their own tavrels. White to move: give check.",
            "4v3/8/8/8/8/8/P:R3P:H3/R5V1 w - 0 1", check_gives_check,
            variant="tavreli-pass-over-own", focus=("a1",), answer="move",
            hint="In ordinary Tavreli the white ratniks block the ratoborets. Here they "
                 "do not: which lines reach the black volkhv?"),
        Exercise(
            "no-own-towers", "When own_towers is off",
            "This board plays Tavreli with the option own_towers off: no tavrel may land "
            "on its own. Click every square the white vsadnik (всадник) on d4 may move to, "
            "then Check.",
            "4v3/8/2p:K5/8/3S4/1P:L3R2/4P:H3/4V3 w - 0 1",
            lambda g, a: check_destinations(g, "d4", a), focus=("d4",),
            options={"own_towers": False}, candidates=_square_candidates("d4"),
            answer="squares",
            hint="A vsadnik leaps as a knight does, to eight squares. Landing on a white "
                 "tavrel is what the option forbids; landing on a black one still takes "
                 "it prisoner."),
        Exercise(
            "kupreichik-mate", "Mate in one (Karpov - Kupreichik, Moscow 1997)",
            "White to move and mate at once, as A. Karpov did in this tournament game.",
            None, check_mate_in_one, moves=" ".join(kupreichik[:-1]), answer="move",
            focus=("f5",),  # the black volkhv
            hint="Look at every square next to the black volkhv: which ones could it escape "
                 "to, and which white tavrel could cover them all while giving check?"),
        Exercise(
            "mate-without-stacking", "Mate when the volkhv never stacks",
            "In the variant tavreli-king-never-stacks the volkhv may not step onto towers. "
            "Black to move: mate the white volkhv at once.",
            "v3r3/8/8/8/8/8/5(P:LS)P:SP:R/6V1 b - 0 1", check_mate_in_one,
            variant="tavreli-king-never-stacks", focus=("g1",), answer="move",
            hint="The white volkhv is boxed in by its own tavrels, and here it may not "
                 "step onto them. Attack it along its rank."),
    ]
    return {e.key: e for e in ex}


#: The ready-made puzzles the tutorials and the classroom demo use, by key.
EXERCISES: dict[str, Exercise] = _build_exercises()


def exercise(key: str) -> Exercise:
    """A ready-made exercise by key (see ``EXERCISES``)."""
    try:
        return EXERCISES[key]
    except KeyError:
        raise TavreiError(f"no exercise {key!r}; known: {', '.join(EXERCISES)}") from None
