"""Describe the JSON API as an OpenAPI 3.1 document, with every situation's JSON Schema as a component."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import Situation

ERROR = {
    "type": "object", "required": ["error", "path"],
    "properties": {"error": {"type": "string", "description": "what is wrong, in lower case"},
                   "path": {"type": "string", "description": "JSON path of the offending value, e.g. "
                                                               "army[2].strength ('' for the whole body)"}},
}
SOURCE = {
    "type": "object", "required": ["doc"],
    "properties": {"doc": {"type": "string"}, "page": {"type": ["integer", "null"]},
                   "section": {"type": ["string", "null"]}, "paragraph": {"type": ["string", "null"]}},
}
IDS = {"type": "array", "items": {"type": "string"}}
PARAGRAPH = {
    "type": "object", "required": ["id", "game", "kind", "title", "text", "source"],
    "properties": {
        "id": {"type": "string"}, "game": {"type": "string"},
        "kind": {"enum": ["rule", "glossary", "errata", "faq", "example", "table", "scenario"]},
        "title": {"type": "string"},
        "text": {"type": "string", "description": "errata-corrected text"},
        "source": {"$ref": "#/components/schemas/Source"}, "locator": {"type": "string"},
        "terms": IDS, "related": IDS, "amends": IDS, "clarifies": IDS, "amended_by": IDS, "faq": IDS,
        "cited_by": IDS, "implemented_by": IDS,
        "url": {"type": "string", "description": "where to read it: the built site, else /rules/<id>"},
    },
}
HIT = {
    "type": "object", "required": ["id", "title", "snippet", "score", "source"],
    "properties": {"id": {"type": "string"}, "title": {"type": "string"},
                   "snippet": {"type": "string", "description": "escaped text; only <mark> markup"},
                   "score": {"type": "number"}, "source": {"$ref": "#/components/schemas/Source"},
                   "url": {"type": "string"}, "locator": {"type": "string"},
                   "short": {"type": ["string", "null"], "description": "the rule in one line"}},
}
SEARCH = {
    "type": "object", "required": ["query", "total", "hits"],
    "properties": {"query": {"type": "string"}, "total": {"type": "integer"},
                   "hits": {"type": "array", "items": {"$ref": "#/components/schemas/SearchHit"}},
                   "corrected": {"type": "string"},
                   "game": {"type": ["string", "null"], "description": "the game searched"},
                   "detected_game": {"type": ["string", "null"],
                                     "description": "the game named in the question (detect=0 to ignore)"},
                   "offset": {"type": "integer"}, "limit": {"type": "integer"},
                   "next_offset": {"type": ["integer", "null"], "description": "the next page, null on the last"}},
}
CITED = {"type": "object", "required": ["text", "cites"],
         "properties": {"text": {"type": "string"}, "cites": IDS}}
RULING = {
    "type": "object",
    "required": ["game", "situation", "legal", "summary", "outcome", "decisions", "steps", "cites", "sources"],
    "properties": {
        "game": {"type": "string"}, "situation": {"type": "string"}, "legal": {"type": "boolean"},
        "outcome": {"type": "object",
                    "description": "situation-specific fields; `violations` when not legal"},
        "summary": {"type": "string",
                    "description": "one plain sentence a player reads first: the verdict and the numbers that "
                                   "matter; \"Illegal: <first violation>.\" when not legal"},
        "decisions": {"type": "array", "items": {
            "type": "object", "required": ["who", "choose", "cites", "field"],
            "properties": {"who": {"type": "string"}, "choose": {"type": "string"}, "cites": IDS,
                           "field": {"type": "string",
                                     "description": "JSON path in the position where the answer goes (the "
                                                    "notation of error paths, e.g. attacker.flanking_die, "
                                                    "units[0].army_rules_met); stating it and resolving again "
                                                    "settles the decision"},
                           "options": {"type": "array",
                                       "description": "the allowed answers when finite (for a list field, the "
                                                      "allowed items)"}}}},
        "steps": {"type": "array", "items": CITED},
        "cites": IDS,
        "sources": {"type": "object", "additionalProperties": {
            "type": "object", "properties": {"title": {"type": "string"}, "kind": {"type": "string"},
                                             "source": {"$ref": "#/components/schemas/Source"},
                                             "locator": {"type": "string"}}}},
        "links": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "where to read each cited paragraph"},
    },
}


def _component_name(sit: Situation) -> str:
    words = f"{sit.game} {sit.name}".replace("-", " ").replace("_", " ").split()
    return "".join(w[:1].upper() + w[1:] for w in words)


def _error_response(text: str) -> dict[str, Any]:
    return {"description": text,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(ref: str, text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": {"$ref": ref}}}}


def openapi_document(situations: Iterable[Situation]) -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of the API; each situation's schema is a component."""
    schemas: dict[str, Any] = {"Error": ERROR, "Source": SOURCE, "Paragraph": PARAGRAPH, "SearchHit": HIT,
                               "SearchResult": SEARCH, "Ruling": RULING}
    refs = []
    for sit in situations:
        name = _component_name(sit)
        schema = {k: v for k, v in sit.schema.items() if k != "$schema"}
        schema["description"] = sit.description
        schemas[name] = schema
        refs.append({"$ref": f"#/components/schemas/{name}"})
    schemas["Position"] = {"oneOf": refs, "description": "one position: {game, situation, ...fields}"}
    bad = _error_response("unreadable input: wrong type, missing field, unknown game or situation")
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "Runecodex API", "version": "1.0.0",
                 "description": "Rules reference and rulings for the Terrinoth games. Errors are JSON "
                                "`{error, path}`; bodies over 256 KiB get 413."},
        "paths": {
            "/api/search": {"get": {
                "summary": "Search the rules", "operationId": "search",
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "string", "maxLength": 500}},
                    {"name": "game", "in": "query", "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                                "maximum": 100, "default": 10}},
                    {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0, "default": 0}},
                    {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                    {"name": "detect", "in": "query", "schema": {"type": "string", "enum": ["0", "1"],
                                                                 "default": "1"}}],
                "responses": {"200": _ok("#/components/schemas/SearchResult", "hits, best first"),
                              "400": bad, "503": _error_response(
                                  "the search index is being rebuilt (Retry-After says when to ask again)")}}},
            "/api/rules/{id}": {"get": {
                "summary": "One paragraph", "operationId": "rule",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": _ok("#/components/schemas/Paragraph", "the paragraph"),
                              "404": _error_response("unknown paragraph id")}}},
            "/api/resolve": {"post": {
                "summary": "What happens now: resolve a position", "operationId": "resolve",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Position"}}}},
                "responses": {"200": _ok("#/components/schemas/Ruling", "the ruling, every step cited"),
                              "400": bad, "413": _error_response("body over 256 KiB")}}},
            "/api/situations": {"get": {
                "summary": "Every situation with its JSON Schema", "operationId": "situations",
                "responses": {"200": {"description": "the situations", "content": {"application/json": {
                    "schema": {"type": "object", "properties": {"situations": {"type": "array", "items": {
                        "type": "object", "properties": {"game": {"type": "string"},
                                                         "situation": {"type": "string"},
                                                         "description": {"type": "string"},
                                                         "schema": {"type": "object"},
                                                         "labels": {"type": "object", "additionalProperties": {
                                                             "type": "string"}, "description": "outcome key -> "
                                                             "label a player reads (\"Army strength\"); keys "
                                                             "without one read as the key humanized"},
                                                         "values": {"type": "object", "additionalProperties": {
                                                             "type": "object", "additionalProperties": {
                                                                 "type": "string"}}, "description": "outcome key "
                                                             "-> {coded value: words} (\"army\": \"The army\")"}
                                                         }}}}}}}}}}},
            "/api/version": {"get": {
                "summary": "The corpus version served, and whether a rebuild is pending (and why)",
                "operationId": "version",
                "responses": {"200": {"description": "the served corpus version (its content digest) and rebuild state",
                                      "content": {"application/json": {"schema": {"type": "object"}}}}}}},
            "/api/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                          "responses": {"200": {"description": "OpenAPI 3.1"}}}},
        },
        "components": {"schemas": schemas},
    }
