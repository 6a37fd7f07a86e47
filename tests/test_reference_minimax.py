"""The one reference (expecti)minimax (``engine.reference``), on trees small enough to
work out by hand, and proof that both minimax functions of the package go through it.

The hand values below are computed in the comments, not by any code of the package.
"""

from __future__ import annotations

import pytest

from tavrei_lab import Game
from tavrei_lab.engine import reference
from tavrei_lab.engine.reference import Chance, Decision, NodeValue, expectiminimax
from tavrei_lab.engine.search import minimax as engine_minimax
from tavrei_lab.tree import build
from tavrei_lab.tree import minimax as tree_minimax

#: A textbook two-ply tree: the maximiser picks A, B or C, then the minimiser a leaf.
#: min(A) = 3, min(B) = 2, min(C) = 2 -> the root is 3 (A). With alpha-beta, once B's
#: first leaf (2) is seen, B cannot beat A (3): B's other leaves are skipped. C's first
#: leaf is 14 (no cut), its second 5 (no cut), its third 2 (last anyway).
TEXTBOOK = {"root": ["A", "B", "C"],
            "A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"], "C": ["c1", "c2", "c3"]}
LEAVES = {"a1": 3.0, "a2": 12.0, "a3": 8.0, "b1": 2.0, "b2": 4.0, "b3": 6.0,
          "c1": 14.0, "c2": 5.0, "c3": 2.0}


def textbook(node: str) -> float | Decision[str]:
    if node in LEAVES:
        return LEAVES[node]
    return Decision(maximizing=node == "root", children=TEXTBOOK[node])


def search(expand, alphabeta: bool) -> tuple[float, dict]:  # noqa: ANN001
    seen: dict = {}
    value = expectiminimax("root", expand, alphabeta=alphabeta,
                           record=lambda node, found: seen.__setitem__(node, found))
    return value, seen


def test_plain_minimax_visits_every_node_and_every_value_is_exact() -> None:
    value, seen = search(textbook, alphabeta=False)
    assert value == 3.0
    assert set(seen) == {"root", *TEXTBOOK, *LEAVES}
    assert {n: f.value for n, f in seen.items() if n in TEXTBOOK} == {
        "root": 3.0, "A": 3.0, "B": 2.0, "C": 2.0}
    assert all(f.bound == "exact" and not f.pruned for f in seen.values())
    assert seen["root"].best == "A" and seen["C"].best == "c3"


def test_alphabeta_skips_what_cannot_matter_and_marks_bounds() -> None:
    value, seen = search(textbook, alphabeta=True)
    assert value == 3.0
    assert "b2" not in seen and "b3" not in seen            # cut after b1
    assert seen["B"] == NodeValue(2.0, "upper", "b1", ["b2", "b3"])  # "at most 2"
    assert seen["A"] == NodeValue(3.0, "exact", "a1")
    assert seen["C"].bound == "upper" and seen["C"].value == 2.0
    assert seen["root"] == NodeValue(3.0, "exact", "A")


def test_chance_nodes_average_and_follow_the_likeliest_face() -> None:
    # The die shows x (1/6), y (1/2) or z (1/3); after x the maximiser gets max(1, 7) = 7,
    # after y 3, after z -6: 7/6 + 3/2 - 6/3 = 2/3. Alpha-beta changes nothing here.
    tree: dict[str, object] = {
        "root": Chance([("x", 1 / 6), ("y", 1 / 2), ("z", 1 / 3)]),
        "x": Decision(True, ["x1", "x2"]), "y": 3.0, "z": -6.0, "x1": 1.0, "x2": 7.0}

    def expand(node: str) -> float | Decision[str] | Chance[str]:
        return tree[node]  # type: ignore[return-value]

    for alphabeta in (False, True):
        value, seen = search(expand, alphabeta)
        assert value == pytest.approx(2 / 3)
        assert seen["root"].best == "y" and seen["root"].bound == "exact"
        assert seen["x"].best == "x2"


def test_a_decision_without_children_is_refused() -> None:
    with pytest.raises(ValueError, match="no children"):
        expectiminimax("root", lambda node: Decision(True, []))


def test_both_minimax_functions_of_the_package_are_this_one(monkeypatch) -> None:  # noqa: ANN001
    """The engine's reference (positions) and the tree's values (a graph) both get their
    value from ``engine.reference.expectiminimax``: a second minimax would not."""
    calls: list[str] = []
    real = reference.expectiminimax

    def spy(root, expand, **kwargs):  # noqa: ANN001, ANN003, ANN202
        calls.append(type(root).__name__)
        return real(root, expand, **kwargs)

    monkeypatch.setattr(reference, "expectiminimax", spy)
    game = Game()
    engine_minimax(game.rules, game.position, 1)
    assert calls and set(calls) == {"_Line"}             # one call per root move
    calls.clear()
    tree_minimax(build(game, 1, values=False), evaluate=lambda p: 0.0)
    assert calls == ["int"]                              # the graph's root node
