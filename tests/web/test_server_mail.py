"""Issue 20 §3, email notices (web/mail.py, web/hub/notices.py, web/mail_api.py), against a real
SMTP server (aiosmtpd) and real ``rednovember serve`` processes: a seat opts in with its own token;
one email when it must decide while its player is away, none while connected, again after the
player came back and left; no token in any email; the unsubscribe link stops them; on two
processes over one PostgreSQL every notice goes exactly once."""

from __future__ import annotations

import email
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from pgcluster import cluster, database_url
from webtools import Server, WsClient, auth, get_until, new_game, take

AFTER = 0.3  # --mail-after of the test servers: seconds the seat to move is away before its email
QUIET = 2.5  # seconds in which no further email may come (many times AFTER)
PUBLIC = "https://rn.example"
ROOT = Path(__file__).resolve().parents[2]


class Inbox:
    """The aiosmtpd handler: every message the SMTP server accepted, parsed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, timeout: float = 20.0) -> list[Message]:
        end = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < end, f"{len(self.messages)} emails, not {count}"
            time.sleep(0.05)
        return self.messages

    def stays(self, count: int) -> None:
        """No email beyond ``count`` comes within :data:`QUIET` seconds."""
        time.sleep(QUIET)
        assert len(self.messages) == count, [m["Subject"] for m in self.messages]


def mail_flags(inbox: Inbox) -> list[str]:
    return ["--smtp", inbox.url, "--mail-from", "crew@rn.example",  # type: ignore[attr-defined]
            "--public-url", PUBLIC, "--mail-after", str(AFTER)]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*extra: str, db_url: str | None = None, limits: bool = False) -> Server:
        s = Server(tmp_path / f"mail{len(started)}.db", extra=list(extra), db_url=db_url,
                   limits=limits).start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def play_until(api: httpx.Client, gid: str, tokens: list[str], seat: int) -> None:
    """The seats to move act (No action, then End the turn, where they can) until ``seat`` must
    decide."""
    for _ in range(200):
        to_move = int(api.get(f"/api/games/{gid}").json()["to_move"])
        if to_move == seat:
            return
        legal = api.get(f"/api/games/{gid}/legal", headers=auth(tokens[to_move])).json()
        texts = [a["text"] for a in legal["actions"]]
        action = next((t for t in ("end", "no_action") if t in texts), texts[0])
        r = api.post(f"/api/games/{gid}/act", json={"action": action},
                     headers=auth(tokens[to_move]))
        assert r.status_code == 200, r.text
    raise AssertionError(f"seat {seat} never had to decide")


def two_seats(api: httpx.Client) -> tuple[str, list[str]]:
    gid, _ = new_game(api, 2, seed=3)
    return gid, [take(api, gid, 0, "Ann"), take(api, gid, 1, "Bea")]


def opt_in(api: httpx.Client, gid: str, seat: int, token: str, lang: str = "en",
           inbox: Inbox | None = None) -> None:
    """The seat gives its address (``seat{seat}@example.org``); with ``inbox``, its owner
    confirms it through the confirmation email (taken out of the inbox)."""
    r = api.post(f"/api/games/{gid}/seats/{seat}/notify",
                 json={"email": f"seat{seat}@example.org", "lang": lang}, headers=auth(token))
    assert r.status_code == 200, r.text
    if inbox is not None:
        confirm(api, inbox, f"seat{seat}@example.org")


def text(msg: Message) -> str:
    return str(msg.get_payload(decode=True).decode())


def confirmation(inbox: Inbox, address: str) -> Message:
    """The confirmation email ``address`` got, taken out of the inbox."""
    end = time.monotonic() + 20
    while True:
        mine = [m for m in inbox.messages if m["To"] == address and "/confirm/" in text(m)]
        if mine:
            inbox.messages.remove(mine[0])
            return mine[0]
        assert time.monotonic() < end, f"no confirmation email to {address}"
        time.sleep(0.05)


def confirm_link(msg: Message) -> str:
    """The path of the confirmation email's link (with its ``?lang=``)."""
    found = re.search(rf"{re.escape(PUBLIC)}(/confirm/[\w-]+\?lang=\w+)", text(msg))
    assert found, text(msg)
    return found.group(1)


def confirm(api: httpx.Client, inbox: Inbox, address: str, answer: str = "yes") -> str:
    """The owner of ``address`` answers its confirmation email: the link's path."""
    link = confirm_link(confirmation(inbox, address))
    r = api.post(f"{link.partition('?')[0]}?answer={answer}")
    assert r.status_code == 200 and address.lower() in r.text, r.text
    return link


