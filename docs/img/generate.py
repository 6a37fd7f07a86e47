"""Draw the README's pictures: a board full of towers, and a small game tree.

Run from the repository root after installing the package:

    python docs/img/generate.py

It writes ``docs/img/board.svg`` (the final position of Potapov - Svirin,
Moscow 1998, from the recorded games: black's split uncovers a ratnik on its
far rank, which becomes a helgi and mates) and ``docs/img/tree.svg`` (every
way out of a check, each with a thumbnail: the volkhv steps onto its own
tavrels). Both come from the package's own renderers, so re-running this after
a change to the drawing code refreshes the README.
"""

from __future__ import annotations

from pathlib import Path

from tavrei_lab import Game, tree
from tavrei_lab.data import recorded_game
from tavrei_lab.render import board_svg
from tavrei_lab.render.tree import draw_svg

HERE = Path(__file__).resolve().parent
ESCAPE = "4v3/8/8/8/8/8/5(P:LS)P:SP:R/4r1V1 w - 0 1"


def main() -> None:
    game = Game()
    game.play(" ".join(recorded_game(3)["moves"]))
    # the strips as the widget draws them: letters at least 12 px, lower layers as stripes
    board = board_svg(game.position, lastmove=game.moves[-1], size=420, letter_px=12)
    (HERE / "board.svg").write_text(board, encoding="utf-8")
    escape = tree.build(Game(position=ESCAPE), 1)
    (HERE / "tree.svg").write_text(draw_svg(escape, thumbnails=True), encoding="utf-8")
    for name in ("board.svg", "tree.svg"):
        print(f"{HERE / name}: {(HERE / name).stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
