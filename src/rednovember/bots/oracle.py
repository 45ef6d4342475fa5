"""The oracle: a measuring stick, never a player's bot.

It is the search bot (:mod:`rednovember.bots.search`) given the *real* game instead of the seat's
view: its rollouts run on copies of the true state, so they meet the true deck orders, the true
dice (the engine's random state is part of the game and is copied with it) and, in Mad Gnomes,
the other seats' true hands. Every rollout of a candidate therefore shows exactly what would
follow it if the crew then played on as the heuristic does, and one rollout per candidate is
enough; the budget goes into more candidates and a longer look ahead instead. It also reads the
next die: to each repair plan among the candidates it adds the same plan with just the minutes
that die needs (a 3 needs 3 minutes less the bonuses), so it never pays for minutes it does not
need.

It cheats by design, so it is *not* in :data:`rednovember.bots.base.BOTS` (the lists the
terminal and the web game offer); :func:`rednovember.bots.base.make_bot` builds it by name
(``oracle``) for ``bench/bench_bots.py`` only. On the same deals its win rate is a practical
upper reference for a bot that plays by the heuristic's plans: search / oracle says how much of
what seeing the future is worth a fair bot already gets. It is not a proof of a bound (a better
planner could beat it). It is deterministic: it makes no random choice at all.
"""

from __future__ import annotations

from ..rules import Action, Game
from .facts import public_twin
from .levels import SearchLevel
from .planning import Plan
from .plans import repair_chance, with_minutes
from .search import SearchBot

ORACLE_LEVEL = SearchLevel(k=8, n=1, horizon=16, gap=1e9)


class OracleBot(SearchBot):
    """The search bot deciding on the true state (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.level = ORACLE_LEVEL
        self.name = "oracle"

    def _twin(self, game: Game, player: int, seed: int) -> Game:
        return game.copy(keep_log=False)

    def _candidates(self, game: Game, view: Game, player: int, legal: list[Action]) -> list[Plan]:
        plans = super()._candidates(game, view, player, legal)
        die = game.rng.copy().die()  # moving rolls nothing: the action's die is the next one
        out = list(plans)
        seen = {p.steps for p in plans}
        for p in plans:
            if repair_chance(game, p) is None:
                continue
            act = p.action
            items = game.data.items
            bonus = game.bonus(act.kind) + sum(
                items[s.arg].bonus_to(act.kind) for s in p.steps if s.kind == "play")
            need = max(1, die - bonus)
            if need >= act.minutes:
                continue
            exact = with_minutes(p, need)
            if exact.steps not in seen and exact.steps[0] in legal:
                seen.add(exact.steps)
                out.append(exact)
        return out


class SeerBot(SearchBot):
    """The default search seeing one hidden thing truly, to measure what each is worth to it
    (bench/results/bots.md, stop 37): ``events`` (every determinisation keeps the event deck's
    true order; the dice and the item deck are re-sampled as usual) or ``dice`` (every
    determinisation keeps the engine's true random state, so the dice to come; the decks are
    re-sampled). Like the oracle it cheats, so it is built for the benchmark only."""

    def __init__(self, seed: int = 0, sees: str = "events") -> None:
        if sees not in SEES:
            raise ValueError(f"a seer sees one of {', '.join(SEES)}, not {sees!r}")
        super().__init__(seed)
        self.sees = sees
        self.name = f"oracle:{sees}"

    def _twin(self, game: Game, player: int, seed: int) -> Game:
        twin = public_twin(game, player, seed)
        if self.sees == "events":
            twin.event_deck = list(game.event_deck)
        else:
            twin.rng = game.rng.copy()
        return twin


SEES = ("events", "dice")

__all__ = ["ORACLE_LEVEL", "SEES", "OracleBot", "SeerBot"]
