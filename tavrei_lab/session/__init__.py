"""The board without a page: ``BoardSession`` holds a board's game, line, half-made
choice, marks, hint and players, and every action on it returns an ``Update`` (what
the view must show). Nothing here imports a widget library: the widgets show a
session, and a test or a script plays whole games through one.

    >>> from tavrei_lab.session import BoardSession
    >>> session = BoardSession()
    >>> "e3, e4" in session.click("e2").message
    True
"""

from tavrei_lab.session.board import MAX_COMPUTER_PLIES, BoardSession, MoveListener, Update
from tavrei_lab.session.squares import square_index

__all__ = ["MAX_COMPUTER_PLIES", "BoardSession", "MoveListener", "Update", "square_index"]
