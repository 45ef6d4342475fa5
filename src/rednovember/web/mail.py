"""Email notices (issue 20 §3; docs/protocol.md §3.10): a seat that opted in gets one email when it
must decide while its player has no connection open, and none while connected.

- ``rednovember serve --smtp smtp://HOST:PORT --mail-from ADDRESS --public-url URL`` turns them
  on (``smtps://`` for TLS from the start; ``user:password@`` before the host to log in). Python's
  own :mod:`smtplib` sends them, in a thread.
- A seat opts in or out with its own token (``POST /api/games/{id}/seats/{seat}/notify``,
  web/mail_api.py). Every email has a link to stop them (``/unsubscribe/{secret}``: a page whose
  button stops them; ``List-Unsubscribe`` with one-click POST, RFC 8058, for mail programs). The
  secret only stops this seat's emails; no seat token is ever in an email.
- Exactly once on several processes: the ``sent`` flag of the seat's row is set with a
  compare-and-set before sending (web/hub/notices.py decides when).
"""

from __future__ import annotations

import secrets
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import delete, exists, insert, or_, select, update
from sqlalchemy.engine import Engine

from ..i18n import Catalog, catalog
from .store import mail_table, push_table

SMTP_TIMEOUT = 15.0  # seconds for the mail server to answer


@dataclass(frozen=True)
class Notice:
    """What one notice needs: where to email (None: no email, pushes only), in which language,
    and the seat's unsubscribe secret."""

    email: str | None
    lang: str
    unsub: str


class MailError(ValueError):
    """A bad ``--smtp`` URL."""


@dataclass(frozen=True)
class Mailer:
    """The mail server to send through, the sender, and the server's public address."""

    host: str
    port: int
    sender: str
    public_url: str
    tls: bool = False
    user: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str, sender: str, public_url: str) -> Mailer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise MailError(f"--smtp must look like smtp://HOST:PORT, not {url!r}")
        tls = parts.scheme == "smtps"
        try:
            port = parts.port or (465 if tls else 25)
        except ValueError:
            raise MailError(f"--smtp has a bad port: {url!r}") from None
        if "@" not in sender:
            raise MailError(f"--mail-from must be an email address, not {sender!r}")
        if urlsplit(public_url).scheme not in ("http", "https"):
            raise MailError("--public-url must be the server's address, e.g. https://rn.example")
        return cls(parts.hostname, port, sender, public_url.rstrip("/"), tls,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)

    def message(self, notice: Notice, game_id: str, gnome: str, player: str,
                per_decision: int | None = None, misses: int = 0) -> EmailMessage:
        """The email telling ``player`` that their ``gnome`` must decide in ``game_id`` (at a
        turn-based table, ``per_decision``: its seconds per decision, and what happens then:
        after ``misses`` missed in a row the bot keeps the seat)."""
        if notice.email is None:
            raise ValueError("no address to email")
        cat = catalog(notice.lang)
        stop = f"{self.public_url}/unsubscribe/{notice.unsub}?lang={cat.code}"
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = notice.email
        msg["Subject"] = cat.get("mail", "subject", game=game_id)
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid("rn", self.sender.rpartition("@")[2] or None)
        msg["List-Unsubscribe"] = f"<{stop}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        # the body's paragraphs: who must decide, the deadline (a turn-based table), the link,
        # how to open it on another device, why this email and how to stop it
        deadline = (cat.get("mail", "deadline", time=duration(cat, per_decision), misses=misses)
                    if per_decision else None)
        parts = [cat.get("mail", "body_wait", player=player, gnome=gnome, game=game_id),
                 deadline, cat.get("mail", "body_link", link=f"{self.public_url}/g/{game_id}"),
                 cat.raw("mail", "device"), cat.get("mail", "body_why", stop=stop)]
        msg.set_content("\n\n".join(p for p in parts if p))
        return msg

    def send(self, msg: EmailMessage) -> None:
        """Sends one email (blocking: run it in a thread); OSError/SMTPException on failure."""
        smtp_class = smtplib.SMTP_SSL if self.tls else smtplib.SMTP
        with smtp_class(self.host, self.port, timeout=SMTP_TIMEOUT) as smtp:
            if self.user is not None:
                smtp.login(self.user, self.password or "")
            smtp.send_message(msg)


