"""My games (issue 20 §2): ``POST /api/me`` answers the public summaries of the games a browser
names, each with its activity (last change or chat line, how many chat lines), with no token."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import httpx
from webtools import WsClient, auth, new_game, seated_game

from rednovember.web.mine import MAX_GAMES


def _by_id(body: dict[str, object]) -> dict[str, dict[str, object]]:
    games = body["games"]
    assert isinstance(games, list)
    return {g["id"]: g for g in games}


def test_my_games_gives_each_games_summary_turn_and_chat_count(
        api: httpx.Client, ws_client: Callable[..., WsClient]) -> None:
    playing, tokens, _ = seated_game(api, 2, seed=5)
    waiting, _ = new_game(api, 3)
    before = api.post("/api/me", json={"games": [playing, waiting]})
    assert before.status_code == 200, before.text
    games = _by_id(before.json())
    assert before.json()["missing"] == []
    assert games[playing]["status"] == "playing" and games[playing]["to_move"] == 0
    assert games[waiting]["status"] == "waiting"
    assert games[playing]["activity"]["chat"] == 0  # type: ignore[index]
    first = games[playing]["activity"]["at"]  # type: ignore[index]
    datetime.strptime(str(first), "%Y-%m-%dT%H:%M:%SZ")
    ada = ws_client(playing, [tokens[0]])
    for text in ("hello", "I open 5"):
        assert ada.request({"type": "chat", "seat": 0, "text": text})["type"] == "ack"
    moves = api.get(f"/api/games/{playing}/legal", headers=auth(tokens[0])).json()["actions"]
    act = api.post(f"/api/games/{playing}/act", json={"action": moves[0]["text"]},
                   headers=auth(tokens[0]))
    assert act.status_code == 200, act.text
    after = _by_id(api.post("/api/me", json={"games": [playing]}).json())[playing]
    assert after["activity"]["chat"] == 2  # type: ignore[index]
    assert str(after["activity"]["at"]) >= str(first)  # type: ignore[index]
    assert after["version"] == games[playing]["version"] + 1  # type: ignore[operator]
    assert after["to_move"] == api.get(f"/api/games/{playing}").json()["to_move"]


def test_my_games_names_the_games_that_are_gone_and_refuses_bad_bodies(
        api: httpx.Client) -> None:
    gid, _ = new_game(api, 1)
    r = api.post("/api/me", json={"games": [gid, "nosuchgame", "bad id!", gid]})
    assert r.status_code == 200, r.text
    assert [g["id"] for g in r.json()["games"]] == [gid]  # asked twice, answered once
    assert r.json()["missing"] == ["nosuchgame", "bad id!"]
    assert api.post("/api/me", json={"games": []}).json() == {"games": [], "missing": []}
    too_many = api.post("/api/me", json={"games": [f"g{i}" for i in range(MAX_GAMES + 1)]})
    assert too_many.status_code == 422 and too_many.json()["error"]["code"] == "bad_message"
    assert api.post("/api/me", json={"games": "abc"}).status_code == 422
    assert api.post("/api/me", json={"games": [gid], "tokens": ["x"]}).status_code == 422


def test_the_my_games_page_is_the_front_end(api: httpx.Client) -> None:
    r = api.get("/me")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert 'src="/static/js/app.' in r.text or "/static/js/app." in r.text
