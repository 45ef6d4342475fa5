"""The HTTP API's declared answers, for its published interface (docs/openapi.json;
docs/protocol.md §3, §6). The success answers' shapes are web/answers/.

Each route lists the error codes it can answer (:func:`errors`); their statuses, the error body's
shape (``{"error": {code, message, detail?, params?}}``, ``code`` one of that route's codes) and
the ``Retry-After`` header of a 429 or 503 all come from protocol.HTTP_STATUS, the one list of
codes. The errors of the HTTP edge are added to every route by :func:`edge_errors`: a body
route's 400 ``bad_json``, 413 ``too_large`` and 422 ``bad_message``, a route with parameters'
422, and anyone's 500 ``internal``.

``python -m rednovember.web.openapi [FILE]`` writes the document (web/openapi.py, apart: it builds
the app, which uses this module)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .protocol import HTTP_STATUS

if TYPE_CHECKING:
    from fastapi import FastAPI

RETRY_AFTER = {"Retry-After": {"description": "whole seconds to wait before asking again (where "
                                             "waiting helps)",
                               "schema": {"type": "integer", "minimum": 1}}}
WHY = {400: "the body is not JSON", 401: "no seat token, or not one of this game",
       403: "not allowed to this token, or not yet", 404: "no such thing",
       409: "not possible in the game's state", 413: "the body is too large",
       422: "the request does not have the declared shape, or asks for what the rules refuse",
       429: "a per-client limit (docs/protocol.md §6)", 500: "a fault of the server; nothing "
       "changed", 503: "the server cannot answer now: ask again later"}
EDGE_BODY = ("bad_json", "too_large", "bad_message")  # of any route that reads a JSON body


def error_schema(codes: Iterable[str]) -> dict[str, Any]:
    """The JSON schema of an error body whose code is one of ``codes``."""
    return {"type": "object", "required": ["error"], "additionalProperties": False,
            "properties": {"error": {
                "type": "object", "required": ["code", "message"], "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "enum": sorted(set(codes))},
                    "message": {"type": "string", "description": "readable English"},
                    "detail": {"type": "string", "description": "which case of the code "
                                                                "(docs/protocol.md §6)"},
                    "params": {"type": "object", "description": "the numbers and names of "
                                                                "the message",
                               "additionalProperties": {"type": ["integer", "string"]}}}}}}


def errors(*codes: str) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses``: a status for each of its error codes (protocol.HTTP_STATUS)."""
    unknown = [c for c in codes if c not in HTTP_STATUS]
    if unknown:
        raise ValueError(f"no error code(s) {unknown}")
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(HTTP_STATUS[code], []).append(code)
    out: dict[int | str, dict[str, Any]] = {}
    for status, its in sorted(by_status.items()):
        answer: dict[str, Any] = {
            "description": f"{WHY.get(status, 'refused')}: {', '.join(sorted(set(its)))}",
            "content": {"application/json": {"schema": error_schema(its)}}}
        if status in (429, 503):
            answer["headers"] = RETRY_AFTER
        out[status] = answer
    return out


def edge_errors(operation: dict[str, Any]) -> list[str]:
    """The codes the HTTP edge can answer on an operation of the document."""
    codes = ["internal"]
    if "requestBody" in operation:
        codes += EDGE_BODY
    elif any(_checked(p.get("schema", {})) for p in operation.get("parameters", [])):
        codes.append("bad_message")
    return codes


def _checked(schema: dict[str, Any]) -> bool:
    """Whether a parameter's value can be refused: any but a plain string (or null)."""
    kinds = schema.get("anyOf", [schema])
    shape = {k for kind in kinds for k in kind} - {"title", "description", "default"}
    return shape != {"type"} or any(k["type"] not in ("string", "null") for k in kinds)


def _merge(operation: dict[str, Any], extra: Iterable[str]) -> None:
    """Adds the edge's codes to an operation's declared errors."""
    responses = operation.setdefault("responses", {})
    declared = {c for status, answer in responses.items() if status[:1] in "45"
                for c in _codes(answer)}
    if "HTTPValidationError" in json.dumps(responses.get("422", {})):
        del responses["422"]  # FastAPI's shape, never this server's
    for status, answer in errors(*sorted(declared | set(extra))).items():
        responses[str(status)] = answer


def _shapes_only(operation: dict[str, Any]) -> None:
    """A success answer declared with its shape (web/answers/) keeps only that: FastAPI merges it
    into the shapeless object it makes of the handler's ``dict[str, Any]`` (the return type that
    gives the answer its fast serializer)."""
    for status, answer in operation.get("responses", {}).items():
        media = answer.get("content", {}).get("application/json", {})
        if status[:1] == "2" and "$ref" in media.get("schema", {}):
            media["schema"] = {"$ref": media["schema"]["$ref"]}


def _codes(answer: dict[str, Any]) -> list[str]:
    schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
    code = schema.get("properties", {}).get("error", {}).get("properties", {}).get("code", {})
    return list(code.get("enum", []))


def timer_minimum(doc: dict[str, Any], seconds: float) -> None:
    """The shortest turn timer (and ``away_bot``) this server takes (``--turn-timer-min``)."""
    create = doc.get("components", {}).get("schemas", {}).get("CreateGame", {})
    for name in ("turn_timer", "away_bot"):
        for kind in create.get("properties", {}).get(name, {}).get("anyOf", []):
            if "minimum" in kind:
                kind["minimum"] = math.ceil(seconds)


def document(app: FastAPI, min_turn_timer: float) -> dict[str, Any]:
    """FastAPI's document with every operation's errors completed, FastAPI's own 422 shape
    (which this server never answers) replaced by the server's."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    from fastapi import FastAPI

    doc = FastAPI.openapi(app)
    for item in doc.get("paths", {}).values():
        for operation in item.values():
            _merge(operation, edge_errors(operation))
            _shapes_only(operation)
    _link_games(doc)
    timer_minimum(doc, min_turn_timer)
    schemas = doc.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return doc


def _link_games(doc: dict[str, Any]) -> None:
    """OpenAPI links: a created game's id leads to every operation on a game; a taken seat's
    token, to those that take one (``X-Seat-Token``)."""
    paths = doc.get("paths", {})
    targets = [(op["operationId"], {p["name"] for p in op.get("parameters", [])})
               for path, item in paths.items() if "{game_id}" in path
               for op in item.values()]
    sources = [(paths.get("/api/games", {}).get("post"), "201", False),
               (paths.get("/api/games/{game_id}/seats", {}).get("post"), "200", True)]
    for source, status, seated in sources:
        if source is None or status not in source["responses"]:
            continue
        links = {}
        for op_id, params in targets:
            link: dict[str, str] = {"game_id": "$response.body#/game/id"}
            if seated and "x-seat-token" in params:
                link["header.x-seat-token"] = "$response.body#/token"
            links[op_id] = {"operationId": op_id, "parameters": link}
        source["responses"][status]["links"] = links


def install(app: FastAPI, min_turn_timer: float) -> None:
    """Serve :func:`document` as the app's /openapi.json."""
    app.openapi = lambda: document(app, min_turn_timer)  # type: ignore[method-assign]
