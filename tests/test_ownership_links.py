"""Never lose a user's file, part 2: links inside an output, full disks, killed index builds, locks, the marker.

* A rebuild removes the previous site's files through folder descriptors opened with ``O_NOFOLLOW``: a
  link the user put inside the output (a folder, a file, a folder deeper down) is never followed.
* ``graph -o`` writes aside and renames: a full disk leaves the previous file byte-identical (and no
  temporary file), and a link planted at the output path while the graph is computed is refused.
* Index pruning never deletes the served generation and drops generations killed builds left first.
* No lock file is left beside a user's ``--out``; the site's ownership marker is never served.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.files import ownership
from engine.site.build import publish

ROOT = Path(__file__).resolve().parent.parent
TINY_RULES = Path(__file__).parent / "roots" / "test-repo-root" / "rules"


def _env(tmp: Path, rules: Path | None = TINY_RULES) -> dict[str, str]:
    env = {**os.environ, "RUNECODEX_CACHE": str(tmp / "cache"), "RUNECODEX_INDEX": str(tmp / "index"),
           "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    if rules is not None:
        env["RUNECODEX_RULES"] = str(rules)
    return env


def _run(tmp: Path, *args: str, rules: Path | None = TINY_RULES) -> subprocess.CompletedProcess[str]:
    """Run ``runecodex ARGS`` as a user would (its own process), with caches in *tmp*."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT, env=_env(tmp, rules),
                          capture_output=True, text=True, timeout=300, check=False)


def _user_stuff(tmp: Path) -> dict[Path, bytes]:
    """Make the user's own files (outside any output) and return their bytes."""
    files = {tmp / "userassets" / "style.css": b"my own stylesheet\n",
             tmp / "mine.html": b"<p>my page</p>\n",
             tmp / "photos" / "a" / "b.png": b"\x89PNG my photo\n"}
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return files


def _replace_with_link(path: Path, target: Path) -> None:
    """Remove *path* (a published file or folder) and put a relative link to *target* in its place."""
    if path.is_dir():
        for sub in sorted(path.rglob("*"), reverse=True):
            sub.rmdir() if sub.is_dir() else sub.unlink()
        path.rmdir()
    else:
        path.unlink()
    path.symlink_to(os.path.relpath(target, path.parent))


# ------------------------------------------------------------------------------ links inside an output

def test_republishing_never_follows_a_link_the_user_put_inside_the_site(tmp_path: Path) -> None:
    staged = tmp_path / "staged"
    for rel in ("index.html", "page.html", "_static/style.css", "pics/deep/a/b.png"):
        (staged / rel).parent.mkdir(parents=True, exist_ok=True)
        (staged / rel).write_text(f"runecodex's {rel}")
    out = tmp_path / "pub"
    publish(staged, out)
    mine = _user_stuff(tmp_path)
    _replace_with_link(out / "_static", tmp_path / "userassets")  # a folder: ln -s ../userassets pub/_static
    _replace_with_link(out / "page.html", tmp_path / "mine.html")  # a file
    _replace_with_link(out / "pics" / "deep", tmp_path / "photos")  # a folder deeper down
    publish(staged, out)
    assert {p: p.read_bytes() for p in mine} == mine
    assert not (out / "_static").is_symlink() and (out / "_static" / "style.css").read_text().startswith("runecodex")
    # removing the output outright follows no link either
    _replace_with_link(out / "_static", tmp_path / "userassets")
    _replace_with_link(out / "pics", tmp_path / "photos")
    left = ownership.remove_owned(out)
    assert {p: p.read_bytes() for p in mine} == mine
    assert sorted(p.name for p in left) == ["_static", "pics"]
    # nor does removing a folder runecodex made whole (a tree), nor a link given as the folder itself
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    ownership.write_marker(tree, "test", tree=True)
    (tree / "sub" / "assets").symlink_to(tmp_path / "userassets")
    (tree / "page.html").symlink_to(tmp_path / "mine.html")
    assert ownership.remove_owned(tree) == []
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "photos")
    assert ownership.remove_owned(link) == [link]
    assert {p: p.read_bytes() for p in mine} == mine


def test_a_rebuild_keeps_the_files_of_a_user_folder_linked_into_the_output(tmp_path: Path) -> None:
    out = tmp_path / "pub"
    first = _run(tmp_path, "build", "--out", str(out), "-q")
    assert first.returncode == 0, first.stderr
    marker = ownership.read_marker(out)
    assert marker is not None
    static = sorted(f for f in marker["files"] if f.startswith("_static/") and f.count("/") == 1)[0]
    deep = sorted(f for f in marker["files"] if f.count("/") == 2 and not f.startswith("_"))[0]
    user = tmp_path / "userassets"
    user.mkdir()
    (user / Path(static).name).write_bytes(b"the user's own file of that name\n")
    (tmp_path / "mine.html").write_bytes(b"<p>mine</p>\n")
    deep_user = tmp_path / "userdeep"
    deep_user.mkdir()
    (deep_user / Path(deep).name).write_bytes(b"deep and mine\n")
    before = {p: p.read_bytes() for p in (*user.iterdir(), tmp_path / "mine.html", *deep_user.iterdir())}
    _replace_with_link(out / "_static", user)  # ln -s ../userassets pub/_static
    _replace_with_link(out / "about.html", tmp_path / "mine.html")
    _replace_with_link(out / Path(deep).parent, deep_user)
    again = _run(tmp_path, "build", "--out", str(out), "-q")
    assert again.returncode == 0, again.stderr
    assert {p: p.read_bytes() for p in before} == before
    assert (out / static).is_file() and not (out / "_static").is_symlink()
    # no lock file beside the user's output, and none left in the cache either
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")]
    assert not list((tmp_path / "cache" / "locks").iterdir())


