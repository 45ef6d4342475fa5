"""The HTTP API against a real server: games, seats, tokens, validation, static data."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from webtools import auth, new_game, seated_game, take

from rednovember.rules import Config
from rednovember.rules import new_game as engine_game
from rednovember.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_meta_data_and_health(api: httpx.Client) -> None:
    assert api.get("/api/health").json() == {"ok": True}
    meta = api.get("/api/meta").json()
    assert meta["protocol"] == 1
    assert "random" in meta["bots"] and "en" in meta["languages"]
    assert meta["log_messages"]["open"] == ["gnome:gnome", "from_room:room", "to_room:room"]
    data = api.get("/api/data").json()
    assert data["rooms"][0]["key"] == "sea" and len(data["events"]) > 50
    assert data["items"][0]["id"] == "grog"


def test_create_game_and_summary(api: httpx.Client) -> None:
    r = api.post("/api/games", json={"players": 2, "gnomes_per_player": 2,
                                     "variants": ["harder"], "seed": 42, "listed": True})
    assert r.status_code == 201
    body = r.json()
    game = body["game"]
    assert game["status"] == "waiting" and game["version"] == 0
    # the seed fixes the decks' order and every die: it stays hidden until the game is over
    assert game["config"] == {"players": 2, "gnomes_per_player": 2, "variants": ["harder"],
                              "seed": None}
    assert game["link"] == f"/g/{game['id']}"
    assert [s["colours"] for s in game["seats"]] == [["red", "blue"], ["green", "yellow"]]
    assert len(body["creator_token"]) >= 40
    assert api.get(f"/api/games/{game['id']}").json()["id"] == game["id"]
    listed = api.get("/api/games", params={"limit": 200}).json()["games"]
    assert any(g["id"] == game["id"] for g in listed)
    # The state of the game is the engine's for that seed.
    expect = engine_game(Config(2, 2, frozenset({"harder"}), 42)).view(None)
    assert api.get(f"/api/games/{game['id']}/state").json()["view"]["gnomes"] == expect["gnomes"]


@pytest.mark.parametrize("body", [
    {"players": 0}, {"players": 9}, {"players": "4"}, {"players": 3, "gnomes_per_player": 2},
    {"players": 1, "gnomes_per_player": 2}, {"variants": ["nope"]}, {"seed": -1},
    {"seed": 2**70}, {"colour": "red"}, {"players": 4, "variants": "harder"},
])
def test_bad_configs_are_refused(api: httpx.Client, body: dict[str, object]) -> None:
    r = api.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("bad_message", "bad_config")


@pytest.mark.parametrize("per", [1, 3, 4])
def test_R16_two_players_with_other_than_two_gnomes_each_are_refused(
        api: httpx.Client, per: int) -> None:
    r = api.post("/api/games", json={"players": 2, "gnomes_per_player": per})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_config" and "R16" in error["message"]


def test_take_seats(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    r = api.post(f"/api/games/{gid}/seats", json={"colour": "blue", "name": "  Ada  Lovelace "})
    assert r.status_code == 200
    assert r.json()["seat"] == 1
    seat = r.json()["game"]["seats"][1]
    assert seat["kind"] == "human" and seat["name"] == "Ada Lovelace"
    again = api.post(f"/api/games/{gid}/seats", json={"seat": 1, "name": "Bob"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    # a seat or colour this game does not have (a schema cannot know them): 404 not_found
    for body in ({"seat": 5, "name": "x"}, {"colour": "brown", "name": "x"},
                 {"seat": 0, "colour": "blue", "name": "x"}):
        assert api.post(f"/api/games/{gid}/seats", json=body).status_code == 404
    for body in ({"seat": 0}, {"seat": 0, "name": ""}, {"seat": 0, "name": "x" * 41},
                 {"name": "x"}, {"seat": 0, "name": "\u0007bell"}):
        r = api.post(f"/api/games/{gid}/seats", json=body)
        assert r.status_code == 422, (body, r.text)
    assert api.get(f"/api/games/{gid}").json()["status"] == "waiting"
    take(api, gid, 0)
    take(api, gid, 2)
    assert api.get(f"/api/games/{gid}").json()["status"] == "playing"


def test_acting_needs_the_right_token(api: httpx.Client) -> None:
    gid, tokens, creator = seated_game(api, 3, seed=5)
    state = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
    assert state["your_turn"] and state["to_move"] == 0
    first = state["actions"][0]["text"]
    # No token, a made-up token, another seat's token, the creator's token: refused.
    assert api.post(f"/api/games/{gid}/act", json={"action": first}).status_code == 401
    bogus = api.post(f"/api/games/{gid}/act", json={"action": first}, headers=auth("x" * 43))
    assert bogus.status_code == 401
    other = api.post(f"/api/games/{gid}/act", json={"action": first}, headers=auth(tokens[1]))
    assert other.status_code == 409 and other.json()["error"]["code"] == "not_your_turn"
    other_game, _ = new_game(api, 3)
    elsewhere = api.post(f"/api/games/{other_game}/act", json={"action": first},
                         headers=auth(tokens[0]))
    assert elsewhere.status_code == 401
    cr = api.post(f"/api/games/{gid}/act", json={"action": first},
                  headers={"X-Creator-Token": creator})
    assert cr.status_code == 401
    assert api.get(f"/api/games/{gid}").json()["version"] == 3  # three seats taken, no action
    # The right token acts; a stale version and an illegal action are refused.
    ok = api.post(f"/api/games/{gid}/act", json={"action": first, "version": 3},
                  headers={"X-Seat-Token": tokens[0]})
    assert ok.status_code == 200 and ok.json()["version"] == 4
    stale = api.post(f"/api/games/{gid}/act", json={"action": "end", "version": 3},
                     headers=auth(tokens[0]))
    assert stale.json()["error"]["code"] == "stale"
    bad = api.post(f"/api/games/{gid}/act", json={"action": "open 99"}, headers=auth(tokens[0]))
    assert bad.status_code == 409 and bad.json()["error"]["code"] == "illegal"
    assert api.get(f"/api/games/{gid}").json()["version"] == 4


def test_not_started_and_legal(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3, seed=1)
    t0 = take(api, gid, 0)
    r = api.post(f"/api/games/{gid}/act", json={"action": "no_action"}, headers=auth(t0))
    assert r.json()["error"]["code"] == "not_started"
    assert api.get(f"/api/games/{gid}/legal", headers=auth(t0)).json()["actions"] == []
    tokens = [t0, take(api, gid, 1), take(api, gid, 2)]
    mover = api.get(f"/api/games/{gid}").json()["to_move"]
    actions = api.get(f"/api/games/{gid}/legal", headers=auth(tokens[mover])).json()["actions"]
    assert actions and {"text", "kind", "cost", "chance", "doomed"} <= set(actions[0])
    assert api.get(f"/api/games/{gid}/legal").status_code == 401


def test_body_limits_and_bad_json(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    huge = api.post(f"/api/games/{gid}/seats", content=b"{" + b" " * 70000 + b"}",
                    headers={"Content-Type": "application/json"})
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    bad = api.post("/api/games", content=b"{nope", headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_json"
    assert api.get("/api/games/!!!").status_code == 404
    assert api.get("/api/games/" + "a" * 200).status_code == 404
    assert api.get("/api/nothing").json()["error"]["code"] == "not_found"


def test_i18n_and_rules(api: httpx.Client) -> None:
    langs = api.get("/api/i18n").json()
    assert {"code": "en", "name": "English"} in langs["languages"]
    en = api.get("/api/i18n/en").json()
    assert en["catalog"]["items"]["grog"] == "Grog" and en["plural_forms"] == ["one", "other"]
    for lang in langs["languages"]:
        cat = api.get(f"/api/i18n/{lang['code']}").json()
        assert cat["lang"] == lang["code"] and set(en["catalog"]) <= set(cat["catalog"])
        assert api.get(f"/rules/{lang['code']}").status_code == 200
    assert api.get("/api/i18n/xx").status_code == 404
    assert api.get("/api/i18n/..%2Fetc").status_code == 404
    ref = api.get("/api/rules/en").json()
    assert [s["id"] for s in ref["sections"]] == ["items", "actions", "events", "variants", "losses"]
    page = api.get("/rules/en")
    assert page.status_code == 200 and "Grog" in page.text and "<script" not in page.text
    assert api.get("/rules").status_code == 200


def test_front_end_routes(api: httpx.Client) -> None:
    for path in ("/", "/g/abc"):
        r = api.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_undo_over_http(api: httpx.Client) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    state = api.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
    opening = next(a["text"] for a in state["actions"] if a["kind"] == "open")
    assert api.post(f"/api/games/{gid}/undo", headers=auth(tokens[0])).json()["error"][
        "code"] == "cannot_undo"
    r = api.post(f"/api/games/{gid}/act", json={"action": opening}, headers=auth(tokens[0]))
    assert r.json()["state"]["can_undo"]
    assert api.post(f"/api/games/{gid}/undo", headers=auth(tokens[1])).status_code == 409
    r = api.post(f"/api/games/{gid}/undo", headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["state"]["view"]["ghost"] == state["view"]["ghost"]


def test_export_only_when_over(api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    assert api.get(f"/api/games/{gid}/export").status_code == 403


def test_openapi_copy_is_current() -> None:
    """docs/openapi.json is FastAPI's document (regenerate: python -m rednovember.web.openapi)."""
    current = create_app("sqlite://").openapi()
    saved = json.loads((ROOT / "docs" / "openapi.json").read_text("utf-8"))
    assert saved == json.loads(json.dumps(current)), \
        "docs/openapi.json is out of date: python -m rednovember.web.openapi docs/openapi.json"
