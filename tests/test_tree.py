"""Game trees: node counts equal perft, filters, max_nodes, chance nodes, values."""

from __future__ import annotations

import gc
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.evaluate import MATE
from tavrei_lab.engine.perft import perft
from tavrei_lab.errors import LimitError, NotationError, PositionError
from tavrei_lab.notation.moves import write_move
from tavrei_lab.notation.position_string import write_position
from tavrei_lab.tree import (
    build,
    minimax,
    moves_to,
    nodes_per_depth,
    position_at,
    principal_variation,
)
from tavrei_lab.tree.filters import as_filter, is_capture, is_split
from tavrei_lab.tree.nodes import collector_paused
from tests.conftest import SHARED
from tests.perft_tables import read_table

PERFT_DIR = Path(__file__).resolve().parent / "perft"

#: A white tower on d4: a white ratnik held by a black vsadnik, a white luchnik on top.
TOWER_POSITION = "4v3/8/8/8/3(P:K'sL)4/8/8/4V3 w - 0 1"
#: White to move mates with a1-a8.
MATE_IN_ONE = "4v3/8/4V3/8/8/8/8/R7 w - 0 1"
#: Die game (6x6): white king a1, rook a3; a black pawn on c3; black king f6.
DIE_POSITION = "5k/6/6/R1p:Q3/6/K5 w - 0 1"


def prisoners_held(position) -> float:  # noqa: ANN001 - an evaluation as build() takes it
    """A hand-countable evaluation: enemy tavrels held under own tops, side to move's view."""
    white = 0
    for tower in position.board:
        if not tower:
            continue
        owner = tower[-1] & 1
        for t in tower[:-1]:
            if t & 1 != owner:
                white += 1 if owner == 0 else -1
    return white if position.turn == 0 else -white


def perft_table(game: Game, depth: int) -> list[int]:
    return [perft(game.rules, game.position, d) for d in range(depth + 1)]


# -- node counts equal perft -------------------------------------------------------------
# Against figures this package did not compute: the shared data's independent replay
# (initial position, perft-special.json), orthodox chess's well-known 20 / 400 / 8902, and
# the die game's table, cross-checked by the independent generator in test_die_perft.py.

SPECIAL = json.loads((SHARED / "data" / "perft-special.json").read_text(encoding="utf-8"))
#: The last three are set-ups the rules forbid that the engine once read wrongly;
#: the perft tests hold them. The tree counts the positions of play.
PLAYABLE = [p for p in SPECIAL["positions"] if not p["label"].startswith("set-up only")]


def test_nodes_per_depth_equal_the_independent_initial_figures(games_data: dict) -> None:
    figures = games_data["initial_position_perft"]
    G = build(Game(), 2, values=False)
    assert nodes_per_depth(G) == [1, figures["1"], figures["2"]] == [1, 39, 1519]
    assert nodes_per_depth(build(Game("orthodox"), 3, values=False)) == \
        [1, 20, 400, 8902]
    die = read_table(PERFT_DIR / "gavrilov-die.perft", "gavrilov-die")
    start = next(e for e in die if e.ident == "start")
    expected = [1] + [count for depth, count in sorted(start.figures) if depth <= 2]
    assert nodes_per_depth(build(Game("gavrilov-die"), 2, values=False)) == expected


@pytest.mark.parametrize("case", PLAYABLE, ids=[p["label"][:40] for p in PLAYABLE])
def test_nodes_per_depth_equal_the_independent_special_figures(case: dict) -> None:
    G = build(Game("tavreli", case["position"]), 2, values=False)
    assert nodes_per_depth(G) == [1, *case["perft"][:2]]


# And, where no independent figure exists, the tree and perft (two traversals) agree.
@pytest.mark.parametrize(("variant", "position", "moves", "depth"), [
    ("tavreli", None, "e2-e4 d7-d5 e4xd5", 2),
    ("tavreli", TOWER_POSITION, "", 3),
    ("tavreli-no-split", TOWER_POSITION, "", 3),
    ("gavrilov-die", None, "@P b2-b3 @N", 2),
    ("gavrilov-die-skip-face", DIE_POSITION, "", 3),
    ("gavrilov-die-mate", DIE_POSITION, "", 3),
])
def test_nodes_per_depth_equal_perft(variant: str, position: str | None, moves: str,
                                     depth: int) -> None:
    game = Game(variant, position)
    if moves:
        game.play(moves)
    G = build(game, depth, values=False)
    assert not G.graph["truncated"]
    assert nodes_per_depth(G) == perft_table(game, depth)


