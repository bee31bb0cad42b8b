"""Own only what we create: the one place that decides whether Runecodex may write or remove a path.

Every command that writes (``build``, ``index``, ``quickref``, ``graph``, the parsed-corpus cache, the
Sphinx extension) goes through this module. The rules:

* **Folders carry a marker.** A folder Runecodex creates gets a marker file :data:`MARKER`
  (``.runecodex-owned.json``: ``{"owner": "runecodex", "kind": ..., "files": [...], "tree": ...}``).
  ``files`` lists, relative to the folder, every file Runecodex wrote there; ``tree: true`` marks a
  folder Runecodex created empty and fills with tools it runs (Sphinx's caches, a search-index
  generation): everything below it is Runecodex's. Removing a folder removes only the files its
  marker lists (or, for a tree, the folder it created); anything else found there is left in place.
* **A folder target** may be written when it does not exist, is empty, or carries our marker.
  A folder that exists, is not empty and has no marker is refused (:class:`OutputRefusedError`,
  exit 2), never emptied. So is a target that is not a folder: a regular file, a device node such as
  ``/dev/null``, a socket, a named pipe, or a symbolic link (wherever it points).
* **A file target** (``quickref -o``, ``graph -o``) may be written when it does not exist, is empty,
  or holds exactly the bytes Runecodex last wrote there (a ledger in the cache folder records the
  SHA-256 of every file written, by absolute path). A file the user made or changed, a folder, a
  device node, a socket, a pipe or a symbolic link is refused. Files are written aside and renamed
  into place, so a reader never sees half a file.
* **The project's own build tree** (``build/`` beside the package, which ``make clean`` removes
  whole) counts as Runecodex's: folders and files strictly inside it are ours even without a marker
  (builds made before markers existed keep working). Symbolic links and device nodes there are still
  refused.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from engine.errors import OutputRefusedError

MARKER = ".runecodex-owned.json"
OWNER = "runecodex"
LEDGER = "owned-files.json"
LEDGER_LIMIT = 2000
ROOT = Path(__file__).resolve().parent.parent

__all__ = [
    "MARKER", "OutputRefusedError", "check_dir", "check_file", "check_link", "claim_dir", "describe", "is_owned_dir",
    "read_marker", "record_file", "remove_owned", "write_file", "write_marker",
]


def build_tree() -> Path:
    """Return the project's own build tree (``build/`` beside the package)."""
    return ROOT / "build"


def state_dir() -> Path:
    """Return the cache folder (``$RUNECODEX_CACHE`` or ``build/cache``) that holds the file ledger."""
    env = os.environ.get("RUNECODEX_CACHE")
    return Path(env) if env else build_tree() / "cache"


def _absolute(path: Path) -> Path:
    """Return *path* made absolute with its parent resolved, the last part not followed."""
    path = Path(os.path.abspath(path))
    try:
        return path.parent.resolve() / path.name
    except (OSError, RuntimeError):
        return path


def is_in_build_tree(path: Path) -> bool:
    """Return whether *path* lies strictly inside the project's build tree."""
    tree = build_tree().resolve()
    full = _absolute(path)
    return full != tree and tree in full.parents