def duration(cat: Catalog, seconds: int) -> str:
    """A table's time per decision as the lobby words it: days, else hours."""
    if seconds % 86400 == 0:
        return cat.get("web_lobby", "days", n=seconds // 86400)
    return cat.get("web_lobby", "hours", n=round(seconds / 3600))


# --- the database (run in the hub's database threads) ---------------------------------------------

def subscribe(engine: Engine, game_id: str, seat: int, email: str | None, lang: str) -> None:
    """The seat's address (None: no emails), with a fresh unsubscribe secret (and a fresh wait:
    its pushes, if any, may go again)."""
    with engine.begin() as c:
        c.execute(delete(mail_table).where(mail_table.c.game_id == game_id,
                                           mail_table.c.seat == seat))
        c.execute(insert(mail_table).values(game_id=game_id, seat=seat, email=email, lang=lang,
                                            unsub=secrets.token_urlsafe(24), sent=False))


def subscription(engine: Engine, game_id: str, seat: int) -> dict[str, Any]:
    """What the seat asked for: ``{"email": address or None, "lang": …}``."""
    with engine.connect() as c:
        row = c.execute(select(mail_table.c.email, mail_table.c.lang).where(
            mail_table.c.game_id == game_id, mail_table.c.seat == seat)).first()
    return {"email": None, "lang": None} if row is None else {"email": row.email,
                                                               "lang": row.lang}


def seat_of(engine: Engine, secret: str) -> tuple[str, str] | None:
    """The (game, language) of the seat whose unsubscribe link holds ``secret``, or None."""
    with engine.connect() as c:
        row = c.execute(select(mail_table.c.game_id, mail_table.c.lang).where(
            mail_table.c.unsub == secret)).first()
    return None if row is None else (str(row.game_id), str(row.lang))


def unsubscribe(engine: Engine, secret: str) -> tuple[str, str] | None:
    """Stops the emails of the seat whose link holds ``secret``: its (game, language), or None."""
    with engine.begin() as c:
        row = c.execute(select(mail_table.c.game_id, mail_table.c.lang).where(
            mail_table.c.unsub == secret)).first()
        if row is None:
            return None
        c.execute(update(mail_table).where(mail_table.c.unsub == secret).values(email=None))
    return str(row.game_id), str(row.lang)


def claim(engine: Engine, game_id: str, seat: int) -> Notice | None:
    """The notice to send for the seat's current wait, if it wants one (an email address or a
    push subscription, web/push.py) and no process has sent it yet (a compare-and-set of
    ``sent``: exactly one caller gets it, for emails and pushes alike)."""
    pushes = exists().where(push_table.c.game_id == game_id, push_table.c.seat == seat)
    where = (mail_table.c.game_id == game_id, mail_table.c.seat == seat,
             mail_table.c.sent.is_(False), or_(mail_table.c.email.is_not(None), pushes))
    with engine.begin() as c:
        if c.execute(update(mail_table).where(*where).values(sent=True)).rowcount != 1:
            return None
        row = c.execute(select(mail_table.c.email, mail_table.c.lang, mail_table.c.unsub).where(
            mail_table.c.game_id == game_id, mail_table.c.seat == seat)).one()
    return Notice(row.email, row.lang, row.unsub)


def carry_over(engine: Engine, game_id: str, rematch: str, seats: list[int]) -> None:
    """The rematch's seats (``seats``: those its players hold again) keep the notices they
    asked for in ``game_id``: the email address (with a fresh unsubscribe secret) and the
    browsers' push subscriptions."""
    if not seats:
        return
    with engine.begin() as c:
        mails = c.execute(select(mail_table.c.seat, mail_table.c.email, mail_table.c.lang).where(
            mail_table.c.game_id == game_id, mail_table.c.seat.in_(seats))).all()
        for m in mails:
            c.execute(insert(mail_table).values(game_id=rematch, seat=m.seat, email=m.email,
                                                lang=m.lang, unsub=secrets.token_urlsafe(24),
                                                sent=False))
        pushes = c.execute(select(push_table).where(push_table.c.game_id == game_id,
                                                    push_table.c.seat.in_(seats))).all()
        for p in pushes:
            c.execute(insert(push_table).values({**p._asdict(), "game_id": rematch}))


def rearm(engine: Engine, game_id: str, seats: list[int]) -> None:
    """The seats' next wait gets an email again (their player came back, or it is not their
    turn any more)."""
    if seats:
        with engine.begin() as c:
            c.execute(update(mail_table).where(mail_table.c.game_id == game_id,
                                               mail_table.c.seat.in_(seats),
                                               mail_table.c.sent.is_(True)).values(sent=False))


__all__ = ["MailError", "Mailer", "Notice", "carry_over", "claim", "duration", "rearm", "seat_of",
           "subscribe", "subscription", "unsubscribe"]
