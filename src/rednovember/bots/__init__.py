"""Bots: players that only use the engine's legal actions and apply."""

from .base import BOTS, Bot, make_bot, play_out

__all__ = ["BOTS", "Bot", "make_bot", "play_out"]
