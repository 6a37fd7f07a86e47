"""The checkers: each says whether an answer to a question about a position is right
and, when it is not, **why** -- in the words of the rules (docs/rules.md), not just
"wrong".

Every checker works out the right answers from the rules themselves (legal
moves, the position after a move, the die's faces); nothing here stores an
expected answer. So a checker stays right when a teacher edits a puzzle's
position, and the puzzles (``puzzles.toml``) stay right if the rules change.
A checker is ``check_*(game, answer, ...) -> Feedback``, usable on any position.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.pieces import ORTHODOX_PIECES
from tavrei_lab.core.tavrel import COLOR_NAMES, KING, PAWN, Tavrel
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import N_, ngettext
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
    kind = tavrel.acting_kind if acting else tavrel.kind
    return speech.tavrel_name(tavrel.color, game.position.pieces.by_kind[kind])


def _king_name(game: Game) -> str:
    return speech.kind_name(game.position.pieces.by_kind[KING])


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
    return speech.kind_with_analogue(game.position.pieces.by_kind[kind])


def _kind_named(game: Game, kind: int) -> str:
    """A kind's name in the language in force: "vsadnik", "всадник"."""
    return speech.kind_name(game.position.pieces.by_kind[kind])


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
        raise TavreiError(_("{name!r} is not a tavrel of {variant}").format(
            name=name, variant=game.variant.id))
    given = _kind_from_name(game, str(answer))
    p = game.position.pieces.by_kind[kind]
    if given == kind:
        piece = speech.by_language(f"the {p.name} ({p.russian})", p.russian)
        return Feedback(True, _("{piece} moves like a {analogue}.").format(
            piece=piece, analogue=_(p.english)))
    if given is None:
        return Feedback(False, _("{answer} is not a piece name I know; try a chess piece "
                                 "such as king, queen, rook, bishop, knight or pawn.").format(
            answer=repr(answer)))
    other = game.position.pieces.by_kind[given]
    return Feedback(False, speech.by_language(
        f"{answer!r} is the {_describe_kind(game, given)}; the {p.name} ({p.russian}) moves "
        "differently. Look at its board again.",
        _("{answer} is the {other}, which moves like a {analogue}; the {piece} moves "
          "differently. Look at its board again.").format(
            answer=repr(answer), other=other.russian, analogue=_(other.english),
            piece=p.russian)))


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
    """The verdict on an answer the game refused, naming the answer once: the game's
    reason often starts by quoting it (``'e2-e5': there is no tower on e2``)."""
    raw = answer if isinstance(answer, str) else f"{answer}"
    text, reason = raw.strip(), str(exc)
    for quoted in dict.fromkeys((repr(raw), repr(text))):
        if reason.startswith(quoted + ": "):
            reason = reason[len(quoted) + 2:]
            break
        if reason.startswith(quoted + " "):       # a sentence about the answer itself
            return Feedback(False, text + reason[len(quoted):])
    return Feedback(False, _("{answer} cannot be played here: {reason}").format(
        answer=text, reason=reason))


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
        raise TavreiError(_("no ratnik on top of {square}").format(square=square))
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
    listing = ", ".join(_("{tavrel} on {square}").format(
        tavrel=_named(game, t, acting=False), square=s) for s, t in held)
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
        raise TavreiError(_("this is not a die roll: the die must be rolled next"))
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

def check_accepted(game: Game, answer: Any, accepted: Iterable[Any],
                   answer_kind: str = "text") -> Feedback:
    """Is ``answer`` one of the ``accepted`` answers? For a puzzle whose right answers a
    teacher lists rather than the rules work out (``checker = "accepted"`` in a puzzle
    file). ``answer_kind``: ``"move"`` (any spelling of the same legal move), ``"squares"``
    (the same squares, in any order) or ``"text"`` (the same words, any case)."""
    accepted = list(accepted)
    if answer_kind == "move":
        move = _answered_move(game, answer)
        if isinstance(move, Feedback):
            return move
        right = {game.find_move(str(a)) for a in accepted}
        said = game.move_text(move)
        if move in right:
            return Feedback(True, _("{answer} is the answer.").format(answer=said))
        return Feedback(False, _("{answer} can be played, but it is not the answer this "
                                 "puzzle asks for.").format(answer=said))
    if answer_kind == "squares":
        if answer is None or (isinstance(answer, str) and not answer.strip()):
            return _no_answer("squares such as 'a3 c3'")
        given = set(_squares(answer))
        if any(given == set(_squares(a)) for a in accepted):
            return Feedback(True, _("{squares}: all of them, and no other.").format(
                squares=" ".join(sorted(given))))
        return Feedback(False, _("{squares} is not the set of squares asked for.").format(
            squares=" ".join(sorted(given)) or "-"))
    if answer is None or not str(answer).strip():
        return _no_answer(N_("a word or a number"))
    text = " ".join(str(answer).split()).casefold()
    if any(text == " ".join(str(a).split()).casefold() for a in accepted):
        return Feedback(True, _("{answer} is the answer.").format(answer=str(answer).strip()))
    return Feedback(False, _("{answer} is not the answer.").format(answer=str(answer).strip()))


Checker = Callable[[Game, Any], Feedback]
