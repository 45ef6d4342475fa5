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
- Strangers: anybody may take a seat and give anybody's address. A seat's address gets notices
  only once its owner said yes for that game through the link of a confirmation email
  (``/confirm/{secret}``, naming the game; its page also offers "never email this address"): a yes
  for one game lets no stranger's seat of another game email it. One address gets a
  confirmation email at most
  every :data:`ASK_EVERY` seconds and :data:`ASK_PER_DAY` a day, and at most :data:`PER_DAY`
  emails of any kind a day, however many games, seats and processes ask: each is counted in
  the database (``rn_address``) with a compare-and-set before it goes.
"""

from __future__ import annotations

import secrets
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..i18n import Catalog, catalog
from .store import address_table, games_table, mail_table, push_table

SMTP_TIMEOUT = 15.0  # seconds for the mail server to answer
DAY = 86400.0
PER_DAY = 30  # emails of every kind one address gets in 24 hours at most
ASK_EVERY = 600.0  # seconds between two confirmation emails to one address, at least
ASK_PER_DAY = 5  # confirmation emails one address gets in 24 hours at most (one per game asked)


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
                per_decision: int | None = None, misses: int = 0,
                missed: int = 0) -> EmailMessage:
        """The email telling ``player`` that their ``gnome`` must decide in ``game_id`` (at a
        turn-based table, ``per_decision``: its seconds per decision, and what happens then:
        after ``misses`` missed in a row the bot keeps the seat; ``missed``: how many the seat
        let pass in a row so far, told first when some did)."""
        cat, msg = self._headed(notice, "subject", game_id)
        # the body's paragraphs: who must decide, the deadlines already missed, the deadline (a
        # turn-based table), the link, how to open it on another device, why this email and how
        # to stop it
        deadline = (cat.get("mail", "deadline", time=duration(cat, per_decision), misses=misses)
                    if per_decision else None)
        late = cat.get("mail", "missed", missed=missed, misses=misses) \
            if per_decision and missed else None
        parts = [cat.get("mail", "body_wait", player=player, gnome=gnome, game=game_id),
                 late, deadline]
        msg.set_content("\n\n".join(p for p in parts + self._footer(cat, notice, game_id) if p))
        return msg

    def taken(self, notice: Notice, game_id: str, gnome: str, player: str,
              misses: int) -> EmailMessage:
        """The email telling ``player`` that a bot took their seat in ``game_id`` after
        ``misses`` deadlines missed in a row, and how to take it back."""
        cat, msg = self._headed(notice, "taken_subject", game_id)
        parts = [cat.get("mail", "taken_body", player=player, gnome=gnome, game=game_id,
                         misses=misses), cat.get("mail", "taken_back")]
        msg.set_content("\n\n".join(parts + self._footer(cat, notice, game_id)))
        return msg

    def _headed(self, notice: Notice, subject: str, game_id: str) -> tuple[Catalog, EmailMessage]:
        """A seat's notice email about ``game_id`` with its headers (``subject``: the key of its
        subject in ``mail``), in the seat's language."""
        if notice.email is None:
            raise ValueError("no address to email")
        cat = catalog(notice.lang)
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = notice.email
        msg["Subject"] = cat.get("mail", subject, game=game_id)
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid("rn", self.sender.rpartition("@")[2] or None)
        msg["List-Unsubscribe"] = f"<{self._stop(cat, notice)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        return cat, msg

    def _stop(self, cat: Catalog, notice: Notice) -> str:
        return f"{self.public_url}/unsubscribe/{notice.unsub}?lang={cat.code}"

    def _footer(self, cat: Catalog, notice: Notice, game_id: str) -> list[str]:
        """A notice's last paragraphs: the game's link, how to open it on another device, why
        this email and how to stop it."""
        return [cat.get("mail", "body_link", link=f"{self.public_url}/g/{game_id}"),
                cat.raw("mail", "device"), cat.get("mail", "body_why", stop=self._stop(cat, notice))]

    def confirmation(self, address: str, lang: str, secret: str, game_id: str) -> EmailMessage:
        """The email asking the owner of ``address`` whether it may get turn emails of
        ``game_id`` (the link's page answers yes or never)."""
        cat = catalog(lang)
        link = f"{self.public_url}/confirm/{secret}?lang={cat.code}"
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = address
        msg["Subject"] = cat.raw("mail", "confirm_subject")
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid("rn", self.sender.rpartition("@")[2] or None)
        parts = [cat.get("mail", "confirm_body", server=self.public_url),
                 cat.get("mail", "confirm_for", game=game_id),
                 cat.get("mail", "confirm_link", link=link), cat.raw("mail", "confirm_ignore")]
        msg.set_content("\n\n".join(parts))
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

