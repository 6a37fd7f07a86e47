"""Widgets for notebooks: the board you click, and a position editor for teachers.

Public names::

    from tavrei_lab.widgets import Board, PositionEditor, BoardView, TreeView

    Board()                                   # Tavreli, two human players
    Board(game)                               # an existing Game
    Board(variant="gavrilov-die", seed=3)     # a seeded die game (Roll button)
    Board(black="random")                     # play against an agent from AGENTS
    PositionEditor()                          # set up a position, then play it

- ``Board`` -- the board with its controls: play by clicking or by dragging
  (a layer of a tower's strip, a row of the tower inspector beside the board,
  or the Take selector, chooses how many tavrels move), undo/
  redo, flip, the move list (click a move, first/previous/next/last, left and
  right arrow keys when the board has focus), new game of any variant, game
  records (load, save, download, open a file), position strings (set, copy),
  the die (Roll, automatic rolls), the computer on either side. The status
  line explains illegal clicks and announces check, mate, stalemate, draws,
  skips and passes. ``board.game`` is the ``Game``. ``Board(projector=True)``
  is sized for a classroom projector and grows to the room it has (``board.size_slider``
  scales any board); ``Board(language="ru")`` shows every word in Russian;
  ``board.arrows``/``board.highlights``
  are a teacher's marks; ``board.on_move``/``board.reject`` let a lesson
  judge each move and take a wrong one back with a reason.
- ``PositionEditor`` -- a palette of tavrels of both colours: place on top of
  a tower, remove the top, clear, side to move, castling rights; it refuses
  set-ups the rules cannot accept (with the reason) and hands the position to
  a new game on a ``Board``.
- ``TreeView`` -- a game tree (``tavrei_lab.tree.build``) beside a board:
  click a node to see its position and the moves that lead there, double-click
  to fold or unfold it (``widgets.tree``).
- ``BoardView`` -- the drawing surface alone (an anywidget): shows an SVG from
  ``tavrei_lab.render.board_svg`` and reports clicks on ``data-square``
  elements and drops of dragged towers, for building other tools.

Python computes every legal move; the browser draws, drags and reports
(the chessground split), so everything here can be driven from Python by
setting the traits the browser sets (``BoardView.simulate_click``,
``simulate_drop``). Without a
widget front end (a static export) each widget shows its SVG instead.
"""

from tavrei_lab.widgets.board import Board, agent_names
from tavrei_lab.widgets.editor import PositionEditor
from tavrei_lab.widgets.tree import TreeView
from tavrei_lab.widgets.view import BoardView

__all__ = ["Board", "BoardView", "PositionEditor", "TreeView", "agent_names"]