def test_nodes_per_depth_through_the_cli_equal_perft() -> None:
    def cli(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "tavrei_lab", "tree", *args, "--json"],
                              capture_output=True, text=True, check=True, timeout=120)
        return json.loads(done.stdout)
    moves = "e2-e4 d7-d5 e4xd5 d8xd5"
    out = cli("--moves", moves, "--depth", "2")
    game = Game()
    game.play(moves)
    assert out["nodes_per_depth"][0] == 1
    assert out["nodes_per_depth"] == perft_table(game, 2)
    assert out["principal_variation"] and all(isinstance(m, str)
                                              for m in out["principal_variation"])
    game.play(out["principal_variation"])     # the PV is playable movetext
    die = cli("--variant", "gavrilov-die", "--position", DIE_POSITION, "--depth", "2",
              "--no-values")
    assert die["nodes_per_depth"] == perft_table(Game("gavrilov-die", DIE_POSITION), 2)


def test_cli_text_output_and_filter_names() -> None:
    import contextlib
    import io

    from tavrei_lab.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["tree", "--position", TOWER_POSITION, "--moves", "splits&frees",
                     "--depth", "1"]) == 0
    text = buf.getvalue()
    assert "depth 1: 13" in text          # the luchnik's 13 moves carrying the vsadnik
    assert "principal variation: d4(2)-" in text
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["tree", "--filter", "capturez"]) == 2
    assert "unknown move filter 'capturez'" in err.getvalue()


# -- nodes and edges -----------------------------------------------------------------

def test_nodes_carry_position_turn_type_and_edges_the_move() -> None:
    game = Game()
    G = build(game, 1, values=False)
    root = G.nodes[0]
    assert root["position"] == game.position.string
    assert (root["turn"], root["type"], root["outcome"], root["depth"]) == \
        ("white", "decision", "", 0)
    texts = sorted(G.edges[0, c]["move"] for c in G.successors(0))
    assert texts == sorted(game.move_text(m) for m in game.legal_moves())
    for child in G.successors(0):
        text = G.edges[0, child]["move"]
        after = game.copy()
        after.push(text)
        assert G.nodes[child]["position"] == after.position.string
        assert position_at(G, child) == after.position
        assert moves_to(G, child) == [text]


def test_terminal_nodes_and_mate_values() -> None:
    G = build(Game(position=MATE_IN_ONE), 2)
    mate = [c for c in G.successors(0) if G.edges[0, c]["move"] == "a1-a8"]
    assert len(mate) == 1
    node = G.nodes[mate[0]]
    assert (node["type"], node["outcome"], node["termination"]) == \
        ("terminal", "1-0", "checkmate")
    assert G.out_degree(mate[0]) == 0
    assert G.graph["value"] == MATE - 1
    assert principal_variation(G) == ["a1-a8"]


def test_chance_probabilities_sum_to_one_and_rolls_are_not_plies() -> None:
    G = build(Game("gavrilov-die"), 1, values=False)
    # chance nodes at the depth limit are leaves (a turn starts there); the others roll
    chance = [n for n, d in G.nodes(data=True) if d["type"] == "chance" and G.out_degree(n)]
    assert 0 in chance
    for n in chance:
        out = [G.edges[n, c]["probability"] for c in G.successors(n)]
        assert out and math.isclose(sum(out), 1.0)
        for c in G.successors(n):
            edge = G.edges[n, c]
            assert edge["label"] == "@" + edge["face"]
    # the root's faces lead to decision nodes of the same depth; the moves to depth 1
    for c in G.successors(0):
        if G.nodes[c]["type"] == "decision":
            assert G.nodes[c]["depth"] == 0
            assert all(G.nodes[g]["depth"] == 1 for g in G.successors(c))


