"""A sweep draws its decisive rate per cell with Wilson's interval and how its games
ended (the rules' endings and the ply cap), from the games in its store."""

from __future__ import annotations

import re

from tavrei_lab.lab import sweep
from tavrei_lab.lab.plots import endings_plot, store_plots
from tavrei_lab.lab.results import ADJUDICATED
from tavrei_lab.lab.statistics import wilson_interval
from tavrei_lab.lab.sweep import SWEEP_PLOT_NAMES


def _counts(svg: str) -> list[tuple[str, str, int]]:
    """(cell label, ending, games) of each bar segment, in drawing order."""
    out, label = [], ""
    for line in svg.splitlines():
        m = re.search(r'text-anchor="end">(.+?) \(n=\d+\)</text>', line)
        if m:
            label = m.group(1)
        m = re.search(r'data-category="([^"]+)" data-count="(\d+)"', line)
        if m:
            out.append((label, m.group(1), int(m.group(2))))
    return out


def test_a_sweep_draws_its_decisive_rate_and_how_its_games_ended(tmp_path):
    path = tmp_path / "lab.sqlite"
    res = sweep("gavrilov-die", {"absent": ["bishop", "knight"]}, agents="random", games=6,
                max_plies=40, executor="inline", progress=False, store=path)
    plots = res.plots()
    assert {"decisive_rate", "endings"} <= set(plots) <= SWEEP_PLOT_NAMES
    rate = plots["decisive_rate"].svg
    assert rate.count('class="interval"') == 2
    for row in res.table.rows:
        wins = row["white_wins"] + row["black_wins"]
        lo, hi = wilson_interval(wins, row["games"])
        assert (f'data-label="{row["cell"]}" data-value="{wins / row["games"]:.6g}" '
                f'data-lo="{lo:.6g}" data-hi="{hi:.6g}"') in rate
    bars = _counts(plots["endings"].svg)
    games = store_plots(path)["endings"].svg
    assert games == plots["endings"].svg             # the same chart from the file
    stored = res.games()
    for row in res.table.rows:
        mine = {end: n for cell, end, n in bars if cell == row["cell"]}
        assert sum(mine.values()) == row["games"]
        for end in {g.result.termination for g in stored}:
            assert mine.get(end, 0) == sum(1 for g in stored if g.cell == row["cell"]
                                           and g.result.termination == end)
    # 40 plies with random players: some die games are stopped at the cap
    assert any(end == ADJUDICATED for _, end, _n in bars)


def test_the_endings_chart_puts_the_rules_endings_first_and_the_cap_last():
    games = [{"settings": "h1", "termination": t} for t in
             (ADJUDICATED, "stalemate", "checkmate", "odd-end", "fifty-move-rule")]
    games += [{"settings": "h2", "termination": "threefold-repetition"}]
    svg = endings_plot(games, {"h1": "with splits", "h2": "without"}).svg
    bars = _counts(svg)
    assert [end for cell, end, _n in bars if cell == "with splits"] == [
        "checkmate", "stalemate", "fifty-move-rule", "odd-end", ADJUDICATED]
    assert [(cell, end, n) for cell, end, n in bars if cell == "without"] == [
        ("without", "threefold-repetition", 1)]
