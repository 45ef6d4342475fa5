"""Lines for a terminal that prints them as they are (``print``): a terminal cuts a long line at
its last column, mid-word, so the line commands (``learn``, ``analyse``) wrap theirs to its width
between words; on a pipe or in a file a line stays whole (its reader's viewer wraps it)."""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import TextIO

# A line's hanging indent: its leading spaces and list mark ("  12. ", "   · ", "-> ", ">> ",
# "  [40] "), under which its further lines go.
_HANG = re.compile(r"\s*(?:\d+\.|·|->|>>|\[\s*\d+\])?\s*")


def wrap(text: str, width: int | None) -> str:
    """``text`` with each line wrapped to ``width`` between words (None: as it is), a line's
    further lines under its text; trailing spaces are kept (a prompt's)."""
    if not width:
        return text
    out = []
    for line in text.split("\n"):
        body = line.rstrip(" ")
        if len(body) <= width:
            out.append(line)
            continue
        mark = _HANG.match(body)  # (it matches every line, if only its empty start)
        hang = " " * (mark.end() if mark else 0)
        out.append(textwrap.fill(body, width, subsequent_indent=hang, break_long_words=False,
                                 break_on_hyphens=False) + line[len(body):])
    return "\n".join(out)


def width_of(out: TextIO) -> int | None:
    """The width to wrap ``out``'s lines to: a terminal's; None on a pipe or in a file."""
    return shutil.get_terminal_size().columns if out.isatty() else None


__all__ = ["width_of", "wrap"]
