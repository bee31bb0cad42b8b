"""The Sphinx extension on tiny projects: the {rule} role resolves across pages, a broken id warns."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.testing.util import SphinxTestApp
from sphinx.util.docutils import docutils_namespace, patch_docutils

from engine.files.ownership import MARKER

pytest_plugins = ["sphinx.testing.fixtures"]

ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where Sphinx's test fixtures find the test roots (``testroot="x"`` is ``roots/test-x``)."""
    return ROOTS


def _snapshot(folder: Path, skip: Callable[[Path], bool]) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not skip(p.relative_to(folder))}


def build(root: str, tmp_path: Path, builder: str = "html", jobs: int = 0) -> tuple[Path, str]:
    """Build the test project *root* in a copy under *tmp_path*; return the output folder and warnings."""
    src = tmp_path / root
    shutil.copytree(ROOTS / root, src)
    out = tmp_path / "out"
    warnings = io.StringIO()
    with patch_docutils(src), docutils_namespace():
        app = Sphinx(src, src, out, tmp_path / "doctrees", builder, status=None, warning=warnings,
                     freshenv=True, parallel=jobs)
        app.build()
    return out, warnings.getvalue()


def test_rule_role_links_paragraphs_across_pages(tmp_path: Path) -> None:
    out, warnings = build("test-rule-role", tmp_path)
    assert warnings == ""
    index = (out / "index.html").read_text()
    links = re.findall(r'<a class="([^"]*)" href="([^"]+)"[^>]*>(.*?)</a>', index)
    rule_links = [(href, re.sub(r"<[^>]+>", "", text)) for cls, href, text in links if "rc-ref" in cls]
    assert rule_links == [("rules.html#tst.1", "tst.1"), ("rules.html#tst.1", "the first rule"),
                          ("rules.html#tst.2", "tst.2")]
    rules = (out / "rules.html").read_text()
    # the anchor is named after the id, and a link on the same page stays on the page
    assert 'id="tst.1"' in rules and 'id="tst.2"' in rules
    assert 'href="#tst.1"' in rules
    ids = (out / "ids.json").read_text()
    assert '"tst.1": "rules.html#tst.1"' in ids


def test_rule_role_resolves_in_a_parallel_build(tmp_path: Path) -> None:
    out, warnings = build("test-rule-role", tmp_path, jobs=2)
    assert warnings == ""
    assert 'href="rules.html#tst.2"' in (out / "index.html").read_text()


def test_broken_rule_id_warns_at_its_location(tmp_path: Path) -> None:
    out, warnings = build("test-broken-rule", tmp_path)
    lines = [ln for ln in warnings.splitlines() if ln.strip()]
    assert len(lines) == 1, warnings
    assert re.search(r"index\.md:5: WARNING: unknown rule id 'nope\.1'", lines[0]), lines[0]
    html = (out / "index.html").read_text()
    assert re.search(r'class="rc-broken[^"]*"><code[^>]*><span class="pre">nope.1<', html)