def _consent(c: Connection, game_id: str, seat: int, email: str) -> tuple[str, bool]:
    """The secret of the game's confirmation link for ``email``, and whether its owner said yes:
    the seat's own if it gives the address again, else another seat's of the game that gives
    it (a hot-seat page: one email), else a new link not answered yet."""
    m = mail_table
    rows = c.execute(select(m.c.seat, m.c.confirm, m.c.confirmed).where(
        m.c.game_id == game_id, func.lower(m.c.email) == address_key(email),
        m.c.confirm.is_not(None))).all()
    mine = [r for r in rows if r.seat == seat] or sorted(rows, key=lambda r: not r.confirmed)
    return (str(mine[0].confirm), bool(mine[0].confirmed)) if mine \
        else (secrets.token_urlsafe(24), False)


def consented(engine: Engine, game_id: str, seat: int, email: str) -> bool:
    """Whether ``email``'s owner said yes to this game's emails already (no email is due)."""
    with engine.connect() as c:
        return _consent(c, game_id, seat, email)[1] and _state(c, email) != "never"


def subscribe(engine: Engine, game_id: str, seat: int, email: str | None,
              lang: str) -> tuple[str, bool] | None:
    """The seat's address (None: no emails), with a fresh unsubscribe secret (and a fresh wait:
    its pushes, if any, may go again): its confirmation link's secret and whether its owner said
    yes to this game (:func:`_consent`), None without an address."""
    with engine.begin() as c:
        consent = _consent(c, game_id, seat, email) if email else None
        c.execute(delete(mail_table).where(mail_table.c.game_id == game_id,
                                           mail_table.c.seat == seat))
        c.execute(insert(mail_table).values(
            game_id=game_id, seat=seat, email=email, lang=lang, unsub=secrets.token_urlsafe(24),
            sent=False, confirm=consent[0] if consent else None,
            confirmed=consent[1] if consent else False))
    return consent


def subscription(engine: Engine, game_id: str, seat: int) -> dict[str, Any]:
    """What the seat asked for: ``{"email": address or None, "lang": …, "address": whether its
    owner confirmed it for this game (None without an address), "confirmation": "failed" if the
    last confirmation email to it could not be sent (:func:`unask`), else None}``."""
    with engine.connect() as c:
        row = c.execute(select(mail_table.c.email, mail_table.c.lang,
                               mail_table.c.confirmed).where(
            mail_table.c.game_id == game_id, mail_table.c.seat == seat)).first()
        if row is None:
            return {"email": None, "lang": None, "address": None, "confirmation": None}
        known = _known(c, row.email) if row.email else None
    refused = known is not None and known.state == "never"
    state = None if not row.email else "refused" if refused else \
        "confirmed" if row.confirmed else "unconfirmed"
    failed = state == "unconfirmed" and known is not None and known.asked is None
    return {"email": row.email, "lang": row.lang, "address": state,
            "confirmation": "failed" if failed else None}


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
    """The notice to send for the seat's current wait, if it wants one (an email address its
    owner confirmed for this game and did not refuse since, or a push subscription, web/push.py)
    and no process has sent it yet (a compare-and-set of ``sent``: exactly one caller gets it, for
    emails and pushes alike)."""
    pushes = exists().where(push_table.c.game_id == game_id, push_table.c.seat == seat)
    refused = exists().where(address_table.c.email == func.lower(mail_table.c.email),
                             address_table.c.state == "never")
    where = (mail_table.c.game_id == game_id, mail_table.c.seat == seat,
             mail_table.c.sent.is_(False),
             or_(and_(mail_table.c.email.is_not(None), mail_table.c.confirmed.is_(True),
                      ~refused), pushes))
    with engine.begin() as c:
        if c.execute(update(mail_table).where(*where).values(sent=True)).rowcount != 1:
            return None
        return _seat_notice(c, game_id, seat)


def recipient(engine: Engine, game_id: str, seat: int) -> Notice | None:
    """Where a one-off notice of the seat goes (a bot took it: web/hub/deadline.py), without
    touching its turn notices' ``sent``: its address if its owner confirmed it for this game and
    did not refuse since, else None."""
    with engine.connect() as c:
        notice = _seat_notice(c, game_id, seat)
    return notice if notice is not None and notice.email is not None else None


