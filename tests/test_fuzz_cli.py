"""Fuzzing the command line: any arguments, any file contents.

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


# -- the CLI's bounds ------------------------------------------------------------------------

#: Numbers past every bound, at it, and odd ones: each command must refuse them in one
#: line, or finish within its documented limit (docs/limits.md).
EXTREMES = ["0", "-1", "1", "nan", "inf", "-inf", "1e308", "1e9", "1000000000",
            "9" * 40, "4000", "4001", "100000", "100001", "1000000", "1000001", "2000000001",
            "31", "30", "13", "12", "0.001", "1e-300"]
#: For each command: the numeric options, and options that keep an accepted run short.
NUMERIC = {
    "perft": (["DEPTH", "--max-nodes"], {"DEPTH": "2", "--max-nodes": "3000"}),
    "tree": (["--depth", "--max-nodes", "--time-limit"],
             {"--depth": "3", "--max-nodes": "500", "--time-limit": "1"}),
    "svg": (["--size"], {"--size": "100"}),
    "play": (["--max-plies", "--seed"], {"--max-plies": "2", "--seed": "1"}),
    "compare": (["--games", "--max-plies", "--workers"],
                {"--games": "1", "--max-plies": "2", "--workers": "1"}),
    "soak": (["--games", "--max-plies", "--time-limit"],
             {"--games": "1", "--max-plies": "2", "--time-limit": "1"}),
}
#: Options under test whose accepted values run as long as asked: only refusals and
#: small values are tried for them (an accepted 100,000 games would play them).
RUN_AS_ASKED = {("compare", "--games"), ("soak", "--games"), ("play", "--max-plies"),
                ("soak", "--max-plies"), ("compare", "--max-plies")}


@fuzz_settings(80)
@given(command=st.sampled_from(sorted(NUMERIC)), data=st.data())
def test_every_command_with_extreme_numbers_refuses_or_keeps_its_bounds(
        command: str, data: st.DataObject) -> None:
    import time
    names, short = NUMERIC[command]
    name = data.draw(st.sampled_from(names))
    value = data.draw(st.sampled_from(EXTREMES))
    if (command, name) in RUN_AS_ASKED and value in ("4000", "100000", "1000000", "31",
                                                     "30", "13", "12"):
        value = "3"
    options = dict(short)
    options[name] = value
    argv = [command]
    for opt, v in options.items():
        argv += [v] if opt == "DEPTH" else [opt, v]
    if command == "svg":
        argv += ["--game", "--moves", "e2-e4 e7-e5", "--out", str(WORKDIR / "x.svg")]
    if command == "compare":
        argv += ["--executor", "inline", "--no-progress", "--agents", "random"]
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:            # argparse refused a number it cannot read
            status = exc.code if isinstance(exc.code, int) else 2
    seconds = time.monotonic() - started
    event(f"{command} {name}: exit {status}")
    assert status in (0, 2), f"{argv!r}: status {status}"
    if status == 2:
        lines = [line for line in err.getvalue().splitlines() if line.strip()]
        assert "Traceback" not in err.getvalue()
        assert len(lines[-1]) < 400, lines[-1][:500]
    # accepted runs keep to their limits: 1 s of tree growth or soak, 3,000 perft moves
    assert seconds < 30, f"{argv!r} took {seconds:.1f} s"
