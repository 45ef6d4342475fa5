"""The published interface declares every success answer's shape, and the server keeps to it
(issue 19 §5): each operation's 200, 201 and 202 name a schema (web/answers.py) that says which
fields come, of which types and variants; a real game played through on a real server, with an
SMTP server for its email notices, from creation to its story, replay, win chance and save (seats
taken, an action made and undone, a chat line, a seat handed to a bot and taken back, the end
reached by bots; a turn-based table, a timed one, a Mad Gnomes one; the lessons), reaches every
operation's every success status, and every body it gets has the declared shape."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema_rs
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from webtools import Server, WsClient, free_port, get_until

from rednovember.web.app import create_app

DOC = create_app("sqlite://").openapi()


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


SUCCESS = [(f"{method.upper()} {path}", status) for path, item in DOC["paths"].items()
           for method, op in item.items() for status in op["responses"] if status[0] == "2"]
OPERATIONS = [(f"{method.upper()} {path}", op) for path, item in DOC["paths"].items()
              for method, op in item.items()]
WAIT = 120.0  # seconds for bots to play a game through, or for its win-chance curve
Answers = dict[tuple[str, str], list[httpx.Response]]


def template_of(method: str, path: str) -> str | None:
    """The operation (``METHOD /template``) of a request's path."""
    for template, item in DOC["paths"].items():
        if method.lower() in item and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            return f"{method} {template}"
    return None


def declared(op_key: str, status: str) -> tuple[str, dict[str, Any]]:
    """The content type and schema an operation declares for a status."""
    method, path = op_key.split(" ", 1)
    content = DOC["paths"][path][method.lower()]["responses"][status]["content"]
    ((kind, media),) = content.items()
    return kind, media["schema"]


def validator(schema: dict[str, Any]) -> Any:
    """A validator of ``schema`` (which refers to the document's components), formats too."""
    return jsonschema_rs.Draft202012Validator({**schema, "components": DOC["components"]},
                                              validate_formats=True)


@pytest.mark.parametrize(("name", "op"), OPERATIONS, ids=[k for k, _ in OPERATIONS])
def test_every_operation_declares_its_success_answers_shape(name: str, op: dict[str, Any]) -> None:
    """Each operation has a success status, and each success status a schema: a JSON body's is
    a named shape whose fields are all declared (or, for the view and the save's state, whose
    key fields are); an HTML page is a string."""
    statuses = [s for s in op["responses"] if s[0] == "2"]
    assert statuses, name
    for status in statuses:
        kind, schema = declared(name, status)
        if kind == "text/html":
            assert schema == {"type": "string"}, name
            continue
        assert kind == "application/json" and set(schema) == {"$ref"}, (name, status, schema)
        shape = DOC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        assert shape["type"] == "object" and shape["required"], (name, status)
        assert shape["additionalProperties"] is False, (name, status)
        assert op["responses"][status]["description"] != "Successful Response", (name, status)


