"""Server tests of the table: presence pushed when connections open and close, taking a seat
back from a bot with the seat's original token, and errors as codes with parameters."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from webtools import Server, WsClient, auth, new_game, seated_game, take

from rednovember.web.chat import HISTORY
from rednovember.web.hub.talk import one_stop
from rednovember.web.store import Store

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


def test_a_player_renames_their_own_seat_and_the_table_is_told(api: httpx.Client,
                                                                ws_client: Connect) -> None:
    """A name typed wrong could not be changed once the seat was taken (audit, stop 55). The
    seat's own token renames it; everyone connected gets the new summary and a chat note; no
    other token, no bad name, no bot's seat and no finished game."""
    gid, tokens, creator = seated_game(api, 3)
    watcher = ws_client(gid, [tokens[0]])
    url = f"/api/games/{gid}/seats/1/name"
    r = api.post(url, json={"name": "  Bea   Lu "}, headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["seats"][1]["name"] == "Bea Lu"  # runs of spaces made one
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "Bea Lu"
    note = watcher.first(lambda m: m["type"] == "chat" and m["message"].get("system")
                         == "renamed")["message"]
    assert (note["for_seat"], note["old"], note["player"]) == (1, "P1", "Bea Lu")
    assert note["text"].startswith("P1 (") and note["text"].endswith(") is now called Bea Lu.")
    # the same name again: nothing changes, no second note
    version = api.get(f"/api/games/{gid}").json()["version"]
    assert api.post(url, json={"name": "Bea Lu"}, headers=auth(tokens[1])).status_code == 200
    assert api.get(f"/api/games/{gid}").json()["version"] == version
    # another seat's token, the creator's, none, a bad name: refused, nothing changed
    for headers in (auth(tokens[0]), {"X-Creator-Token": creator}, {}):
        assert api.post(url, json={"name": "Mallory"}, headers=headers).status_code == 401
    for body in ({"name": ""}, {"name": "\u202eevil"}, {"name": "x" * 41}, {"nom": "x"}, {}):
        assert api.post(url, json=body, headers=auth(tokens[1])).status_code == 422, body
    assert api.post(f"/api/games/{gid}/seats/9/name", json={"name": "Bo"},
                    headers=auth(tokens[1])).status_code == 404
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "Bea Lu"
    # a seat a bot plays: its token acts for nothing until it is taken back
    assert api.post(f"/api/games/{gid}/seats/2/bot", json={"bot": "random"},
                    headers=auth(tokens[2])).status_code == 200
    assert api.post(f"/api/games/{gid}/seats/2/name", json={"name": "Cy"},
                    headers=auth(tokens[2])).status_code == 401


def test_the_owners_name_outlives_a_long_chat_and_a_restart(
        server_factory: Callable[..., Server], tmp_path: Path) -> None:
    """A seat handed to a bot bears its player's name as ``owner`` (the seat's own name is the
    bot's), read from the stored note however many chat lines came after it, also after a
    restart; taken back without a name, the seat is its player's under that name again."""
    db = tmp_path / "owner.db"
    first = server_factory(db)
    with httpx.Client(base_url=first.url, timeout=10.0) as api:
        gid, _ = new_game(api, 3)
        tokens = [api.post(f"/api/games/{gid}/seats", json={"seat": s, "name": n}).json()["token"]
                  for s, n in enumerate(("Ada", "Bea", "Cy"))]
        assert api.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                        headers=auth(tokens[1])).status_code == 200
        seats = api.get(f"/api/games/{gid}").json()["seats"]
        assert [(s["kind"], s["name"], s["owner"]) for s in seats] == [
            ("human", "Ada", None), ("bot", "random", "Bea"), ("human", "Cy", None)]
    first.stop()
    store = Store(first.db_url)  # more talk than a page is sent: the note is out of its reach
    for i in range(HISTORY + 20):
        store.add_chat(gid, 0, "Ada", f"line {i}", time.time())
    store.engine.dispose()
    again = server_factory(db)
    with httpx.Client(base_url=again.url, timeout=10.0) as api:
        assert api.get(f"/api/games/{gid}").json()["seats"][1]["owner"] == "Bea"
        bea = WsClient(again.url, gid, [tokens[1]])
        try:
            assert bea.request({"type": "chat", "seat": 1, "text": "still here"})["type"] == "ack"
            [line] = [m["message"] for m in bea.received if m["type"] == "chat"
                      and m["message"]["text"] == "still here"]
            assert line["name"] == "Bea"
        finally:
            bea.close()
        r = api.post(f"/api/games/{gid}/seats/1/reclaim", headers=auth(tokens[1]))
        assert r.status_code == 200, r.text
        seat = r.json()["game"]["seats"][1]
        assert (seat["kind"], seat["name"], seat["owner"]) == ("human", "Bea", None)


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


def test_a_note_that_ends_in_a_name_with_a_stop_keeps_one_stop() -> None:
    """Renamed to "Ada L.", the note read "… is now called Ada L.." (audit, stop 64)."""
    assert one_stop("Aad (Red) is now called Ada L..") == "Aad (Red) is now called Ada L."
    assert one_stop("Aad (Red) is now called Wow!.") == "Aad (Red) is now called Wow!"
    assert one_stop("Aad (Red) is now called Ada.") == "Aad (Red) is now called Ada."
    assert one_stop(".") == "."