def describe(mode: int) -> str:
    """Return what a file of *mode* is, for messages (``a device node``, ``a symbolic link``, …)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device node"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    return "not a regular file or folder"


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise OutputRefusedError(f"cannot use {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                 path="output") from None


def _refuse(path: Path, what: str, why: str) -> OutputRefusedError:
    return OutputRefusedError(f"refusing to write {what} to {str(path)!r}: {why}", path="output")


def _check_parent(path: Path, what: str) -> None:
    """Refuse when an existing ancestor of *path* is not a folder (the folder cannot be created)."""
    for parent in _absolute(path).parents:
        st = _lstat(parent)
        if st is None:
            continue
        try:
            mode = os.stat(parent).st_mode  # a link to a folder is a fine parent
        except OSError:
            mode = st.st_mode
        if not stat.S_ISDIR(mode):
            raise OutputRefusedError(f"cannot write {what} to {str(path)!r}: {str(parent)!r} is {describe(mode)}, "
                                     "not a folder", path="output")
        return


# ------------------------------------------------------------------------------------------ markers

def read_marker(folder: Path) -> dict[str, Any] | None:
    """Return the marker of *folder* when it is ours (a regular file naming Runecodex), else ``None``."""
    path = Path(folder) / MARKER
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 64 * 1024 * 1024:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("owner") != OWNER:
        return None
    files = data.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return data


def write_marker(folder: Path, kind: str, files: Iterable[str] = (), *, tree: bool = False) -> None:
    """Write (aside, then rename) the marker of *folder*: ours, of *kind*, listing *files*."""
    folder = Path(folder)
    data = {"owner": OWNER, "kind": kind, "tree": tree, "files": sorted(set(files) - {MARKER})}
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f"{MARKER}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
        os.chmod(tmp, 0o644)
        os.replace(tmp, folder / MARKER)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def is_owned_dir(folder: Path) -> bool:
    """Return whether *folder* is a real folder (not a link) carrying our marker or inside build/."""
    st = _lstat(Path(folder))
    if st is None or not stat.S_ISDIR(st.st_mode):
        return False
    return read_marker(folder) is not None or is_in_build_tree(folder)


def _existing(path: Path, what: str, is_kind: Callable[[int], bool], noun: str, kind: str) -> os.stat_result | None:
    """Return the ``lstat`` of *path* when it exists as a *kind* (a folder, a regular file), else refuse it.

    A path that does not exist returns ``None`` once its parent is checked; a symbolic link or a thing
    of another kind is refused (the real *noun* is asked for).
    """
    st = _lstat(path)
    if st is None:
        _check_parent(path, what)
        return None
    if stat.S_ISLNK(st.st_mode):
        raise _refuse(path, what, f"it is a symbolic link (give the real {noun})")
    if not is_kind(st.st_mode):
        raise _refuse(path, what, f"it is {describe(st.st_mode)}, not {kind}")
    return st


def check_dir(path: Path, what: str = "output") -> None:
    """Raise :class:`OutputRefusedError` unless *path* may be written as a folder of ours.

    Allowed: a path that does not exist (its parent must be a folder or creatable), an empty folder,
    or a folder that carries our marker or lies inside the project's build tree.
    """
    path = Path(path)
    if _existing(path, what, stat.S_ISDIR, "folder", "a folder") is None:
        return
    try:
        with os.scandir(path) as entries:
            empty = next(entries, None) is None
    except OSError as exc:
        raise _refuse(path, what, (exc.strerror or str(exc)).lower()) from None
    if empty or read_marker(path) is not None or is_in_build_tree(path):
        return
    raise _refuse(path, what, f"the folder is not empty and was not made by runecodex (it has no {MARKER}); "
                              "choose a new or empty folder")


def check_link(path: Path, prefix: str, what: str = "output") -> None:
    """Like :func:`check_dir`, but *path* may also be a symbolic link of ours.

    Ours: a link to a sibling folder whose name starts with *prefix* and that is ours (marker or build
    tree), as the search index's generations are. Any other link is refused.
    """
    path = Path(path)
    st = _lstat(path)
    if st is None or not stat.S_ISLNK(st.st_mode):
        check_dir(path, what)
        return
    target = os.readlink(path)
    if "/" not in target and target.startswith(prefix) and is_owned_dir(path.parent / target):
        return
    raise _refuse(path, what, "it is a symbolic link runecodex did not make (give a new or empty folder)")


def claim_dir(path: Path, kind: str, what: str = "output", *, tree: bool = False) -> Path:
    """Check *path* (:func:`check_dir`), create it if needed and make sure it carries our marker."""
    path = Path(path)
    check_dir(path, what)
    path.mkdir(parents=True, exist_ok=True)
    if read_marker(path) is None:
        write_marker(path, kind, tree=tree)
    return path


def _listed(folder: Path, rel: str) -> Path | None:
    """Return ``folder/rel`` when *rel* is a plain relative path that stays inside *folder*."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or any(p in ("", ".", "..") for p in parts):
        return None
    return folder.joinpath(*parts)