# --- a real game, played through -----------------------------------------------------------------
class Inbox:
    """The SMTP server's handler: the notices are accepted, not read here."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        return "250 OK"


def seat_up(http: httpx.Client, gid: str, seat: int, name: str) -> str:
    r = http.post(f"/api/games/{gid}/seats", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def server_and_rules(http: httpx.Client) -> None:
    for path in ("/api/health", "/api/ready", "/api/meta", "/api/bots", "/api/data", "/api/i18n",
                 "/api/i18n/de", "/api/rules/fr", "/rules", "/rules/pl?back=/g/abc", "/api/learn"):
        assert http.get(path).status_code == 200, path


def play_a_game(http: httpx.Client, url: str) -> None:
    """A listed table of three: seats taken, an action made and undone, a chat line, email
    notices, a seat link, a new name, a seat handed to a bot and taken back, then bots play it to
    the end."""
    made = http.post("/api/games", json={"players": 3, "listed": True, "seed": 5}).json()
    gid, creator = made["game"]["id"], made["creator_token"]
    assert gid in [g["id"] for g in http.get("/api/games").json()["games"]]
    tokens = [seat_up(http, gid, seat, name) for seat, name in enumerate(("Ada", "Bea", "Cy"))]
    mover = http.get(f"/api/games/{gid}").json()["to_move"]
    legal = http.get(f"/api/games/{gid}/legal", headers=bearer(tokens[mover])).json()
    move = next(a for a in legal["actions"] if a["kind"] == "open")
    r = http.post(f"/api/games/{gid}/act", json={"action": move["text"]},
                  headers=bearer(tokens[mover]))
    assert r.json()["state"]["can_undo"] is True
    r = http.post(f"/api/games/{gid}/undo", json={"version": r.json()["version"]},
                  headers=bearer(tokens[mover]))
    assert r.status_code == 200, r.text
    with WsClient(url, gid, [tokens[0]]) as ada:
        assert ada.request({"type": "chat", "seat": 0, "text": "hello"})["type"] == "ack"
    me = http.post("/api/me", json={"games": [gid, "no-such-game"]}).json()
    assert me["games"][0]["activity"]["chat"] >= 1 and me["missing"] == ["no-such-game"]
    for seat in (0, 1):
        assert http.get(f"/api/games/{gid}/state", headers=bearer(tokens[seat])).status_code == 200
    http.get(f"/api/games/{gid}/state")  # a spectator's
    http.get(f"/api/games/{gid}/seats/0/notify", headers=bearer(tokens[0]))
    r = http.post(f"/api/games/{gid}/seats/0/notify", json={"email": "ada@rn.example",
                                                             "lang": "de"},
                  headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    assert http.get(f"/api/games/{gid}/seats/0/notify",
                    headers=bearer(tokens[0])).json()["email"] == "ada@rn.example"
    assert http.get("/api/notices").json()["push_key"]
    browser = {"endpoint": "https://push.example.invalid/x", "expirationTime": None,
               "keys": {"p256dh": b64url(ec.generate_private_key(ec.SECP256R1()).public_key()
                                         .public_bytes(Encoding.X962,
                                                       PublicFormat.UncompressedPoint)),
                        "auth": b64url(bytes(16))}}
    r = http.post(f"/api/games/{gid}/seats/0/push", json=browser, headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["subscriptions"] == 1, r.text
    r = http.post(f"/api/games/{gid}/seats/0/push/off", json={"endpoint": browser["endpoint"]},
                  headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["subscriptions"] == 0, r.text
    http.post(f"/api/games/{gid}/seat-link", json={"origin": "https://rn.example"},
              headers=bearer(tokens[1]))
    r = http.post(f"/api/games/{gid}/seats/1/name", json={"name": "Bea L."},
                  headers=bearer(tokens[1]))
    assert r.status_code == 200, r.text
    creator_says = {"X-Creator-Token": creator}
    http.post(f"/api/games/{gid}/seats/2/bot", json={"bot": "random"}, headers=creator_says)
    r = http.post(f"/api/games/{gid}/seats/2/reclaim", json={"name": "Cy again"},
                  headers=bearer(tokens[2]))
    assert r.status_code == 200, r.text
    http.get(f"/api/games/{gid}/replay/1")  # a running game's, a spectator's
    for seat in range(3):
        http.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                  headers=creator_says)
    get_until(http, f"/api/games/{gid}", lambda r: r.json()["status"] == "over", WAIT)
    the_end(http, gid)


def the_end(http: httpx.Client, gid: str) -> None:
    """What a finished game answers: its story, its save, its replay, its win chance (202 while
    it is computed, then 200)."""
    steps = http.get(f"/api/games/{gid}/story").json()["steps"]
    assert http.get(f"/api/games/{gid}/export").json()["history"]
    for step in (0, steps):
        assert http.get(f"/api/games/{gid}/replay/{step}").status_code == 200
    http.get(f"/api/games/{gid}/state")
    first = http.get(f"/api/games/{gid}/winchance")
    assert first.status_code == 202, first.text  # the first request starts the computation
    get_until(http, f"/api/games/{gid}/winchance", lambda r: r.status_code == 200, WAIT)


def other_tables(http: httpx.Client) -> None:
    """The summary's and state's other variants: a turn-based table's deadline, a timed table's
    clock and its absent player, a Mad Gnomes table's hidden hands."""
    gid = http.post("/api/games", json={"players": 1, "pace": "turn-based"}).json()["game"]["id"]
    seat_up(http, gid, 0, "Dee")
    assert http.get(f"/api/games/{gid}").json()["deadline"] is not None
    gid = http.post("/api/games", json={"players": 1, "turn_timer": 300,
                                        "away_bot": 300}).json()["game"]["id"]
    seat_up(http, gid, 0, "Eve")
    timed = http.get(f"/api/games/{gid}").json()
    assert timed["clock"] is not None and timed["away"] is not None
    gid = http.post("/api/games", json={"players": 3, "variants": ["mad-gnomes"]}).json()[
        "game"]["id"]
    tokens = [seat_up(http, gid, seat, f"M{seat}") for seat in range(3)]
    hands = http.get(f"/api/games/{gid}/state", headers=bearer(tokens[0])).json()["view"]["gnomes"]
    assert hands[0]["hand"] is not None and hands[1]["hand"] is None


