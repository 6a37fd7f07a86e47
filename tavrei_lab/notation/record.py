"""Game records: tag pairs, then movetext (in the manner of PGN).

::

    [Event "Moscow championship"]
    [Date "1997.??.??"]
    [White "U. Anderson"]
    [Black "V. Zhmurov"]
    [Variant "tavreli"]
    [Result "0-1"]

    1. h1-h2 e7-e5 2. e2-e3 g8-f6 {comments in braces} ... 0-1

Optional tags: ``Position`` (a start position string), ``Seed`` (the die
game's random seed), ``VariantData`` (the whole definition of a variant that is
not a shipped one -- a file, options changed -- as one line of JSON, so the
record replays under exactly those rules anywhere; see ``Game.record``).
Tag values escape ``"`` and ``\\`` with a backslash.
A file with no tags is read as bare movetext.

Chess records (PGN) read too: ``Variant`` spelt as chess files spell standard
chess (``Standard``, ``Chess``, ``From Position``, ...: ``record_variant``) is
orthodox chess, whose movetext is SAN (``notation.pgn``); ``[SetUp "1"]`` with
``[FEN "..."]`` gives the start position (``start_tag``). ``write_pgn``
(``Game.pgn``) writes a game of chess as a chess program reads it.

This module reads and writes the *text*: ``parse_record`` splits a record into
tags and movetext, ``write_record`` writes a game out. Replaying the moves
makes a game, which is the game layer's work: ``tavrei_lab.game.read_record``
(``Game.from_record``).
"""

from __future__ import annotations

import re
from typing import Any

from tavrei_lab.errors import RecordError
from tavrei_lab.i18n import gettext as _

#: Largest record read (a long game is a few kilobytes).
MAX_RECORD_BYTES = 1_000_000
#: Most moves and rolls replayed from one record.
MAX_RECORD_TOKENS = 20_000
#: Most plies (or turns) a self-play command (``play``, ``compare``, ``soak``) may be told
#: to play before it adjudicates: with a die roll before every move and a few passes, the
#: game's record stays within ``MAX_RECORD_TOKENS`` and can always be read back.
MAX_GAME_PLIES = 4_000

#: A tag line. The value's pattern is "unrolled" (runs of plain characters, each escape
#: once): an alternation repeated per character keeps a backtracking mark per character,
#: and a 990 KB tag cost 193 MB to match.
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*\Z')
TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant",
             "Position", "Seed")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


#: Every character ``str.splitlines`` breaks a line at: in a tag value it would cut the
#: tag in two and make the record unreadable (a name pasted with "\r", a U+2028).
_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _escape(value: str) -> str:
    return _LINE_BREAKS.sub(" ", value.replace("\\", "\\\\").replace('"', '\\"'))


#: How chess records spell the variant that is orthodox chess here (compared folded:
#: lower case, without spaces, hyphens or underscores).
CHESS_VARIANTS = frozenset({"orthodox", "standard", "chess", "classical", "normal",
                            "fromposition", "std", "orthodoxchess", "standardchess"})
#: Chess960's spellings: a set-up this package does not play.
CHESS960_VARIANTS = frozenset({"chess960", "960", "fischerandom", "fischerrandom",
                               "fischerrandomchess", "frc"})
#: The Variant tag a chess record is written with: every chess program reads it.
CHESS_VARIANT_TAG = "Standard"
SEVEN_TAGS = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
              ("White", "?"), ("Black", "?"), ("Result", "*"))


def _folded(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).lower()


def record_variant(name: str) -> str:
    """The variant a record's ``Variant`` tag names: a chess spelling of standard chess
    is ``"orthodox"``; Chess960 raises ``RecordError``; anything else is kept as given."""
    folded = _folded(name)
    if folded in CHESS_VARIANTS:
        return "orthodox"
    if folded in CHESS960_VARIANTS:
        raise RecordError(_("record header: Variant {name} is Chess960, which is not "
                            "supported: orthodox chess here castles only from the standard "
                            "set-up's squares").format(name=repr(name[:40])))
    return name


def start_tag(tags: dict[str, str]) -> str | None:
    """The start position a record's tags give: ``Position`` (a position string) or a
    chess record's ``FEN`` (with ``[SetUp "1"]``); None for the variant's own start."""
    fen = tags.get("FEN")
    position = tags.get("Position")
    if fen is not None and position is not None:
        raise RecordError(_("record header: tags FEN and Position both give a start "
                            "position; keep one"))
    if fen is None and tags.get("SetUp", "0").strip() == "1" and position is None:
        raise RecordError(_('record header: [SetUp "1"] says the game starts from a set '
                            "position, but no FEN tag gives it"))
    return fen if fen is not None else position


