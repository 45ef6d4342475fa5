"""The game state: the submarine, the time track, the decks and the gnomes.

A :class:`State` is mutable for speed (``apply`` changes it in place); :meth:`State.copy` makes an
independent twin cheaply (no deep copies), for bots that look ahead.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, Self

from .action import Action
from .config import Config
from .data import SEA, GameData
from .rng import Rng

# Phases: who is asked what.
MOVE: Final = "move"  # active gnome: open a hatch, play an item, or choose its action
OPENED: Final = "opened"  # active gnome opened a hatch: enter (or leave/return) or stay
AFTER_ACTION: Final = "after_action"  # active gnome may still play items, then ends its turn
EXTRA_MOVE: Final = "extra_move"  # failed Extinguish Fire: the gnome must move out
DECIDE: Final = "decide"  # a pending decision (see Decision) of any gnome
OVER: Final = "over"

NONE: Final = 0  # water levels
LOW: Final = 1
HIGH: Final = 2


class Decision(NamedTuple):
    """A decision the rules hand to a gnome's player: ``kind`` with ``gnome`` deciding.

    Kinds: ``discard`` (info: hand limit), ``keep`` (Stumble), ``spread`` (Fire Spreads),
    ``block`` (info: the rolled room), ``give`` (info: trade partner), ``defend`` (info: attacker).
    """

    kind: str
    gnome: int
    info: int = 0


_DECISIONS: Final[dict[tuple[str, int, int], Decision]] = {}


def decision(kind: str, gnome: int, info: int = 0) -> Decision:
    """``Decision(kind, gnome, info)``, one instance per value (immutable, so shared: building a
    NamedTuple runs Python-level code, compiled or not)."""
    key = (kind, gnome, info)
    d = _DECISIONS.get(key)
    if d is None:  # two threads may both make it: equal values, either is kept
        d = _DECISIONS[key] = Decision(kind, gnome, info)
    return d


class Gnome:
    """A gnome sailor with its time keeper, card and hand."""

    __slots__ = ("number", "colour", "player", "room", "alive", "fainted", "intoxication", "hand",
                 "keeper", "arrival", "abandoned", "drew_room")

    def __init__(self, number: int, colour: str, player: int, room: int) -> None:
        self.number = number
        self.colour = colour
        self.player = player
        self.room = room
        self.alive = True
        self.fainted = False
        self.intoxication = 0
        self.hand: list[int] = []  # item kind indices
        self.keeper = 0  # time-track space
        self.arrival = 0  # stacking order on a space: higher is on top
        self.abandoned = False
        self.drew_room = -1  # R10: room of the "drew items" area the gnome stands in, or -1

    @property
    def on_board(self) -> bool:
        """Alive and still aboard or in the Sea (not abandoned)."""
        return self.alive and not self.abandoned

    def copy(self) -> Gnome:
        twin = Gnome(self.number, self.colour, self.player, self.room)
        twin.alive = self.alive
        twin.fainted = self.fainted
        twin.intoxication = self.intoxication
        twin.hand = self.hand[:]
        twin.keeper = self.keeper
        twin.arrival = self.arrival
        twin.abandoned = self.abandoned
        twin.drew_room = self.drew_room
        return twin


class Result(NamedTuple):
    """How the game ended: ``won`` for the crew or not, and the cause of a loss."""

    won: bool
    cause: str  # "rescued", a track name, a token name, or "all_dead"


class State:
    """The whole position of a game in progress, with the queries every rules module needs.

    The interface players and bots use, :class:`rednovember.rules.game.Game`, adds
    ``legal_actions`` and ``apply`` on top of it."""

    __slots__ = ("data", "config", "rng", "fire", "water", "blocked", "tracks", "tokens", "gnomes",
                 "event_deck", "event_discard", "event_out", "kraken_aside", "item_deck",
                 "item_discard", "item_out", "stock", "arrivals", "active", "ghost", "phase",
                 "opened", "began_in_sea", "played", "armed_in", "charms", "grog_used", "pending",
                 "resume", "effects", "event_space", "item_here", "result", "log", "history", "turn",
                 "skip_check", "in_updates", "setup_events", "origin", "undo_barrier", "_legal")

    def __init__(self, data: GameData, config: Config, blank: bool = False) -> None:
        """A new game's state before setup; ``blank``: no attribute set (:meth:`copy` sets them)."""
        self.data = data
        self.config = config
        if blank:
            return
        rooms = len(data.room_keys)
        self.rng = Rng(config.seed)
        self.fire = [False] * rooms
        self.water = [NONE] * rooms
        self.blocked = [False] * len(data.hatches)
        self.tracks = [1, 1, 1]
        self.tokens = [-1] * len(data.tokens)  # space of each destruction token, -1 if absent
        self.gnomes: list[Gnome] = []
        self.event_deck: list[int] = []  # card ids; the top card is the last
        self.event_discard: list[int] = []
        self.event_out: list[int] = []  # removed from the game (Harder)
        self.kraken_aside = True
        self.item_deck: list[int] = []  # item kinds; the top card is the last
        self.item_discard: list[int] = []
        self.item_out: list[int] = []  # left with a gnome that abandoned its comrades
        self.stock = data.stock_count  # Grog in the captain's stock
        self.arrivals = 0
        self.active = -1
        self.ghost = -1
        self.phase = MOVE
        self.opened = -1  # room beyond the hatch opened this move
        self.began_in_sea = False
        self.played = [0] * len(data.items)  # items played this turn, by kind
        self.armed_in: list[int] = []  # R17: rooms where an attack-enabling item was played
        self.charms = 0  # event icons still to ignore this turn (Lucky Charm)
        self.grog_used = False
        self.pending: list[Decision] = []
        self.resume = ""  # what continues when the pending decisions are done
        self.effects: list[dict[str, Any]] = []  # remaining effects of the event being resolved
        self.event_space = 0  # the icon space where the current event card was drawn
        self.item_here = False  # an item icon on the keeper's space still to draw
        self.result: Result | None = None
        self.log: list[tuple[Any, ...]] = []
        self.history: list[Action] = []
        self.turn = 0
        self.skip_check = False  # R13 / P3: replacement gnome skips the Updates death check
        self.in_updates = False
        self.setup_events = 0  # Hardest: setup event cards still to resolve (R14)
        self.origin: dict[str, Any] | None = None  # None: a fresh game from the seed
        self.undo_barrier = 0  # history entries that can no longer be undone (rules/hidden.py)
        self._legal: list[Action] | None = None

    # --- copying -------------------------------------------------------------------------------
    def _blank(self) -> Self:
        """A new instance of this class with nothing set but data and config (for :meth:`copy`;
        :class:`~rednovember.rules.game.Game` makes its own by a direct call)."""
        return type(self)(self.data, self.config, True)

    def copy(self, keep_log: bool = True) -> Self:
        """An independent twin. ``keep_log=False`` drops log and history (for look-ahead)."""
        twin = self._blank()
        twin.rng = self.rng.copy()
        twin.fire = self.fire[:]
        twin.water = self.water[:]
        twin.blocked = self.blocked[:]
        twin.tracks = self.tracks[:]
        twin.tokens = self.tokens[:]
        twin.gnomes = [gn.copy() for gn in self.gnomes]
        twin.event_deck = self.event_deck[:]
        twin.event_discard = self.event_discard[:]
        twin.event_out = self.event_out[:]
        twin.kraken_aside = self.kraken_aside
        twin.item_deck = self.item_deck[:]
        twin.item_discard = self.item_discard[:]
        twin.item_out = self.item_out[:]
        twin.stock = self.stock
        twin.arrivals = self.arrivals
        twin.active = self.active
        twin.ghost = self.ghost
        twin.phase = self.phase
        twin.opened = self.opened
        twin.began_in_sea = self.began_in_sea
        twin.played = self.played[:]
        twin.armed_in = self.armed_in[:]
        twin.charms = self.charms
        twin.grog_used = self.grog_used
        twin.pending = self.pending[:]
        twin.resume = self.resume
        twin.effects = self.effects[:]
        twin.event_space = self.event_space
        twin.item_here = self.item_here
        twin.result = self.result
        twin.log = self.log[:] if keep_log else []
        twin.history = self.history[:] if keep_log else []
        twin.turn = self.turn
        twin.skip_check = self.skip_check
        twin.in_updates = self.in_updates
        twin.setup_events = self.setup_events
        twin.origin = self.origin
        twin.undo_barrier = self.undo_barrier
        twin._legal = None
        return twin

    # --- queries -------------------------------------------------------------------------------
    @property
    def start_space(self) -> int:
        """The time-track space the gnomes started on (by their number, DATA.md); a minute
        played is one space less."""
        return self.data.start_spaces[self.config.gnomes]

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def decider(self) -> int:
        """The gnome whose player must decide now, or -1 when the game is over."""
        if self.result is not None:
            return -1
        if self.pending:
            return self.pending[0].gnome
        return self.active

    @property
    def player_to_move(self) -> int:
        """The seat (player index) that must decide now, or -1 when the game is over."""
        d = self.decider
        return -1 if d < 0 else self.gnomes[d].player

    @property
    def remaining(self) -> int:
        """Minutes left to the active gnome this turn (the ghost's space)."""
        return self.ghost

    def on_track(self) -> list[Gnome]:
        return [gn for gn in self.gnomes if gn.alive and not gn.abandoned]  # on_board, inlined

    def gnomes_of(self, player: int) -> list[int]:
        return [gn.number for gn in self.gnomes if gn.player == player]

    def item_name(self, kind: int) -> str:
        return self.data.items[kind].id

    def bonus(self, repair: str) -> int:
        """The bonus the active gnome's items played this turn give to a repair."""
        total = 0
        for kind, n in enumerate(self.played):
            if n:
                total += n * self.data.items[kind].bonus_to(repair)
        return total

    def can_enter_fire(self) -> bool:
        items = self.data.items
        return any(n and items[k].enters_fire for k, n in enumerate(self.played))

    def can_swim(self) -> bool:
        items = self.data.items
        return any(n and items[k].enables_sea for k, n in enumerate(self.played))

    def can_attack(self) -> bool:
        """R17: a Crowbar was played while the active gnome stood in the room it is in now."""
        return self.gnomes[self.active].room in self.armed_in

    def turn_order(self) -> list[int]:
        """Gnomes on the track, next to move first (furthest back; top of a stack first)."""
        order = sorted(self.on_track(), key=lambda gn: (gn.keeper, gn.arrival), reverse=True)
        return [gn.number for gn in order]

    def say(self, *entry: Any) -> None:
        """Append a log entry: a message id followed by its arguments."""
        self.log.append(entry)

    def is_sea(self, room: int) -> bool:
        return room == SEA

