"""Statistics of simulated games: what one game's log says, and the totals over many games.

Everything here is derived from the game's event log (the engine's ``g.log``), so it never needs
the engine's internals and it works for any bot. The definitions (also in README "Study the game"):

Win rate and its 95% confidence interval
    ``wins / games`` and the Wilson score interval at z = 1.96 (:func:`wilson`). It stays inside
    0..1 and behaves well for rates near 0 or 1, where the textbook ``p ± 1.96·sqrt(p(1-p)/n)``
    does not.

Minutes survived
    The minutes of the time track the crew used: the start space minus the lowest time keeper
    at the end (a won game used all of them). Reported for all games and for the lost ones.

Track levels over time
    For every minute ``m`` of the time track (``m`` = start space minus the space of the crew's
    *rear* keeper, the gnome furthest back, which is the one about to move), the three disaster
    track levels when the rear keeper reached ``m``; a game is followed until it ends (its last
    minute holds the final levels). The report averages over the games still running at ``m``.

When an event card mattered (per event kind; only drawn events count, not faint-check cards)
    ``drawn``: times drawn in all games; ``games_drawn``: games in which it was drawn at least
    once; ``drawn_in_wins`` / ``drawn_in_losses``: draws in won / lost games; ``late_losses``:
    lost games in which it was drawn during the last :data:`LAST_TURNS` turns; ``caused``: lost
    games whose loss it caused — a track loss is caused by the event whose effect moved the
    marker onto the last space, a destruction-token loss by the event that placed the token, an
    ``all_dead`` loss by the event during whose resolution the last gnome died (if any).

When an item mattered (per item kind)
    ``played``: times played; ``played_in_wins``: plays in games the crew won (compare their share
    with the win rate); ``saves``: repairs it turned from failure into success — the repair
    succeeded with a roll above the minutes spent, so without the bonuses it would have failed,
    and the item was played that turn and gives a bonus to that repair (each contributing kind
    is credited once per repair); ``uses``: other effects that happened because of it — event
    icons ignored thanks to a Lucky Charm (items that ignore event icons) and moves into the Sea
    with an Aqualung (items that allow swimming).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..rules import SEA, Game, GameData

LAST_TURNS = 3  # "late" events: drawn during the last this-many turns of a lost game
Z95 = 1.959963984540054

# Log entries that may follow an event card while it is being resolved (its effects, the choices
# it asks for, and their consequences). Any other entry means the card's resolution is over.
EFFECT_ENTRIES = frozenset({
    "event", "fire", "fire_spreads", "fire_flooded", "spread_none", "leak", "fire_out",
    "undercurrent", "block_none", "hatch_blocked", "track", "token", "token_already",
    "token_avoided", "hand_limit", "discard", "stumble", "stumble_none", "overheated", "death",
    "replacement", "lost",
})


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0, 0 when there are no trials)."""
    if n <= 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


class GameStats(NamedTuple):
    """What one game's log says about events, items and the disaster tracks (see module doc)."""

    event_draws: tuple[int, ...]  # per event kind (data.event_kinds order)
    late_events: tuple[int, ...]  # event kinds drawn during the last LAST_TURNS turns
    cause_event: int  # event kind that caused the loss, -1 for none (or a won game)
    item_plays: tuple[int, ...]  # per item kind (data.items order)
    item_saves: tuple[int, ...]
    item_uses: tuple[int, ...]
    tracks: tuple[int, ...]  # flattened (minute, track): levels at minutes 0..last of the game


def game_stats(g: Game, last_turns: int = LAST_TURNS) -> GameStats:
    """Read a finished (or running) game's log; see the module docstring for the definitions."""
    data: GameData = g.data
    kind_of = {k: i for i, k in enumerate(data.event_kinds)}
    card_kind = [kind_of[c.kind] for c in data.events]
    n_items = len(data.items)
    n_tracks = len(data.tracks)
    start = g.start_space
    bonus_items = [dict(it.bonus) for it in data.items]
    charm_items = [it.ignore_event_icons > 0 for it in data.items]
    sea_items = [it.enables_sea for it in data.items]

    draws = [0] * len(data.event_kinds)
    drawn_at: list[tuple[int, int]] = []  # (kind, turn)
    plays = [0] * n_items
    saves = [0] * n_items
    uses = [0] * n_items
    played = [0] * n_items  # this turn, by the active gnome
    tracks = [1] * n_tracks
    track_cause = [-1] * n_tracks
    token_cause = [-1] * len(data.tokens)
    death_event = -1
    current = -1  # kind of the event card being resolved, -1 if none
    turn = 0
    minute = 0
    levels: list[tuple[int, ...]] = []

    def reach(m: int) -> None:
        while len(levels) <= m:
            levels.append(tuple(tracks))

    for e in g.log:
        tag = e[0]
        if tag not in EFFECT_ENTRIES:
            current = -1
        if tag == "turn":
            turn += 1
            played = [0] * n_items
            minute = max(minute, start - int(e[2]))
            reach(minute)
        elif tag == "event":
            current = card_kind[e[1]]
            draws[current] += 1
            drawn_at.append((current, turn))
        elif tag == "track":
            tracks[e[1]] = e[2]
            track_cause[e[1]] = current
        elif tag == "track_reset":
            tracks[e[1]] = e[2]
        elif tag == "token":
            token_cause[e[1]] = current
        elif tag == "death":
            death_event = current
        elif tag == "play":
            plays[e[2]] += 1
            played[e[2]] += 1
        elif tag == "repair":
            kind, minutes, roll, success = e[2], e[3], e[5], e[6]
            if success and roll > minutes:
                for k, n in enumerate(played):
                    if n and (kind in bonus_items[k] or "*" in bonus_items[k]):
                        saves[k] += 1
        elif tag == "charm":
            for k, n in enumerate(played):
                if n and charm_items[k]:
                    uses[k] += 1
        elif tag == "enter" and e[3] == SEA:
            for k, n in enumerate(played):
                if n and sea_items[k]:
                    uses[k] += 1

    result = g.result
    cause_event = -1
    if result is not None and not result.won:
        if result.cause in data.tracks:
            cause_event = track_cause[data.tracks.index(result.cause)]
        elif result.cause in data.tokens:
            cause_event = token_cause[data.tokens.index(result.cause)]
        elif result.cause == "all_dead":
            cause_event = death_event
    if result is not None and result.won:
        minute = start
    reach(minute)
    levels[minute] = tuple(tracks)
    late = sorted({k for k, t in drawn_at if t > turn - last_turns})
    flat = tuple(v for lv in levels[:minute + 1] for v in lv)
    return GameStats(tuple(draws), tuple(late), cause_event, tuple(plays), tuple(saves),
                     tuple(uses), flat)


