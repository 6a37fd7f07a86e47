"""The computer on a board: its moves and the engine's best move.

The computer plays a side through its agent (``players.py`` makes one per
choice, seeded from the game); Computer move lets it play the side to move
once; Best move asks a searching agent for the best move here and shows it
as lichess's analysis board does -- an arrow while the position stays, and
the move, its value and its line in the status -- without playing it.

These functions do the work of ``Board``'s computer moves and Best move
(``widgets/board.py``), kept out of the widget's class so they read on their own; the board's
methods, with their docstrings, call them and stay its public API, unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.widgets.players import HUMAN
from tavrei_lab.widgets.status import move_said

if TYPE_CHECKING:
    from tavrei_lab.widgets.board import Board


def agent(board: Board, color: int) -> Any:
    """``Board._agent``'s work."""
    return board.players.agent(color, board.game.seed)


def computer_move(board: Board) -> None:
    """``Board.computer_move``'s work."""
    game = board.game
    if game.outcome() is not None:
        board._after_change([_("The game is over.")])
        return
    messages = []
    if game.is_chance_node():
        messages.append(board._roll_once())
        if game.is_chance_node() or game.outcome() is not None:
            board._after_change(messages)
            return
    spec = board.player(game.position.turn)
    from tavrei_lab.engine.agents import make_agent
    agent = board._agent(game.position.turn) if spec != HUMAN else make_agent("random",
                                                                              game.seed)
    move = agent.choose(game)
    messages.append(board._computer_text(move, agent))
    if not board._along_the_line(move):
        board.game.push(move)
    board._slide(move)
    board._close_choices()
    board._after_change(messages + board._continue())


def best_move(board: Board, agent: str = "play:1s") -> None:
    """``Board.best_move``'s work."""
    game = board.game
    if game.outcome() is not None:
        board._after_change([_("The game is over: there is no move to look for.")])
        return
    if game.is_chance_node():
        board._after_change([_("Roll the die first: the best move depends on the face.")])
        return
    from tavrei_lab.engine.agents import SearchAgent, make_agent
    searcher = board._hint_agents.get(agent)
    if searcher is None:
        searcher = make_agent(agent, seed=0)
        if not isinstance(searcher, SearchAgent):
            raise TavreiError(f"best_move needs an agent that searches (play:1s, "
                              f"alphabeta:3, level:5 ...), not {agent!r}")
        board._hint_agents[agent] = searcher
    move = searcher.choose(game)
    result = searcher.last
    pos = game.position
    names = pos.geometry.names
    board._hint = (pos, (names[move.from_square], names[move.to_square], "blue"))
    said = move_said(game, move, checks=True)
    fill: dict[str, Any] = {"agent": searcher.name, "move": said}
    if result is None:
        text = _("Engine ({agent}): {move} is best.").format(**fill)
    else:
        value = result.value if pos.turn == WHITE else -result.value
        fill["depth"] = result.depth
        if abs(value) > 9000:
            plies = round(10000 - abs(value))
            fill["plies"] = plies
            if value > 0:
                text = ngettext("Engine ({agent}): {move} is best; white mates in {plies} "
                                "ply (depth {depth}).",
                                "Engine ({agent}): {move} is best; white mates in {plies} "
                                "plies (depth {depth}).", plies).format(**fill)
            else:
                text = ngettext("Engine ({agent}): {move} is best; black mates in {plies} "
                                "ply (depth {depth}).",
                                "Engine ({agent}): {move} is best; black mates in {plies} "
                                "plies (depth {depth}).", plies).format(**fill)
        else:
            fill["value"] = f"{value:+.2f}"
            text = _("Engine ({agent}): {move} is best; {value} for white "
                     "(depth {depth}).").format(**fill)
        line, after = [], pos
        for step in result.pv[:6]:
            line.append(game.move_text(step, after))
            after = game.rules.apply(after, step)
        if len(line) > 1:
            text += " " + _("Line: {moves}.").format(moves=" ".join(line))
    board._after_change([text])


__all__ = ["agent", "computer_move", "best_move"]
