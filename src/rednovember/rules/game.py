"""The game as players, interfaces and bots use it: a :class:`State` that answers "what are the
legal actions" and "apply this one"."""

from __future__ import annotations

from typing import Any, Self, cast

from .action import Action, parse_action
from .apply import apply_action
from .legal import legal_actions
from .state import State
from .view import view


class Game(State):
    """A game of Red November in progress. Use :meth:`legal_actions` and :meth:`apply`."""

    __slots__ = ()

    def _blank(self) -> Self:
        if type(self) is Game:  # compiled, a direct constructor call rather than type(self)(...)
            return cast(Self, Game(self.data, self.config, True))
        return super()._blank()

    def legal_actions(self) -> list[Action]:
        """Every legal action for :attr:`decider`, in a stable order."""
        return legal_actions(self)

    def apply(self, action: Action | object) -> None:
        """Apply a legal action; an illegal one (or not an Action) raises ActionError and changes
        nothing. (Typed ``object`` so that the compiled engine checks it, not mypyc's TypeError.)"""
        apply_action(self, action)

    def apply_text(self, text: str) -> Action:
        """Parse and apply an action given in its text form; returns the action."""
        action = parse_action(text, self.data)
        self.apply(action)
        return action

    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator), as a JSON-ready dict."""
        return view(self, player)
