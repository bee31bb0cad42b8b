"""Every builder Sphinx ships, run the Sphinx way (``sphinx-build -b BUILDER . OUT``) on a checkout's root.

The extension's own nodes (``<details>`` blocks, rule links) must not stop a non-HTML builder, singlehtml's
``ids.json`` gives each id one fragment, and a refusal is one line, not a crash report.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).resolve().parent.parent

# builder -> a file its output must hold ("": none; changes writes nothing without versionchanged notes);
# linkcheck runs offline: the site links only to its own pages
BUILDERS = {
    "html": "index.html", "dirhtml": "index.html", "singlehtml": "index.html", "text": "index.txt",
    "latex": "runecodex.tex", "man": "runecodex.1", "texinfo": "runecodex.texi", "epub": "Runecodex.epub",
    "json": "index.fjson", "pickle": "index.fpickle", "xml": "index.xml", "pseudoxml": "index.pseudoxml",
    "gettext": "index.pot", "changes": "", "linkcheck": "output.json", "dummy": "",
}


def _sphinx_build(root: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RUNECODEX_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "sphinx", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the miniature checkout (the real conf.py and site/, a tiny corpus, files of the user's)."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOTS / "test-repo-root", root)
    return root


# json and pickle come from sphinxcontrib-serializinghtml, which reads a deprecated attribute of its own builder
@pytest.mark.filterwarnings(r"ignore:'sphinxcontrib\.serializinghtml\.\w+\.app' is deprecated"
                            ":sphinx.deprecation.RemovedInSphinx11Warning")
@pytest.mark.parametrize("builder", sorted(BUILDERS))
def test_every_builder_builds_the_site_without_a_warning(builder: str, checkout: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``sphinx-build -b BUILDER . OUT -q`` (Sphinx's own command-line entry, in this process: faster)."""
    monkeypatch.chdir(checkout)
    monkeypatch.setenv("RUNECODEX_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "out"
    status = build_main(["-b", builder, ".", str(out), "-q"])
    stderr = capsys.readouterr().err
    assert status == 0, stderr
    assert stderr == ""
    if BUILDERS[builder]:
        assert (out / BUILDERS[builder]).is_file(), sorted(p.name for p in out.iterdir())


def test_text_builder_writes_folded_blocks_and_links_as_text(checkout: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = _sphinx_build(checkout, tmp_path, "-b", "text", ".", str(out), "-q")
    assert run.returncode == 0, run.stderr
    page = (out / "rune-age" / "rules" / "01-turn" / "a-player-s-turn.txt").read_text(encoding="utf-8")
    assert "**The rule as first printed (no longer applies)**" in page  # the <details> summary, in bold
    assert "Refresh every exhausted city." in page  # the folded block follows it


def test_latex_links_a_rule_to_its_paragraph_label(checkout: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = _sphinx_build(checkout, tmp_path, "-b", "latex", ".", str(out), "-q")
    assert run.returncode == 0, run.stderr
    tex = (out / "runecodex.tex").read_text(encoding="utf-8")
    target = r"\detokenize{rune-age/rules/01-turn/a-player-s-turn:ra.a-player-s-turn.1}"
    assert r"\hyperref[" + target + "]" in tex and r"\label{" + target + "}" in tex


def _fragments(ids: dict[str, str]) -> list[str]:
    return [url for url in ids.values() if url.count("#") != 1]


def test_singlehtml_ids_carry_one_fragment(checkout: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = _sphinx_build(checkout, tmp_path, "-b", "singlehtml", ".", str(out), "-q")
    assert run.returncode == 0, run.stderr
    ids = json.loads((out / "ids.json").read_text(encoding="utf-8"))
    assert ids["ra.a-player-s-turn.1"] == "index.html#ra.a-player-s-turn.1"
    assert ids and _fragments(ids) == []
    page = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="ra.a-player-s-turn.1"' in page
    assert 'href="#document-rune-age/rules/01-turn/a-player-s-turn#' not in page  # links: one fragment too
    assert 'href="#ra.a-player-s-turn.1"' in page


def test_a_refused_source_folder_is_one_error_line(checkout: Path, tmp_path: Path) -> None:
    """``sphinx-build -c . mydocs OUT`` on a folder of the user's: one line saying what and why, exit 2."""
    docs = tmp_path / "mydocs"
    docs.mkdir()
    (docs / "index.md").write_text("# My own documentation\n")
    run = _sphinx_build(checkout, tmp_path, "-b", "html", "-c", ".", str(docs), str(tmp_path / "out"), "-q")
    assert run.returncode == 2
    lines = re.sub(r"\x1b\[[0-9;]*m", "", run.stderr).splitlines()  # Sphinx colours it where the terminal allows
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("ERROR: runecodex: refusing to write the generated site sources to ")
    assert str(docs) in lines[0] and "not made by runecodex" in lines[0]
    assert "Traceback" not in run.stderr and "sphinx-doc/sphinx/issues" not in run.stderr
    assert (docs / "index.md").read_text() == "# My own documentation\n"
    assert sorted(p.name for p in docs.iterdir()) == ["index.md"]


def test_a_generated_folder_of_the_users_is_refused_in_one_line(checkout: Path, tmp_path: Path) -> None:
    """``sphinx-build -M html . _build`` when ``site/_generated`` holds files runecodex did not make."""
    mine = checkout / "site" / "_generated" / "notes.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("mine\n")
    run = _sphinx_build(checkout, tmp_path, "-M", "html", ".", "_build", "-q")
    assert run.returncode == 2
    assert run.stderr.splitlines() == [run.stderr.strip()] and "refusing" in run.stderr, run.stderr
    assert mine.read_text() == "mine\n"


# ------------------------------------------------------------------------------ the real repository root

@pytest.mark.slow
@pytest.mark.parametrize("builder", ["text", "singlehtml"])
def test_sphinx_build_on_the_repository_root(builder: str, tmp_path: Path) -> None:
    """``sphinx-build -b text . OUT`` and ``-b singlehtml`` on the checkout itself, the whole corpus (~20-30 s)."""
    out = tmp_path / "out"
    run = _sphinx_build(REPO, tmp_path, "-b", builder, ".", str(out), "-q")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    if builder == "singlehtml":
        ids = json.loads((out / "ids.json").read_text(encoding="utf-8"))
        assert len(ids) > 100 and _fragments(ids) == []
    else:
        assert (out / "index.txt").is_file()