# -- filters -------------------------------------------------------------------------

def test_filters_keep_only_their_kind_and_compose() -> None:
    game = Game(position=TOWER_POSITION)
    pos = game.position
    splits = build(game, 1, moves="splits", values=False)
    assert splits.out_degree(0) == sum(is_split(pos, m) for m in game.legal_moves()) > 0
    assert all("(" in splits.edges[e]["move"] for e in splits.edges)
    frees = build(game, 1, moves="splits&frees", values=False)
    assert sorted(frees.edges[e]["move"] for e in frees.edges) == \
        sorted(splits.edges[e]["move"] for e in splits.edges if "(2)" in splits.edges[e]["move"])
    either = build(game, 1, moves=["volkhv", "frees"], values=False)
    assert either.out_degree(0) == frees.out_degree(0) + \
        build(game, 1, moves="volkhv", values=False).out_degree(0)
    custom = build(game, 1, moves=lambda p, m: m.to_square == p.geometry.parse("e5"),
                   values=False)
    assert sorted(custom.edges[e]["move"] for e in custom.edges) == \
        ["d4(1)-e5", "d4(2)-e5", "d4-e5"]
    assert sorted((as_filter("captures") | "checks").name) == sorted("(captures | checks)")
    quiet = ~as_filter("captures")
    assert all(not is_capture(pos, m) for m in game.legal_moves() if quiet(pos, m))


def test_filters_apply_at_every_ply_and_root_moves_only_at_the_first() -> None:
    game = Game()
    game.play("e2-e4 d7-d5")
    G = build(game, 2, moves="captures", values=False)
    assert nodes_per_depth(G)[1] == 1           # e4xd5 is white's only capture
    assert all("x" in G.edges[e]["move"] for e in G.edges)
    H = build(game, 2, root_moves="captures", values=False)
    assert H.out_degree(0) == 1
    assert nodes_per_depth(H)[2] > 1            # every black answer


def test_bad_filters_depths_and_starts_are_refused() -> None:
    with pytest.raises(NotationError, match="capturez"):
        build(Game(), 1, moves="capturez")
    with pytest.raises(NotationError, match="empty"):
        build(Game(), 1, moves="captures,,checks")
    with pytest.raises(LimitError, match="depth"):
        build(Game(), -1)
    with pytest.raises(LimitError, match="max_nodes"):
        build(Game(), 1, max_nodes=0)
    with pytest.raises(PositionError):
        build("not a position", 1)
    with pytest.raises(TypeError):
        build(42, 1)


# -- max_nodes -----------------------------------------------------------------------

def test_max_nodes_cuts_growth_and_marks_the_cut_nodes() -> None:
    G = build(Game(), 2, max_nodes=500, values=False)
    assert G.number_of_nodes() <= 500
    assert G.graph["truncated"] is True
    cut = [n for n, d in G.nodes(data=True) if d.get("cut")]
    assert cut
    for n in cut:
        assert G.out_degree(n) == 0 and G.nodes[n]["depth"] == 1
    # every depth-1 node is either expanded fully (39 or so answers) or cut
    for n in G.successors(0):
        assert G.out_degree(n) > 0 or G.nodes[n].get("cut")
    full = build(Game(), 2, values=False)
    assert full.graph["truncated"] is False
    assert not any(d.get("cut") for _, d in full.nodes(data=True))


# -- values --------------------------------------------------------------------------

def test_expectiminimax_value_of_a_die_position_equals_the_hand_computation() -> None:
    # White rolls. K, Q and R allow the rook: a3xc3 takes the black pawn prisoner (value 1
    # for white with this evaluation; every other move keeps 0). B is the absent type (a
    # skip), N and P allow no white unit: the turn passes, value 0. So 3/6 * 1 + 3/6 * 0.
    game = Game("gavrilov-die", DIE_POSITION)
    for alphabeta in (True, False):
        G = build(game, 1, evaluate=prisoners_held, alphabeta=alphabeta)
        assert G.nodes[0]["type"] == "chance"
        assert G.graph["value"] == pytest.approx(0.5)
        by_face = {G.edges[0, c]["face"]: G.nodes[c]["value"] for c in G.successors(0)}
        assert by_face == pytest.approx({"K": 1, "Q": 1, "R": 1, "B": 0, "N": 0, "P": 0})
        assert principal_variation(G) == ["@K", "a3xc3"]


