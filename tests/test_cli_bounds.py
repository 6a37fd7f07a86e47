"""Issue 17, item 3: work that grows without bound from small input. Every command has
bounds that hold for any input (README's Limits), progress where it is long, and a clean
refusal past them. Each test is one of the issue's reproductions, kept.
"""

from __future__ import annotations

import json
import time

import pytest

import tavrei_lab.render.tree as tree_render
from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.errors import LimitError
from tavrei_lab.tree.build import MAX_TREE_NODES, build


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- tree ------------------------------------------------------------------------------------

def test_tree_filter_that_leaves_only_the_root_says_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `tree --filter captures` from the start silently yielded a one-node tree
    code, out, _ = run(capsys, "tree", "--filter", "captures")
    assert code == 0
    assert "nodes: 1" in out
    assert "root alone: none of the 39 legal moves here is one of 'captures'" in out
    code, out, _ = run(capsys, "tree", "--filter", "captures", "--json", "--no-values")
    assert "root alone" in json.loads(out)["note"]
    code, out, _ = run(capsys, "tree", "--json", "--no-values", "--depth", "1")
    assert json.loads(out)["note"] is None


@pytest.mark.parametrize("argv, message", [
    (["--max-nodes", str(MAX_TREE_NODES + 1)], "--max-nodes must be"),
    (["--max-nodes", "0"], "--max-nodes must be"),
    (["--time-limit", "nan"], "--time-limit must be"),
    (["--time-limit", "inf"], "--time-limit must be"),
    (["--time-limit", "0"], "--time-limit must be"),
    (["--svg", "x.svg", "--max-nodes", "20001"], "--svg draws at most"),
    (["--depth", "13"], "between 0 and 12"),
])
def test_tree_refuses_numbers_past_its_bounds(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # tree --max-nodes had no upper bound
    code, _, err = run(capsys, "tree", *argv)
    assert code == 2 and message in err


def test_tree_growth_stops_at_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # tree --variant gavrilov-die --depth 3 took 60 s
    start = time.monotonic()
    code, out, _ = run(capsys, "tree", "--variant", "gavrilov-die", "--depth", "3",
                       "--time-limit", "0.5", "--json")
    assert code == 0 and time.monotonic() - start < 30
    facts = json.loads(out)
    assert facts["truncated"] and facts["cut_by"] == "time_limit"


def test_build_refuses_too_many_nodes_and_reports_progress() -> None:
    with pytest.raises(LimitError, match=f"the limit is {MAX_TREE_NODES}"):
        build(Game(), 2, max_nodes=MAX_TREE_NODES + 1)
    seen: list[int] = []
    G = build(Game(), 3, max_nodes=25_000, values=False,
              progress=lambda nodes, _s: seen.append(nodes))
    assert G.graph["cut_by"] == "max_nodes" and seen and seen[0] >= 10_000


def test_a_tree_too_big_to_draw_is_refused_before_any_drawing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # tree --depth 12 --svg with defaults: 80 s, 1.66 GB
    monkeypatch.setattr(tree_render, "MAX_DRAWN_NODES", 100)
    G = build(Game(), 2, values=False)
    called = []
    monkeypatch.setattr(tree_render, "layered_layout", lambda *a, **k: called.append(1))
    with pytest.raises(LimitError, match="at most 100 fit one picture"):
        tree_render.draw_svg(G)
    assert not called


def test_tree_svg_grows_only_what_it_can_draw(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "t.svg"
    code, text, _ = run(capsys, "tree", "--depth", "12", "--svg", str(out), "--no-values")
    assert code == 0 and "(cut at --max-nodes)" in text
    assert out.stat().st_size < 20_000_000
