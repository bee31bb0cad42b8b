"""The OpenAPI 3.1 description of the JSON API, generated from the typed models.

Response shapes come from :mod:`engine.contract`; each situation's position is its published JSON Schema
(from its :class:`~engine.model.Position` model) and, where the situation declares one, its outcome is the JSON
Schema of its :class:`~engine.model.Outcome` model. Nothing here restates a field by hand.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from engine.contract import SHAPES
from engine.core import Situation
from engine.model import Outcome, drop_auto_titles, published_schema

REF = "#/components/schemas/{model}"


def _component_name(sit: Situation) -> str:
    words = f"{sit.game} {sit.name}".replace("-", " ").replace("_", " ").split()
    return "".join(w[:1].upper() + w[1:] for w in words)


def outcome_model(sit: Situation) -> type[Outcome] | None:
    """Return the :class:`Outcome` model a situation's resolver declares it returns, if any."""
    fn = inspect.unwrap(sit.resolver)
    try:
        hint = typing.get_type_hints(fn).get("return")
    except (NameError, TypeError):
        return None
    return hint if isinstance(hint, type) and issubclass(hint, Outcome) else None


def _shapes() -> dict[str, Any]:
    models: list[tuple[type[BaseModel], Any]] = [(m, "serialization") for m in SHAPES]
    _, top = models_json_schema(models, ref_template=REF)
    defs = dict(top.get("$defs", {}))
    drop_auto_titles(defs)
    return defs


def _error_response(text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": {"$ref": REF.format(model="Error")}}}}


def _ok(model: str, text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": {"$ref": REF.format(model=model)}}}}


def _situation_components(situations: Iterable[Situation]) -> tuple[dict[str, Any], list[dict[str, str]]]:
    schemas: dict[str, Any] = {}
    refs = []
    for sit in situations:
        name = _component_name(sit)
        schema = {k: v for k, v in sit.schema.items() if k != "$schema"}
        schema["description"] = sit.description
        schemas[name] = schema
        refs.append({"$ref": REF.format(model=name)})
        outcome = outcome_model(sit)
        if outcome is not None:
            out = {k: v for k, v in published_schema(outcome).items() if k != "$schema"}
            out["title"] = f"{sit.game} {sit.name} outcome"
            schemas[f"{name}Outcome"] = out
    schemas["Position"] = {"oneOf": refs, "description": "one position: {game, situation, ...fields}"}
    return schemas, refs


_SEARCH_PARAMETERS = [
    {"name": "q", "in": "query", "schema": {"type": "string", "maxLength": 500}},
    {"name": "game", "in": "query", "schema": {"type": "string"}},
    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}},
    {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0, "default": 0}},
    {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
    {"name": "detect", "in": "query", "schema": {"type": "string", "enum": ["0", "1"], "default": "1"}},
]


def _paths() -> dict[str, Any]:
    bad = _error_response("unreadable input: wrong type, missing field, unknown game or situation")
    return {
        "/api/search": {"get": {
            "summary": "Search the rules", "operationId": "search", "parameters": _SEARCH_PARAMETERS,
            "responses": {"200": _ok("SearchResult", "hits, best first"), "400": bad,
                          "503": _error_response("the search index is being rebuilt (Retry-After says when to "
                                                 "ask again)")}}},
        "/api/rules/{id}": {"get": {
            "summary": "One paragraph", "operationId": "rule",
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": _ok("Paragraph", "the paragraph"), "404": _error_response("unknown paragraph id")}}},
        "/api/resolve": {"post": {
            "summary": "What happens now: resolve a position", "operationId": "resolve",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": REF.format(model="Position")}}}},
            "responses": {"200": _ok("Ruling", "the ruling, every step cited"), "400": bad,
                          "413": _error_response("body over 256 KiB")}}},
        "/api/army/import": {"post": {
            "summary": "Check a RuneWars Miniatures army list: a BattleScribe roster (.ros, .rosz) or New Recruit "
                       "JSON export, as the multipart field 'file'", "operationId": "armyImport",
            "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                "type": "object", "required": ["file"],
                "properties": {"file": {"type": "string", "format": "binary"}}}}}},
            "responses": {"200": {"description": "{position, ruling, import}: the army position read, its ruling "
                                                 "and what the roster did not state", "content": {
                                                     "application/json": {"schema": {"type": "object"}}}},
                          "400": bad, "413": _error_response("body over 256 KiB")}}},
        "/api/situations": {"get": {
            "summary": "Every situation with its JSON Schema", "operationId": "situations",
            "responses": {"200": _ok("SituationList", "the situations")}}},
        "/api/version": {"get": {
            "summary": "The corpus version served, and whether a rebuild is pending (and why)",
            "operationId": "version", "responses": {"200": _ok("Version", "the served corpus version")}}},
        "/api/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                      "responses": {"200": {"description": "OpenAPI 3.1"}}}},
    }


def openapi_document(situations: Iterable[Situation]) -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of the API, every schema generated from its model."""
    schemas = _shapes()
    positions, _ = _situation_components(situations)
    schemas.update(positions)
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "Runecodex API", "version": "1.0.0",
                 "description": "Rules reference and rulings for the Terrinoth games. Errors are JSON "
                                "`{error, path}`; bodies over 256 KiB get 413."},
        "paths": _paths(),
        "components": {"schemas": schemas},
    }