def test_alphabeta_gives_the_minimax_value_with_fewer_evaluations() -> None:
    game = Game()
    game.play("e2-e4 d7-d5")
    calls = {"n": 0}

    def counting(position) -> float:  # noqa: ANN001
        calls["n"] += 1
        return prisoners_held(position)

    full = build(game, 2, evaluate=counting, alphabeta=False)
    every_leaf, calls["n"] = calls["n"], 0
    pruned = build(game, 2, evaluate=counting, alphabeta=True)
    assert pruned.graph["value"] == full.graph["value"]
    assert calls["n"] < every_leaf
    assert any(d.get("pruned") for _, d in pruned.nodes(data=True))
    # the principal variation ends in a leaf whose value is the root value
    pv = [n for n, d in pruned.nodes(data=True) if d.get("pv")]
    leaf = [n for n in pv if pruned.out_degree(n) == 0]
    assert len(leaf) == 1 and pruned.nodes[leaf[0]]["value"] == pruned.graph["value"]
    assert moves_to(pruned, leaf[0]) == principal_variation(pruned)
    # exact minimax: every inner node's value is the best of its children's
    for n, d in full.nodes(data=True):
        kids = [full.nodes[c]["value"] for c in full.successors(n)]
        if kids:
            assert d["value"] == (max(kids) if d["turn"] == "white" else min(kids))


def test_minimax_recomputes_and_clears_old_marks() -> None:
    G = build(Game(), 2, values=False)
    assert "value" not in G.nodes[0] and principal_variation(G) == []
    minimax(G, evaluate=lambda p: 0.0)
    assert G.graph["value"] == 0.0
    first = list(principal_variation(G))
    minimax(G, evaluate=prisoners_held, alphabeta=False)
    assert all("value" in d and not d.get("pruned") for _, d in G.nodes(data=True))
    # without alpha-beta nothing is cut short: every value is exact, none only a bound
    assert {d["bound"] for _, d in G.nodes(data=True)} == {"exact"}
    assert sum(1 for _, d in G.nodes(data=True) if d.get("pv")) == 3
    assert len(first) == 2


def _towers_for_side(position) -> float:  # noqa: ANN001 -- an evaluation as both take it
    """Tower heights topped by the side to move minus the opponent's, each weighted by
    its square's number: cheap, and rarely the same for two positions."""
    return float(sum((1 if (t[-1] & 1) == position.turn else -1) * len(t) * (1 + s)
                     for s, t in enumerate(position.board) if t))


@pytest.mark.parametrize(("variant", "seed", "plies", "depth"), [
    ("tavreli", 1, 12, 2), ("tavreli", 2, 20, 2), ("orthodox", 3, 10, 2),
    ("gavrilov-die", 4, 14, 2)])
def test_tree_values_are_the_engine_reference_minimax(variant: str, seed: int, plies: int,
                                                      depth: int) -> None:
    """The engine's ``search.minimax`` is the reference; the tree's values (white's
    view, on an explicit graph, for pictures) must be the same number."""
    import random

    from tavrei_lab.engine.search import minimax as reference
    from tavrei_lab.engine.zobrist import zobrist_hash
    game = Game(variant, seed=seed)
    rng = random.Random(seed)
    while game.ply < plies and not game.is_game_over():
        if game.is_chance_node():
            game.roll()
        else:
            game.push(rng.choice(game.legal_moves()))
    if game.is_chance_node():
        game.roll()
    G = build(game, depth, values=False)
    white_view = minimax(G, evaluate=_towers_for_side, alphabeta=False)
    value, _ = reference(game.rules, game.position, depth,
                         history=[zobrist_hash(game.position)],
                         evaluation=lambda p, r: _towers_for_side(p))
    assert (white_view if game.position.turn == 0 else -white_view) == pytest.approx(value)
    assert value != 0


