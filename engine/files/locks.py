"""Locks that die with their holder, and helper processes that die with their parent.

* :func:`exclusive` holds a POSIX record lock (``fcntl.lockf``) on an open lock file. The kernel drops
  it when the holding process ends, however it ends (``SIGKILL`` included), and a forked child never
  inherits it: an orphaned worker cannot keep the next build waiting. The lock file records the
  holder's pid, and a command that has to wait says what it waits for, once, on standard error.
* :func:`die_with_parent` (Linux ``prctl(PR_SET_PDEATHSIG)``) makes a forked worker receive
  ``SIGKILL`` as soon as its parent dies; Sphinx's parallel workers and the search-index child of
  ``runecodex build`` call it first thing.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import hashlib
import os
import re
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from engine.errors import OutputRefusedError

PR_SET_PDEATHSIG = 1
_THREAD_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


def die_with_parent(parent_pid: int | None = None) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; a no-op elsewhere).

    *parent_pid* is the pid the parent had before the fork: when the parent is already gone (the
    child was re-parented before the request took effect), the process exits at once.
    """
    if not sys.platform.startswith("linux"):
        return
    name = ctypes.util.find_library("c")
    if name:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def lock_path(target: Path) -> Path:
    """Return the lock file guarding builds of *target*: in the cache folder, never beside the user's output.

    The name holds the target's name and a digest of its absolute path, so two outputs never share one.
    """
    from engine.files import ownership

    full = os.path.abspath(target)
    folder = ownership.claim_dir(ownership.state_dir(), "cache", "the cache") / "locks"
    folder.mkdir(exist_ok=True)
    digest = hashlib.sha256(os.fsencode(full)).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(full).name)[:40] or "root"
    return folder / f"{name}-{digest}.lock"


def _open_lock(path: Path) -> int:
    """Open (creating) the lock file *path*, refusing a link, a folder or a file that is not a lock of ours."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    except OSError as exc:  # a symbolic link (ELOOP), a folder, …: not a lock file of ours
        raise OutputRefusedError(f"cannot use the lock file {str(path)!r}: "
                                 f"{(exc.strerror or str(exc)).lower()}", path="output") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (st.st_size and not _holder(fd)):
        os.close(fd)
        raise OutputRefusedError(f"refusing to use {str(path)!r} as a lock file: it is not runecodex's "
                                 "(remove it if it is not needed)", path="output")
    return fd


def _still_there(fd: int, path: Path) -> bool:
    """Return whether *path* is still the file open as *fd* (a releasing holder removes it)."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (held.st_dev, held.st_ino)


def _acquire(path: Path, waiting_for: str, out: TextIO | None) -> int:
    """Return an open descriptor of *path* holding its lock; wait (saying so once) while another holds it."""
    said = False
    while True:
        fd = _open_lock(path)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if not said:
                stream = out if out is not None else sys.stderr
                print(f"runecodex: waiting for {waiting_for}{_holder(fd)} to finish…", file=stream, flush=True)
                said = True
            fcntl.lockf(fd, fcntl.LOCK_EX)
        if _still_there(fd, path):
            return fd
        os.close(fd)  # the holder removed it as it finished: lock the next one


@contextlib.contextmanager
def exclusive(path: Path, waiting_for: str, out: TextIO | None = None) -> Iterator[None]:
    """Hold an exclusive lock on *path* for the ``with`` block; wait for it, saying so, when it is held.

    *waiting_for* names the holder's work for the message (``"another build of build/site"``). The lock
    file is removed when the block ends (while still locked, so that a waiter locks a fresh one).
    """
    path = Path(path)
    key = os.path.abspath(path)
    with _GUARD:
        local = _THREAD_LOCKS.setdefault(key, threading.Lock())
    with local:  # POSIX locks are per process: threads of one process take turns here first
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _acquire(path, waiting_for, out)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            yield
        finally:
            if _still_there(fd, path):
                with contextlib.suppress(OSError):
                    os.unlink(path)
            os.close(fd)  # closing drops the lock
