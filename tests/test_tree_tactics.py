"""Tactic finders: each finds its tactic (with the right move) and finds nothing without it."""

from __future__ import annotations

import pytest

from tavrei_lab import Game
from tavrei_lab.tree import tactics

# (finder, a position with the tactic, its key move, a position without it)
CASES = [
    # d4 holds (white ratnik, black vsadnik, white luchnik): the luchnik carries the
    # vsadnik off and the ratnik is free. Without the ratnik below, nothing is freed.
    (tactics.free_prisoners_by_split, "4v3/8/8/8/3(P:K'sL)4/8/8/4V3 w - 0 1", "d4(2)-e5",
     "4v3/8/8/8/3(sL)4/8/8/4V3 w - 0 1"),
    # e4 holds (ratoborets, luchnik): the luchnik steps off and the ratoborets checks e8.
    # On d4 the uncovered ratoborets does not see the volkhv.
    (tactics.discovered_check_by_split, "4v3/8/8/8/4(RL)3/8/8/V7 w - 0 1", "e4(1)-f5",
     "4v3/8/8/8/3(RL)4/8/8/V7 w - 0 1"),
    # Checked on the e-file, the volkhv steps onto its own ratoborets on d1.
    (tactics.volkhv_escape, "4r2v/8/8/8/8/8/8/3RV3 w - 0 1", "e1xd1",
     "4r2v/8/8/8/8/8/8/4V3 w - 0 1"),
    # The ratoborets takes a tower of three: two black tavrels become prisoners.
    (tactics.capture_tall_tower, "7v/8/8/8/R2(P:K'p:S's)4/8/8/4V3 w - 0 1", "a4xd4",
     "7v/8/8/8/R2s4/8/8/4V3 w - 0 1"),
    # The vsadnik forks volkhv and ratoborets from c7; without the ratoborets, no fork.
    (tactics.fork, "r3v3/8/8/1S6/8/8/8/4V3 w - 0 1", "b5-c7",
     "4v3/8/8/1S6/8/8/8/4V3 w - 0 1"),
]


@pytest.mark.parametrize(("finder", "yes", "move", "no"), CASES,
                         ids=[c[0].__name__ for c in CASES])
def test_finder_finds_the_tactic_and_nothing_where_there_is_none(finder, yes, move,  # noqa: ANN001
                                                                  no) -> None:
    found = finder(Game(position=yes))
    assert found and move in found.moves
    assert found.tree is not None
    key_edges = [e for e in found.tree.edges if found.tree.edges[e].get("tactic")]
    assert {found.tree.edges[e]["move"] for e in key_edges} == set(found.moves)
    assert all(found.tree.edges[e]["note"].startswith(found.tree.edges[e]["move"])
               for e in key_edges)
    assert "value" in found.tree.nodes[0]
    nothing = finder(Game(position=no))
    assert not nothing and nothing.moves == [] and nothing.tree is None
    assert "nothing found" in str(nothing)


def test_the_facts_behind_each_tactic() -> None:
    free = tactics.free_prisoners_by_split(Game(position=CASES[0][1]))
    assert len(free.moves) == 13                  # every luchnik move of the top two
    assert free.facts["d4(2)-e5"] == {"freed": "white ratnik", "square": "d4",
                                      "own_left": 1, "prisoners_carried": 1}
    disc = tactics.discovered_check_by_split(Game(position=CASES[1][1]))
    assert disc.facts["e4(1)-g6"]["double"] is True     # the luchnik checks from g6 too
    assert disc.facts["e4(1)-f5"] == {"checker": "white ratoborets on e4", "double": False}
    assert disc.move in ("e4(1)-g6", "e4(1)-c6")        # double checks come first
    esc = tactics.volkhv_escape(Game(position=CASES[2][1]))
    assert esc.moves == ["e1xd1"] and esc.facts["e1xd1"]["height"] == 2
    tall = tactics.capture_tall_tower(Game(position=CASES[3][1]))
    assert tall.facts["a4xd4"] == {"height": 3, "prisoners": 2, "rescued": 1}
    assert tactics.capture_tall_tower(Game(position=CASES[3][1]), min_height=4).moves == []
    fork = tactics.fork(Game(position=CASES[4][1]))
    assert fork.moves == ["b5-c7"]
    assert fork.facts["b5-c7"]["targets"] == ["a8", "e8"] and fork.facts["b5-c7"]["check"]


