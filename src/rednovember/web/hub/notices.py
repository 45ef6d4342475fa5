"""When a seat's notices go out (issue 20 §3; the email itself: web/mail.py, the pushes:
web/push.py). On the game's owner process, while the seat to move has no connection on any process
(absence.unconnected, at any pace) for :attr:`Notices.after` seconds, its notice is claimed in the
database (exactly once however many processes try) and sent: an email if the seat gave an address,
a push to each browser it subscribed (emails only to an address its owner confirmed, and only so
many a day: web/mail.py; an address not yet confirmed for this game is asked then, as often
as an address may be).
The seat's next wait is told again once its player has come back or the turn has passed to
another seat (``rearm``); a process that takes a game over rearms every seat not waiting now, so
a restart never leaves a seat silent."""

from __future__ import annotations

import asyncio
import logging
import smtplib
import time
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

from ...i18n import catalog
from ..mail import Mailer, Notice, allow, ask, claim, rearm, recipient, unask, unconfirmed
from ..push import Gone, Keys, Pusher, PushFailed, drop, payload, server_keys, taken_payload, targets
from .absence import unconnected
from .clock import HANDOVER_AFTER
from .live import LiveGame
from .runtime import Runtime, cancel_all

log = logging.getLogger("rednovember.web")

MAIL_AFTER = 60.0  # seconds the seat to move must be away before its notices go


