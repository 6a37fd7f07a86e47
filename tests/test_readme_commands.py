"""The README's first command, `make lab`, really opens the tutorials in JupyterLab,
with Jupyter's news pop-up (which covers the board in class) switched off."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_serves_the_quick_start(tmp_path: Path) -> None:
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
                 "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR"):
        env[name] = str(tmp_path / name.lower())
    args = (f"--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port} "
            f"--ServerApp.port_retries=0 --IdentityProvider.token={token}")
    proc = subprocess.Popen(["make", "-s", "lab", f"LAB_ARGS={args}"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                pytest.fail(f"make lab exited with {proc.returncode}:\n{out[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("make lab did not answer within 90 s")
                time.sleep(0.5)
        # a file argument makes its folder, notebooks/, the root: every tutorial is listed
        url = f"{base}/api/contents/00_quick_start.ipynb?token={token}&content=0"
        with urllib.request.urlopen(url, timeout=10) as reply:
            info = json.load(reply)
        assert info["type"] == "notebook" and info["name"] == "00_quick_start.ipynb"
        with urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=10) as reply:
            listed = {item["name"] for item in json.load(reply)["content"]}
        assert {"01_meet_the_tavrels.ipynb", "classroom_demo.ipynb"} <= listed
        # Jupyter's news/update pop-up would cover the board: off by default here ...
        url = (f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification"
               f"?token={token}")
        with urllib.request.urlopen(url, timeout=10) as reply:
            schema = json.load(reply)["schema"]["properties"]
        assert schema["fetchNews"]["default"] == "false"
        assert schema["checkForUpdates"]["default"] is False
        # ... by a file in the environment, not in the user's own settings
        assert not any((tmp_path / "jupyterlab_settings_dir").rglob("*.json"))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
