"""A file a command is given (a save to play, replay or analyse): its text, or the plain reason
it cannot be read, and the exit status of every command that cannot load its file."""

from __future__ import annotations

from pathlib import Path

LOAD_FAILED = 2  # play --load, replay and analyse given a file they cannot load: a bad command line


class Unreadable(Exception):
    """The file cannot be read; the message is the reason in plain words (no errno)."""


def read_text(path: str) -> str:
    """The file's text (UTF-8); :class:`Unreadable` when it is missing, unreadable or not text."""
    try:
        return Path(path).read_text("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("it is not a text file (not UTF-8)") from None
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc)) from None


__all__ = ["LOAD_FAILED", "Unreadable", "read_text"]
