"""Rulings through the web server: a refused move says why (R15), with the engine's reason."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rednovember.rules.state import HIGH, LOW
from rednovember.web.app import create_app


def test_R15_opening_from_low_into_high_water_is_refused_with_the_reason() -> None:
    app = create_app("sqlite://")
    with TestClient(app) as client:
        gid = client.post("/api/games", json={"players": 3, "seed": 2}).json()["game"]["id"]
        tokens = [client.post(f"/api/games/{gid}/seats", json={"seat": s, "name": f"P{s}"})
                  .json()["token"] for s in range(3)]
        g = app.state.hub.games[gid].game  # arrange: the gnome to move stands in low water
        here = g.gnomes[g.active].room
        other = next(o for _, o in g.data.exits[here] if o != 0)
        g.water[here], g.water[other] = LOW, HIGH
        g.fire[here] = g.fire[other] = False
        g._legal = None
        seat = g.player_to_move
        r = client.post(f"/api/games/{gid}/act", json={"action": f"open {other}"},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 409
        error = r.json()["error"]
        assert error["code"] == "illegal" and "R15" in error["message"]
        legal = client.get(f"/api/games/{gid}/legal",
                           headers={"Authorization": f"Bearer {tokens[seat]}"}).json()["actions"]
        texts = [a["text"] for a in legal]
        assert texts and f"open {other}" not in texts