def test_defended_targets_worth_less_than_the_attacker_make_no_fork() -> None:
    # From c7 the vsadnik would attack the ratniks on a6 and e6. Undefended, they are a
    # fork; guarded by the ratniks on b7 and f7 (worth less than a vsadnik), they are not.
    loose = tactics.fork(Game(position="7v/8/p:R3p:H3/3S4/8/8/8/4V3 w - 0 1"))
    assert loose.moves == ["d5-c7"]
    assert loose.facts["d5-c7"] == {"targets": ["a6", "e6"], "check": False,
                                    "unit_worth": 3.0}
    guarded = tactics.fork(Game(position="7v/1p:S3p:L2/p:R3p:H3/3S4/8/8/8/4V3 w - 0 1"))
    assert not guarded
    # A ratoborets is worth more than the vsadnik: defended or not, it is a target.
    assert tactics.fork(Game(position="rl2v3/8/8/1S6/8/8/8/4V3 w - 0 1")).moves == ["b5-c7"]


def test_best_move_per_face_in_the_die_game() -> None:
    def prisoners_held(position) -> float:  # noqa: ANN001
        white = sum((1 if t[-1] & 1 == 0 else -1) for t in position.board
                    for x in t[:-1] if t and x & 1 != t[-1] & 1)
        return white if position.turn == 0 else -white

    game = Game("gavrilov-die", "5k/6/6/R1p:Q3/6/K5 w - 0 1")
    best = tactics.best_move_per_face(game, evaluate=prisoners_held)
    assert best and best.moves == ["a3xc3"]
    assert {f: v["move"] for f, v in best.facts.items()} == {
        "K": "a3xc3", "Q": "a3xc3", "R": "a3xc3", "B": None, "N": None, "P": None}
    assert sum(v["probability"] for v in best.facts.values()) == pytest.approx(1)
    assert best.tree is not None and best.tree.nodes[0]["type"] == "chance"
    marked = [e for e in best.tree.edges if best.tree.edges[e].get("tactic")]
    assert len(marked) == 3
    # a face already showing is ignored: the question is "what if the die shows ..."
    rolled = Game("gavrilov-die", "5k/6/6/R1p:Q3/6/K5 w - 0 1 @N")
    assert rolled.legal_moves() == []  # (white has no knight or pawn: @N would pass)
    assert tactics.best_move_per_face(rolled, evaluate=prisoners_held).moves == ["a3xc3"]
    # nothing without a die, and nothing once the game is over
    assert not tactics.best_move_per_face(Game())
    over = Game("gavrilov-die", "5k/6/6/6/6/(KR)5 w - 0 1".replace("(KR)", "(Kr)"),)
    assert over.outcome() is not None
    assert not tactics.best_move_per_face(over)


def test_find_all_runs_every_finder() -> None:
    found = tactics.find_all(Game(position="r3v3/8/8/1S6/8/8/8/4V3 w - 0 1"))
    assert "fork" in found and "free-prisoners-by-split" not in found
    assert set(tactics.FINDERS) == {"free-prisoners-by-split", "discovered-check-by-split",
                                    "volkhv-escape", "capture-tall-tower", "fork",
                                    "best-move-per-face"}


def test_a_tactic_shows_its_tree_and_nothing_without_one() -> None:
    """The picture comes from render through the core.pictures seam (tree never imports it)."""
    found = tactics.fork(Game(position=CASES[4][1]))
    svg = found._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and 'class="node decision' in svg
    assert tactics.fork(Game(position=CASES[4][3]))._repr_svg_() is None
