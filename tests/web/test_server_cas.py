"""Issue 9, "never corrupt": every write of a game is a compare-and-set on its version. Two
server instances on one database each hold a copy of a game; the one with a stale copy changes
nothing, answers ``stale`` (never 500), reloads, and then sees what the other did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pgcluster import BACKEND, database_url

from rednovember.web.app import create_app
from rednovember.web.store import SeatRow, StaleWrite, Store


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    url = database_url(tmp_path / "games.db")
    with TestClient(create_app(url, bot_delay=60.0)) as a, \
            TestClient(create_app(url, bot_delay=60.0)) as b:
        yield a, b


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_seat_is_never_given_twice(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    gid = a.post("/api/games", json={"players": 3, "seed": 1}).json()["game"]["id"]
    assert b.get(f"/api/games/{gid}").json()["seats"][0]["kind"] == "free"  # b holds a copy
    assert a.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada"}).status_code == 200
    r = b.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Bea"})
    # b's copy is stale (unless it heard a's change already: PostgreSQL's NOTIFY): its write is
    # refused by the database, b reloads and judges the request again on the fresh game
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken", r.text
    # b reloaded: the seat is Ada's, and asking again says so
    r = b.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Bea"})
    assert r.json()["error"]["code"] == "seat_taken"
    assert [s["name"] for s in b.get(f"/api/games/{gid}").json()["seats"]][:1] == ["Ada"]


@pytest.mark.skipif(BACKEND == "postgresql", reason="on PostgreSQL b hears a's change (NOTIFY) "
                    "and is never stale this long: test_server_nodes.py")
def test_an_action_on_a_stale_copy_changes_nothing_and_answers_stale(
        two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    gid = a.post("/api/games", json={"players": 3, "seed": 2}).json()["game"]["id"]
    tokens = [a.post(f"/api/games/{gid}/seats", json={"seat": s, "name": f"P{s}"}).json()["token"]
              for s in range(3)]
    summary = b.get(f"/api/games/{gid}").json()  # b loads the game as it is now
    mover = summary["to_move"]
    st = a.get(f"/api/games/{gid}/state", headers=_bearer(tokens[mover])).json()
    first, second = st["actions"][0]["text"], st["actions"][-1]["text"]
    seen = summary["version"]  # both moves are sent by players who saw this version
    assert a.post(f"/api/games/{gid}/act", json={"action": first, "version": seen},
                  headers=_bearer(tokens[mover])).status_code == 200
    r = b.post(f"/api/games/{gid}/act", json={"action": second, "version": seen},
               headers=_bearer(tokens[mover]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale", r.text
    after_a = a.get(f"/api/games/{gid}/state").json()
    after_b = b.get(f"/api/games/{gid}/state").json()  # reloaded: the same game as a's
    assert after_a["version"] == after_b["version"] == summary["version"] + 1
    assert after_a["log"] == after_b["log"] and after_a["view"] == after_b["view"]


def test_the_store_refuses_a_write_from_an_old_version(tmp_path: Path) -> None:
    store = Store(database_url(tmp_path / "g.db"))
    store.create_game("g1", {"players": 3}, "h", 3)
    store.set_seat("g1", SeatRow(0, "human", "Ada", None, "t"), 1, "waiting")
    with pytest.raises(StaleWrite):
        store.set_seat("g1", SeatRow(0, "human", "Bea", None, "u"), 1, "waiting")
    with pytest.raises(StaleWrite):
        store.append_action("g1", 0, "stay", 0, 1, "playing", None)
    rec = store.load_game("g1")
    assert rec is not None and rec.version == 1 and rec.seats[0].name == "Ada" and not rec.actions
    store.close()
