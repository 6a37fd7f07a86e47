"""The ``tavrei-lab`` command.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; ``COMMANDS`` lists them in the order ``--help``
shows them. Errors the package raises on purpose (``TavreiError``) become one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

from tavrei_lab import __version__, builds
from tavrei_lab.core.files import os_failure
from tavrei_lab.errors import TavreiError, one_line, quote
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _

COMMANDS = ("replay", "perft", "show", "variants", "check", "play", "search", "compare",
            "sweep", "tune", "svg", "tree", "soak", "lessons",
            "openings")


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one short line like the package's own
    (argparse quotes the offending argument whole: a megabyte, newlines and all)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog,
                                                          message=one_line(message)) + "\n")


class _VersionAction(argparse.Action):
    """``--version``: the version and which build runs. The build is known only once the
    hot modules are loaded, which ``import tavrei_lab`` leaves to their first use, so it
    is asked when the option is given, not when the parser is built."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        for module in builds.HOT_MODULES:   # describe() reads the loaded hot modules
            importlib.import_module(module)
        print(f"{parser.prog} {__version__}, {builds.describe()}")
        parser.exit()


@contextmanager
def argparse_speaking() -> Iterator[None]:
    """argparse's own words ("usage:", "options:", "show this help message and exit",
    "invalid choice: ...") said by the package's catalogue while the command is built and
    parsed. argparse asks the ``gettext`` module's domain, which a wheel cannot fill (and
    Pyodide has no ``msgfmt``), so its two names are pointed at the catalogue for the
    time of the call and put back after: a notebook's own parsers are left alone."""
    saved = argparse._, argparse.ngettext      # type: ignore[attr-defined]
    argparse._ = _                            # type: ignore[attr-defined]
    argparse.ngettext = ngettext              # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def build_parser() -> argparse.ArgumentParser:
    with argparse_speaking():
        parser = _Parser(
            prog="tavrei-lab",
            description=_("Tavreli (Russian tower chess) and its relatives: replay, perft, "
                          "pictures, trees, tournaments."))
        # which build runs, too: the compiled move generator or the pure Python
        # (docs/compiled.md)
        parser.add_argument("--version", action=_VersionAction,
                            help=_("show program's version number and exit"))
        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        sub.required = True
        for name in COMMANDS:
            importlib.import_module(f"tavrei_lab.cli.{name.replace('-', '_')}").register(sub)
    return parser


class _ClosedOutput(io.TextIOBase):
    """Stands in for a standard stream the command was started without (``>&-``): writing
    to it is an ``OSError`` the command reports, not an ``AttributeError`` on None."""

    def __init__(self, name: str) -> None:
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, _("{name} is closed").format(name=_(self.name)))


def _report(command: str, message: str) -> None:
    if sys.stderr is not None:
        try:
            print(_("tavrei-lab {command}: error: {message}").format(
                command=command, message=one_line(message)), file=sys.stderr)
        except (OSError, ValueError):  # stderr closed or full too: the status says it
            pass


def _warn_in_one_line(message: Warning | str, category: type[Warning], filename: str,
                      lineno: int, file: object = None, line: str | None = None) -> None:
    """A warning on the command line is one line naming the command, as an error is
    (Python's own form adds the file, the line number and the source line)."""
    if sys.stderr is not None:
        try:
            print(_("tavrei-lab {command}: warning: {message}").format(
                command=_COMMAND[0], message=one_line(str(message), 2000)), file=sys.stderr)
        except (OSError, ValueError):
            pass


_COMMAND = ["?"]


def _os_message(exc: OSError) -> str:
    what = os_failure(exc)
    if exc.filename is None:
        return what
    return f"{quote(os.fsdecode(exc.filename), 200)}: {what}"


def _silence_stdout() -> None:
    """After a failed write the unwritten text stays buffered and Python would try
    again at exit (a second message, exit status 120): point stdout at /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        sys.stdout = _ClosedOutput(N_("standard output"))


def tolerate_encoding() -> None:
    """Let a terminal or pipe that cannot write every letter (``PYTHONIOENCODING=ascii``, a
    cp1251 console and the sign ×) show a stand-in for it: Russian text to such an output is
    still read, where Python's default is a ``UnicodeEncodeError`` traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            reconfigure(errors="replace")
        except (OSError, ValueError, io.UnsupportedOperation):  # closed or detached stream
            pass


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:
        sys.stdout = _ClosedOutput(N_("standard output"))
    tolerate_encoding()
    parser = build_parser()
    with argparse_speaking():
        args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)   # for a "resume with" line
    _COMMAND[0] = args.command
    shown, warnings.showwarning = warnings.showwarning, _warn_in_one_line
    try:
        status = int(args.run(args) or 0)
        sys.stdout.flush()   # a full disk shows here, while we can still say so
        return status
    except TavreiError as exc:
        _report(args.command, str(exc))
        return 2
    except BrokenPipeError:  # e.g. `tavrei-lab variants | head`
        _silence_stdout()
        return 0
    except OSError as exc:
        where = "" if exc.filename is not None else _("cannot write standard output: ")
        if isinstance(sys.stdout, _ClosedOutput) or exc.filename is not None:
            where = ""
        _report(args.command, where + _os_message(exc))
        if exc.filename is None:
            _silence_stdout()
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    finally:
        warnings.showwarning = shown


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