# ------------------------------------------------------------------------------ graph -o

GRAPH = ("graph", "--term", "exhaust", "--game", "rune-age", "--format", "dot")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """Mount a 64 KiB tmpfs (skipped where mounting is not allowed); unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        got = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                             capture_output=True, text=True, timeout=20, check=False)
    except OSError as exc:
        pytest.skip(f"cannot run mount: {exc}")
    if got.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not allowed here: {got.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=20, check=False)


def test_graph_on_a_full_disk_leaves_the_previous_file_byte_identical(tmp_path: Path, small_disk: Path) -> None:
    out = small_disk / "exhaust.dot"
    small = _run(tmp_path, *GRAPH, "--depth", "0", "-o", str(out), rules=None)
    assert small.returncode == 0, small.stderr
    before = out.read_bytes()
    with open(small_disk / "filler", "wb", buffering=0) as fh:  # fill the disk to its last byte
        try:
            while fh.write(b"\0" * 4096):
                pass
        except OSError:
            pass
    bigger = _run(tmp_path, *GRAPH, "--depth", "2", "-o", str(out), rules=None)
    assert bigger.returncode == 2, bigger.stderr
    assert bigger.stderr.strip() == f"runecodex: cannot write {str(out)!r}: no space left on device (at output)"
    assert out.read_bytes() == before
    assert sorted(p.name for p in small_disk.iterdir()) == ["exhaust.dot", "filler"]  # no temporary file left


# runs ``runecodex graph`` and, once the graph is computed, puts a link to the user's file at the output
PLANT = """
import os, sys
import engine.views.graph as graph

out, target, args = sys.argv[1], sys.argv[2], sys.argv[3:]
real_export = graph.export

def export(*a, **k):
    text = real_export(*a, **k)
    os.unlink(out)
    os.symlink(target, out)
    return text

graph.export = export
from engine.cli import main
sys.exit(main(args))
"""


def test_graph_never_writes_through_a_link_planted_at_the_output(tmp_path: Path) -> None:
    out = tmp_path / "exhaust.dot"
    first = _run(tmp_path, *GRAPH, "-o", str(out), rules=None)
    assert first.returncode == 0, first.stderr
    mine = tmp_path / "thesis.txt"
    mine.write_bytes(b"three years of work\n")
    got = subprocess.run([sys.executable, "-c", PLANT, str(out), str(mine), *GRAPH, "-o", str(out)], cwd=ROOT,
                         env=_env(tmp_path, None), capture_output=True, text=True, timeout=300, check=False)
    assert got.returncode == 2, got.stderr
    assert "it is a symbolic link" in got.stderr and "Traceback" not in got.stderr
    assert mine.read_bytes() == b"three years of work\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == ["exhaust.dot", "thesis.txt"]
    # and a link that is there from the start is refused before anything is written
    refused = _run(tmp_path, *GRAPH, "-o", str(out), rules=None)
    assert refused.returncode == 2 and "it is a symbolic link" in refused.stderr
    assert mine.read_bytes() == b"three years of work\n"


# ------------------------------------------------------------------------------ the search index on disk

def test_pruning_keeps_the_served_generation_and_drops_what_killed_builds_left(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    first = _run(tmp_path, "index", "--out", str(index))
    assert first.returncode == 0, first.stderr
    served = index.resolve()
    killed = []
    for n in range(2):  # what a build killed while writing leaves: a generation of ours without meta.json
        gen = tmp_path / f".idx-gen-{n}dead0000000-{n}"
        gen.mkdir()
        ownership.write_marker(gen, "search-index", tree=True)
        (gen / "_MAIN_1.toc").write_bytes(b"half")
        killed.append(gen)
    again = _run(tmp_path, "index", "--out", str(index))
    assert again.returncode == 0, again.stderr
    assert served.is_dir() and (served / "meta.json").is_file()  # a server may still be reading it
    assert index.resolve() != served and (index / "meta.json").is_file()
    assert not [g for g in killed if g.exists()]
    # no lock file beside the index, none left in the cache
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".idx-gen-")) == ["cache", "idx"]
    assert not list((tmp_path / "cache" / "locks").iterdir())


# ------------------------------------------------------------------------------ the web app

def test_the_sites_marker_and_other_hidden_files_are_never_served(tmp_path: Path) -> None:
    from webapp.app import create_app

    site = tmp_path / "site"
    (site / "_static").mkdir(parents=True)
    (site / "index.html").write_text("<p>the site</p>")
    (site / "_static" / ".hidden").write_text("hidden")
    (site / ".buildinfo").write_text("config: x")
    ownership.write_marker(site, "site", ["index.html", "_static/.hidden", ".buildinfo"])
    client = create_app({"TESTING": True, "SITE_DIR": str(site)}).test_client()
    with client.get("/site/index.html") as page:
        assert page.status_code == 200
    for url in ("/site/.runecodex-owned.json", "/site/%2Erunecodex-owned.json", "/site/_static/.hidden",
                "/site/.buildinfo"):
        with client.get(url) as resp:
            assert resp.status_code == 404, url
            assert b'"owner"' not in resp.data
    assert json.loads((site / ownership.MARKER).read_text())["owner"] == "runecodex"
