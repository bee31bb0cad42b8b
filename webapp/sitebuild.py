"""Build the rulebook site in the background while the app already serves (``runecodex serve``).

Search, boards, rulings and the ``/rules/<id>`` pages need no site, so the server answers at once; the
Sphinx build runs as a child process (``runecodex build``), its progress ("writing output… 33 %") is
read from its output, printed to the terminal on one line per step of 10 %, and shown on ``/site/``
pages until the site appears (the app re-checks ``build/site/index.html`` every 2 s and then links to it).
"""

from __future__ import annotations

import atexit
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
_PERCENT = re.compile(r"^(?:\x1b\[[0-9;]*m)*([a-z][a-z ]+?)\.\.\.\s*(?:\x1b\[[0-9;]*m)*\[\s*(\d+)%\]")


@dataclass(frozen=True)
class Progress:
    """Where the background build is: ``idle`` (none started), ``building``, ``done`` or ``failed``."""

    state: str = "idle"
    phase: str = ""
    percent: int = 0
    started: float = 0.0
    message: str = ""

    def to_json(self) -> dict[str, object]:
        """Return the progress as JSON (for the pages and ``/site/`` while building)."""
        return {"state": self.state, "phase": self.phase, "percent": self.percent,
                "seconds": round(time.time() - self.started, 1) if self.started else 0,
                "message": self.message}


_lock = threading.Lock()
_progress = Progress()
_children: list[subprocess.Popen[str]] = []
_stopped = threading.Event()


@atexit.register
def stop_builds() -> None:
    """Stop a build still running when the server stops (it would finish for nobody), and start none
    after this (a build being started as the server stops is stopped too)."""
    with _lock:
        _stopped.set()
        children = list(_children)
    for proc in children:
        if proc.poll() is None:
            proc.terminate()


def progress() -> Progress:
    """Return the current progress of the background build."""
    with _lock:
        return _progress


def _set(**changes: object) -> None:
    global _progress
    with _lock:
        _progress = replace(_progress, **changes)  # type: ignore[arg-type]


def parse_line(line: str) -> tuple[str, int] | None:
    """Return (phase, percent) of a Sphinx status line ("writing output... [ 33%] …"), else None."""
    m = _PERCENT.match(line.strip())
    return (m.group(1).strip(), int(m.group(2))) if m else None


def _run(command: list[str], out: TextIO) -> None:
    _set(state="building", phase="starting", percent=0, started=time.time(), message="")
    print("serve: building the rulebook site in the background; search, boards and rulings work now",
          file=out, flush=True)
    shown: dict[str, int] = {}
    tail: list[str] = []
    proc: subprocess.Popen[str] | None = None
    failure = ""
    with _lock:  # not started once the server stops; stopped with it once started
        if _stopped.is_set():
            return
        try:
            started = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, encoding="utf-8", errors="replace")
        except OSError as exc:
            failure = str(exc)
        else:
            _children.append(started)
            proc = started
    if proc is None:
        _set(state="failed", message=failure)
        print(f"serve: the site build did not start ({failure}); rule links use /rules/<id>", file=out, flush=True)
        return
    assert proc.stdout is not None
    for line in proc.stdout:
        tail = [*tail, line.rstrip()][-5:]
        step = parse_line(line)
        if step is None:
            continue
        phase, percent = step
        _set(phase=phase, percent=percent)
        if percent >= shown.get(phase, -25) + 25:
            shown[phase] = percent - percent % 25
            print(f"serve: site build: {phase} {percent}%", file=out, flush=True)
    code = proc.wait()
    if code == 0:
        _set(state="done", phase="done", percent=100)
        print("serve: the rulebook site is ready at /site/", file=out, flush=True)
    else:
        _set(state="failed", message=" / ".join(t for t in tail if t)[-400:])
        print(f"serve: the site was not built (exit {code}); rule links use /rules/<id>", file=out, flush=True)


def build_in_background(site_dir: Path, out: TextIO = sys.stderr) -> threading.Thread | None:
    """Start building the site into *site_dir* when it is missing; return the watching thread (or None)."""
    if (site_dir / "index.html").is_file():
        _set(state="done", percent=100, phase="done")
        return None
    command = [sys.executable, "-c", "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))",
               "build", "--out", str(site_dir)]
    thread = threading.Thread(target=_run, args=(command, out), name="site-build", daemon=True)
    thread.start()
    return thread
