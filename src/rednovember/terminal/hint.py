"""The advisor at the terminal: ``hint`` in the line mode prints the three best plans for the seat
to move (analysis/advisor.py does the thinking); the Textual app calls :func:`hint_lines` too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..analysis.advisor import DEFAULT_BUDGET_S, Advice, AdvisorError, Tip, advise
from ..i18n import Catalog, catalog
from ..i18n import names as n
from ..i18n.describe import describe_action
from ..rules import Game

# Rounds the terminal's advice always completes, whatever the time budget (on a busy machine two
# rounds gave "99% (42–99%)" next to "2% (2–69%)": noise presented as advice, issue 18 §10). At 16
# rollouts a plan's 95% interval is at most about 50 points wide. 12 and not more: the 12 rounds
# of an 8-player game's first turn (the longest rollouts) take about 0.9 s of one core compiled.
SURE_ROUNDS = 12


def why(tip: Tip, game: Game, cat: Catalog) -> str:
    """The reasons of a plan in one line: the threat, the repair's chance, the keeper's icons."""
    t: dict[str, Any] | None = tip.threat
    reasons: list[str] = []
    if t is None:
        reasons.append(cat.raw("advisor", "threat_none"))
    elif t["kind"] == "track":
        reasons.append(cat.get("advisor", "threat_track",
                               track=n.track(cat, game, game.data.tracks.index(t["track"])),
                               level=t["level"], end=t["end"]))
    elif t["kind"] == "token":
        reasons.append(cat.get("advisor", "threat_token",
                               token=n.token(cat, game, game.data.tokens.index(t["token"])),
                               space=t["space"]))
    elif t["kind"] in ("fire", "flood"):
        reasons.append(cat.get("advisor", f"threat_{t['kind']}",
                               room=n.room(cat, game, t["room"])))
    elif t["kind"] == "hatch":
        reasons.append(cat.get("advisor", "threat_hatch", room=n.room(cat, game, t["to"])))
    elif t["kind"] == "items":
        reasons.append(cat.raw("advisor", "threat_items"))
    elif t["kind"] == "trade":
        reasons.append(cat.get("advisor", "threat_trade", gnome=n.gnome(cat, game, t["gnome"])))
    if tip.repair_chance is not None:
        reasons.append(cat.get("advisor", "repair", chance=tip.repair_chance))
    reasons.append(cat.get("advisor", "meets", **tip.meets))
    return cat.get("advisor", "why", reasons=cat.join(reasons))


def tip_lines(number: int, tip: Tip, game: Game, cat: Catalog, lang: str) -> list[str]:
    """One plan as lines: the action as the menu says it, the walk, the items, chance and why."""
    sim = game.copy(keep_log=False)
    for a in tip.steps[:-1]:
        if a not in sim.legal_actions():
            break
        sim.apply(a)
    lines = [cat.get("advisor", "plan", n=number, action=describe_action(tip.action, sim, lang))]
    if len(tip.route) > 1:
        lines.append("   " + cat.get("advisor", "walk", rooms=" → ".join(
            n.room_short(cat, game, r) for r in tip.route)))
    if tip.items:
        kinds = [game.data.item_index[i] for i in tip.items]
        lines.append("   " + cat.get("advisor", "play", items=n.items(cat, game, kinds)))
    c = tip.chance
    lines.append("   " + cat.get("advisor", "minutes", minutes=tip.minutes) + " · " + cat.get(
        "advisor", "chance", chance=round(100 * c.chance), low=round(100 * c.low),
        high=round(100 * c.high)))
    lines.append("   " + why(tip, game, cat))
    return lines


def advice_lines(advice: Advice, game: Game, lang: str = "en") -> list[str]:
    """The whole advice as lines of text in ``lang``."""
    cat = catalog(lang)
    out = [cat.get("advisor", "title", gnome=n.gnome(cat, game, advice.gnome))]
    for i, tip in enumerate(advice.tips, 1):
        out.extend(tip_lines(i, tip, game, cat, lang))
    out.append(cat.get("advisor", "rounds", rounds=advice.rounds,
                       seconds=cat.decimal(advice.seconds)))
    return out


def hint_lines(game: Game, seat: int, lang: str = "en", *, budget_s: float = DEFAULT_BUDGET_S,
               seed: int = 0, say: Callable[[str], None] | None = None) -> list[str]:
    """The advice for ``seat`` as lines (or the reason there is none). ``say`` gets the
    "thinking" line first (a progress note for the player)."""
    cat = catalog(lang)
    try:
        if say is not None:
            say(cat.raw("advisor", "thinking"))
        advice = advise(game, seat, budget_s=budget_s, seed=seed, min_rounds=SURE_ROUNDS)
    except AdvisorError:
        return [cat.raw("advisor", "not_now")]
    return advice_lines(advice, game, lang)


__all__ = ["advice_lines", "hint_lines", "tip_lines", "why"]
