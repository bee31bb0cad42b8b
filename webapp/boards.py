"""Serve the board pages: one per game, where a position is set up visually and resolved."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from webapp.api import services

bp = Blueprint("boards", __name__, url_prefix="/boards")

# the situation each board opens on, and a short description of its visual editor
MAIN = {
    "rune-age": ("battle", "Drag cards into the army, pick the target, roll attrition."),
    "runewars-miniatures": ("attack", "Draw each unit's trays, click the contacted edge, enter the "
                                      "rolled icons."),
    "runewars": ("mobilize", "Add areas to the map, set controllers and units, mark borders."),
    "runeslingers": ("damage", "Set up the field: health, power, ailments and the ladder."),
}


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
                           situations=names, main=main if main in names else (names[0] if names else ""))
