"""Own only what we create: the one place that decides whether Runecodex may write or remove a path.

Every command that writes (``build``, ``index``, ``quickref``, ``graph``, the parsed-corpus cache, the
Sphinx extension) goes through this module. The rules:

* **Folders carry a marker.** A folder Runecodex creates gets a marker file :data:`MARKER`
  (``.runecodex-owned.json``: ``{"owner": "runecodex", "kind": ..., "files": [...], "tree": ...}``).
  ``files`` lists, relative to the folder, every file Runecodex wrote there; ``tree: true`` marks a
  folder Runecodex created empty and fills with tools it runs (Sphinx's caches, a search-index
  generation): everything below it is Runecodex's. Removing a folder removes only the files its
  marker lists (or, for a tree, the folder it created); anything else found there is left in place.
  Removal never follows a symbolic link, at any depth: folders are opened with ``O_NOFOLLOW`` relative
  to their parent's descriptor and names unlinked relative to it, so a link the user put inside an
  output (``pub/_static -> ../my-assets``) loses at most the link itself, never what it points at.
* **A folder target** may be written when it does not exist, is empty, or carries our marker.
  A folder that exists, is not empty and has no marker is refused (:class:`OutputRefusedError`,
  exit 2), never emptied. So is a target that is not a folder: a regular file, a device node such as
  ``/dev/null``, a socket, a named pipe, or a symbolic link (wherever it points).
* **A file target** (``quickref -o``, ``graph -o``) may be written when it does not exist, is empty,
  or holds exactly the bytes Runecodex last wrote there (a ledger in the cache folder records the
  SHA-256 of every file written, by absolute path). A file the user made or changed, a folder, a
  device node, a socket, a pipe or a symbolic link is refused. Files are written aside and renamed
  into place (:func:`write_aside`, the one writer), so a reader never sees half a file, a full disk
  leaves the previous file as it was, and a link planted at the path meanwhile is refused, not followed.
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
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from engine import PROJECT_ROOT
from engine.errors import OutputRefusedError

MARKER = ".runecodex-owned.json"
OWNER = "runecodex"
LEDGER = "owned-files.json"
LEDGER_LIMIT = 2000
ROOT = PROJECT_ROOT
# Removal never follows a symbolic link, at any depth: every folder is opened with O_NOFOLLOW relative
# to its parent's descriptor, and names are unlinked relative to the folder's descriptor (unlinking a
# link removes the link, never what it points at).
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

__all__ = [
    "MARKER", "OutputRefusedError", "check_dir", "check_file", "check_link", "claim_dir", "describe", "is_owned_dir",
    "read_marker", "record_file", "remove_owned", "write_aside", "write_file", "write_marker",
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

def _marker_at(dir_fd: int) -> dict[str, Any] | None:
    """Return the marker in the open folder *dir_fd* when it is ours (a regular file naming Runecodex)."""
    try:
        fd = os.open(MARKER, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > 64 * 1024 * 1024:
                return None
            data = json.loads(fh.read().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("owner") != OWNER:
        return None
    files = data.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return data


def read_marker(folder: Path) -> dict[str, Any] | None:
    """Return the marker of *folder* when it is ours (a regular file naming Runecodex), else ``None``."""
    try:
        fd = os.open(Path(folder), _DIR_FLAGS & ~os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        return _marker_at(fd)
    finally:
        os.close(fd)


def write_marker(folder: Path, kind: str, files: Iterable[str] = (), *, tree: bool = False) -> None:
    """Write (aside, then rename) the marker of *folder*: ours, of *kind*, listing *files*."""
    data = {"owner": OWNER, "kind": kind, "tree": tree, "files": sorted(set(files) - {MARKER})}
    write_aside(Path(folder) / MARKER, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


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


def _listed(rel: str) -> tuple[str, ...] | None:
    """Return the parts of *rel* when it is a plain relative path that stays inside its folder."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or any(p in ("", ".", "..") for p in parts):
        return None
    return parts