def learn(http: httpx.Client) -> None:
    start = http.post("/api/learn/fire", json={"plays": []}).json()
    first = start["state"]["actions"][0]["text"]
    checked = http.post("/api/learn/fire", json={"plays": [], "action": first}).json()
    assert checked["check"] is not None
    solution = http.get("/api/learn/fire/solution?lang=es", timeout=WAIT).json()
    assert solution["plays"]


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Answers]:
    """Every answer of the scenario's HTTP requests, by operation and status."""
    smtp = Controller(Inbox(), hostname="127.0.0.1", port=free_port())
    smtp.start()
    server = Server(tmp_path_factory.mktemp("answers") / "games.db",
                    extra=["--smtp", f"smtp://127.0.0.1:{smtp.port}", "--mail-from",
                           "crew@rn.example", "--public-url", "https://rn.example", "--push",
                           "--push-service", "push.example.invalid"]).start()
    seen: Answers = {}

    def record(r: httpx.Response) -> None:
        op = template_of(r.request.method, r.request.url.path)
        if op is not None:
            r.read()
            seen.setdefault((op, str(r.status_code)), []).append(r)

    try:
        with httpx.Client(base_url=server.url, timeout=30.0,
                          event_hooks={"response": [record]}) as http:
            server_and_rules(http)
            play_a_game(http, server.url)
            other_tables(http)
            learn(http)
        yield seen
    finally:
        server.stop()
        smtp.stop()


@pytest.mark.parametrize(("name", "status"), SUCCESS, ids=[f"{k} {s}" for k, s in SUCCESS])
def test_every_success_answer_has_the_declared_shape(answers: Answers, name: str,
                                                     status: str) -> None:
    """The scenario reached the operation's success status, and each body it got there is of
    the declared content type and shape."""
    got = answers.get((name, status), [])
    assert got, f"the scenario never got {name} {status}: add it"
    kind, schema = declared(name, status)
    check = validator(schema)
    for r in got:
        assert r.headers["content-type"].split(";")[0] == kind, (name, r.headers)
        body = r.text if kind == "text/html" else r.json()
        errors = [f"{e.instance_path}: {e.message}"[:300] for e in check.iter_errors(body)]
        assert not errors, (name, r.request.url.path, errors[:5])


def test_a_schema_refuses_what_the_server_does_not_send() -> None:
    """The shapes are closed and typed: an unknown field, a missing one, a wrong variant or
    type in a summary is refused (the check above can fail)."""
    _, schema = declared("GET /api/games/{game_id}", "200")
    check = validator(schema)
    seats = [{"seat": 0, "colour": "red", "colours": ["red"], "gnomes": [0], "kind": "free",
              "name": None, "bot": None, "connected": False}]
    summary = {"id": "g", "link": "/g/g", "status": "waiting", "version": 0,
               "created": "2026-11-22T10:00:00Z", "turn": 1, "to_move": 0, "result": None,
               "config": {"players": 1, "gnomes_per_player": 3, "variants": [], "seed": 1},
               "seats": seats, "clock": None, "away": None, "deadline": None,
               "settings": {"listed": False, "turn_timer": None, "hints": True, "hints_used": [],
                            "away_bot": None, "pace": "real-time", "move_deadline": None}}
    assert check.is_valid(summary)
    assert not check.is_valid({**summary, "extra": 1})
    assert not check.is_valid({k: v for k, v in summary.items() if k != "clock"})
    assert not check.is_valid({**summary, "status": "paused"})
    assert not check.is_valid({**summary, "created": "yesterday"})
    assert not check.is_valid({**summary, "seats": [{**seats[0], "colour": "pink"}]})
    assert not check.is_valid({**summary, "settings": {**summary["settings"], "pace": "slow"}})


def test_the_document_names_where_the_open_bodies_are_described() -> None:
    """The view and the save declare their key fields and allow the rest; their descriptions
    point to the documents that describe them all."""
    schemas = DOC["components"]["schemas"]
    assert schemas["View"]["additionalProperties"] is True
    assert "docs/protocol.md" in schemas["View"]["description"]
    assert schemas["SavedState"]["additionalProperties"] is True
    assert "docs/formats.md" in schemas["Save"]["description"]
    assert {"gnomes", "phase", "legal", "player_to_move"} <= set(schemas["View"]["required"])
