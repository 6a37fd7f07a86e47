"""Weights files (``play:...,weights=FILE``, a tune's output) are read with the checks a
variant file has: a regular file of bounded size, UTF-8, JSON within Python's depth,
finite numbers within each term's range, and the variant the weights were fit to.
Every refusal is one ``WeightsFileError`` line naming the file, on either build."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.agents import PlayAgent, make_agent
from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    MAX_WEIGHTS_FILE_BYTES,
    NAMES,
    WEIGHT_RANGES,
    Weights,
    WeightsFileError,
    load_weights_file,
    save_weights,
    variant_hash,
)
from tavrei_lab.errors import TavreiError
from tavrei_lab.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]


def _file(tmp_path: Path, raw: bytes, name: str = "w.json") -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


@pytest.mark.parametrize("weights, what", [
    ({"value_ratnik": 1e7}, "'value_ratnik' must be -100..100"),
    ({"mobility": 1e8}, "'mobility' must be -1000..1000"),
    ({name: 3e9 for name in NAMES}, "must be"),
    ({"mobility": 1e400}, "finite number"),
])
def test_weights_too_large_for_the_search_are_refused_when_read(tmp_path, weights, what):
    raw = json.dumps({"weights": weights}).encode().replace(b"Infinity", b"1e400")
    path = _file(tmp_path, raw)
    with pytest.raises(WeightsFileError, match=what) as caught:
        make_agent(f"play:nodes=20,weights={path}")
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("raw, what", [
    (b'{"weights": {"mobility": 1' + b"0" * 400 + b"}}", "a number of 401 digits"),
    (b'{"weights": {"mobility": 1' + b"0" * 5000 + b"}}", "a number too long"),
    (b'{"weights": {"mobility": \xff\xfe}}', "not UTF-8"),
    (b'{"weights": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deep"),
    (b"null", "field 'weights' is missing"),
    (b'{"weights": {}, "settings_hash": [1]}', "settings_hash"),
])
def test_a_damaged_weights_file_is_one_error_naming_it(tmp_path, raw, what):
    path = _file(tmp_path, raw)
    with pytest.raises(WeightsFileError, match=what) as caught:
        load_weights_file(path)
    assert str(path) in str(caught.value)


def test_a_weights_file_past_its_size_is_refused_unread(tmp_path):
    path = _file(tmp_path, b'{"weights": {}, "log": "' + b"x" * MAX_WEIGHTS_FILE_BYTES + b'"}')
    with pytest.raises(WeightsFileError, match="over the limit"):
        load_weights_file(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_a_device_as_weights_file_is_refused_not_waited_for(tmp_path):
    fifo = tmp_path / "w.fifo"
    os.mkfifo(fifo)
    for name in (str(fifo), "/dev/zero"):
        proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "play", "--white",
                               f"play:nodes=20,weights={name}", "--black", "random"],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip().splitlines() == [
            f"tavrei-lab play: error: weights file {name!r}: not a regular file"]


def test_weights_at_the_edges_of_their_ranges_play_on_this_build():
    """The ranges keep every score inside the compiled search's C ints: a game with every
    weight at its largest (and, for the other side, its smallest) plays to its end."""
    high = Weights(**{n: WEIGHT_RANGES[n][1] for n in NAMES})
    low = Weights(**{n: WEIGHT_RANGES[n][0] for n in NAMES})
    # (mobility 1e8, let past the check, overflowed the compiled search at ply 48 of
    # this first game: the side searching got far ahead of a random player)
    for variant, other, plies in (("tavreli", make_agent("random", seed=2), 70),
                                  ("gavrilov-die", PlayAgent(seed=2, nodes=60, weights=low),
                                   30)):
        game = Game(variant, seed=1)
        agents = (PlayAgent(seed=1, nodes=60, weights=high), other)
        while game.outcome() is None and game.ply < plies:
            if game.is_chance_node():
                game.roll()
                continue
            game.push(agents[game.position.turn].choose(game))
        assert game.ply >= 10


def test_weights_built_in_python_have_the_files_ranges():
    with pytest.raises(WeightsFileError, match="'mobility' must be -1000..1000"):
        DEFAULT_WEIGHTS.with_(mobility=1e8)
    with pytest.raises(WeightsFileError, match="finite number"):
        Weights(value_ratnik=float("nan"))


def test_weights_fit_for_another_variant_are_refused_before_the_first_move(tmp_path):
    path = tmp_path / "w.json"
    fit_for = load_variant("tavreli-no-split")
    save_weights(path, DEFAULT_WEIGHTS, variant="tavreli-no-split",
                 settings_hash=variant_hash(fit_for))
    agent = make_agent(f"play:nodes=20,weights={path}", seed=1)
    agent.choose(Game("tavreli-no-split"))        # its own variant: plays
    other = make_agent(f"play:nodes=20,weights={path}", seed=1)
    with pytest.raises(WeightsFileError, match="fit for variant 'tavreli-no-split'") as caught:
        other.choose(Game("tavreli"))
    assert str(path) in str(caught.value) and "tune --variant tavreli" in str(caught.value)
    # a hand-written file names no variant: taken for any
    hand = _file(tmp_path, b'{"weights": {"mobility": 4}}', "hand.json")
    make_agent(f"play:nodes=20,weights={hand}", seed=1).choose(Game("tavreli"))


def test_cli_play_with_weights_of_another_variant_is_one_line(tmp_path):
    path = tmp_path / "w.json"
    save_weights(path, DEFAULT_WEIGHTS, variant="tavreli-no-split",
                 settings_hash=variant_hash(load_variant("tavreli-no-split")))
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "play", "--variant", "tavreli",
                           "--white", f"play:nodes=20,weights={path}", "--black", "random",
                           "--max-plies", "4"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "fit for variant 'tavreli-no-split'" in proc.stderr


# -- agent specs --------------------------------------------------------------------

@pytest.mark.parametrize("spec, what", [
    ("play:weights", "weights needs a value, like weights=..."),
    ("play:nodes=50,noise", "noise needs a value"),
    ("play:nodes=50,bogus=1", "weights=..., noise=..., contempt=..., ending=..."),
    ("play:nodes=50,nodes=60", "nodes is given twice"),
    ("play:nodes=50,weights=fit,w=fit", "weights is given twice"),
    ("play:nodes=50,contempt=5,contempt=6", "contempt is given twice"),
    ("alphabeta:depth=2,d=3", "depth is given twice"),
    ("level:2,nodes=50,nodes=60", "nodes is given twice"),
])
def test_an_agent_spec_with_a_bare_unknown_or_repeated_key_says_which(spec, what):
    with pytest.raises(TavreiError, match=re.escape(what)) as caught:
        make_agent(spec)
    assert "number of seconds" not in str(caught.value)
