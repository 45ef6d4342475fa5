"""The Red November rules engine: pure, deterministic, serialisable.

Typical use::

    from rednovember.rules import Config, new_game
    game = new_game(Config(players=4, seed=7))
    while not game.is_over:
        action = game.legal_actions()[0]
        game.apply(action)
"""

from .action import Action, ActionError, parse_action
from .config import COLOURS, VARIANTS, Config, ConfigError
from .data import SEA, DataError, GameData, load_data
from .deaths import outcome
from .game import Game
from .hidden import can_undo, determinize, undo
from .setup import new_game
from .state import Decision, Gnome, Result, State

__all__ = ["Action", "ActionError", "COLOURS", "Config", "ConfigError", "DataError", "Decision",
           "Game", "GameData", "Gnome", "Result", "SEA", "State", "VARIANTS", "load_data", "new_game",
           "outcome", "parse_action", "can_undo", "determinize", "undo"]
