"""The Sphinx extension on tiny projects: the {rule} role resolves across pages, a broken id warns."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

ROOTS = Path(__file__).parent / "roots"


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
