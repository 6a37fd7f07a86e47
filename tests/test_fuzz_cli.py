"""Fuzzing the command line (issue 11): any arguments, any file contents.

``tavrei_lab.cli.main(argv)`` must return 0, or 2 with a one-line error on
stderr -- never a traceback. Bad arguments are argparse's business, which
exits with status 2 and a usage message (``SystemExit(2)``); ``--help``
exits 0. Subcommands whose work grows with their arguments (``perft``,
``tree``, ``play``, ``compare``, ``soak``) are given small numbers so each
input stays quick; the readers behind them are the same either way.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st
from test_fuzz_inputs import (
    fuzz_settings,
    move_corpus,
    mutated,
    odd_text,
    position_corpus,
    record_corpus,
    variant_corpus,
)

from tavrei_lab.cli import main

WORKDIR = Path(tempfile.mkdtemp(prefix="tavrei-fuzz-cli-"))
atexit.register(shutil.rmtree, WORKDIR, ignore_errors=True)
SMALL = st.sampled_from(["0", "1", "2", "-1", "x", "1e9", "", "٣"])

files = st.one_of(mutated(record_corpus()), mutated(variant_corpus()), odd_text(200),
                  st.binary(max_size=200))
texts = st.one_of(odd_text(40), mutated(move_corpus()), mutated([p for _, p in position_corpus()]),
                  st.sampled_from([p for _, p in position_corpus()]))
variant_args = st.one_of(st.sampled_from(["tavreli", "orthodox", "gavrilov-die", "nope", "",
                                          "/", "/dev/null", "x" * 300]), odd_text(12))


#: Appended last (argparse keeps the last value), so every run stays small.
BOUNDS = {
    "tree": ["--depth", "1", "--max-nodes", "60", "--no-values"],
    "play": ["--max-plies", "2"],
    "compare": ["--games", "1", "--max-plies", "2", "--executor", "inline", "--no-progress",
                "--agents", "random,random"],
    "soak": ["--games", "1", "--max-plies", "2"],
}
REQUIRED = {"replay": ["FILE"], "check": ["FILE"], "perft": ["DEPTH"], "svg": ["--out"]}


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    """An argument list: mostly a real subcommand with plausible and odd options."""
    command = draw(st.sampled_from(["replay", "perft", "show", "variants", "check", "svg",
                                    "tree", "play", "compare", "soak", "replay", "show",
                                    "perft", "check", "nonsense", "--help", ""]))
    argv = [command] if command else []
    options = {
        "replay": ["--variant", "--json"],
        "perft": ["--variant", "--moves", "--position", "--divide"],
        "show": ["--variant", "--moves", "--position"],
        "variants": ["-v"],
        "svg": ["--variant", "--moves", "--position", "--flip", "--game", "--size"],
        "tree": ["--variant", "--moves", "--position", "--json", "--filter"],
        "play": ["--variant", "--seed", "--agent", "--human", "--out"],
        "compare": ["--variants", "--out"],
        "soak": ["--variants", "--agents", "--json"],
    }.get(command, [])
    chosen = draw(st.lists(st.sampled_from(options or ["--bogus"]), max_size=4))
    if draw(st.integers(0, 9)) > 0:
        chosen += REQUIRED.get(command, [])
    if draw(st.integers(0, 19)) == 0:
        chosen.append("--bogus")
    for opt in chosen:
        if opt == "FILE":
            path = WORKDIR / f"in{draw(st.integers(0, 3))}.txt"
            content = draw(files)
            if isinstance(content, str):
                path.write_text(content, encoding="utf-8", errors="surrogatepass")
            else:
                path.write_bytes(content)
            argv.append(str(path))
        elif opt in ("--variant", "--variants"):
            argv += [opt, draw(variant_args)]
        elif opt in ("--moves", "--position", "--filter", "--agent", "--agents", "--human"):
            argv += [opt, draw(st.one_of(texts, st.sampled_from(["random", "greedy", "white",
                                                                 "random-greedy", "captures"])))]
        elif opt in ("--seed", "--size"):
            argv += [opt, draw(SMALL)]
        elif opt == "DEPTH":
            argv.append(draw(st.sampled_from(["0", "1", "-3", "two", "٣"])))
        elif opt == "--out":
            argv += [opt, draw(st.sampled_from([str(WORKDIR / "out.svg"), "-", str(WORKDIR),
                                                str(WORKDIR / "no" / "such" / "dir.svg")]))]
        else:
            argv.append(opt)
    return argv + BOUNDS.get(command, [])


@fuzz_settings(150)
@given(argv=argvs())
def test_main_returns_0_or_2_with_one_line_on_stderr(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(WORKDIR)  # whatever a command writes lands in the scratch folder
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(out):
            import sys
            stdin, sys.stdin = sys.stdin, io.StringIO("e2-e4\nquit\n")
            try:
                status = main(argv)
            except SystemExit as exc:          # argparse: usage error (2) or --help (0)
                status = exc.code if isinstance(exc.code, int) else 2
                assert status in (0, 2), f"argparse exited {exc.code!r} for {argv!r}"
                event(f"{argv[:1]}: argparse exit {status}")
                return
            finally:
                sys.stdin = stdin
    finally:
        os.chdir(here)
    assert status in (0, 1, 2), f"status {status} for {argv!r}"
    event(f"{argv[:1]}: exit {status}")
    if status == 2:
        lines = [line for line in err.getvalue().splitlines() if line.strip()]
        assert len(lines) == 1, f"{argv!r} printed {err.getvalue()!r}"
        assert "Traceback" not in err.getvalue()
