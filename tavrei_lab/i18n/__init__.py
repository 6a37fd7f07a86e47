"""The message catalogue: every word a learner reads, in English or Russian.

Tavreli is a Russian game, so a class may want its board, its puzzles and its
commentary in Russian. The English text is the message id (as gettext does it);
the Russian lives in ``tavrei_lab/i18n/ru.po``, shipped as it is and read by the
small reader below, so nothing is compiled at install time and the same wheel
works in Pyodide (the offline site), where ``msgfmt`` does not exist.

The language is chosen, in this order, by ``language=`` where a call takes one
(``Board(..., language="ru")``, ``gettext(..., language="ru")``), by
``set_language`` (or the ``speaking`` context, which a widget uses around its own
texts), then by the environment: ``TAVREI_LANG``, then the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``). English is the default.

Messages are whole sentences with ``{name}`` placeholders filled by
``str.format`` after translation, so a translator can move the words around;
counts go through ``ngettext``, because Russian has three plural forms
(1 ратник, 2 ратника, 5 ратников).
"""

from __future__ import annotations

import ast
import contextvars
import gettext as _stdlib_gettext
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from tavrei_lab import errors as _errors
from tavrei_lab.errors import TavreiError

__all__ = ["LANGUAGES", "N_", "Catalogue", "catalogue", "gettext", "get_language",
           "language_from_environment",
           "ngettext", "read_po", "set_language", "speaking"]

#: The languages the package speaks; the first is the default and the source.
LANGUAGES = ("en", "ru")

_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("tavrei_language",
                                                                   default=None)
_global: list[str | None] = [None]


def _checked(language: str) -> str:
    code = str(language).strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    if code not in LANGUAGES:
        raise TavreiError(gettext("unknown language {language!r}: choose one of {known}")
                          .format(language=language, known=", ".join(LANGUAGES)))
    return code


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """``TAVREI_LANG``, then the locale's language if the package speaks it, else English.

    A ``TAVREI_LANG`` the package does not speak falls back to English rather
    than failing, so a stray setting never stops a notebook from starting.
    """
    env = os.environ if environ is None else environ
    for name in ("TAVREI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.strip().lower().replace("-", "_").split("_")[0].split(".")[0]
            return code if code in LANGUAGES else LANGUAGES[0]
    return LANGUAGES[0]


def set_language(language: str | None) -> str:
    """Speak ``language`` ("en" or "ru") from now on; None goes back to the environment's.

    Returns the language now in force. An unknown one raises ``TavreiError``
    and leaves the language as it was.
    """
    _global[0] = None if language is None else _checked(language)
    return get_language()


def get_language() -> str:
    """The language in force: a ``speaking`` block's, ``set_language``'s, or the environment's."""
    return _chosen.get() or _global[0] or language_from_environment()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` inside the block only (None: whatever is in force).

    A board made with ``language="ru"`` builds its texts inside this, so one
    Russian board sits beside English ones in the same notebook.
    """
    if language is None:          # nothing asked: an outer block's language stays in force
        yield get_language()
        return
    token = _chosen.set(_checked(language))
    try:
        yield get_language()
    finally:
        _chosen.reset(token)


def _english_plural(n: int) -> int:
    return int(n != 1)


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: ``messages[msgid]`` is the text, or for a
    message with plural forms the tuple of forms chosen by ``plural(n)``."""

    language: str
    messages: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    plural: Callable[[int], int] = _english_plural

    def gettext(self, message: str) -> str:
        text = self.messages.get(message)
        return text if isinstance(text, str) and text else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.messages.get(singular)
        if isinstance(forms, tuple):
            index = self.plural(n)
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
        return singular if n == 1 else plural


def _unquote(text: str, where: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as exc:
        raise TavreiError(f"{where}: not a quoted string: {text}") from exc
    if not isinstance(value, str):
        raise TavreiError(f"{where}: not a quoted string: {text}")
    return value


def read_po(text: str, language: str, source: str = "<po>") -> Catalogue:
    """A catalogue from the text of a ``.po`` file (the subset gettext writes:
    comments, ``msgid``, ``msgid_plural``, ``msgstr``, ``msgstr[i]``, continued
    lines). Fuzzy entries are left out, as ``msgfmt`` leaves them out."""
    entries: list[dict[str, str]] = []
    entry: dict[str, str] = {}
    key = ""
    fuzzy = False

    def close() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and not fuzzy:
            entries.append(entry)
        entry, fuzzy = {}, False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{source}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if "msgid" in entry:
                close()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if not key:
                raise TavreiError(f"{where}: a continued string with nothing to continue")
            entry[key] += _unquote(line, where)
            continue
        word, _space, rest = line.partition(" ")
        if word == "msgid" and "msgid" in entry:
            close()
        key = word
        entry[key] = _unquote(rest.strip(), where)
    close()

    messages: dict[str, str | tuple[str, ...]] = {}
    plural: Callable[[int], int] = _english_plural
    for item in entries:
        msgid = item["msgid"]
        if msgid == "":
            for header in item.get("msgstr", "").splitlines():
                name, _colon, value = header.partition(":")
                if name.strip().lower() == "plural-forms":
                    expression = value.split("plural=", 1)[-1].strip().rstrip(";")
                    plural = _stdlib_gettext.c2py(expression)
            continue
        if "msgid_plural" in item:
            forms = []
            index = 0
            while f"msgstr[{index}]" in item:
                forms.append(item[f"msgstr[{index}]"])
                index += 1
            messages[msgid] = tuple(forms)
        else:
            messages[msgid] = item.get("msgstr", "")
    return Catalogue(language, messages, plural)


@cache
def catalogue(language: str) -> Catalogue:
    """The shipped catalogue of ``language`` (English: the ids themselves)."""
    code = _checked(language)
    if code == LANGUAGES[0]:
        return Catalogue(code)
    po = resources.files(__package__).joinpath(f"{code}.po")
    return read_po(po.read_text(encoding="utf-8"), code, f"{code}.po")


def gettext(message: str, language: str | None = None) -> str:
    """``message`` (an English sentence) in the language in force or in ``language``."""
    return catalogue(language or get_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int, language: str | None = None) -> str:
    """The form of a counted message for ``n``: English has two, Russian three."""
    return catalogue(language or get_language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` as a message id and give it back untranslated (gettext's ``N_``).

    A word written where the module is imported (a chart's category, a table's title, a
    column's meaning) would be translated once, in the language in force at import, if
    ``_()`` were called there; marked with ``N_`` it stays English until it is shown,
    where ``_(text)`` says it in the language in force then. The catalogue test finds
    ``N_`` ids as it finds ``_`` ones, so each still needs its Russian in ru.po.
    """
    return message


# the notes errors add to a long message or quote ("cut at 300 characters") are said in
# the language in force too (errors is below the catalogue, so it is told, not importing it)
_errors.SAYING.update(gettext=gettext, ngettext=ngettext)

#: The conventional short name, for ``from tavrei_lab.i18n import gettext as _``
#: (the form the catalogue test finds message ids by).
_ = gettext