@pytest.mark.parametrize("variant, position, depth", [
    ("tavreli", "4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 w - 0 1", 3),   # the tree benchmark's tree
    ("tavreli", None, 2), ("orthodox", None, 2), ("gavrilov-die-mate", DIE_POSITION, 2),
    ("gavrilov-die", DIE_POSITION, 3),
    # castlings both ways and an en passant capture; promotions by choice (the moves
    # whose texts and changed ranks the build does not share)
    ("orthodox", "r3k2r/pppq1ppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 1", 2),
    ("orthodox", "8/1P4k1/8/8/8/8/6Kp/8 w - - 0 1", 3)])
def test_every_node_says_what_its_position_says(variant: str, position: str | None,
                                               depth: int) -> None:
    """Node data, however the build shares or shortens its work, is what the position
    reached by the node's moves says: its string, side to move, outcome and kind; each
    edge's text is ``write_move``'s."""
    game = Game(variant, position) if position else Game(variant)
    rules = game.rules
    G = build(game, depth, values=False)
    reached = {0: game.position}
    for node in sorted(G.nodes):  # breadth first: a parent before its children
        here = reached[node]
        by_text = {write_move(here, m): m for m in rules.legal_moves(here)}
        for child in G.successors(node):
            edge = G.edges[node, child]
            reached[child] = (rules.apply_roll(here, edge["face"]) if "face" in edge
                              else rules.apply(here, by_text[edge["move"]]))
        data = G.nodes[node]
        fresh = here.replace()  # nothing recorded: the volkhv squares are found again
        end = rules.outcome(fresh)
        kind = ("terminal" if end is not None
                else "chance" if rules.is_chance_node(fresh) else "decision")
        assert (data["position"], data["turn"], data["type"], data["outcome"]) == \
            (write_position(here), ("white", "black")[here.turn], kind,
             end.result() if end is not None else ""), node
        assert data.get("termination") == (end.termination if end is not None else None)
    assert len(reached) == G.number_of_nodes()


def test_tree_work_pauses_the_garbage_collector_and_restores_it() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():   # nested: still paused, and not resumed early
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(LimitError), collector_paused():
        raise LimitError("stopped")
    assert gc.isenabled()


def _plain_trees() -> dict[str, object]:
    import warnings

    from tavrei_lab.tree.tactics import find_all
    played = Game()
    played.play("e2-e4 d7-d5")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trees = {"values": build(Game("tavreli-no-split"), 2),
                 "no values": build(Game(), 1, values=False),
                 "die": build(Game("gavrilov-die", DIE_POSITION), 2),
                 "cut": build(Game(), 3, max_nodes=300),
                 "history": build(played, 1),
                 "filtered": build(Game(), 2, moves="captures,checks", root_moves="splits")}
    for name, tactic in find_all(Game("gavrilov-die", DIE_POSITION)).items():
        if tactic.tree is not None:
            trees[f"tactic {name}"] = tactic.tree
    return trees


def test_networkx_own_writers_take_a_built_tree(tmp_path: Path) -> None:
    """Plain scalars in the graph (the variant as data, no rule object, no
    None, no list), so node-link JSON, GraphML and GEXF all take a tree as it is."""
    import networkx as nx

    from tavrei_lab.tree import history
    from tavrei_lab.tree.nodes import position_at, rules_of
    for name, G in _plain_trees().items():
        assert isinstance(G, nx.DiGraph)
        assert "rules" not in G.graph
        for data in [G.graph, *(d for _, d in G.nodes(data=True)),
                     *(d for _, _, d in G.edges(data=True))]:
            bad = {k: v for k, v in data.items() if not isinstance(v, (str, int, float))}
            assert not bad, (name, bad)
        text = json.dumps(nx.node_link_data(G, edges="edges"))
        back = nx.node_link_graph(json.loads(text), edges="edges")
        nx.write_graphml(G, tmp_path / "tree.graphml")
        nx.write_gexf(G, tmp_path / "tree.gexf")
        from_graphml = nx.DiGraph(nx.read_graphml(tmp_path / "tree.graphml", node_type=int))
        assert nx.read_gexf(tmp_path / "tree.gexf").number_of_nodes() == G.number_of_nodes()
        for H in (back, from_graphml):     # read back: the same lists, the same positions
            assert nodes_per_depth(H) == nodes_per_depth(G), name
            assert principal_variation(H) == principal_variation(G), name
            assert history(H) == history(G), name
            leaf = max(G.nodes, key=lambda n: G.nodes[n]["depth"])
            assert position_at(H, leaf) == position_at(G, leaf), name
    G = build(Game("tavreli-no-split"), 2)
    back = nx.node_link_graph(json.loads(json.dumps(nx.node_link_data(G, edges="edges"))),
                              edges="edges")
    # a tree read back knows its rules from the data alone: the variant's definition
    rebuilt = rules_of(back)
    assert rebuilt.variant.id == "tavreli-no-split"
    assert rules_of(back) is rebuilt   # rebuilt once, then kept


