"""``GET /api/games/{id}/story``: a finished game's story (computed once, kept in memory); a
clear error for a game still waiting or playing, and for an unknown game."""

from __future__ import annotations

import httpx
import pytest
from webtools import auth, bot_game, new_game, seated_game

from rednovember.analysis.story import game_story
from rednovember.bots import make_bot, play_out
from rednovember.rules import Config, Game, load_data
from rednovember.rules import new_game as new_engine_game
from rednovember.rules.serialize import from_dict
from rednovember.web.hub import LiveGame
from rednovember.web.protocol import ProtocolError
from rednovember.web.story import StoryCache


def test_a_finished_games_story_is_the_replayed_games_story(api: httpx.Client,
                                                             live_server: str) -> None:
    gid, _ = bot_game(live_server, 3, seed=8)
    r = api.get(f"/api/games/{gid}/story")
    assert r.status_code == 200, r.text
    story = r.json()
    save = api.get(f"/api/games/{gid}/export").json()
    g = from_dict(save, load_data())
    assert g.result is not None
    expected = game_story(g)
    for key in ("start", "minutes", "turns", "steps", "deaths", "repairs", "gnomes", "tracks",
                "track_length", "timeline"):
        assert story[key] == expected[key], key
    assert story["game"] == gid
    assert story["result"]["won"] == g.result.won and story["result"]["cause"] == g.result.cause
    assert [x["number"] for x in story["result"]["gnomes"]] == [0, 1, 2]
    assert story["timeline"][-1]["tracks"] == g.tracks
    assert {d["gnome"] for d in story["deaths"]} == {gn.number for gn in g.gnomes if not gn.alive}
    assert api.get(f"/api/games/{gid}/story").json() == story  # the same again (from memory)


def test_a_game_not_over_has_no_story_yet(api: httpx.Client) -> None:
    waiting, _ = new_game(api, 3, seed=1)
    r = api.get(f"/api/games/{waiting}/story")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_over"
    assert r.json()["error"]["detail"] == "waiting"
    gid, tokens, _ = seated_game(api, 3, seed=2)
    st = api.get(f"/api/games/{gid}/state").json()
    assert st["status"] == "playing"
    r = api.get(f"/api/games/{gid}/story", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["detail"] == "playing"
    assert "not over" in r.json()["error"]["message"]


def test_an_unknown_game_has_no_story(api: httpx.Client) -> None:
    r = api.get("/api/games/no-such-game/story")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def _live(g: Game, status: str = "over", gid: str = "g1") -> LiveGame:
    return LiveGame(id=gid, config=g.config, game=g, seats=[], version=len(g.history),
                    status=status, created=0.0, creator_hash="")


def test_stories_are_computed_once_per_game_and_the_oldest_go_first() -> None:
    games = []
    for seed in (3, 4, 5):
        g = new_engine_game(Config(3, seed=seed))
        games.append(play_out(g, [make_bot("heuristic", seed * 10 + p) for p in range(3)]))
    cache = StoryCache(limit=2)
    first = cache.story(_live(games[0], gid="a"))
    assert cache.story(_live(games[0], gid="a")) is first and cache.computed == 1
    assert first["game"] == "a" and first["minutes"] == game_story(games[0])["minutes"]
    cache.story(_live(games[1], gid="b"))
    cache.story(_live(games[0], gid="a"))  # asked again: now the most recent
    cache.story(_live(games[2], gid="c"))  # over the limit: "b" goes
    assert cache.computed == 3 and len(cache.stories) == 2
    cache.story(_live(games[0], gid="a"))
    assert cache.computed == 3
    cache.story(_live(games[1], gid="b"))
    assert cache.computed == 4


def test_the_cache_refuses_a_running_game() -> None:
    g = new_engine_game(Config(3, seed=1))
    with pytest.raises(ProtocolError) as err:
        StoryCache().story(_live(g, status="playing"))
    assert err.value.code == "not_over" and err.value.status == 409
