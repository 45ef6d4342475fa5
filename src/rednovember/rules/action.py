"""Actions: every choice any player makes, as a small immutable value with a text form.

Text forms (used by saves, replays, scenarios and the terminal):

===========================  =====================================================
``open R``                   open the hatch to room R (``open sea`` / ``open 0``)
``enter`` / ``stay``         after opening: go through, or stay (hatch closes)
``play ITEM``                play an item card (``play grog``)
``REPAIR M``                 a repair with M minutes: extinguish_fire, pump_water,
                             fix_engine, fix_oxygen_pumps, fix_reactor,
                             stop_missile_launch, kill_kraken
``unblock_hatch R M``        unblock the hatch to room R with M minutes
``draw N``                   draw N item cards (room 8) or Grog (room 10)
``trade G`` / ``attack G``   trade with / attack gnome number G
``no_action``                spend one minute doing nothing
``abandon``                  Abandon Comrades
``end``                      end the turn (after the action, or when none is affordable)
``exit R``                   the forced move out after a failed Extinguish Fire
``spread R`` / ``block R``   event choices: fire spreads to room R; block the hatch to R
``discard ITEM`` / ``keep ITEM`` / ``give ITEM`` / ``done``   hand decisions
``defend`` / ``yield``       Mad Gnomes: answer an attack with a Crowbar, or not
===========================  =====================================================
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .data import REPAIRS, SEA, GameData

NO_ARG: Final = frozenset({"enter", "stay", "no_action", "abandon", "end", "done", "defend", "yield"})
ROOM_ARG: Final = frozenset({"open", "exit", "spread", "block"})
ITEM_ARG: Final = frozenset({"play", "discard", "keep", "give"})
INT_ARG: Final = frozenset({"draw", "trade", "attack"})
MINUTES_ONLY: Final = frozenset(r for r in REPAIRS if r != "unblock_hatch")
KINDS: Final = NO_ARG | ROOM_ARG | ITEM_ARG | INT_ARG | MINUTES_ONLY | {"unblock_hatch"}


class ActionError(ValueError):
    """An action that cannot be parsed, or is not legal now (the reason says which)."""


class Action(NamedTuple):
    """One choice. ``arg`` is a room, item index, gnome index or count; ``minutes`` for repairs."""

    kind: str
    arg: int = 0
    minutes: int = 0

    def text(self, data: GameData) -> str:
        """The canonical text form (see module docstring)."""
        k = self.kind
        if k in NO_ARG:
            return k
        if k in ROOM_ARG:
            return f"{k} {'sea' if self.arg == SEA else self.arg}"
        if k in ITEM_ARG:
            return f"{k} {data.items[self.arg].id}"
        if k in INT_ARG:
            return f"{k} {self.arg}"
        if k == "unblock_hatch":
            return f"{k} {self.arg} {self.minutes}"
        return f"{k} {self.minutes}"

    @property
    def is_repair(self) -> bool:
        return self.kind in REPAIRS


# Shared instances: the legal-action lists reuse them rather than build new ones (building a
# NamedTuple runs Python-level code, compiled or not).
ENTER: Final = Action("enter")
STAY: Final = Action("stay")
END: Final = Action("end")
NO_ACTION: Final = Action("no_action")
ABANDON: Final = Action("abandon")
DONE: Final = Action("done")
DEFEND: Final = Action("defend")
YIELD: Final = Action("yield")
SHARED_ARGS: Final = 64  # a row of shared actions covers arguments 0 .. SHARED_ARGS - 1


def shared_row() -> list[Action | None]:
    """An empty row of shared actions of one kind, filled by :func:`shared` as they are asked."""
    return [None] * SHARED_ARGS


def shared(row: list[Action | None], kind: str, arg: int) -> Action:
    """``Action(kind, arg)``, the one instance kept in ``row`` (a new one beyond the row)."""
    if 0 <= arg < SHARED_ARGS:
        action = row[arg]
        if action is None:  # two threads may both make it: equal values, either is kept
            action = row[arg] = Action(kind, arg)
        return action
    return Action(kind, arg)


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ActionError(f"{what} must be a number, not {word!r}") from None


def parse_action(text: str, data: GameData) -> Action:
    """Parse the text form of an action; raises :class:`ActionError` with a clear reason."""
    if not isinstance(text, str):
        raise ActionError("an action must be a string")
    words = text.strip().lower().split()
    if not words:
        raise ActionError("empty action")
    kind, args = words[0], words[1:]
    if kind not in KINDS:
        raise ActionError(f"unknown action {kind!r}")
    want = 0 if kind in NO_ARG else 2 if kind == "unblock_hatch" else 1
    if len(args) != want:
        raise ActionError(f"{kind!r} takes {want} argument(s), got {len(args)}")
    if kind in NO_ARG:
        return Action(kind)
    if kind in ROOM_ARG:
        return Action(kind, SEA if args[0] == "sea" else _int(args[0], "room"))
    if kind in ITEM_ARG:
        if args[0] not in data.item_index:
            raise ActionError(f"unknown item {args[0]!r}")
        return Action(kind, data.item_index[args[0]])
    if kind in INT_ARG:
        return Action(kind, _int(args[0], "number"))
    if kind == "unblock_hatch":
        return Action(kind, _int(args[0], "room"), _int(args[1], "minutes"))
    return Action(kind, 0, _int(args[0], "minutes"))
