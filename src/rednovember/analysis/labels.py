"""English names for the ids the statistics count by (loss and death causes, event cards, items),
for the reports people read (`simulate`, `report`); their JSON keeps the ids."""

from __future__ import annotations

from ..i18n import catalog

_EN = catalog("en")


def _named(section: str, key: str) -> str | None:
    texts = _EN.texts.get(section, {})
    return texts.get(key)


def loss_name(cause: str) -> str:
    """"Heat track", "Missile Launch! token", "nobody left aboard"; "won" stays."""
    track = _named("tracks", cause)
    if track is not None:
        return f"{track} track"
    token = _named("tokens", cause)
    if token is not None:
        return f"{token} token"
    if cause == "all_dead":
        return "nobody left aboard"
    return cause.replace("_", " ")


def death_name(cause: str) -> str:
    """A gnome's death cause as the log tells it: "burned to death", "drowned in a flooded room"."""
    return _named("death_causes", cause) or cause.replace("_", " ")


def event_name(kind: str) -> str:
    return _named("events", kind) or kind.replace("_", " ")


def item_name(item: str) -> str:
    return _named("items", item) or item.replace("_", " ")


__all__ = ["death_name", "event_name", "item_name", "loss_name"]