class Notices:
    """One waiting task per game whose seat to move is away, on the game's owner."""

    def __init__(self, rt: Runtime, mailer: Mailer | None, after: float = MAIL_AFTER,
                 pusher: Pusher | None = None) -> None:
        self.rt = rt
        self.mailer = mailer
        self.pusher = pusher
        self._keys: Keys | None = None
        self.after = after
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.told: dict[str, set[int]] = {}  # game -> seats whose current wait was told (here)
        self.seen: dict[str, int] = {}  # game -> its actions at the last look (schedule)
        self.rearming: dict[str, asyncio.Task[Any]] = {}  # game -> its last rearm, until stored
        self.sent = 0  # emails sent by this process
        self.pushed = 0  # pushes taken by push services from this process

    async def keys(self) -> Keys:
        """The server's VAPID keys (made once in the database, web/push.py)."""
        if self._keys is None:
            self._keys = await self.rt.db(server_keys, self.rt.store.engine)
        return self._keys

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        await cancel_all(tasks)

    def schedule(self, lg: LiveGame) -> None:
        """After a change of the game or of who is connected (as web/hub/away.py)."""
        if (self.mailer is None and self.pusher is None) or not self.rt.nodes.owns(lg.id) \
                or self.rt.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a synchronous caller: no loop to wait on)
            return
        seat = unconnected(lg)
        told = self.told.get(lg.id)
        moved = self._moved(lg)
        # a told seat's wait is over once another seat decides or waits: a process that caught
        # up over several actions at once sees only the end, where the seat may wait again
        back = sorted(s for s in told if s != seat or moved - {s}) if told is not None else None
        if back is None:  # the first look at this game here: nothing it told is known
            self.told[lg.id] = set()
            back = [s for s in range(len(lg.seats)) if s != seat]
        if back:
            self.told[lg.id] -= set(back)
            self._rearm(lg.id, back)
        old = self.tasks.pop(lg.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if seat is not None and seat not in self.told[lg.id] and lg.status == "playing":
            self.tasks[lg.id] = loop.create_task(self._wait(lg, seat))

    async def asked(self, lg: LiveGame) -> None:
        """A seat of the game asked for notices (an address, its confirmation, a browser): its
        owner looks again, on whichever process that is (a ``mail`` notice, web/hub/follower.py)."""
        self.schedule(lg)
        if self.rt.nodes.shared and not self.rt.nodes.owns(lg.id):
            await self.rt.db(self.rt.store.notify, {"g": lg.id, "mail": 1})

    def _moved(self, lg: LiveGame) -> set[int]:
        """The seats that made an action since the game's last look (none after an undo)."""
        seen = self.seen.get(lg.id, len(lg.actors))
        self.seen[lg.id] = len(lg.actors)
        return set(lg.actors[seen:]) if seen <= len(lg.actors) else set()

    def _rearm(self, game_id: str, seats: list[int]) -> None:
        """Stores the seats' rearm in the background, after the game's earlier one."""
        before = self.rearming.get(game_id)

        async def work() -> None:
            if before is not None:
                await asyncio.wait([before])
            await self.rt.db(rearm, self.rt.store.engine, game_id, seats)

        task = self.rearming[game_id] = self.rt.spawn(work())
        task.add_done_callback(
            lambda t: self.rearming.pop(game_id) if self.rearming.get(game_id) is t else None)

    async def _wait(self, lg: LiveGame, seat: int) -> None:
        await asyncio.sleep(self.after)
        pending = self.rearming.get(lg.id)
        if pending is not None:  # a busy database may not have stored it yet: the claim needs it
            await asyncio.wait([pending])
        if unconnected(lg) == seat:
            await asyncio.shield(self._tell(lg, seat))

    async def ask_owner(self, address: str, lang: str, secret: str, game_id: str) -> bool | None:
        """Sends ``address`` the confirmation email of ``game_id`` (its link holds ``secret``)
        if it may have one now (web/mail.py: not refused, not asked a moment ago, not too
        often): whether it went, or None when none was due."""
        if self.mailer is None:
            return None
        if not await self.rt.db(ask, self.rt.store.engine, address, lang, time.time()):
            return None
        try:
            await asyncio.to_thread(self.mailer.send,
                                    self.mailer.confirmation(address, lang, secret, game_id))
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("the confirmation email to a seat's address failed: %s", exc)
            await self.rt.db(unask, self.rt.store.engine, address)  # the next Save tries again
            return False
        return True

    async def _tell(self, lg: LiveGame, seat: int) -> None:
        notice = await self.rt.db(claim, self.rt.store.engine, lg.id, seat)
        if notice is None:  # nobody to tell (yet), or told already (by this or another process)
            waiting = await self.rt.db(unconfirmed, self.rt.store.engine, lg.id, seat)
            if waiting is not None:  # no yes for this game yet: its owner may be asked now
                await self.ask_owner(*waiting, lg.id)
            return
        self.told.setdefault(lg.id, set()).add(seat)
        if self.mailer is not None and notice.email is not None:
            await self._email(lg, seat, notice)
        if self.pusher is not None:
            await self._push(lg, seat, lambda lang: payload(lang, lg.id,
                                                            *self._names(lg, seat, lang)))

    def _names(self, lg: LiveGame, seat: int, lang: str) -> tuple[str, str]:
        """The seat's gnome that must decide (in ``lang``; a seat of two gnomes has two) and its
        player's name."""
        g = lg.game
        d = g.decider
        colour = g.gnomes[d].colour if d >= 0 and g.gnomes[d].player == seat \
            else lg.seats[seat].colours[0]
        gnome = catalog(lang).raw("colours", colour)
        return gnome, lg.seats[seat].name or gnome

    async def _email(self, lg: LiveGame, seat: int, notice: Notice) -> None:
        assert self.mailer is not None and notice.email is not None
        if not await self.rt.db(allow, self.rt.store.engine, notice.email, time.time()):
            log.warning("game %s: seat %d's address had its emails for today", lg.id, seat)
            return
        per_decision = lg.settings.move_deadline if lg.settings.turn_based else None
        msg = self.mailer.message(notice, lg.id, *self._names(lg, seat, notice.lang),
                                  per_decision=per_decision, misses=HANDOVER_AFTER,
                                  missed=lg.misses.get(seat, 0))
        if await self._send(lg, seat, msg):
            log.info("game %s: seat %d was told by email that it must decide", lg.id, seat)

    async def taken(self, lg: LiveGame, seat: int) -> None:
        """Tells the seat (an email to an address its owner confirmed for this game, a push to
        each browser it subscribed) that a bot took it after :data:`HANDOVER_AFTER` deadlines
        missed in a row (web/hub/deadline.py, on the game's owner, once per hand-over), and how
        to take it back."""
        if self.mailer is not None:
            await self._taken_email(lg, seat)
        if self.pusher is not None:
            await self._push(lg, seat, lambda lang: taken_payload(
                lang, lg.id, *self._owner(lg, seat, lang), HANDOVER_AFTER), "a bot took it")

    def _owner(self, lg: LiveGame, seat: int, lang: str) -> tuple[str, str]:
        """The seat's gnome (in ``lang``) and the name of the player a bot took it from."""
        gnome = catalog(lang).raw("colours", lg.seats[seat].colours[0])
        return gnome, lg.owners.get(seat) or gnome  # (the seat bears the bot's name now)

    async def _taken_email(self, lg: LiveGame, seat: int) -> None:
        assert self.mailer is not None
        notice = await self.rt.db(recipient, self.rt.store.engine, lg.id, seat)
        if notice is None or notice.email is None:
            return
        if not await self.rt.db(allow, self.rt.store.engine, notice.email, time.time()):
            log.warning("game %s: seat %d's address had its emails for today", lg.id, seat)
            return
        msg = self.mailer.taken(notice, lg.id, *self._owner(lg, seat, notice.lang),
                                HANDOVER_AFTER)
        if await self._send(lg, seat, msg):
            log.info("game %s: seat %d was told by email that a bot took it", lg.id, seat)

    async def _send(self, lg: LiveGame, seat: int, msg: EmailMessage) -> bool:
        assert self.mailer is not None
        try:
            await asyncio.to_thread(self.mailer.send, msg)
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("game %s: the email to seat %d failed: %s", lg.id, seat, exc)
            return False
        self.sent += 1
        return True

    async def _push(self, lg: LiveGame, seat: int, data_in: Callable[[str], str],
                    told: str = "it must decide") -> None:
        """Pushes to each browser the seat subscribed what ``data_in`` (its language) says."""
        assert self.pusher is not None
        keys = await self.keys()
        for target in await self.rt.db(targets, self.rt.store.engine, lg.id, seat):
            try:
                await asyncio.to_thread(self.pusher.send, keys, target, data_in(target.lang))
            except Gone:
                await self.rt.db(drop, self.rt.store.engine, target.endpoint)
                log.info("game %s: seat %d's push service forgot a subscription: dropped",
                         lg.id, seat)
                continue
            except PushFailed as exc:
                log.warning("game %s: a push to seat %d failed: %s", lg.id, seat, exc)
                continue
            self.pushed += 1
            log.info("game %s: seat %d was told by a push that %s", lg.id, seat, told)

__all__ = ["MAIL_AFTER", "Notices"]
