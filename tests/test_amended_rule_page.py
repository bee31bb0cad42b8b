"""An amended rule's page says once which text applies, keeps the printed text behind a control, and links ids
(issue 24, case 7): the app's rule page and the site's page, composed by engine.views.amended."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine.corpus import get_corpus
from engine.site.layout import SiteLayout
from engine.site.pages import PageBuilder
from engine.views import graph as G
from webapp.app import create_app

PID = "ra.conduct-a-battle.4.instant-damage"
ERRATA = "rafaq.errata.rulebook.p10"


def outside_links(html: str) -> str:
    """Return the page's text outside link targets and code (where an id may stand)."""
    html = re.sub(r'(href|data-pid|id)="[^"]*"', "", html)
    return re.sub(r"<code>.*?</code>", "", html)


@pytest.mark.parametrize("pid", [PID, "ra.the-monument.victory"])
def test_the_app_page_says_once_which_text_applies(pid: str) -> None:
    client = create_app({}).test_client()
    html = client.get(f"/rules/{pid}?here=1").get_data(as_text=True)
    article = html[html.index("<article"):html.index("</article>")]
    assert article.count("the one that applies") == 1
    assert "corrected one" not in article
    before, _, printed = article.partition("<details class=\"rc-original original\">")
    assert printed, "the printed text is behind a control"
    assert "first printed" not in before.replace("The rule as first printed", "")
    assert re.search(r"<summary>The rule as first printed", printed)
    assert "rafaq.errata" not in outside_links(article), "a bare id in the page's text"
    assert f'href="/rules/{ERRATA if pid == PID else "rafaq.errata.rulebook.p16"}"' in before


def _texts(node: Any) -> str:
    return json.dumps(node)


def test_the_site_page_is_the_same_composition() -> None:
    corpus = get_corpus()
    registry = G.engine_rules()
    builder = PageBuilder(corpus, SiteLayout.from_corpus(corpus), G.build_graph(corpus, registry), registry)
    section = builder.paragraph(corpus.paragraphs[PID])
    blocks = section["blocks"]
    first_text = next(i for i, b in enumerate(blocks) if b.get("b") == "p" and "rc-amended-note" in b.get("cls", ""))
    applies = blocks[first_text]
    assert "the one that applies" in _texts(applies) and {"t": "rule", "id": ERRATA} .items() <= next(
        x for x in applies["inl"] if isinstance(x, dict)).items()
    printed = [b for b in blocks if b.get("b") == "details"]
    assert len(printed) == 1 and printed[0]["summary"].startswith("The rule as first printed")
    assert "first printed" in _texts(printed[0]["blocks"])
    outside = [b for b in blocks if b.get("b") != "details"]
    assert "This is the rule as first printed" not in _texts(outside)
    assert f'"{ERRATA}"' not in _texts([x for b in outside for x in b.get("inl", []) if isinstance(x, str)])
