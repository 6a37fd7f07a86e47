"""The study tutorial 10 ships: does allowing splits make Tavreli
more decisive? Its data must be what ``scripts/lab_splits_study.py`` makes, answer
the question at both strengths after Holm's correction, and have cost under an hour
on two cores."""

from __future__ import annotations

import importlib.util
import json
import shlex
from pathlib import Path

from tavrei_lab.data import lab_study
from tavrei_lab.lab import ResultsTable
from tavrei_lab.lab.versions import code_versions, stale_versions

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "lab_splits_study.py"
A, B = "tavreli[splits=true]", "tavreli[splits=false]"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("lab_splits_study", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_study_is_what_the_script_runs():
    script, study = _script(), lab_study()
    runs = [(study, run) for run in script.STRENGTHS] + \
        [(study["check"], run) for run in script.CHECKS]
    for into, (label, nodes, games, batch, max_plies) in runs:
        argv = script.command(nodes, games, batch, max_plies, f"study-{nodes}-{max_plies}")
        assert into["command"][label] == "tavrei-lab " + shlex.join(argv)
        assert "--tune" in argv and "--until-decided" in argv
        assert f"play:nodes={nodes},weights=fit,noise=10" in argv
        rows = into["cells"][label]["rows"]
        assert [r["cell"] for r in rows] == [A, B]
        assert all(r["games"] <= games and r["games"] % batch == 0 for r in rows)
    assert set(study["tune"]) == {A, B}


def test_the_study_was_made_by_this_codes_evaluation_and_fit_method():
    """Figures of another evaluation or fit method are another study's: regenerate it
    (``python scripts/lab_splits_study.py``) when these change."""
    study = lab_study()
    assert study["made_with"] == code_versions(), (
        f"the shipped study is stale in {stale_versions(study.get('made_with'))}")
    assert stale_versions({}) == sorted(code_versions())


def test_the_studys_differences_are_its_cells_and_its_verdict_is_its_own():
    study = lab_study()
    assert sorted(study["cells"]) == sorted(run[0] for run in _script().STRENGTHS)
    for strength, cells in study["cells"].items():
        table = ResultsTable.from_json(json.dumps(cells))
        diffs = {r["measure"]: r for r in table.differences().rows}
        shipped = {r["measure"]: r for r in study["differences"][strength]["rows"]}
        assert set(diffs) == set(shipped) == {"white_score", "decisive", "length"}
        for measure, row in diffs.items():     # recomputed from the cells = what was shipped
            for key in ("difference", "low", "high", "p_value", "p_holm"):
                if row[key] is None or shipped[measure][key] is None:
                    assert row[key] is shipped[measure][key] is None
                    continue
                assert abs(row[key] - shipped[measure][key]) < 1e-9, (strength, measure, key)
        assert study["decision"][strength][-1].startswith("After ")


def test_the_study_names_its_players_strength_and_whether_their_fit_played():
    study = lab_study()
    for strength, notes in study["notes"].items():
        named = [n for n in notes if n.startswith("strength of ")]
        assert len(named) == 2, strength         # one player, two cells
        assert all("against the reference player" in n for n in named)
    for cell, fit in study["tune"].items():
        assert fit["proven"] is ((fit.get("proof") or {}).get("decision") == "better"), cell


def test_the_whole_study_fits_an_hour_on_two_cores():
    study = lab_study()
    cpu = sum(study["cpu_seconds"].values()) + sum(study["check"]["cpu_seconds"].values())
    assert 0 < cpu < 2 * 3600           # tunes included: the first sweep ran them
    assert all(fit["seconds"] > 0 for fit in study["tune"].values())