def test_one_email_when_the_absent_seat_must_decide_none_while_connected(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        opt_in(api, gid, 1, tokens[1], "de", inbox)
        assert api.get(f"/api/games/{gid}/seats/1/notify", headers=auth(tokens[1])).json() == {
            "game": gid, "seat": 1, "mail": True, "email": "seat1@example.org", "lang": "de",
            "address": "confirmed", "confirmation": None}
        play_until(api, gid, tokens, 1)  # Bea has never connected: she is away
        [msg] = inbox.wait(1)
        assert msg["To"] == "seat1@example.org" and msg["From"] == "crew@rn.example"
        assert msg["Subject"] == f"Roter November: Du bist am Zug in Spiel {gid}"
        body = msg.get_payload(decode=True).decode()
        assert f"{PUBLIC}/g/{gid}" in body and "Bea" in body
        assert not any(t in msg.as_string() for t in tokens)  # no seat token in any email
        stop = "".join(msg["List-Unsubscribe"].split()).strip("<>")  # (a long header is folded)
        assert stop.startswith(f"{PUBLIC}/unsubscribe/")
        assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert msg["Date"] and msg["Message-ID"]  # RFC 5322's, which spam filters look for
        assert stop.endswith("?lang=de")  # the page speaks the seat's language
        assert "Platz-Link" in body  # how to play it on another device (no token in the link)
        assert "Entscheidung" not in body  # a real-time table has no deadline to tell
        inbox.stays(1)  # one email for the whole wait
        with WsClient(server.url, gid, [tokens[1]]):  # Bea is here: her turns send nothing
            play_until(api, gid, tokens, 0)
            play_until(api, gid, tokens, 1)
            inbox.stays(1)
            play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)  # she left: her next wait is told again
        assert len(inbox.wait(2)) == 2
        # the link: a page (a mail program's preview stops nothing), its button stops them
        path = stop.removeprefix(PUBLIC)
        page = api.get(path)
        assert page.status_code == 200 and "unsubscribe-confirm" in page.text
        assert "lang='de'" in page.text and f"Spiel {gid}" in page.text  # which game it stops
        assert "lang='de'" in api.get(path.partition("?")[0]).text  # the seat's language
        unknown = api.get(f"/unsubscribe/{'x' * 32}")
        assert unknown.status_code == 200 and "unsubscribe-confirm" not in unknown.text
        assert "no longer valid" in unknown.text
        done = api.post(path)
        assert done.status_code == 200 and gid in done.text
        assert api.get(f"/api/games/{gid}/seats/1/notify",
                       headers=auth(tokens[1])).json()["email"] is None
        play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)
        inbox.stays(2)


