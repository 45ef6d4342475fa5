"""How the store writes "the server, for a seat": ``-1 - seat``.

A chat row (a timeout note, an absent player's, a hand-over to a bot) and an action log entry (a
bot's, the turn timer's or a deadline's move) name the seat they were for; when the server, not
the seat's player, wrote or made them, they carry ``-1 - seat``, which no player's seat can be.
"""

from __future__ import annotations


def server_for(seat: int) -> int:
    """The code of the server writing or acting for ``seat``."""
    return -1 - seat


def seat_from(code: int) -> int:
    """The seat a code was written for, by its player or by the server."""
    return code if code >= 0 else -1 - code


def by_server(code: int) -> bool:
    """Whether the server, not the seat's player, wrote or made it."""
    return code < 0


__all__ = ["by_server", "seat_from", "server_for"]