def test_the_graph_sequences_are_movetext_and_counts(tmp_path: Path) -> None:
    """The principal variation and the history are playable movetext; the list forms
    come from tree.nodes_per_depth / principal_variation / history, also for a tree
    exported as lists by an older tavrei_lab."""
    from tavrei_lab.tree import history
    from tavrei_lab.tree.export import read_graphml
    played = Game()
    played.play("e2-e4 d7-d5")
    G = build(played, 2)
    assert G.graph["history"] == "e2-e4 d7-d5" and history(G) == ["e2-e4", "d7-d5"]
    assert G.graph["nodes_per_depth"] == " ".join(map(str, nodes_per_depth(G)))
    replay = Game()
    replay.play(G.graph["history"])
    replay.play(G.graph["principal_variation"])
    assert replay.ply == 4
    G.graph.update(nodes_per_depth=[1, 2], principal_variation=["e4xd5"], history=[])
    assert nodes_per_depth(G) == [1, 2] and principal_variation(G) == ["e4xd5"]
    old = tmp_path / "old.graphml"      # an older export: lists as JSON text
    old.write_text('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/'
                   'xmlns"><key id="d0" for="graph" attr.name="nodes_per_depth" '
                   'attr.type="string"/><graph edgedefault="directed"><data key="d0">'
                   '[1, 39]</data><node id="0"/></graph></graphml>', encoding="utf-8")
    assert nodes_per_depth(read_graphml(old)) == [1, 39]


def test_a_cut_tree_warns_and_a_long_build_shows_tqdm_progress(capsys) -> None:
    """A tree cut by its bounds says so; the bar is tqdm's, in a terminal."""
    import io
    import warnings

    from tavrei_lab.core.progress import progress_bar, progress_of
    from tavrei_lab.tree import TreeCutWarning

    with pytest.warns(TreeCutWarning, match=r"cut at [\d,]+ nodes by max_nodes"):
        G = build(Game(), 2, max_nodes=100, values=False)
    assert G.graph["truncated"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build(Game(), 1, values=False)          # a whole tree: no warning
    out = io.StringIO()
    bar = progress_bar(None, "tree", mode="terminal", stream=out, unit="nodes")
    bar.update(40)
    bar.close()
    assert "\rtree: 40nodes [" in out.getvalue() and out.getvalue().endswith("\n")
    assert progress_of(False, "tree", "nodes") == (None, None)
    seen = []
    build(Game(), 2, values=False, progress=lambda n, s: seen.append(n))
    assert seen == [] and capsys.readouterr().err == ""   # 1559 nodes: below one report


def test_rank_writer_writes_each_rank_as_rank_text_does():
    """The tree writes its children's changed ranks with ``rank_writer`` (its look-ups
    done once a tree): every rank of positions with towers, prisoners and promotions
    must read as ``rank_text`` reads it, and the whole board as ``write_board``."""
    from tavrei_lab import Game
    from tavrei_lab.core.text import rank_text, rank_writer, write_board
    game = Game()
    game.play("e2-e4 d7-d5 e4xd5 d8xd5 b1-c3 d5xa2 a1xa2")
    write = rank_writer(game.position)
    for position in [game.position, *[game.rules.apply(game.position, m)
                                      for m in game.legal_moves()]]:
        rows = [write(position.board, row) for row in range(8)]
        assert rows == [rank_text(position, row) for row in range(8)]
        assert "/".join(rows) == write_board(position)
