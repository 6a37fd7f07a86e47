"""Helpers shared by the browser tests: screenshots, and Python run in the page's kernel."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot of the page as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


RUN_ALL = """async () => {
  const app = window.jupyterapp;
  const deadline = Date.now() + 60000;
  // The notebook panel and its kernel must really be ready before Run All,
  // or the command is dropped silently (TESTING.md: "Kernel readiness").
  while (Date.now() < deadline) {
    const panel = app.shell.currentWidget;
    const ctx = panel && panel.sessionContext;
    if (ctx && ctx.session && ctx.session.kernel) {
      await ctx.ready;
      if (ctx.session.kernel.status === "idle") {
        await app.commands.execute("notebook:run-all-cells");
        return true;
      }
    }
    await new Promise(r => setTimeout(r, 100));
  }
  return false;
}"""

EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let out = "";
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === "stream") out += msg.content.text;
    if (t === "error") out += "ERROR " + msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return out;
}"""


class Notebook:
    """A notebook open in JupyterLab, with helpers to run Python in its kernel."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def execute(self, code: str) -> str:
        out = self.page.evaluate(EXECUTE, code)
        assert "ERROR" not in out, out
        return out

    def state(self, board: str) -> dict[str, Any]:
        """The Python-side state of ``board`` (a variable in the notebook)."""
        return json.loads(self.execute(f"state({board})").strip().splitlines()[-1])