def test_broken_rule_id_fails_a_build_with_warnings_as_errors(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-broken-rule", src)
    with patch_docutils(src), docutils_namespace():
        app = Sphinx(src, src, tmp_path / "out", tmp_path / "doctrees", "html", status=None,
                     warning=io.StringIO(), freshenv=True, warningiserror=True)
        app.build()
    assert app.statuscode == 1


@pytest.mark.parametrize("text", ["{rule}`tst.1`", "{rule}`tst.1 <tst.1>`"])
def test_rule_role_in_hand_written_markdown(tmp_path: Path, text: str) -> None:
    root = tmp_path / "copy"
    shutil.copytree(ROOTS / "test-rule-role", root)
    (root / "index.md").write_text(f"# One\n\nSee {text}.\n\n```{{toctree}}\nrules\n```\n")
    with patch_docutils(root), docutils_namespace():
        warnings = io.StringIO()
        app = Sphinx(root, root, tmp_path / "o", tmp_path / "d", "html", status=None, warning=warnings,
                     freshenv=True)
        app.build()
    assert warnings.getvalue() == ""
    assert 'href="rules.html#tst.1"' in (tmp_path / "o" / "index.html").read_text()


# ------------------------------------------------------------------------------ the Sphinx convention

def _generated_or_built(rel: Path) -> bool:
    return rel.parts[0] == "_build" or rel.parts[:2] == ("site", "_generated")


@pytest.fixture
def corpus_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep the parsed-corpus cache of these builds in the test's own folder."""
    monkeypatch.setenv("RUNECODEX_CACHE", str(tmp_path / "corpus-cache"))
    return tmp_path / "corpus-cache"


@pytest.mark.sphinx("html", testroot="repo-root", freshenv=True)
def test_sphinx_on_the_root_builds_the_site_and_leaves_the_root_alone(app: SphinxTestApp,
                                                                     corpus_cache: Path) -> None:
    """``sphinx-build -M html . _build`` on a checkout: pages come from the corpus, no other file is touched."""
    root = Path(app.confdir)
    before = _snapshot(root, _generated_or_built)
    app.build()
    assert app.statuscode == 0
    generated = root / "site" / "_generated"
    assert Path(app.srcdir) == generated
    assert _snapshot(root, _generated_or_built) == before  # README.md, index.md, notes/, rules/ intact
    out = Path(app.outdir)
    assert out == root / "_build" / "html"
    # the site's home page (site/index.md), not the user's index.md at the root
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "Not the site" not in home and 'href="rune-age/index.html"' in home
    ids = json.loads((out / "ids.json").read_text(encoding="utf-8"))
    assert ids["ra.a-player-s-turn.1"].startswith("rune-age/")
    manifest = json.loads((generated / MARKER).read_text(encoding="utf-8"))
    assert manifest["owner"] == "runecodex" and "index.md" in manifest["files"]
    assert sorted(manifest["files"]) == sorted(str(p.relative_to(generated)) for p in generated.rglob("*")
                                               if p.is_file() and p.name != MARKER)


@pytest.mark.sphinx("html", testroot="repo-root", freshenv=True)
def test_a_rebuild_removes_only_pages_it_generated(app: SphinxTestApp, corpus_cache: Path) -> None:
    root = Path(app.confdir)
    app.build()
    generated = root / "site" / "_generated"
    gone = generated / "runewars-miniatures" / "rules" / "01-a" / "attack.rcpage"
    assert gone.is_file()
    planted = generated / "runewars-miniatures" / "my-notes.txt"  # a file the extension did not write
    planted.write_text("mine")
    rules = root / "rules" / "runewars-miniatures" / "01-a.yaml"
    rules.write_text(rules.read_text().replace("section: Attack", "section: Strike"))
    from engine.corpus.loader import _cached

    _cached.cache_clear()  # this process read the corpus before the edit
    again = SphinxTestApp("html", srcdir=root, freshenv=True)
    try:
        again.build()
    finally:
        again.cleanup()
    assert not gone.exists()  # listed in the manifest, no longer wanted: removed
    assert planted.read_text() == "mine"  # never listed: kept
    assert (generated / "runewars-miniatures" / "rules" / "01-a" / "strike.rcpage").is_file()


def test_generation_refuses_a_source_folder_that_is_not_its_own(tmp_path: Path, corpus_cache: Path) -> None:
    """``sphinx-build -c . mydocs OUT`` with a folder of the user's: refused, every file left as it was."""
    conf = tmp_path / "conf"
    shutil.copytree(ROOTS / "test-repo-root", conf)
    docs = tmp_path / "mydocs"
    docs.mkdir()
    (docs / "index.md").write_text("# My own documentation\n")
    (docs / "chapter.md").write_text("# Chapter\n")
    before = _snapshot(docs, lambda rel: False)
    warnings = io.StringIO()
    with patch_docutils(conf), docutils_namespace(), pytest.raises(SystemExit) as stopped:
        Sphinx(docs, conf, tmp_path / "out", tmp_path / "doctrees", "html", status=None, warning=warnings,
               freshenv=True)
    assert stopped.value.code == 2  # Sphinx's error status, without a crash report (tests/test_site_builders.py)
    assert "not made by runecodex" in warnings.getvalue()
    assert _snapshot(docs, lambda rel: False) == before


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sphinx_build_in_a_checkout_leaves_git_status_clean_and_matches_runecodex_build(tmp_path: Path) -> None:
    """A fresh clone in miniature: the real conf.py, site/ and .gitignore, a tiny corpus and other files.

    ``sphinx-build -M html . _build`` succeeds, ``git status --porcelain`` stays empty, every tracked
    file is byte-identical, and the pages are those ``runecodex build`` publishes from the same corpus.
    """
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("conf.py", ".gitignore"):
        shutil.copy2(REPO / name, checkout / name)
    shutil.copytree(REPO / "site", checkout / "site", ignore=shutil.ignore_patterns("_generated"))
    for name in ("rules", "notes", "README.md", "index.md"):
        src = ROOTS / "test-repo-root" / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, checkout / name)
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-q", "-m", "checkout")
    before = _snapshot(checkout, lambda rel: rel.parts[0] == ".git")
    env = {**os.environ, "RUNECODEX_RULES": str(checkout / "rules"), "RUNECODEX_CACHE": str(tmp_path / "cache"),
           "RUNECODEX_INDEX": str(tmp_path / "index")}
    sphinx = subprocess.run([sys.executable, "-m", "sphinx", "-M", "html", ".", "_build", "-q"], cwd=checkout,
                            env=env, capture_output=True, text=True, timeout=300, check=False)
    assert sphinx.returncode == 0, sphinx.stderr
    assert _git(checkout, "status", "--porcelain", "--untracked-files=all") == ""
    after = _snapshot(checkout, lambda rel: rel.parts[0] == ".git" or _generated_or_built(rel))
    assert after == before
    ours = subprocess.run([sys.executable, "-m", "engine.cli", "build", "--out", str(tmp_path / "site"), "-q"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert ours.returncode == 0, ours.stderr

    def pages(folder: Path) -> set[str]:
        return {str(p.relative_to(folder)) for p in folder.rglob("*.html")}

    assert pages(checkout / "_build" / "html") == pages(tmp_path / "site")
    assert (json.loads((checkout / "_build" / "html" / "ids.json").read_text())
            == json.loads((tmp_path / "site" / "ids.json").read_text()))
