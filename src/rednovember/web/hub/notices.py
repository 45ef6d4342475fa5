"""When a seat's email notice goes out (issue 20 §3; the email itself: web/mail.py). On the game's
owner process, while the seat to move has no connection on any process (absence.unconnected, at
any pace) for :attr:`Notices.after` seconds, its notice is claimed in the database (exactly
once however many processes try) and sent. The seat's next wait is told again once its player has come
back or the turn has passed to another seat (``rearm``); a process that takes a game over rearms
every seat not waiting now, so a restart never leaves a seat silent."""

from __future__ import annotations

import asyncio
import logging
import smtplib

from ...i18n import catalog
from ..mail import Mailer, claim, rearm
from .absence import unconnected
from .live import LiveGame
from .runtime import Runtime, cancel_all

log = logging.getLogger("rednovember.web")

MAIL_AFTER = 60.0  # seconds the seat to move must be away before its email goes


class Notices:
    """One waiting task per game whose seat to move is away, on the game's owner."""

    def __init__(self, rt: Runtime, mailer: Mailer | None, after: float = MAIL_AFTER) -> None:
        self.rt = rt
        self.mailer = mailer
        self.after = after
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.told: dict[str, set[int]] = {}  # game -> seats whose current wait was told (here)
        self.sent = 0  # emails sent by this process

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        await cancel_all(tasks)

    def schedule(self, lg: LiveGame) -> None:
        """After a change of the game or of who is connected (as web/hub/away.py)."""
        if self.mailer is None or not self.rt.nodes.owns(lg.id) or self.rt.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a synchronous caller: no loop to wait on)
            return
        seat = unconnected(lg)
        told = self.told.get(lg.id)
        back = sorted(s for s in told or set() if s != seat) if told is not None else None
        if back is None:  # the first look at this game here: nothing it told is known
            self.told[lg.id] = set()
            back = [s for s in range(len(lg.seats)) if s != seat]
        if back:
            self.told[lg.id] -= set(back)
            self.rt.spawn(self.rt.db(rearm, self.rt.store.engine, lg.id, back))
        old = self.tasks.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if seat is not None and seat not in self.told[lg.id] and lg.status == "playing":
            self.tasks[lg.id] = loop.create_task(self._wait(lg, seat))

    async def _wait(self, lg: LiveGame, seat: int) -> None:
        await asyncio.sleep(self.after)
        if unconnected(lg) == seat:
            await asyncio.shield(self._tell(lg, seat))

    async def _tell(self, lg: LiveGame, seat: int) -> None:
        assert self.mailer is not None
        notice = await self.rt.db(claim, self.rt.store.engine, lg.id, seat)
        if notice is None:  # no address (yet), or told already (by this or another process)
            return
        self.told.setdefault(lg.id, set()).add(seat)
        cat = catalog(notice.lang)
        gnome = cat.raw("colours", lg.seats[seat].colours[0])
        msg = self.mailer.message(notice, lg.id, gnome, lg.seats[seat].name or gnome)
        try:
            await asyncio.to_thread(self.mailer.send, msg)
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("game %s: the email to seat %d failed: %s", lg.id, seat, exc)
            return
        self.sent += 1
        log.info("game %s: seat %d was told by email that it must decide", lg.id, seat)


__all__ = ["MAIL_AFTER", "Notices"]
