"""The game's component tables as the browser needs them (``GET /api/data``, docs/protocol.md
§3.2)."""

from __future__ import annotations

from typing import Any

from ..rules import GameData


def data_json(d: GameData) -> dict[str, Any]:
    """The component tables the browser needs (docs/protocol.md §3.2)."""
    return {
        "name": d.name, "digest": d.digest, "describe": d.describe(),
        "rooms": [{"number": r, "key": k, "x": d.layout.get(r, (0.0, 0.0))[0],
                   "y": d.layout.get(r, (0.0, 0.0))[1]} for r, k in enumerate(d.room_keys)],
        "hatches": [list(h) for h in d.hatches], "interior_hatches": d.interior_count,
        "tracks": list(d.tracks), "track_length": d.track_length,
        "reset_stars": list(d.reset_stars), "tokens": list(d.tokens),
        "items": [{"index": i, "id": it.id, "count": it.count, "bonus": dict(it.bonus),
                   "enters_fire": it.enters_fire, "enables_sea": it.enables_sea,
                   "enables_attack": it.enables_attack, "intoxication": it.intoxication,
                   "faint_check": it.faint_check, "ignore_event_icons": it.ignore_event_icons}
                  for i, it in enumerate(d.items)],
        "events": [{"id": i, "kind": e.kind, "faint": e.faint} for i, e in enumerate(d.events)],
        "event_icons": sorted(d.event_icons), "item_icons": sorted(d.item_icons),
        "start_spaces": {str(k): v for k, v in d.start_spaces.items()},
        "abandon_below": d.abandon_below,
        "draw_rooms": {str(k): list(v) for k, v in d.draw_rooms.items()},
        "room_repairs": {k: {"room": v.room, "track": d.tracks[v.track] if v.track >= 0 else None,
                             "token": d.tokens[v.token] if v.token >= 0 else None}
                         for k, v in d.room_repairs.items()},
        "stock_item": d.items[d.stock_item].id, "stock_count": d.stock_count,
        "blocked_hatch_tokens": d.blocked_tokens,
        "track_start": max(d.start_spaces.values()),
    }


__all__ = ["data_json"]
