"""The JSON API against the contract: shapes, errors with paths, limits, caching and OpenAPI."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from engine.core import load_situations, resolve
from engine.corpus import get_corpus
from webapp.app import MAX_BODY, create_app


def post(client: FlaskClient, body: Any, raw: bool = False) -> Any:
    data = body if raw else json.dumps(body)
    return client.post("/api/resolve", data=data, content_type="application/json")


def test_situations_lists_every_registered_situation_with_its_schema(client: FlaskClient) -> None:
    data = client.get("/api/situations").get_json()
    listed = {(s["game"], s["situation"]) for s in data["situations"]}
    assert listed == set(load_situations())
    for s in data["situations"]:
        assert s["schema"]["type"] == "object"
        assert s["schema"]["properties"]["situation"]["const"] == s["situation"]


def test_resolve_answers_every_scenario_like_the_engine(client: FlaskClient,
                                                         positions: list[tuple[str, dict[str, Any]]]) -> None:
    assert positions, "the repository has scenario files"
    for name, position in positions:
        resp = post(client, position)
        assert resp.status_code == 200, name
        got = resp.get_json()
        want = resolve(position).to_json()
        links = got.pop("links")
        assert got == want, name
        assert set(links) == set(want["cites"])
        assert all(links[pid] == f"/rules/{pid}" for pid in links), "no site built: fallback pages"


def test_resolve_result_is_cached_by_canonical_position(client: FlaskClient,
                                                         positions: list[tuple[str, dict[str, Any]]]) -> None:
    _, position = positions[0]
    first = post(client, position).data
    reordered = dict(reversed(list(position.items())))
    assert post(client, reordered).data == first


@pytest.mark.parametrize(("body", "path", "fragment"), [
    (b"{not json", "", "not valid json"),
    (b"", "", "empty"),
    (b"\xff\xfe", "", "utf-8"),
    (b"[1, 2]", "", "json object"),
    (json.dumps({"game": "chess", "situation": "battle"}).encode(), "game", "unknown game"),
    (json.dumps({"game": "rune-age", "situation": "duel"}).encode(), "situation", "unknown situation"),
    (json.dumps({"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "strength": 3},
                 "army": [{"name": "A", "strength": "3"}]}).encode(), "army[0].strength", "expected integer"),
    (json.dumps({"game": "rune-age", "situation": "battle", "army": []}).encode(), "target", "missing field"),
    (b'{"game": "rune-age", "situation": "battle", "x": NaN}', "x", "finite"),
    (b"[" * 5000 + b"]" * 5000, "", "nested too deeply"),
    (b'{"n": ' + b"9" * 5000 + b"}", "n", "too large"),
])
def test_unreadable_positions_are_400_with_a_path(client: FlaskClient, body: bytes, path: str,
                                                  fragment: str) -> None:
    resp = post(client, body, raw=True)
    assert resp.status_code == 400
    data = resp.get_json()
    assert set(data) == {"error", "path"}
    assert data["path"] == path
    assert fragment in data["error"].lower()


def test_an_illegal_action_is_a_ruling_not_an_error(client: FlaskClient) -> None:
    position = {"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "strength": 3},
                "army": []}
    data = post(client, position).get_json()
    assert data["legal"] is False
    assert data["outcome"]["violations"]
    for v in data["outcome"]["violations"]:
        assert all(pid in data["links"] for pid in v["cites"])


def test_body_over_256_kib_is_413_json(client: FlaskClient) -> None:
    body = json.dumps({"game": "rune-age", "situation": "battle", "pad": "x" * MAX_BODY}).encode()
    resp = post(client, body, raw=True)
    assert resp.status_code == 413
    assert resp.get_json()["path"] == ""
    assert "256 kib" in resp.get_json()["error"].lower()


def test_wrong_method_and_unknown_api_path_are_json(client: FlaskClient) -> None:
    resp = client.get("/api/resolve")
    assert resp.status_code == 405 and resp.get_json()["error"] == "method not allowed"
    assert "POST" in resp.headers["Allow"]
    resp = client.get("/api/nothing-here")
    assert resp.status_code == 404 and resp.get_json() == {"error": "not found", "path": ""}


def test_rule_returns_the_contract_shape_plus_links(client: FlaskClient) -> None:
    corpus = get_corpus()
    pid = next(iter(corpus.paragraphs))
    data = client.get(f"/api/rules/{pid}").get_json()
    for key in ("id", "game", "kind", "title", "text", "source", "terms", "related", "amends", "clarifies",
                "amended_by", "faq", "cited_by", "implemented_by"):
        assert key in data
    assert data["id"] == pid and data["text"] == corpus.text_of(pid)
    assert data["url"] == f"/rules/{pid}"


def test_rule_shows_the_corrected_text_of_an_amended_paragraph(client: FlaskClient) -> None:
    corpus = get_corpus()
    amended = next((pid for pid in corpus.paragraphs if corpus.is_amended(pid)), None)
    if amended is None:
        pytest.skip("no erratum in the corpus yet")
    data = client.get(f"/api/rules/{amended}").get_json()
    assert data["amended_by"] and data["text"] == corpus.text_of(amended) and "original_text" in data


def test_unknown_rule_is_404_json(client: FlaskClient) -> None:
    resp = client.get("/api/rules/ra.no-such-rule")
    assert resp.status_code == 404
    body = resp.get_json()
    assert {k: body[k] for k in ("error", "path")} == {"error": "unknown paragraph id 'ra.no-such-rule'", "path": "id"}
    assert isinstance(body["did_you_mean"], list)  # the closest ids (issue 27), possibly none


def test_search_answers_with_hits_and_urls(client: FlaskClient) -> None:
    data = client.get("/api/search?q=attrition%20die&game=rune-age&limit=5").get_json()
    assert data["query"] == "attrition die" and data["total"] >= 1 and 1 <= len(data["hits"]) <= 5
    for hit in data["hits"]:
        assert {"id", "title", "snippet", "score", "source", "url"} <= set(hit)
        assert hit["url"] == f"/rules/{hit['id']}"
        assert get_corpus().paragraphs[hit["id"]].game == "rune-age"


def test_empty_search_is_an_empty_answer(client: FlaskClient) -> None:
    data = client.get("/api/search?q=").get_json()
    assert data["total"] == 0 and data["hits"] == []


@pytest.mark.parametrize(("query", "path"), [
    ("q=battle&limit=abc", "limit"), ("q=battle&limit=0", "limit"), ("q=battle&limit=1000", "limit"),
    ("q=battle&game=chess", "game"), ("q=" + "a" * 600, "q"),
])
def test_bad_search_parameters_are_400(client: FlaskClient, query: str, path: str) -> None:
    resp = client.get(f"/api/search?{query}")
    assert resp.status_code == 400
    assert resp.get_json()["path"] == path


def test_openapi_describes_the_api_and_every_situation(client: FlaskClient,
                                                       positions: list[tuple[str, dict[str, Any]]]) -> None:
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    assert {"/api/search", "/api/rules/{id}", "/api/resolve", "/api/situations"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    refs = [r["$ref"] for r in schemas["Position"]["oneOf"]]
    assert len(refs) == len(load_situations())
    # every scenario position validates against its situation's component (and against no other)
    by_name = {}
    for ref in refs:
        comp = schemas[ref.rsplit("/", 1)[1]]
        key = (comp["properties"]["game"]["const"], comp["properties"]["situation"]["const"])
        by_name[key] = Draft202012Validator(comp)
    for name, position in positions:
        key = (position["game"], position["situation"])
        assert by_name[key].is_valid(position), name
    # every $ref points at a component
    text = json.dumps(doc)
    for ref in set(part.split('"')[0] for part in text.split('"$ref": "')[1:]):
        assert ref.rsplit("/", 1)[1] in schemas, ref


def test_every_ruling_has_the_shape_the_openapi_document_gives(client: FlaskClient,
                                                                positions: list[tuple[str, dict[str, Any]]]) -> None:
    """The document is generated from the models the answers are made of: each ruling validates against the
    Ruling component and its outcome against the situation's outcome component, where one is declared."""
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    ruling_check = Draft202012Validator({"$ref": "#/components/schemas/Ruling", "components": {"schemas": schemas}})
    typed = 0
    for name, position in positions:
        ruling = post(client, position).get_json()
        assert ruling_check.is_valid(ruling), name
        words = re.split("[-_]", f"{ruling['game']}-{ruling['situation']}")
        comp = "".join(w[:1].upper() + w[1:] for w in words) + "Outcome"
        if comp in schemas:
            typed += 1
            outcome = {k: v for k, v in ruling["outcome"].items() if k != "violations"}
            errors = list(Draft202012Validator(schemas[comp]).iter_errors(outcome))
            assert not errors, f"{name}: {errors[0].message}"
    assert typed, "no situation declares its outcome model"


