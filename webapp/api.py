"""Serve the JSON API of ``../shared/CONTRACT.md``: search, rules, resolve, situations and OpenAPI."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from engine.errors import UnreadableInputError
from webapp.openapi import openapi_document
from webapp.services import MAX_LIMIT, Services

bp = Blueprint("api", __name__, url_prefix="/api")


def services() -> Services:
    """Return the app's :class:`Services`."""
    svc: Services = current_app.extensions["runecodex"]
    return svc


def _json_bytes(body: bytes, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="application/json")


def _limit(raw: str | None) -> int:
    if raw is None or raw == "":
        return 10
    try:
        value = int(raw)
    except ValueError:
        raise UnreadableInputError(f"limit must be a whole number, got {raw!r}", path="limit") from None
    if not 1 <= value <= MAX_LIMIT:
        raise UnreadableInputError(f"limit must be between 1 and {MAX_LIMIT}, got {value}", path="limit")
    return value


def _whole(raw: str | None, name: str, least: int) -> int | None:
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise UnreadableInputError(f"{name} must be a whole number, got {raw!r}", path=name) from None
    if value < least:
        raise UnreadableInputError(f"{name} must be {least} or more, got {value}", path=name)
    return value


def search_args(default_limit: int = 10) -> tuple[str, str | None, int, int, bool]:
    """Return ``q``, ``game``, ``limit``, the offset (``offset`` or 1-based ``page``) and ``detect``.

    ``detect=0`` searches every game even when the question names one (the removable game chip).
    """
    raw_limit = request.args.get("limit")
    limit = _limit(raw_limit) if raw_limit not in (None, "") else default_limit
    offset = _whole(request.args.get("offset"), "offset", 0)
    page = _whole(request.args.get("page"), "page", 1)
    if offset is not None and page is not None:
        raise UnreadableInputError("give offset or page, not both", path="page")
    start = offset if offset is not None else ((page or 1) - 1) * limit
    detect = request.args.get("detect", "1").strip().lower() not in ("0", "false", "no", "off")
    return request.args.get("q", ""), request.args.get("game") or None, limit, start, detect


@bp.get("/search")
def search() -> Response:
    """Search the rules: ``?q=words&game=G&limit=N&offset=K`` (or ``page=P``) ``&detect=0``."""
    query, game, limit, offset, detect = search_args()
    svc = services()
    answer = svc.search_json(query, game, limit, offset, detect)
    if len(request.query_string) <= 2048:
        svc.remember("search", request.query_string, answer)
    return _json_bytes(answer)


@bp.get("/rules/<path:pid>")
def rule(pid: str) -> Response:
    """Return one paragraph in the contract's shape (404 for an unknown id)."""
    return _json_bytes(services().rule_bytes(pid.strip().lower()))


@bp.post("/resolve")
def resolve() -> Response:
    """Resolve a JSON position: what happens now, step by step, every step citing its rules."""
    return _json_bytes(services().resolve_json(request.get_data(cache=False)))


@bp.get("/situations")
def situations() -> Response:
    """List every situation the engine resolves, with its JSON Schema."""
    return jsonify({"situations": [s.to_json() for s in services().situations()]})


@bp.get("/examples")
def examples() -> Response:
    """List worked positions (the engine's scenario files), optionally of one ``?game=`` and ``?situation=``."""
    game, situation = request.args.get("game"), request.args.get("situation")
    chosen = [e for e in services().examples()
              if (not game or e["game"] == game) and (not situation or e["situation"] == situation)]
    return jsonify({"examples": chosen})


@bp.get("/games")
def games() -> Response:
    """List the games (key and name) and, per game, its situations' names."""
    svc = services()
    names: dict[str, list[str]] = {}
    for s in svc.situations():
        names.setdefault(s.game, []).append(s.name)
    return jsonify({"games": [{"game": g, "name": n, "situations": names.get(g, [])}
                              for g, n in svc.corpus.games.items()]})


@bp.get("/version")
def version() -> Response:
    """Return the corpus version being served and whether a rebuild is pending (and why)."""
    svc = services()
    svc.snapshot()
    return jsonify(svc.versions.status())


@bp.get("/openapi.json")
def openapi() -> Response:
    """Return the OpenAPI 3.1 description of this API (situations' schemas included)."""
    return jsonify(openapi_document(services().situations()))
