"""``POST /api/army/import``: check a RuneWars Miniatures army list a player exported from BattleScribe or New Recruit.

The request is a multipart form with the roster file in the field ``file`` (``.ros``, ``.rosz`` or New Recruit's
JSON export). The answer is ``{"position", "ruling", "import"}`` as ``runecodex army-import --json`` prints it,
the ruling with ``links`` for its cited paragraphs like ``/api/resolve``'s. The BattleScribe data files to check
against are the app's ``BSDATA_DIR`` setting (default: the ``RUNECODEX_BSDATA`` environment variable); without
them the roster's own costs are used and the ruling's ``reading`` says so. A file that cannot be read (not a
roster, a DTD or entity, a zip bomb, nesting or sizes over a cap) is a 400 with ``{error, path}``; a body over the
app's limit is refused with 413 before it is read.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from engine.errors import UnreadableInputError
from engine.files.battlescribe import MAX_FILE
from engine.runewars_miniatures import roster
from webapp.api import services

bp = Blueprint("roster_api", __name__, url_prefix="/api/army")


@bp.post("/import")
def import_roster() -> Response:
    """Read the uploaded roster into an army position and rule on it."""
    upload = request.files.get("file")
    if upload is None:
        raise UnreadableInputError("send the roster as a multipart form field named 'file'", path="file")
    data = upload.stream.read(MAX_FILE + 1)
    svc = services()
    folder = current_app.config.get("BSDATA_DIR") or None
    imported = roster.read(data, roster.shown_name(upload.filename), folder)
    ruling = roster.rule_on(imported, svc.corpus).to_json()
    ruling["links"] = {pid: svc.link(pid) for pid in ruling.get("cites", [])}
    return jsonify({"position": imported.position, "ruling": ruling,
                    "import": {**imported.source, "missing": imported.missing}})