def _open_dir(name: str | Path, dir_fd: int | None = None) -> int | None:
    """Open the real folder *name* (relative to *dir_fd*); ``None`` for a link, a file or nothing."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None


@contextlib.contextmanager
def _opened(name: str | Path, dir_fd: int | None = None) -> Iterator[int | None]:
    fd = _open_dir(name, dir_fd)
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def _entries(dir_fd: int) -> list[tuple[str, bool]]:
    """Return ``(name, is a real folder)`` of every entry of the open folder *dir_fd*."""
    try:
        with os.scandir(dir_fd) as it:
            return [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
    except OSError:
        return []


def _clear(dir_fd: int, only_folders: bool = False) -> None:
    """Remove what lies below the open folder *dir_fd* (only its empty folders if *only_folders*)."""
    for name, is_dir in _entries(dir_fd):
        if not is_dir:
            if not only_folders:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=dir_fd)
            continue
        with _opened(name, dir_fd) as sub:
            if sub is not None:
                _clear(sub, only_folders)
        with contextlib.suppress(OSError):
            os.rmdir(name, dir_fd=dir_fd)  # fails when not empty, or when it became something else


def _unlink_listed(root_fd: int, parts: tuple[str, ...]) -> None:
    """Unlink ``root/parts`` (a file or a link, never a folder), descending only through real folders."""
    opened: list[int] = []
    try:
        here = root_fd
        for part in parts[:-1]:
            sub = _open_dir(part, here)
            if sub is None:
                return  # a link (or a file) where a folder was: never descended into
            opened.append(sub)
            here = sub
        if not stat.S_ISDIR(os.stat(parts[-1], dir_fd=here, follow_symlinks=False).st_mode):
            os.unlink(parts[-1], dir_fd=here)
    except OSError:
        return
    finally:
        for fd in opened:
            os.close(fd)


def _leftovers(folder: Path) -> list[Path]:
    """Return what is still in *folder* (links listed, never followed), or *folder* itself."""
    if not os.path.lexists(folder):
        return []
    if not os.path.isdir(folder) or os.path.islink(folder):
        return [folder]
    found = [Path(top) / name for top, dirs, files in os.walk(folder) for name in (*dirs, *files)]
    return sorted(found) or [folder]


def remove_owned(folder: Path) -> list[Path]:
    """Remove what Runecodex owns in *folder*; return what was left in place (empty when all is gone).

    A folder whose marker lists files loses exactly those files, then its empty subfolders, its marker
    and itself when empty. A ``tree`` folder, or one inside the project's build tree, was created by
    Runecodex and is removed whole. A folder that is not ours, or a symbolic link, is left alone; no
    symbolic link is ever followed, at any depth (a listed name that is a link loses the link only).
    """
    folder = Path(os.path.abspath(folder))
    try:
        parent_fd = os.open(folder.parent, _DIR_FLAGS & ~os.O_NOFOLLOW)
    except OSError:
        return _leftovers(folder)
    try:
        with _opened(folder.name, parent_fd) as root:
            if root is None:
                return _leftovers(folder)
            _remove_from(root, is_in_build_tree(folder))
        with contextlib.suppress(OSError):
            os.rmdir(folder.name, dir_fd=parent_fd)
    finally:
        os.close(parent_fd)
    return _leftovers(folder)


def _remove_from(root: int, in_build_tree: bool) -> None:
    """Remove what is ours below the open folder *root* (its marker says what)."""
    marker = _marker_at(root)
    if (marker is not None and marker.get("tree")) or (marker is None and in_build_tree):
        _clear(root)
        return
    if marker is None:
        return  # not ours: an empty folder is removed by the caller, anything else stays
    for rel in marker["files"]:
        parts = _listed(rel)
        if parts is not None:
            _unlink_listed(root, parts)
    _clear(root, only_folders=True)
    with contextlib.suppress(OSError):
        os.unlink(MARKER, dir_fd=root)


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
            write_aside(path, json.dumps({"owner": OWNER, "files": keep}, ensure_ascii=False).encode("utf-8"))
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


def write_aside(path: Path, data: bytes, before_swap: Callable[[], None] | None = None) -> None:
    """Write *data* to *path*: into a new file beside it, then renamed over it in one ``os.replace``.

    The new file is created with ``O_EXCL`` (never through a link) in *path*'s folder, flushed to disk,
    and renamed over *path* after *before_swap* (a last ownership check) passed; the rename replaces a
    link at *path* rather than following it. On any error (a full disk, say) the new file is removed
    and *path* is left exactly as it was.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), 0o644)
        if before_swap is not None:
            before_swap()
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_file(path: Path, data: bytes, what: str = "output") -> Path:
    """Write *data* to *path* if it may be ours (:func:`check_file`): aside, then renamed into place.

    Ownership is checked again on the final name just before the rename (nothing swapped in meanwhile).
    """
    path = Path(path)
    check_file(path, what)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_aside(path, data, lambda: check_file(path, what))
    except OSError as exc:
        raise OutputRefusedError(f"cannot write {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                 path="output") from None
    record_file(path, hashlib.sha256(data).hexdigest())
    return path