def _seat_notice(c: Connection, game_id: str, seat: int) -> Notice | None:
    """The seat's notice (None: the seat asked for none): its address only if its owner
    confirmed it for this game and did not refuse since."""
    row = c.execute(select(mail_table.c.email, mail_table.c.lang, mail_table.c.unsub,
                           mail_table.c.confirmed).where(
        mail_table.c.game_id == game_id, mail_table.c.seat == seat)).first()
    if row is None:
        return None
    email = row.email if row.email and row.confirmed and _state(c, row.email) != "never" else None
    return Notice(email, row.lang, row.unsub)


# --- the addresses: confirmed by their owners game by game, and counted (database threads) -----

def address_key(address: str) -> str:
    """How ``rn_address`` knows an address: lower-cased (a limit must not grow with its case)."""
    return address.strip().lower()


def _known(c: Connection, address: str) -> Any:
    """The address's row (its state and when it was last asked), or None."""
    return c.execute(select(address_table.c.state, address_table.c.asked).where(
        address_table.c.email == address_key(address))).first()


def _state(c: Connection, address: str) -> str | None:
    row = _known(c, address)
    return None if row is None else str(row.state)


def address_state(engine: Engine, address: str) -> str | None:
    """``"yes"`` (its owner said yes for some game), ``"asked"`` (not yet), ``"never"`` (its
    owner refused every email), or None (never given)."""
    with engine.connect() as c:
        return _state(c, address)


def _day(row: Any, now: float) -> tuple[float, int, int]:
    """The address's counting window at ``now``: its start, the emails sent in it and how many
    of them were confirmation emails."""
    return (float(row.day), int(row.sent), int(row.asks)) if now - row.day < DAY else (now, 0, 0)


def ask(engine: Engine, address: str, lang: str, now: float) -> bool:
    """Whether a confirmation email may go to ``address`` now: not if it refused every email, or
    was asked less than :data:`ASK_EVERY` seconds ago or :data:`ASK_PER_DAY` times today (a
    compare-and-set: of several processes asking at once, one sends; it is counted)."""
    key = address_key(address)
    try:
        with engine.begin() as c:
            row = c.execute(select(address_table).where(address_table.c.email == key)).first()
            if row is None:
                c.execute(insert(address_table).values(
                    email=key, state="asked", secret=secrets.token_urlsafe(24), lang=lang,
                    asked=now, day=now, sent=1, asks=1))
                return True
            day, sent, asks = _day(row, now)  # (turn emails do not use up the confirmations)
            if row.state == "never" or asks >= ASK_PER_DAY or sent >= PER_DAY \
                    or (row.asked is not None and now - row.asked < ASK_EVERY):
                return False
            return c.execute(update(address_table).where(
                address_table.c.email == key, address_table.c.day == row.day,
                address_table.c.sent == row.sent).values(
                lang=lang, asked=now, day=day, sent=sent + 1, asks=asks + 1)).rowcount == 1
    except IntegrityError:  # another process gave the address at this moment: it sends
        return False


def unask(engine: Engine, address: str) -> None:
    """The confirmation email could not be sent: the next request may ask again at once (it
    still counts towards :data:`ASK_PER_DAY`)."""
    with engine.begin() as c:
        c.execute(update(address_table).where(address_table.c.email == address_key(address),
                                              address_table.c.state == "asked").values(asked=None))


def allow(engine: Engine, address: str, now: float) -> bool:
    """Counts one more email to the confirmed ``address`` today, if it may have one (fewer than
    :data:`PER_DAY` so far: a compare-and-set, tried again if another process counted too)."""
    key = address_key(address)
    for _ in range(5):
        with engine.begin() as c:
            row = c.execute(select(address_table).where(address_table.c.email == key)).first()
            if row is None or row.state != "yes":  # (a seat's yes said yes to the address)
                return False
            day, sent, asks = _day(row, now)
            if sent >= PER_DAY:
                return False
            if c.execute(update(address_table).where(
                    address_table.c.email == key, address_table.c.day == row.day,
                    address_table.c.sent == row.sent).values(day=day, sent=sent + 1,
                                                             asks=asks)).rowcount:
                return True
    return False


@dataclass(frozen=True)
class Link:
    """What a confirmation link is for: the address, the language of its page, the address's
    state (:func:`address_state`), and the games whose seats gave it (an address's own link
    from before migration 0011 that no seat holds: none)."""

    address: str
    lang: str
    state: str
    games: list[str]


