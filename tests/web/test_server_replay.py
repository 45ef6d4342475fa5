"""Replays: any step of a game rebuilt from its seed and action log, with the viewer's rights."""

from __future__ import annotations

import httpx
from webtools import auth, seated_game

from rednovember.bots import make_bot
from rednovember.rules import Config
from rednovember.rules import new_game as engine_game


def _play(api: httpx.Client, players: int, seed: int, moves: int, **config: object):
    """A seated game played by the heuristic through the API, mirrored by a local engine."""
    variants = list(config.get("variants", []))  # type: ignore[call-overload]
    gid, tokens, _ = seated_game(api, players, seed=seed, **config)
    g = engine_game(Config(players, seed=seed, variants=frozenset(variants)))
    bot = make_bot("heuristic", seed)
    for _ in range(moves):
        if g.result is not None:
            break
        a = bot.choose(g)
        r = api.post(f"/api/games/{gid}/act", json={"action": a.text(g.data)},
                     headers=auth(tokens[g.player_to_move]))
        assert r.status_code == 200, r.text
        g.apply(a)
    return gid, tokens, g


def test_every_step_is_the_engine_replayed_to_that_point(api: httpx.Client) -> None:
    gid, _, g = _play(api, 3, seed=21, moves=40)
    first = api.get(f"/api/games/{gid}/replay/0").json()
    assert first["step"] == 0 and first["steps"] == 40 and first["over"] is False
    assert first["view"]["gnomes"] == engine_game(Config(3, seed=21)).view(None)["gnomes"]
    last = api.get(f"/api/games/{gid}/replay/40").json()
    assert last["view"]["gnomes"] == g.view(None)["gnomes"]
    assert last["view"]["tokens"] == g.view(None)["tokens"]
    mid = api.get(f"/api/games/{gid}/replay/17").json()
    assert mid["log"] and mid["actor"] in (0, 1, 2)
    assert "event_deck" not in mid["view"] and "rng" not in mid["view"]  # never the deck order
    for bad in (41, -1):
        assert api.get(f"/api/games/{gid}/replay/{bad}").status_code in (404, 422)


def test_a_running_mad_gnomes_game_hides_hands_and_a_finished_one_shows_them(
        api: httpx.Client) -> None:
    gid, _, g = _play(api, 3, seed=5, moves=10, variants=["mad-gnomes"])
    running = api.get(f"/api/games/{gid}/replay/10").json()
    assert all(gs["hand"] is None for gs in running["view"]["gnomes"])
    gid, _, g = _play(api, 3, seed=5, moves=2000, variants=["mad-gnomes"])
    assert g.result is not None
    steps = len(g.history)
    over = api.get(f"/api/games/{gid}/replay/{steps}").json()
    assert over["over"] is True and over["result"]["won"] == g.result.won
    hands = [[g.data.items[k].id for k in gn.hand] for gn in g.gnomes]
    assert [gs["hand"] for gs in over["view"]["gnomes"]] == hands
    assert api.get(f"/g/{gid}/replay").status_code == 200  # the viewer's page