def parse_record(text: str) -> tuple[dict[str, str], str]:
    """Split a record into its tags and its movetext (no moves are played)."""
    if not isinstance(text, str):
        raise RecordError(_("a record must be text, got {type}").format(type=type(text).__name__))
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(_("record is {size} characters; the limit is {limit}").format(
            size=len(text), limit=MAX_RECORD_BYTES))
    if text.startswith("\ufeff"):
        text = text[1:]
    tags: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].lstrip().startswith("["):
        line = lines[i].strip()
        m = _TAG.match(line)
        if m is None:
            raise RecordError(_('line {line}: malformed tag {tag}: expected [Name "value"]').format(
                line=i + 1, tag=repr(line[:60])), line=i + 1)
        name, value = m.group(1), _unescape(m.group(2))
        if name in tags:
            raise RecordError(_("line {line}: tag {name} given twice").format(
                line=i + 1, name=name), line=i + 1)
        tags[name] = value
        i += 1
    movetext = "\n".join(lines[i:])
    return tags, movetext


def write_record(game: Any, **tags: str) -> str:
    """The record of ``game``; keyword tags override ``game.tags``."""
    return _write(game, tags, san=False)


def write_pgn(game: Any, **tags: str) -> str:
    """The record of a game of chess as chess programs read it (PGN): the seven tags'
    defaults, ``[Variant "Standard"]`` for orthodox chess, a set start as ``[SetUp
    "1"]`` and ``[FEN]``, and the moves in SAN; keyword tags override ``game.tags``."""
    return _write(game, tags, san=True)


def _write(game: Any, tags: dict[str, str], san: bool) -> str:
    all_tags = dict(game.tags)
    all_tags.update({k: str(v) for k, v in tags.items()})
    all_tags["Variant"] = game.variant.id
    start = game.start_position
    set_up = start.string != game.rules.initial_position().string
    if san:
        for name in ("Position", "SetUp", "FEN"):
            all_tags.pop(name, None)
        for name, default in SEVEN_TAGS[:-1]:
            all_tags.setdefault(name, default)
        if game.variant.id == "orthodox":
            all_tags["Variant"] = CHESS_VARIANT_TAG
        if set_up:
            all_tags["SetUp"] = "1"
            all_tags["FEN"] = start.fen()
    else:
        for name in ("SetUp", "FEN"):     # the start is the Position tag's
            all_tags.pop(name, None)
        if set_up:
            all_tags["Position"] = start.string
    if game.seed is not None:
        all_tags["Seed"] = str(game.seed)
    outcome = game.outcome(claim_draw=False)
    all_tags.setdefault("Result", outcome.result() if outcome else "*")
    order = (*(name for name, _ in SEVEN_TAGS), "Variant", "SetUp", "FEN") if san else TAG_ORDER
    ordered = [k for k in order if k in all_tags]
    ordered += sorted(k for k in all_tags if k not in order)
    head = "\n".join(f'[{k} "{_escape(all_tags[k])}"]' for k in ordered)
    words: list[str] = []
    positions = game.positions
    from tavrei_lab.core.move import Roll
    from tavrei_lab.notation.moves import write_move
    from tavrei_lab.notation.san import write_san
    start_comment = game.comments.get(0)
    if start_comment:
        words.append("{" + start_comment.replace("}", ")") + "}")
    need_number = True
    for i, action in enumerate(game.history):
        pos = positions[i]
        if isinstance(action, Roll):
            if need_number or (pos.turn == 0 and not words[-1:] == ["@"]):
                pass
            text = f"@{action.face}"
        elif san:
            text = write_san(pos, action)
        else:
            text = write_move(pos, action)
            after = positions[i + 1]
            rules = game.rules
            if not rules.is_chance_node(after) and rules.is_check(after):
                text += "#" if not rules.legal_moves(after) else "+"
        number = f"{pos.fullmove_number}." if pos.turn == 0 else f"{pos.fullmove_number}..."
        if need_number or (pos.turn == 0 and _starts_turn(positions, i)):
            words.append(number)
        need_number = False
        words.append(text)
        words.extend(f"${nag}" for nag in game.nags.get(i + 1, ()))
        comment = game.comments.get(i + 1)
        if comment:
            words.append("{" + comment.replace("}", ")") + "}")
            need_number = True
        for line in game.variations.get(i + 1, ()):
            words.append(f"({line})")
            need_number = True
    # the movetext ends in a result token; a Result tag that is not one (a typo such as
    # "-0" read from a file) stays in the tags but must not end the movetext unreadably
    result = all_tags["Result"]
    words.append(result if result in ("1-0", "0-1", "1/2-1/2", "*") else "*")
    body = _wrap(words)
    return f"{head}\n\n{body}\n"


def _starts_turn(positions: list[Any], i: int) -> bool:
    """Does action ``i`` begin white's turn (so a move number goes before it)?"""
    if i == 0:
        return True
    before = positions[i]
    prev = positions[i - 1]
    return before.turn == 0 and (prev.turn == 1 or before.fullmove_number != prev.fullmove_number)


def _wrap(words: list[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return "\n".join(lines)
