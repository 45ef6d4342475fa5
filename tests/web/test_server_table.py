"""Server tests of the table: presence pushed when connections open and close, taking a seat
back from a bot with the seat's original token, and errors as codes with parameters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from webtools import WsClient, new_game, take

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
