"""The search page works without JavaScript: /search?q= lists results rendered on the server, pages on."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def _hits(html: str) -> list[str]:
    return re.findall(r'class="cite" href="[^"]*" data-pid="([^"]+)"', html)


def test_search_flanking_without_javascript_lists_results(client: FlaskClient) -> None:
    resp = client.get("/search?q=flanking")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    hits = _hits(html)
    assert hits and any(pid.startswith("rwm.41") for pid in hits[:3])
    assert 'value="flanking"' in html  # the question stays in the box
    assert "<mark>" in html  # the answering sentence, its topic words marked
    assert "Rules Reference 41" in html  # the locator as the book prints it


def test_the_next_page_link_reaches_hits_beyond_the_first_20(client: FlaskClient) -> None:
    html = client.get("/search?q=attack").get_data(as_text=True)
    first = _hits(html)
    assert len(first) == 20
    link = re.search(r'id="next-page" rel="next" href="([^"]+)"', html)
    assert link is not None
    second_html = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    second = _hits(second_html)
    assert second and not set(second) & set(first)
    assert 'start="21"' in second_html and 'id="prev-page"' in second_html


def test_a_game_named_in_the_question_shows_a_removable_chip(client: FlaskClient) -> None:
    html = client.get("/search?q=how+many+cards+in+a+runeslingers+deck").get_data(as_text=True)
    assert 'id="game-chip"' in html and 'data-game="runeslingers"' in html
    assert all(pid.startswith("rs.") for pid in _hits(html))
    chip = re.search(r'id="game-chip" href="([^"]+)"', html)
    assert chip is not None and "detect=0" in chip.group(1)
    every = client.get(chip.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert 'id="game-chip"' not in every and 'name="detect" value="0"' in every


def test_the_api_pages_and_reports_the_detected_game(client: FlaskClient) -> None:
    first = client.get("/api/search?q=attack&limit=20").get_json()
    assert first["offset"] == 0 and first["next_offset"] == 20 and len(first["hits"]) == 20
    second = client.get("/api/search?q=attack&limit=20&page=2").get_json()
    assert second["offset"] == 20
    assert not {h["id"] for h in first["hits"]} & {h["id"] for h in second["hits"]}
    named = client.get("/api/search?q=runeslingers+deck").get_json()
    assert named["detected_game"] == "runeslingers" and named["game"] == "runeslingers"
    everything = client.get("/api/search?q=runeslingers+deck&detect=0").get_json()
    assert everything["detected_game"] is None and everything["game"] is None


def test_bad_paging_is_a_clear_400(client: FlaskClient) -> None:
    for query, path in (("offset=-1", "offset"), ("page=0", "page"), ("offset=x", "offset"),
                        ("offset=1&page=2", "page")):
        resp = client.get(f"/api/search?q=attack&{query}")
        assert resp.status_code == 400, query
        assert resp.get_json()["path"] == path


def test_a_printed_locator_in_the_search_box_finds_its_paragraph(client: FlaskClient) -> None:
    for query in ("RR 41.1", "41.1", "rules reference 41.1"):
        hits = _hits(client.get(f"/search?q={query.replace(' ', '+')}").get_data(as_text=True))
        assert hits and hits[0] == "rwm.41.1", (query, hits[:3])
    api = client.get("/api/search?q=p.+12+Conduct+a+Siege&game=rune-age").get_json()
    assert api["hits"] and all(h["source"]["page"] == 12 for h in api["hits"])
    assert all("siege" in (h["source"]["section"] + h["title"]).lower() for h in api["hits"])


def test_a_mistyped_rule_id_is_a_404_that_lists_the_closest_ids(client: FlaskClient) -> None:
    page = client.get("/rules/rwm.41.l", headers={"Accept": "text/html"})
    assert page.status_code == 404
    html = page.get_data(as_text=True)
    assert 'id="did-you-mean"' in html and 'href="/rules/rwm.41.1"' in html
    api = client.get("/api/rules/ra.conduct-a-seige")
    assert api.status_code == 404
    body = api.get_json()
    assert body["path"] == "id" and "ra.conduct-a-siege" in body["did_you_mean"][:3]
    locator = client.get("/api/rules/rr-41.1").get_json()
    assert locator["did_you_mean"][0] == "rwm.41.1"