class Totals:
    """Running totals of :class:`GameStats` over the games of one run (add in index order)."""

    def __init__(self, data: GameData, start: int) -> None:
        self.data = data
        self.start = start
        ek, ni, nt = len(data.event_kinds), len(data.items), len(data.tracks)
        self.games = self.wins = self.losses = 0
        self.drawn = [0] * ek
        self.games_drawn = [0] * ek
        self.drawn_in_wins = [0] * ek
        self.late_losses = [0] * ek
        self.caused = [0] * ek
        self.played = [0] * ni
        self.played_in_wins = [0] * ni
        self.saves = [0] * ni
        self.uses = [0] * ni
        self.running = [0] * (start + 1)
        self.level_sums = [[0] * (start + 1) for _ in range(nt)]

    def add(self, s: GameStats, won: bool) -> None:
        self.games += 1
        if won:
            self.wins += 1
        else:
            self.losses += 1
        for k, n in enumerate(s.event_draws):
            if n:
                self.drawn[k] += n
                self.games_drawn[k] += 1
                if won:
                    self.drawn_in_wins[k] += n
        if not won:
            for k in s.late_events:
                self.late_losses[k] += 1
            if s.cause_event >= 0:
                self.caused[s.cause_event] += 1
        for k, n in enumerate(s.item_plays):
            self.played[k] += n
            if won:
                self.played_in_wins[k] += n
        for k, n in enumerate(s.item_saves):
            self.saves[k] += n
        for k, n in enumerate(s.item_uses):
            self.uses[k] += n
        nt = len(self.level_sums)
        for m in range(min(len(s.tracks) // nt, self.start + 1)):
            self.running[m] += 1
            for t in range(nt):
                self.level_sums[t][m] += s.tracks[m * nt + t]

    def events(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for k, kind in enumerate(self.data.event_kinds):
            out[kind] = {
                "drawn": self.drawn[k],
                "games_drawn": self.games_drawn[k],
                "drawn_in_wins": self.drawn_in_wins[k],
                "drawn_in_losses": self.drawn[k] - self.drawn_in_wins[k],
                "late_losses": self.late_losses[k],
                "late_share": _share(self.late_losses[k], self.losses),
                "caused": self.caused[k],
                "caused_share": _share(self.caused[k], self.losses),
            }
        return out

    def items(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for k, item in enumerate(self.data.items):
            out[item.id] = {
                "played": self.played[k],
                "per_game": _share(self.played[k], self.games, 4),
                "played_in_wins": self.played_in_wins[k],
                "win_share": _share(self.played_in_wins[k], self.played[k]),
                "saves": self.saves[k],
                "uses": self.uses[k],
            }
        return out

    def timeline(self) -> dict[str, Any]:
        last = max((m for m, n in enumerate(self.running) if n), default=0)
        out: dict[str, Any] = {"start": self.start, "running": self.running[:last + 1]}
        for t, name in enumerate(self.data.tracks):
            out[name] = [round(s / n, 4) if n else None
                         for s, n in zip(self.level_sums[t][:last + 1], self.running[:last + 1],
                                         strict=True)]
        return out


def _share(n: int, of: int, digits: int = 6) -> float:
    return round(n / of, digits) if of else 0.0


def merge_counts(rows: Sequence[dict[str, dict[str, Any]]], losses: int, games: int
                 ) -> dict[str, dict[str, Any]]:
    """Add up several runs' ``events`` or ``items`` tables (counts summed, shares recomputed)."""
    out: dict[str, dict[str, Any]] = {}
    for table in rows:
        for key, row in table.items():
            acc = out.setdefault(key, {})
            for field, value in row.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    acc[field] = acc.get(field, 0) + value
    for acc in out.values():
        if "late_losses" in acc:
            acc["late_share"] = _share(acc["late_losses"], losses)
            acc["caused_share"] = _share(acc["caused"], losses)
        if "played" in acc:
            acc["per_game"] = _share(acc["played"], games, 4)
            acc["win_share"] = _share(acc["played_in_wins"], acc["played"])
    return out


__all__ = ["EFFECT_ENTRIES", "LAST_TURNS", "GameStats", "Totals", "game_stats", "merge_counts",
           "wilson"]
