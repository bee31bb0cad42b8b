"""Serve the board pages: one per game, where a position is set up visually and resolved.

Each board loads the editor modules of its game (plain ES modules under ``static/js/editors/``): the
game's own ``<game>.js`` and any extra module registered in :data:`EXTRA_EDITORS` (e.g. a table board
for one situation). A module exports ``editors`` (situation name → editor); modules load in order and a
later one may add or replace an editor. Registering a new editor is one line here plus its file; a
registered file that does not exist yet is skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, render_template, url_for

from engine.runewars_miniatures.table import Shape
from webapp.api import services

bp = Blueprint("boards", __name__, url_prefix="/boards")

EDITORS_DIR = Path(__file__).resolve().parent / "static" / "js" / "editors"

# the situation each board opens on, and a short description of its visual editor
MAIN = {
    "rune-age": ("battle", "Pick your faction, drag its cards into the army, pick the target, enter the "
                           "attrition roll."),
    "runewars-miniatures": ("attack", "Draw each unit's trays, tap the edges that touch, enter the rolled icons."),
    "runewars": ("battle", "Pick the contested area on the map, its units and stronghold; or plan a move."),
    "runeslingers": ("damage", "Set up the field: health, power, block, ailments and the ladder."),
}

# extra editor modules per game (file names under static/js/editors/), loaded after <game>.js
EXTRA_EDITORS: dict[str, list[str]] = {
    "runewars-miniatures": ["table.js", "roster-import.js"],
    "runewars": ["runewars-map-situations.js"],
}


def board_data(game: str) -> dict[str, Any]:
    """Return what a game's editor modules read from the page besides the situations' schemas.

    RuneWars Miniatures: the words of the shapes the engine derives for the table board to draw (``shape_roles``:
    role -> player words, the ``x-enum-labels`` of :class:`engine.runewars_miniatures.table.Shape`), for its
    legend.
    """
    if game != "runewars-miniatures":
        return {}
    role = Shape.model_json_schema()["properties"]["role"]
    return {"shape_roles": dict(role.get("x-enum-labels", {}))}


def editor_modules(game: str) -> list[str]:
    """Return the URLs of the editor modules of *game* that exist, the game's own module first."""
    names = [f"{game}.js", *EXTRA_EDITORS.get(game, [])]
    return [url_for("static", filename=f"js/editors/{n}") for n in names if (EDITORS_DIR / n).is_file()]


@bp.get("/")
def index() -> str:
    """List the game boards."""
    svc = services()
    counts = {g: sum(1 for s in svc.situations() if s.game == g) for g in svc.corpus.games}
    return render_template("boards/index.html", games=svc.corpus.games, main=MAIN, counts=counts)


@bp.get("/<game>")
def board(game: str) -> str:
    """Show the board of *game* (the position lives in the URL fragment ``#p=<base64url JSON>``)."""
    svc = services()
    if game not in svc.corpus.games:
        abort(404, description=f"unknown game {game!r}")
    names = [s.name for s in svc.situations() if s.game == game]
    main = MAIN.get(game, ("", ""))[0]
    return render_template("boards/board.html", game=game, game_name=svc.corpus.games[game],
                           situations=names, main=main if main in names else (names[0] if names else ""),
                           editors=json.dumps(editor_modules(game)),
                           board_data=json.dumps(board_data(game)))