def remove_owned(folder: Path) -> list[Path]:
    """Remove what Runecodex owns in *folder*; return what was left in place (empty when all is gone).

    A folder whose marker lists files loses exactly those files (never following links), then its
    empty subfolders, its marker and itself when empty. A ``tree`` folder, or one inside the project's
    build tree, was created by Runecodex and is removed whole. A folder that is not ours is left alone.
    """
    folder = Path(folder)
    st = _lstat(folder)
    if st is None:
        return []
    if not stat.S_ISDIR(st.st_mode):
        return [folder]
    marker = read_marker(folder)
    if (marker is not None and marker.get("tree")) or (marker is None and is_in_build_tree(folder)):
        shutil.rmtree(folder, ignore_errors=True)
        return [folder] if os.path.lexists(folder) else []
    if marker is None:
        with contextlib.suppress(OSError):
            folder.rmdir()  # an empty folder loses nothing
        return [folder] if os.path.lexists(folder) else []
    for rel in marker["files"]:
        target = _listed(folder, rel)
        if target is None:
            continue
        tst = _lstat(target)
        if tst is not None and not stat.S_ISDIR(tst.st_mode):
            with contextlib.suppress(OSError):
                target.unlink()
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink()), reverse=True):
        with contextlib.suppress(OSError):
            sub.rmdir()  # only when empty
    (folder / MARKER).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        return sorted(folder.rglob("*"))
    return []


# ------------------------------------------------------------------------------------------ files

def _sha256_of(path: Path) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb", buffering=0) as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


@contextlib.contextmanager
def _ledger() -> Iterator[dict[str, str] | None]:
    """Yield the ledger of written files (``{absolute path: sha256}``) under a lock; saved on exit."""
    folder = state_dir()
    try:
        claim_dir(folder, "cache", "the cache")
        lock = os.open(folder / f".{LEDGER}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except (OSError, OutputRefusedError):
        yield None  # no usable cache folder: files are still written when new, never overwritten
        return
    try:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        path = folder / LEDGER
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            entries = {str(k): str(v) for k, v in data.get("files", {}).items()} if isinstance(data, dict) else {}
        except (OSError, ValueError, AttributeError, RecursionError):
            entries = {}
        before = dict(entries)
        yield entries
        if entries != before:
            keep = dict(list(entries.items())[-LEDGER_LIMIT:])
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{LEDGER}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"owner": OWNER, "files": keep}, fh, ensure_ascii=False)
            os.replace(tmp, path)
            marker = read_marker(folder)
            if marker is not None and LEDGER not in marker["files"]:
                write_marker(folder, str(marker.get("kind", "cache")), [*marker["files"], LEDGER],
                             tree=bool(marker.get("tree")))
    finally:
        os.close(lock)


def _written_by_us(path: Path) -> bool:
    with _ledger() as entries:
        if not entries:
            return False
        recorded = entries.get(str(_absolute(path)))
    return recorded is not None and recorded == _sha256_of(path)


def record_file(path: Path, digest: str | None = None) -> None:
    """Note in the ledger that Runecodex wrote *path* (with content digest *digest*)."""
    digest = digest or _sha256_of(path)
    if digest is None:
        return
    with _ledger() as entries:
        if entries is not None:
            key = str(_absolute(path))
            entries.pop(key, None)
            entries[key] = digest


def check_file(path: Path, what: str = "output") -> None:
    """Raise :class:`OutputRefusedError` unless *path* may be (over)written as a file of ours."""
    path = Path(path)
    st = _existing(path, what, stat.S_ISREG, "file", "a regular file")
    if st is None:
        return
    if st.st_size == 0 or is_in_build_tree(path) or _written_by_us(path):
        return
    raise _refuse(path, what, "the file exists and was not written by runecodex (or was changed since); "
                              "remove it or choose another name")


def write_file(path: Path, data: bytes, what: str = "output") -> Path:
    """Write *data* to *path* if it may be ours (:func:`check_file`): aside, then renamed into place."""
    path = Path(path)
    check_file(path, what)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputRefusedError(f"cannot write {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                 path="output") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        check_file(path, what)  # still ours a moment later (nothing swapped in meanwhile)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputRefusedError(f"cannot write {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                 path="output") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    record_file(path, hashlib.sha256(data).hexdigest())
    return path