def _link(c: Connection, secret: str) -> Link | None:
    m = mail_table
    seats = c.execute(select(m.c.game_id, m.c.email).where(
        m.c.confirm == secret, m.c.email.is_not(None)).order_by(m.c.game_id)).all()
    own = address_table.c.secret == secret
    if seats:
        own = address_table.c.email == address_key(seats[0].email)
    row = c.execute(select(address_table.c.email, address_table.c.lang,
                           address_table.c.state).where(own)).first()
    if row is None:
        return None
    games = sorted({str(s.game_id) for s in seats if address_key(s.email) == row.email})
    return Link(str(row.email), str(row.lang), str(row.state), games)


def confirming(engine: Engine, secret: str) -> Link | None:
    """What the confirmation link holding ``secret`` is for, or None."""
    with engine.connect() as c:
        return _link(c, secret)


def answer(engine: Engine, secret: str, yes: bool) -> Link | None:
    """The owner's answer through the link: yes lets the link's game(s) email the address;
    never stops every email to it, from every game, until its owner says yes through a link
    again. What the link is for, now, or None for an unknown link."""
    with engine.begin() as c:
        link = _link(c, secret)
        if link is None:
            return None
        if yes and link.games:
            c.execute(update(mail_table).where(
                mail_table.c.confirm == secret,
                func.lower(mail_table.c.email) == link.address).values(confirmed=True))
        c.execute(update(address_table).where(address_table.c.email == link.address).values(
            state="yes" if yes else "never"))
        return _link(c, secret)


def unconfirmed(engine: Engine, game_id: str, seat: int) -> tuple[str, str, str] | None:
    """The seat's (address, language, confirmation link's secret) while its owner has not said
    yes to this game nor refused every email (a seat that waits asks again: the confirmation
    email due was not sent when the address was given, or it was given before migration 0011
    with no link), else None."""
    m = mail_table
    with engine.begin() as c:
        row = c.execute(select(m.c.email, m.c.lang, m.c.confirm, m.c.confirmed).where(
            m.c.game_id == game_id, m.c.seat == seat)).first()
        if row is None or row.email is None or row.confirmed or _state(c, row.email) == "never":
            return None
        secret = row.confirm
        if secret is None:
            secret = _consent(c, game_id, seat, row.email)[0]
            c.execute(update(m).where(m.c.game_id == game_id, m.c.seat == seat).values(
                confirm=secret))
    return str(row.email), str(row.lang), str(secret)


SEATS_TOLD = 20  # a yes tells the waiting seats of at most this many games at once


def playing(engine: Engine, games: list[str]) -> list[str]:
    """Of ``games``, those being played, the latest moved first (at most :data:`SEATS_TOLD`: a
    yes tells their waiting seats at once; a game waiting for players or over has none)."""
    with engine.connect() as c:
        return [str(g) for g in c.execute(
            select(games_table.c.id).where(games_table.c.id.in_(games),
                                           games_table.c.status == "playing")
            .order_by(games_table.c.updated.desc()).limit(SEATS_TOLD)).scalars()]


def carry_over(engine: Engine, game_id: str, rematch: str, seats: list[int]) -> None:
    """The rematch's seats (``seats``: those its players hold again) keep the notices they
    asked for in ``game_id``: the email address (with a fresh unsubscribe secret) and the
    browsers' push subscriptions."""
    if not seats:
        return
    with engine.begin() as c:
        mails = c.execute(select(mail_table.c.seat, mail_table.c.email, mail_table.c.lang,
                                 mail_table.c.confirm, mail_table.c.confirmed).where(
            mail_table.c.game_id == game_id, mail_table.c.seat.in_(seats))).all()
        for m in mails:  # (the same players: their yes holds; a yes through the link, for both)
            c.execute(insert(mail_table).values(game_id=rematch, seat=m.seat, email=m.email,
                                                lang=m.lang, unsub=secrets.token_urlsafe(24),
                                                sent=False, confirm=m.confirm,
                                                confirmed=m.confirmed))
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


__all__ = ["ASK_EVERY", "ASK_PER_DAY", "DAY", "PER_DAY", "SEATS_TOLD", "Link", "MailError", "Mailer",
           "Notice", "address_key", "address_state", "allow", "answer", "ask", "carry_over",
           "claim", "confirming", "consented", "duration", "playing", "rearm", "recipient", "seat_of",
           "subscribe", "subscription", "unask", "unconfirmed", "unsubscribe"]
