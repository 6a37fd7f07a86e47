"""The record and position controls under the board: a text area for a game record
(load, save, download, open a file) and a line for a position string (set, copy).

``RecordPanel`` holds the controls; the board gives the actions. ``upload_text``
(plain Python) reads an upload message into text or says why it cannot, so a
forged or malformed message is refused the same way in every front end.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.controls import button


def upload_text(files: Any) -> tuple[str | None, str]:
    """The text of the first uploaded file, or None and the sentence saying why not.

    ``files`` is ``FileUpload.value``: a list of ``{"name", "content"}`` (ipywidgets 8)
    or ``{name: file}`` (ipywidgets 7).
    """
    if isinstance(files, dict):
        files = list(files.values())
    item = files[0] if isinstance(files, (list, tuple)) and files else None
    if not isinstance(item, dict):
        item = {}
    content = item.get("content")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        return None, _("Could not read the upload: it holds no file content. "
                       "The game on the board is unchanged.")
    try:
        return bytes(content).decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        name = str(item.get("name", _("the file")))[:80]
        return None, _("Could not read {name}: not UTF-8 text ({reason} at byte {byte}). The "
                       "game on the board is unchanged.").format(name=name, reason=exc.reason,
                                                                 byte=exc.start)


def download_html(text: str, stem: str) -> str:
    """A link offering ``text`` as ``{stem}-game.txt`` (a data URL: no server needed)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a download="{html.escape(stem)}-game.txt" '
            f'href="data:text/plain;charset=utf-8;base64,{data}">'
            f'{html.escape(_("Download the record"))}</a>')


class RecordPanel:
    """The record's text area and buttons, the upload, the download link and the
    position line; ``box`` is what the board places under itself."""

    def __init__(self, *, load: Callable[[], Any], save: Callable[[], Any],
                 upload: Callable[[dict[str, Any]], Any], set_position: Callable[[], Any],
                 copy_position: Callable[[], Any]) -> None:
        self.record_text = widgets.Textarea(placeholder=_("paste a game record here"),
                                            layout=widgets.Layout(width="100%", height="8em"))
        self.record_upload = widgets.FileUpload(accept=".txt,.pgn,.tvr", multiple=False,
                                                description=_("Open file"))
        self.record_upload.observe(upload, "value")
        self.download_link = widgets.HTML()
        self.position_text = widgets.Text(description=_("Position"),
                                          layout=widgets.Layout(width="100%"))
        self.box = widgets.VBox([
            self.record_text,
            widgets.HBox([button(_("Load record"), _("replay the record above"), load),
                          button(_("Save record"), _("write this game's record above"), save),
                          self.record_upload, self.download_link]),
            self.position_text,
            widgets.HBox([button(_("Set position"),
                                 _("start a new game from the position string"), set_position),
                          button(_("Copy position"), _("copy the position string"),
                                 copy_position)]),
        ])


__all__ = ["RecordPanel", "download_html", "upload_text"]
