"""The end screen's story of a finished game (``GET /api/games/{id}/story``): computed once by
replaying the game (:func:`rednovember.analysis.story.game_story`) and kept in memory, as a
finished game never changes. Every hand is public once a game is over, so nothing is redacted."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..analysis.story import game_story
from .hub import LiveGame
from .protocol import ProtocolError, result_info

CACHE_GAMES = 256  # stories kept (the least recently asked for go first)


class StoryCache:
    """The stories of finished games, per game id and number of actions."""

    def __init__(self, limit: int = CACHE_GAMES) -> None:
        self.limit = limit
        self.stories: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.computed = 0  # stories built (for tests: a second request is served from memory)

    def story(self, lg: LiveGame) -> dict[str, Any]:
        """The story of ``lg``; ``not_over`` (409) while it is waiting for seats or playing."""
        if lg.status != "over" or lg.game.result is None:
            raise ProtocolError("not_over", "the game is not over: its story is told at the end",
                                lg.status)
        key = (lg.id, len(lg.game.history))
        hit = self.stories.get(key)
        if hit is None:
            hit = {"game": lg.id, **game_story(lg.game), "result": result_info(lg.game)}
            self.computed += 1
            self.stories[key] = hit
            while len(self.stories) > self.limit:
                self.stories.popitem(last=False)
        else:
            self.stories.move_to_end(key)
        return hit


__all__ = ["CACHE_GAMES", "StoryCache"]
