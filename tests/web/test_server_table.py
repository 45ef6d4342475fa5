"""Server tests of the table: presence pushed when connections open and close, taking a seat
back from a bot with the seat's original token, and errors as codes with parameters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from webtools import WsClient, auth, new_game, seated_game, take

Connect = Callable[..., WsClient]


def seat_connected(msg: dict[str, Any], seat: int) -> bool:
    return bool(msg["seats"][seat]["connected"])


# --- presence ------------------------------------------------------------------------------------
def test_presence_is_pushed_when_a_player_connects_and_leaves(api: httpx.Client,
                                                              ws_client: Connect) -> None:
    gid, _ = new_game(api, 3)
    ada = ws_client(gid, [take(api, gid, 0)])
    bea_token = take(api, gid, 1)
    bea = ws_client(gid, [bea_token])
    joined = ada.until(lambda m: m["type"] == "seats" and seat_connected(m, 1))
    assert seat_connected(joined, 0)
    bea.close()
    left = ada.until(lambda m: m["type"] == "seats" and not seat_connected(m, 1))
    assert seat_connected(left, 0)
    # a spectator coming and going changes nobody's presence: no message
    watcher = ws_client(gid)
    watcher.close()
    assert not [m for m in ada.drain() if m["type"] == "seats"]
    # and the summary agrees
    seats = api.get(f"/api/games/{gid}").json()["seats"]
    assert [s["connected"] for s in seats] == [True, False, False]


# --- taking a seat back from a bot -----------------------------------------------------------------
def welcome_of(client: WsClient) -> dict[str, Any]:
    return next(m for m in reversed(client.received) if m["type"] == "welcome")


def test_the_owner_takes_their_seat_back_from_the_bot(api: httpx.Client,
                                                      ws_client: Connect) -> None:
    gid, tokens, creator = seated_game(api, 3)
    r = api.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                 headers={"X-Creator-Token": creator})
    assert r.status_code == 200, r.text
    bea = ws_client(gid, [tokens[1]])
    welcome = welcome_of(bea)
    assert welcome["spectator"] and welcome["seats"] == []
    assert welcome["rejected"] == [] and welcome["reclaimable"] == [{"token": 0, "seat": 1}]
    # the token of another seat cannot take it; the error names the seat by its number
    err = bea.request({"type": "reclaim", "seat": 1, "token": tokens[0]})
    assert err["type"] == "error" and err["code"] == "unauthorised"
    assert err["detail"] == "not_the_owner" and err["params"] == {"seat": 1}
    ack = bea.request({"type": "reclaim", "seat": 1, "token": tokens[1], "name": "Bea"})
    assert ack["type"] == "ack" and ack["ref"] == "reclaim", ack
    seat = api.get(f"/api/games/{gid}").json()["seats"][1]
    assert (seat["kind"], seat["name"], seat["bot"]) == ("human", "Bea", None)
    again = bea.hello([tokens[1]])
    assert again["seats"] == [1] and again["reclaimable"] == []
    # twice: the seat is no bot's any more
    err = bea.request({"type": "reclaim", "seat": 1, "token": tokens[1]})
    assert (err["code"], err["detail"]) == ("forbidden", "not_a_bot")


def test_reclaim_over_http_and_only_with_the_seats_own_token(api: httpx.Client) -> None:
    gid, tokens, creator = seated_game(api, 3)
    assert api.post(f"/api/games/{gid}/seats/2/bot", json={"bot": "random"},
                    headers=auth(tokens[2])).status_code == 200
    # changing the bot's strength keeps the owner's right to come back
    bots = api.get("/api/bots").json()["bots"]
    other = next(b for b in bots if b != "random")
    assert api.post(f"/api/games/{gid}/seats/2/bot", json={"bot": other},
                    headers={"X-Creator-Token": creator}).status_code == 200
    wrong = api.post(f"/api/games/{gid}/seats/2/reclaim", headers=auth(tokens[0]))
    assert wrong.status_code == 401, wrong.text
    assert api.post(f"/api/games/{gid}/seats/2/reclaim").status_code == 401
    r = api.post(f"/api/games/{gid}/seats/2/reclaim", json={"name": "Cy"}, headers=auth(tokens[2]))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["seats"][2]["kind"] == "human"
    # the token plays again
    assert api.get(f"/api/games/{gid}/state", headers=auth(tokens[2])).json()["seat"] == 2


def test_a_seat_that_was_never_a_players_cannot_be_claimed(api: httpx.Client) -> None:
    gid, creator = new_game(api, 2)
    token = take(api, gid, 0)
    assert api.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                    headers={"X-Creator-Token": creator}).status_code == 200
    r = api.post(f"/api/games/{gid}/seats/1/reclaim", headers=auth(token))
    assert r.status_code == 401
    assert r.json()["error"]["detail"] == "not_the_owner"


# --- errors as codes with parameters ------------------------------------------------------------
def test_errors_carry_a_detail_and_parameters(api: httpx.Client, ws_client: Connect) -> None:
    gid, tokens, _ = seated_game(api, 3)
    mover = api.get(f"/api/games/{gid}").json()["to_move"]
    other = (mover + 1) % 3
    client = ws_client(gid, [tokens[other]])
    err = client.request({"type": "act", "seat": other, "action": "no_action"})
    assert (err["code"], err["detail"]) == ("not_your_turn", "other_seat")
    assert err["params"] == {"to_move": mover, "seat": other}
    err = client.request({"type": "act", "seat": mover, "action": "no_action"})
    assert (err["code"], err["detail"], err["params"]) == ("forbidden", "no_token_for_seat",
                                                           {"seat": mover})
    r = api.post(f"/api/games/{gid}/act", json={"action": "no_action"},
                 headers=auth(tokens[other]))
    assert r.json()["error"]["detail"] == "other_seat"
    r = api.post(f"/api/games/{gid}/seats", json={"seat": 1, "name": "Z"})
    assert r.json()["error"] == {"code": "seat_taken", "detail": "taken", "params": {"seat": 1},
                                 "message": r.json()["error"]["message"]}