def test_unexpected_errors_are_logged_and_json(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app({"SITE_DIR": str(tmp_path)})

    @app.get("/api/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR, logger="webapp"):
        resp = app.test_client().get("/api/boom")
    assert resp.status_code == 500
    assert set(resp.get_json()) == {"error", "path"}
    assert "boom" in caplog.text


def test_api_answers_set_safe_headers(client: FlaskClient, app: Flask) -> None:
    resp = client.get("/")
    assert "default-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_fast_path_answers_repeats_with_the_same_bytes(tmp_path: Path,
                                                        positions: list[tuple[str, dict[str, Any]]]) -> None:
    fast = create_app({"SITE_DIR": str(tmp_path)}).test_client()
    slow = create_app({"SITE_DIR": str(tmp_path), "FAST_PATH": False}).test_client()
    _, position = positions[-1]
    body = json.dumps(position)
    first = fast.post("/api/resolve", data=body, content_type="application/json")
    again = fast.post("/api/resolve", data=body, content_type="application/json")
    plain = slow.post("/api/resolve", data=body, content_type="application/json")
    assert first.data == again.data == plain.data
    assert again.headers["X-Content-Type-Options"] == "nosniff" and again.mimetype == "application/json"
    for client in (fast, slow):
        assert client.get("/api/search?q=attrition&limit=3").data == slow.get("/api/search?q=attrition&limit=3").data
    # a broken body is never cached: it stays a 400 however often it comes
    for _ in range(2):
        assert fast.post("/api/resolve", data=b"{", content_type="application/json").status_code == 400


def test_examples_are_the_scenario_positions(client: FlaskClient,
                                             positions: list[tuple[str, dict[str, Any]]]) -> None:
    data = client.get("/api/examples?game=rune-age&situation=siege").get_json()["examples"]
    want = [p for name, p in positions if name.startswith("rune-age/") and p["situation"] == "siege"]
    assert [e["position"] for e in data] == want and all(e["title"] for e in data)
    assert len(client.get("/api/examples").get_json()["examples"]) == len(positions)