def test_an_address_gets_notices_only_once_its_owner_confirmed_it(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """A stranger may give anybody's address: it gets one confirmation email, in the seat's
    language and naming the game, and notices only once its owner said yes through its link (a
    page: a mail program's preview answers nothing). A seat waiting then is told at once. The
    yes holds for that game only: a seat of another game that gives the address is unconfirmed
    until its owner says yes for that game too."""
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        path = f"/api/games/{gid}/seats/1/notify"
        r = api.post(path, json={"email": "seat1@example.org", "lang": "de"},
                     headers=auth(tokens[1]))
        assert r.json() == {"game": gid, "seat": 1, "email": "seat1@example.org", "lang": "de",
                            "address": "unconfirmed", "confirmation": "sent"}
        [asked] = inbox.wait(1)
        assert asked["To"] == "seat1@example.org" and asked["From"] == "crew@rn.example"
        subject = str(make_header(decode_header(asked["Subject"])))
        assert subject == "Roter November: Bestätige deine Adresse für Zug-E-Mails"
        assert PUBLIC in text(asked) and not any(t in asked.as_string() for t in tokens)
        assert f"Es geht um die Partie {gid}:" in text(asked)
        play_until(api, gid, tokens, 1)  # Bea is away, her address unconfirmed: no notice
        inbox.stays(1)
        link = confirm_link(asked)
        page = api.get(link)
        assert page.status_code == 200 and "lang='de'" in page.text
        assert "seat1@example.org" in page.text and f"Partie {gid}:" in page.text
        assert "confirm-yes" in page.text and "confirm-never" in page.text
        assert api.get(path, headers=auth(tokens[1])).json()["address"] == "unconfirmed"
        again = api.post(path, json={"email": "seat1@example.org", "lang": "de"},
                         headers=auth(tokens[1]))
        assert again.json()["confirmation"] is None  # asked a moment ago: no second email
        yes = api.post(f"{link.partition('?')[0]}?answer=yes")
        assert yes.status_code == 200 and "seat1@example.org" in yes.text
        assert f"href='../g/{gid}'" in yes.text  # the game it said yes to, to open
        assert api.get(path, headers=auth(tokens[1])).json()["address"] == "confirmed"
        notice = inbox.wait(2)[1]  # she is still waiting: told now
        assert notice["Subject"] == f"Roter November: Du bist am Zug in Spiel {gid}"
        other, _ = new_game(api, 2, seed=4)  # another game needs its own yes
        bea = take(api, other, 1, "Bea")
        opened = take(api, other, 0, "Cyd")
        r = api.post(f"/api/games/{other}/seats/1/notify", json={"email": "Seat1@Example.org"},
                     headers=auth(bea))
        assert r.json()["address"] == "unconfirmed" and r.json()["confirmation"] is None
        play_until(api, other, [opened, bea], 1)  # she waits there: no turn email
        inbox.stays(2)  # (nor a confirmation email: one went to the address a moment ago)
        assert api.post(f"{link.partition('?')[0]}?answer=maybe").status_code == 422
        unknown = api.get(f"/confirm/{'x' * 32}")
        assert unknown.status_code == 200 and "confirm-yes" not in unknown.text
        # a confirm link says it confirms nothing (it said "stops nothing", the unsubscribe
        # text); a link cut short in a mail program is a page too, not a JSON error
        assert "This link confirms nothing" in unknown.text
        for cut in (f"/confirm/{'x' * 8}", f"/confirm/{'x' * 8}?answer=yes"):
            page = api.get(cut) if "answer" not in cut else api.post(cut)
            assert page.status_code == 404 and "This link confirms nothing" in page.text, cut
            assert page.headers["content-type"].startswith("text/html")
        short = api.get("/unsubscribe/abc")
        assert short.status_code == 404 and "This link stops nothing" in short.text


def test_an_address_given_before_confirmations_is_asked_when_its_seat_waits(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """A seat gave its address before addresses were confirmed (migration 0010: it has no
    ``rn_address`` row): when the seat next waits, the address gets its confirmation email
    instead of silence, and its notices once its owner said yes."""
    from sqlalchemy import create_engine, update

    from rednovember.web.mail import subscribe
    from rednovember.web.store import mail_table

    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        engine = create_engine(server.db_url)
        subscribe(engine, gid, 1, "Old@example.org", "en")  # as an older server stored it:
        with engine.begin() as c:  # no link (migration 0011 gives none without rn_address)
            c.execute(update(mail_table).values(confirm=None))
        engine.dispose()
        play_until(api, gid, tokens, 1)
        confirm(api, inbox, "Old@example.org")
        [notice] = inbox.wait(1)
        assert notice["To"] == "Old@example.org"
        assert notice["Subject"] == f"Red November: your turn in game {gid}"
        inbox.stays(1)


def test_an_address_given_by_strangers_in_many_games_gets_one_email_and_can_refuse_all(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """However many seats give one address (in any case of its letters), it gets one
    confirmation email a while; "never" through its link stops everything, for every seat,
    until its owner says yes through a link again; that yes is for its own game only."""
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        games = [two_seats(api) for _ in range(4)]
        for n, (gid, tokens) in enumerate(games):
            address = "victim@example.org" if n % 2 else "Victim@EXAMPLE.org"
            r = api.post(f"/api/games/{gid}/seats/1/notify", json={"email": address},
                         headers=auth(tokens[1]))
            assert r.status_code == 200 and r.json()["address"] == "unconfirmed", r.text
        inbox.wait(1)
        inbox.stays(1)
        link = confirm(api, inbox, "Victim@EXAMPLE.org", "never")
        gid, tokens = games[0]
        assert api.get(f"/api/games/{gid}/seats/1/notify",
                       headers=auth(tokens[1])).json()["address"] == "refused"
        r = api.post(f"/api/games/{gid}/seats/1/notify", json={"email": "victim@example.org"},
                     headers=auth(tokens[1]))
        assert r.json()["address"] == "refused"
        for gid, tokens in games:
            play_until(api, gid, tokens, 1)
        inbox.stays(0)
        assert "confirm-yes" in api.get(link).text  # its owner may still change their mind
        api.post(f"{link.partition('?')[0]}?answer=yes")
        [told] = inbox.wait(1)  # the seat waiting in the link's game is told now, no other
        assert told["Subject"] == f"Red November: your turn in game {games[0][0]}"
        inbox.stays(1)
        for gid, tokens in games[1:]:
            assert api.get(f"/api/games/{gid}/seats/1/notify",
                           headers=auth(tokens[1])).json()["address"] == "unconfirmed"


def test_one_yes_confirms_every_seat_of_its_game_that_gave_the_address(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """A hot-seat page gives one address for each seat it holds: one confirmation email, whose
    yes confirms them all; a seat that gives the address again later needs no new yes."""
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        for seat in (0, 1):
            r = api.post(f"/api/games/{gid}/seats/{seat}/notify",
                         json={"email": "Both@example.org"}, headers=auth(tokens[seat]))
            assert r.json()["address"] == "unconfirmed", r.text
        confirm(api, inbox, "Both@example.org")
        [first] = inbox.wait(1)  # the seat to move (Ann's, seed 3) is told at once
        assert first["To"] == "Both@example.org" and gid in first["Subject"]
        for seat in (0, 1):
            got = api.get(f"/api/games/{gid}/seats/{seat}/notify", headers=auth(tokens[seat]))
            assert got.json()["address"] == "confirmed"
        r = api.post(f"/api/games/{gid}/seats/1/notify", json={"email": "both@example.org",
                                                                "lang": "fr"},
                     headers=auth(tokens[1]))
        assert r.json()["address"] == "confirmed" and r.json()["confirmation"] is None
        play_until(api, gid, tokens, 1)
        told = inbox.wait(2)[1]
        assert told["To"] == "both@example.org" and gid in told["Subject"]
        inbox.stays(2)


def test_a_turn_based_table_tells_the_deadline_and_its_rematch_keeps_the_notices(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """At a turn-based table the email says how long a decision may take and what happens
    then; a rematch keeps each seat's opt-in (with a new unsubscribe link)."""
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, creator = new_game(api, 2, seed=3, pace="turn-based", move_deadline=2 * 86400)
        tokens = [take(api, gid, 0, "Ann"), take(api, gid, 1, "Bea")]
        opt_in(api, gid, 1, tokens[1], inbox=inbox)
        play_until(api, gid, tokens, 1)
        [msg] = inbox.wait(1)
        body = msg.get_payload(decode=True).decode()
        assert "This table gives each decision 2 days." in body
        assert "after 3 in a row the bot keeps your seat" in body
        # its paragraphs in order: who must decide, the deadline, the link, another device, why
        paragraphs = body.replace("\r\n", "\n").strip().split("\n\n")
        assert [p.split(" ")[0] for p in paragraphs] == ["Bea1,", "This", "Open", "Open", "You"]
        assert f"/g/{gid}" in paragraphs[2] and "/unsubscribe/" in paragraphs[4]
        for seat in (0, 1):
            api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers=auth(tokens[seat]))
        get_until(api, f"/api/games/{gid}", lambda r: r.json()["status"] == "over")
        with WsClient(server.url, gid, (), creator) as ws:
            nxt = ws.request({"type": "rematch"})["next"]
        assert api.get(f"/api/games/{nxt}/seats/1/notify", headers=auth(tokens[1])).json()[
            "email"] == "seat1@example.org"
        assert api.get(f"/api/games/{nxt}/seats/0/notify", headers=auth(tokens[0])).json()[
            "email"] is None
        play_until(api, nxt, tokens, 1)  # Bea is away in the rematch too: she is told
        later = inbox.wait(2)[1]
        assert later["Subject"].endswith(nxt)
        assert later["List-Unsubscribe"] != msg["List-Unsubscribe"]


def test_only_the_seats_own_token_sets_its_address_and_bad_input_is_refused(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        path = f"/api/games/{gid}/seats/1/notify"
        good = {"email": "bea@example.org"}
        assert api.post(path, json=good).status_code == 401
        assert api.post(path, json=good, headers=auth(tokens[0])).status_code == 401
        assert api.get(path, headers=auth(tokens[0])).status_code == 401
        for bad in ({"email": "no-at-sign"}, {"email": "a@b"}, {"email": "x@y.z", "lang": "xx"},
                    {"email": "x@y.z", "cc": "z@y.z"}, {}, {"email": "a b@c.de"},
                    # the same mailbox spelt otherwise would get round its owner's "never" and
                    # its caps, which count the address (browser audit, stop 55)
                    {"email": "<bea@example.org>"}, {"email": "bea@[127.0.0.1]"},
                    {"email": "bea@127.0.0.1"}, {"email": "\"bea\"@example.org"},
                    {"email": "bea@example.org."}, {"email": "bea@example.org,x@y.org"}):
            assert api.post(path, json=bad, headers=auth(tokens[1])).status_code == 422, bad
        assert api.post(f"/api/games/{gid}/seats/7/notify", json=good,
                        headers=auth(tokens[1])).status_code == 404
        assert api.post("/unsubscribe/" + "x" * 32).status_code == 200  # unknown: says so
        assert api.get("/unsubscribe/bad!").status_code in (404, 422)
        assert inbox.messages == []


def test_a_server_without_smtp_says_it_sends_none(servers: Callable[..., Server]) -> None:
    server = servers()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        r = api.post(f"/api/games/{gid}/seats/0/notify", json={"email": "ann@example.org"},
                     headers=auth(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_mail"


@pytest.mark.parametrize("flags", [["--smtp", "smtp://127.0.0.1:1"],
                                   ["--smtp", "http://x", "--mail-from", "a@b.c",
                                    "--public-url", PUBLIC],
                                   ["--smtp", "smtp://h:1", "--mail-from", "nobody",
                                    "--public-url", PUBLIC]])
def test_mail_flags_that_cannot_work_stop_the_server_with_one_line(flags: list[str],
                                                                   tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "rednovember.cli", "serve", "--port", "0",
                          "--db", f"sqlite:///{tmp_path / 'x.db'}", *flags],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert run.returncode == 2 and run.stderr.startswith("error: --"), run.stderr


def two_processes(inbox: Inbox, servers: Callable[..., Server]) -> tuple[Server, Server]:
    """Two server processes on one fresh PostgreSQL database, sending to ``inbox``."""
    url = cluster().database(f"mail_{uuid.uuid4().hex[:12]}")
    return servers(*mail_flags(inbox), db_url=url), servers(*mail_flags(inbox), db_url=url)


def test_a_client_gives_so_many_unconfirmed_addresses_an_hour_on_every_process(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """Each new address may cost a stranger a confirmation email: one client gives at most
    --limit-addresses-per-hour of them, whichever process it asks (then 429 ``rate_limited``,
    and the seat keeps its address); a confirmed address never counts."""
    url = cluster().database(f"mail_{uuid.uuid4().hex[:12]}")
    flags = [*mail_flags(inbox), "--limit-addresses-per-hour", "2",
             "--limit-seats-per-minute", "0", "--limit-games-per-minute", "0"]
    a, b = (servers(*flags, db_url=url, limits=True) for _ in range(2))
    with httpx.Client(base_url=a.url, timeout=10) as api_a, \
            httpx.Client(base_url=b.url, timeout=10) as api_b:
        gid, tokens = two_seats(api_a)
        path = f"/api/games/{gid}/seats/1/notify"
        for api, n in ((api_a, 1), (api_b, 2)):
            r = api.post(path, json={"email": f"stranger{n}@example.org"}, headers=auth(tokens[1]))
            assert r.status_code == 200, r.text
        r = api_a.post(path, json={"email": "stranger3@example.org"}, headers=auth(tokens[1]))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        assert int(r.headers["Retry-After"]) > 0
        assert api_b.get(path, headers=auth(tokens[1])).json()["email"] == "stranger2@example.org"
        confirm(api_b, inbox, "stranger2@example.org")
        r = api_b.post(f"/api/games/{gid}/seats/0/notify", json={"email": "Stranger2@example.org"},
                       headers=auth(tokens[0]))  # confirmed: no email to anyone, not counted
        assert r.status_code == 200 and r.json()["address"] == "confirmed", r.text
        assert api_a.post(path, json={"email": None}, headers=auth(tokens[1])).status_code == 200
        inbox.stays(2)  # the first address's confirmation email, no third; seat 0's turn email
        assert [m["To"] for m in inbox.messages] == ["stranger1@example.org",
                                                     "Stranger2@example.org"]


def test_two_processes_send_each_notice_exactly_once(inbox: Inbox,
                                                     servers: Callable[..., Server]) -> None:
    """Both processes watch the game; the owner sends, the database's compare-and-set would
    stop a second sender: over three waits, three emails."""
    a, b = two_processes(inbox, servers)
    with httpx.Client(base_url=a.url, timeout=10) as api_a, \
            httpx.Client(base_url=b.url, timeout=10) as api_b:
        gid, tokens = two_seats(api_a)
        opt_in(api_b, gid, 1, tokens[1], inbox=inbox)
        watchers = [WsClient(s.url, gid) for s in (a, b)]  # spectators on both processes
        for n in (1, 2, 3):
            play_until(api_a if n % 2 else api_b, gid, tokens, 1)
            inbox.wait(n)
            with WsClient(b.url if n % 2 else a.url, gid, [tokens[1]]):  # she comes back
                play_until(api_a, gid, tokens, 0)
        inbox.stays(3)
        for w in watchers:
            w.close()


def test_a_yes_on_another_process_tells_the_waiting_seat(inbox: Inbox,
                                                       servers: Callable[..., Server]) -> None:
    """The seat waits on the game's owner (a, where it was made) with its address unconfirmed;
    its owner says yes through a link that reaches process b: a tells the seat (a ``mail``
    notice, web/hub/notices.py), once."""
    a, b = two_processes(inbox, servers)
    with httpx.Client(base_url=a.url, timeout=10) as api_a, \
            httpx.Client(base_url=b.url, timeout=10) as api_b:
        gid, tokens = two_seats(api_a)
        opt_in(api_b, gid, 1, tokens[1])
        play_until(api_a, gid, tokens, 1)  # Bea is away, her address not yet confirmed
        time.sleep(AFTER * 4)  # a looked and found nobody to tell
        assert not [m for m in inbox.messages if "/confirm/" not in text(m)]
        confirm(api_b, inbox, "seat1@example.org")
        [notice] = inbox.wait(1)
        assert notice["Subject"] == f"Red November: your turn in game {gid}", notice["Subject"]
        inbox.stays(1)


def test_the_unsubscribe_pages_own_links_resolve_and_lead_to_the_game(tmp_path: Path) -> None:
    """The pages of the unsubscribe link stand alone (opened from a mail program): their icon and
    style sheet are found (a missing icon was a 404 in every browser's console), and they lead
    to the game, also under a root path."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, select

    from rednovember.web.app import create_app
    from rednovember.web.mail import Mailer
    from rednovember.web.store import mail_table

    db = f"sqlite:///{tmp_path / 'unsub.db'}"
    mailer = Mailer.from_url("smtp://127.0.0.1:9", "crew@rn.example", PUBLIC)  # never reached
    for root in ("", "/rn"):
        with TestClient(create_app(db, mailer=mailer, root_path=root, bot_delay=0.0),
                        base_url=f"http://testserver{root}") as api:
            gid, tokens = two_seats(api)
            opt_in(api, gid, 1, tokens[1], "de")
            engine = create_engine(db)
            with engine.connect() as c:
                secret = c.execute(select(mail_table.c.unsub).where(
                    mail_table.c.game_id == gid)).scalar_one()
            engine.dispose()
            path = f"/unsubscribe/{secret}"
            here = f"http://testserver{root}{path}"
            for page in (api.get(path), api.post(path)):
                assert page.status_code == 200, page.text
                links = dict(re.findall(r"<(?:link rel|a data-testid)='([\w-]+)'[^>]*href='([^']+)'",
                                        page.text))
                assert set(links) == {"icon", "stylesheet", "unsubscribe-game"}, page.text
                for rel, href in links.items():
                    target = urljoin(here, href)
                    assert api.get(target).status_code == 200, (rel, target)
                assert urljoin(here, links["unsubscribe-game"]) == \
                    f"http://testserver{root}/g/{gid}"
                assert f"Spiel {gid} öffnen" in page.text


def test_one_address_gets_so_many_emails_a_day_whoever_asks(tmp_path: Path) -> None:
    """The counts behind the limits (web/mail.py), in the database so that they hold across
    processes: a confirmation email at most every ASK_EVERY seconds and ASK_PER_DAY a day;
    notices only to a confirmed address, PER_DAY a day; a new day counts afresh."""
    from sqlalchemy import select

    from rednovember.web.mail import (
        ASK_EVERY,
        ASK_PER_DAY,
        DAY,
        PER_DAY,
        Link,
        address_state,
        allow,
        answer,
        ask,
    )
    from rednovember.web.store import Store, address_table

    engine = Store(database_url(tmp_path / "count.db")).engine
    t = 1_000_000.0
    assert ask(engine, "Ann@example.org", "en", t)
    assert address_state(engine, "ann@EXAMPLE.org") == "asked"
    assert not allow(engine, "ann@example.org", t)  # not confirmed: no notice
    assert not ask(engine, "ann@example.org", "en", t + ASK_EVERY - 1)  # too soon
    times = [t + ASK_EVERY * k for k in range(1, ASK_PER_DAY + 1)]
    assert [ask(engine, "ann@example.org", "de", u) for u in times] == \
        [True] * (ASK_PER_DAY - 1) + [False]  # ASK_PER_DAY in 24 hours
    assert ask(engine, "ann@example.org", "en", t + DAY)  # a new day
    with engine.connect() as c:  # the address's own link (its emails before migration 0011)
        secret = c.execute(select(address_table.c.secret)).scalar_one()
    assert answer(engine, secret, True) == Link("ann@example.org", "en", "yes", [])
    assert ask(engine, "ann@example.org", "en", t + 2 * DAY)  # another game may ask again
    u = t + 3 * DAY
    assert [allow(engine, "ANN@example.org", u + k) for k in range(PER_DAY + 1)] == \
        [True] * PER_DAY + [False]
    assert allow(engine, "ann@example.org", u + DAY)
    assert answer(engine, secret, False) == Link("ann@example.org", "en", "never", [])
    assert not allow(engine, "ann@example.org", u + 3 * DAY)
    assert not ask(engine, "ann@example.org", "en", u + 4 * DAY)  # refused: never asked again
    assert answer(engine, "x" * 32, True) is None
    engine.dispose()


def test_turn_emails_do_not_use_up_the_confirmations_of_the_next_game(tmp_path: Path) -> None:
    """Audit, stop 64: ASK_PER_DAY counted every email of the day, so a player who had five
    turn emails of one game could not confirm the address for a second game until the next day
    (that game's emails never went). Confirmations are counted apart; PER_DAY still caps all."""
    from sqlalchemy import select

    from rednovember.web.mail import ASK_EVERY, ASK_PER_DAY, PER_DAY, allow, answer, ask
    from rednovember.web.store import Store, address_table

    engine = Store(database_url(tmp_path / "asks.db")).engine
    t = 1_000_000.0
    assert ask(engine, "ann@example.org", "en", t)  # game A asks; Ann says yes
    with engine.connect() as c:
        secret = c.execute(select(address_table.c.secret)).scalar_one()
    assert answer(engine, secret, True) is not None
    assert all(allow(engine, "ann@example.org", t + k) for k in range(1, 10))  # A's turns
    assert ask(engine, "ann@example.org", "en", t + ASK_EVERY)  # game B may still ask
    more = [ask(engine, "ann@example.org", "en", t + ASK_EVERY * k)
            for k in range(2, ASK_PER_DAY + 1)]
    assert more == [True] * (ASK_PER_DAY - 2) + [False]  # B and the others: 5 in all today
    assert sum(allow(engine, "ann@example.org", t + 2 * ASK_EVERY * ASK_PER_DAY + k)
               for k in range(PER_DAY)) == PER_DAY - 10 - (ASK_PER_DAY - 1)  # every kind: 30
    engine.dispose()


def test_a_confirmation_email_that_failed_may_be_asked_again_at_once(tmp_path: Path) -> None:
    """The mail server refused the confirmation email (web/mail_api.py ``unask``): the next Save
    sends one at once, not ASK_EVERY later, and it still counts towards ASK_PER_DAY."""
    from rednovember.web.mail import ASK_PER_DAY, ask, unask
    from rednovember.web.store import Store

    engine = Store(database_url(tmp_path / "unask.db")).engine
    t = 1_000_000.0
    assert ask(engine, "bea@example.org", "en", t)
    assert not ask(engine, "bea@example.org", "en", t + 1)  # sent: not again so soon

    def failed_then_asked(now: float) -> bool:
        unask(engine, "Bea@example.org")
        return ask(engine, "bea@example.org", "en", now)

    assert [failed_then_asked(t + k) for k in range(2, ASK_PER_DAY + 2)] == \
        [True] * (ASK_PER_DAY - 1) + [False]
    engine.dispose()


def test_a_save_whose_confirmation_email_failed_leaves_the_address_askable(
        tmp_path: Path) -> None:
    """The server's mail server is down when a seat gives its address: the seat's address is
    kept, the answer (and every read after it) says the confirmation email failed, so the page
    can ask the player to check the address, and the next Save asks again (its ``asked`` time
    is cleared)."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, select

    from rednovember.web.app import create_app
    from rednovember.web.mail import Mailer
    from rednovember.web.store import address_table

    db = f"sqlite:///{tmp_path / 'down.db'}"
    mailer = Mailer.from_url("smtp://127.0.0.1:9", "crew@rn.example", PUBLIC)  # nobody listens
    with TestClient(create_app(db, mailer=mailer, bot_delay=0.0)) as api:
        gid, tokens = two_seats(api)
        r = api.post(f"/api/games/{gid}/seats/1/notify", json={"email": "seat1@example.org"},
                     headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["confirmation"] == "failed"
        got = api.get(f"/api/games/{gid}/seats/1/notify", headers=auth(tokens[1])).json()
        assert got["address"] == "unconfirmed" and got["confirmation"] == "failed"
    engine = create_engine(db)
    with engine.connect() as c:
        row = c.execute(select(address_table.c.asked, address_table.c.sent)).one()
    engine.dispose()
    assert row.asked is None and row.sent == 1


def test_processes_asking_at_once_send_one_confirmation(tmp_path: Path) -> None:
    """Eight threads, each with its own store on one database, ask for the same
    address at once: one of them gets to send the confirmation email."""
    from concurrent.futures import ThreadPoolExecutor

    from rednovember.web.mail import ask
    from rednovember.web.store import Store

    url = database_url(tmp_path / "race.db")
    stores = [Store(url) for _ in range(8)]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda st: ask(st.engine, "bea@example.org", "en", 5.0), stores))
    assert sum(got) == 1, got
    for st in stores:
        st.engine.dispose()


@contextmanager
def told_once(inbox: Inbox, db: Path) -> Iterator[tuple[Any, str, list[str]]]:
    """One process with mail: seat 1 of a two-seat game confirms its address and is told of its
    first wait; yields the client, the game and its tokens."""
    from fastapi.testclient import TestClient

    from rednovember.web import mail
    from rednovember.web.app import create_app

    mailer = mail.Mailer.from_url(inbox.url, "crew@rn.example", PUBLIC)  # type: ignore[attr-defined]
    app = create_app(f"sqlite:///{db}", mailer=mailer, bot_delay=0.0, mail_after=AFTER)
    with TestClient(app) as api:
        gid, tokens = two_seats(api)
        opt_in(api, gid, 1, tokens[1], inbox=inbox)
        play_until(api, gid, tokens, 1)
        assert len(inbox.wait(1)) == 1
        yield api, gid, tokens


def test_a_slow_database_still_tells_the_seat_s_next_wait(
        inbox: Inbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's next wait is told only once its last notice is rearmed in the database. That
    was stored in the background, so on a busy database (a CI run on PostgreSQL) the next wait's
    claim could come first, find the notice still sent, and the seat was never told again.
    Here every rearm takes a second; the seat's second wait is told all the same."""
    from rednovember.web import mail
    from rednovember.web.hub import notices

    def slow_rearm(*args: Any) -> None:
        time.sleep(1.0)
        mail.rearm(*args)

    monkeypatch.setattr(notices, "rearm", slow_rearm)
    with told_once(inbox, tmp_path / "slow.db") as (api, gid, tokens):
        play_until(api, gid, tokens, 0)  # her turn has passed: her next wait is told again
        play_until(api, gid, tokens, 1)
        assert len(inbox.wait(2)) == 2


def test_an_owner_that_catches_up_at_once_still_tells_the_seat_s_next_wait(
        inbox: Inbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An owner process follows another process's actions from their notices, and reloads the
    game when it falls behind: it then sees only the end. When the turn had gone round to the
    same seat, it took her new wait for the one already told, and she was never told again (a
    CI run on PostgreSQL: "1 emails, not 2"). Here the owner looks at nothing while the turn
    goes round, then once: the seat's new wait is told."""
    from rednovember.web.hub import notices

    blind = [False]
    look = notices.Notices.schedule

    def schedule(self: Any, lg: Any) -> None:
        if not blind[0]:
            look(self, lg)

    monkeypatch.setattr(notices.Notices, "schedule", schedule)
    with told_once(inbox, tmp_path / "behind.db") as (api, gid, tokens):
        blind[0] = True  # the turn goes round unseen
        play_until(api, gid, tokens, 0)
        play_until(api, gid, tokens, 1)
        blind[0] = False
        opt_in(api, gid, 1, tokens[1])  # (a look: her confirmed address saved again, no email)
        told = inbox.wait(2)
        assert len(told) == 2 and told[1]["To"] == "seat1@example.org", [m["To"] for m in told]


def test_a_yes_tells_the_games_being_played_latest_first_however_many_gave_the_address(
        tmp_path: Path) -> None:
    """A yes on the confirmation page tells the waiting seats of at most SEATS_TOLD of its link's
    games (an address's link from before migration 0011 confirms every seat it was sent for):
    the ones being played, the latest moved first. It took any 20 of the games, so a regular's
    old finished games could leave out the one where a seat waits now. A seat given the same
    address under another link, or another address, is not confirmed by it."""
    from sqlalchemy import insert, select

    from rednovember.web.mail import SEATS_TOLD, answer, playing
    from rednovember.web.store import Store, address_table, games_table, mail_table

    engine = Store(database_url(tmp_path / "told.db")).engine
    games = [(f"over{k:02}", "over", 100.0 + k) for k in range(SEATS_TOLD + 5)]
    games += [("old", "playing", 50.0), ("new", "playing", 500.0), ("lobby", "waiting", 600.0)]
    games += [(f"busy{k:02}", "playing", 200.0 + k) for k in range(SEATS_TOLD)]
    with engine.begin() as c:
        c.execute(insert(address_table).values(email="ann@example.org", state="asked",
                                               secret="oldlink", lang="en", day=1.0, sent=1))
        for gid, status, updated in games:
            c.execute(insert(games_table).values(
                id=gid, config="{}", status=status, version=1, creator_hash="x", created=1.0,
                updated=updated))
            for seat in (0, 1):  # two seats of one game gave it: the game is told once
                c.execute(insert(mail_table).values(
                    game_id=gid, seat=seat, email="Ann@Example.org", lang="en",
                    unsub=f"{gid}-{seat}", confirm="oldlink"))
        c.execute(insert(games_table).values(id="other", config="{}", status="playing",
                                             version=1, creator_hash="x", created=1, updated=900))
        c.execute(insert(mail_table).values(game_id="other", seat=0, email="bob@example.org",
                                            lang="en", unsub="other-0", confirm="oldlink"))
        c.execute(insert(mail_table).values(game_id="other", seat=1, email="ann@example.org",
                                            lang="en", unsub="other-1", confirm="newlink"))
    link = answer(engine, "oldlink", True)
    assert link is not None and link.state == "yes" and "other" not in link.games
    told = playing(engine, link.games)
    assert told[0] == "new" and len(told) == SEATS_TOLD
    assert told[1:] == [f"busy{k:02}" for k in reversed(range(1, SEATS_TOLD))]
    with engine.connect() as c:
        confirmed = c.execute(select(mail_table.c.game_id, mail_table.c.seat).where(
            mail_table.c.confirmed.is_(True))).all()
    assert len(confirmed) == 2 * len(games) and all(g != "other" for g, _ in confirmed)
    engine.dispose()


def test_a_turn_email_names_the_gnome_that_must_decide_not_the_seats_first() -> None:
    """Two players, two gnomes each (R16): the email said "Red must decide" while the game said
    "Your turn — Blue" (the seat's first colour; play-over-days audit, stop 55)."""
    from types import SimpleNamespace

    from rednovember.i18n import catalog
    from rednovember.rules import Config, new_game
    from rednovember.web.hub.notices import Notices
    g = new_game(Config(players=2, seed=3))
    seats = [SimpleNamespace(colours=tuple(gn.colour for gn in g.gnomes if gn.player == p),
                             name=name) for p, name in ((0, "Ann"), (1, "Bo"))]
    lg = SimpleNamespace(game=g, seats=seats)
    while True:  # on to a decision of a seat's second gnome
        d = g.decider
        if g.gnomes[d].colour != seats[g.gnomes[d].player].colours[0]:
            break
        g.apply(g.legal_actions()[-1])
    seat = g.gnomes[d].player
    gnome, player = Notices._names(None, lg, seat, "de")  # type: ignore[arg-type]
    assert player == seats[seat].name
    assert gnome == catalog("de").raw("colours", g.gnomes[d].colour) != \
        catalog("de").raw("colours", seats[seat].colours[0])


def test_the_answer_to_a_confirmation_speaks_the_language_the_question_was_read_in(
        inbox: Inbox, servers: Callable[..., Server]) -> None:
    """The address was given in English; its owner opened the page in German (``?lang=de``) and
    pressed yes: the answer came in English (its buttons posted without the language)."""
    server = servers(*mail_flags(inbox))
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_seats(api)
        assert api.post(f"/api/games/{gid}/seats/1/notify", json={"email": "bea@example.org"},
                        headers=auth(tokens[1])).json()["confirmation"] == "sent"
        link = confirm_link(confirmation(inbox, "bea@example.org")).partition("?")[0]
        page = api.get(f"{link}?lang=de").text
        action = re.search(r"<form method='post' action='([^']+)'", page)
        assert action and "lang=de" in action.group(1)
        yes = api.post(urljoin(link, action.group(1).replace("&amp;", "&")))
        assert yes.status_code == 200 and "lang='de'" in yes.text
        assert "bea@example.org" in yes.text and "Done:" not in yes.text
