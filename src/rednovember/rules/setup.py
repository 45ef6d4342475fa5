"""Setting up a new game (RULES §3), all chance drawn from the game's own seeded source (R2)."""

from __future__ import annotations

from .config import COLOURS, Config
from .data import GameData, load_data
from .game import Game
from .state import Gnome
from .turn import begin


def new_game(config: Config, data: GameData | None = None, start: bool = True) -> Game:
    """A new game. With ``start=False`` it stops before the first turn (scenarios arrange the
    position, then call :func:`rednovember.rules.turn.begin`)."""
    data = data or load_data()
    g = Game(data, config)
    rng = g.rng
    per = config.gnomes_per_player or 1
    g.gnomes = [Gnome(i, COLOURS[i], i // per, rng.die()) for i in range(config.gnomes)]
    start_space = g.start_space
    order = list(range(config.gnomes))
    rng.shuffle(order)
    for level, number in enumerate(order):  # stacked in random order; the last is on top
        g.gnomes[number].keeper = start_space
        g.gnomes[number].arrival = level + 1
    g.arrivals = config.gnomes
    items: list[int] = []
    for kind, item in enumerate(data.items):
        items += [kind] * item.count
    for _ in range(data.stock_count):
        items.remove(data.stock_item)
    rng.shuffle(items)
    g.item_deck = items
    for gn in g.gnomes:
        gn.hand = [g.item_deck.pop(), g.item_deck.pop()]
    g.event_deck = [c for c in range(len(data.events)) if c != data.set_aside]
    rng.shuffle(g.event_deck)
    g.say("setup", config.gnomes, start_space, data.describe())
    if start:
        begin(g)
    return g
