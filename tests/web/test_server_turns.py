"""Issue 20 §1, turn-based tables: ``pace`` and ``move_deadline`` at creation (bounds: 422), in the
summary; a two-seat game played over several simulated days (an injected clock): a deadline that
passes makes the heuristic bot decide that one decision and the chat say so, three in a row give
the seat to the bot, and its player takes it back; a deadline that passed while no server ran acts
once after the restart; two processes on one database decide nothing twice."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pgcluster import BACKEND, database_url
from test_server_mail import Inbox
from test_server_push import PushService

from rednovember.web.app import create_app
from rednovember.web.hub.live import Clock
from rednovember.web.mail import Mailer
from rednovember.web.push import Pusher
from rednovember.web.store import GameRecord, Store
from rednovember.web.tables import chat_message

DAY = 86400.0


class FakeClock(Clock):
    """Days pass when the test says so; whoever sleeps wakes once the clock has gone far enough
    (looking every few milliseconds)."""

    def __init__(self) -> None:
        self.t = time.time()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end:
            await asyncio.sleep(0.005)

    def advance(self, seconds: float) -> None:
        self.t += seconds


def until(cond: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return database_url(tmp_path / "turns.db")


@pytest.fixture
def client(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as c:
        yield c


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _turn_based_game(c: TestClient, deadline: int = int(DAY)) -> tuple[str, list[str]]:
    r = c.post("/api/games", json={"players": 2, "seed": 20, "pace": "turn-based",
                                   "move_deadline": deadline})
    assert r.status_code == 201, r.text
    gid = r.json()["game"]["id"]
    tokens = [c.post(f"/api/games/{gid}/seats", json={"seat": s, "name": n}).json()["token"]
              for s, n in ((0, "Ada"), (1, "Bo"))]
    return gid, tokens


def _system_lines(url: str, gid: str, kind: str) -> list[dict[str, Any]]:
    store = Store(url)
    try:
        rows = store.load_chat(gid, 500)
    finally:
        store.close()
    return [chat_message(m) for m in rows if m["seat"] < 0 and m.get("kind") == kind]


def _record(url: str, gid: str) -> GameRecord | None:
    """The game as the database holds it."""
    store = Store(url)
    try:
        return store.load_game(gid)
    finally:
        store.close()


def _state(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    """What the seat of ``token`` sees."""
    st: dict[str, Any] = c.get(f"/api/games/{gid}/state", headers=_bearer(token)).json()
    return st


def _act_oneself(c: TestClient, gid: str, token: str) -> None:
    """The seat's player decides: a quick one (the turn moves on), else the first offered."""
    legal = c.get(f"/api/games/{gid}/legal", headers=_bearer(token)).json()
    texts = [a["text"] for a in legal["actions"]]
    text = next((q for q in ("no_action", "end") if q in texts), texts[0])
    r = c.post(f"/api/games/{gid}/act", headers=_bearer(token),
               json={"action": text, "version": legal["version"]})
    assert r.status_code == 200, r.text


def _let_pass(c: TestClient, clock: FakeClock, gid: str, url: str) -> dict[str, Any]:
    """Moves the clock past the deadline in play; returns the summary once the server decided
    and said so (the chat line is written just after the decision: waiting for the version
    alone raced it)."""
    before = c.get(f"/api/games/{gid}").json()
    assert before["deadline"], before
    said = len(_system_lines(url, gid, "deadline"))
    clock.advance(before["deadline"]["at"] - clock.now() + 1)
    until(lambda: len(_system_lines(url, gid, "deadline")) > said, "the deadline's chat line")
    return until(lambda: (s := c.get(f"/api/games/{gid}").json())["version"] > before["version"]
                 and s, "the deadline's decision")


# --- creating a table ------------------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    {"pace": "turn-based", "move_deadline": 3599},
    {"pace": "turn-based", "move_deadline": 7 * 86400 + 1},
    {"pace": "turn-based", "move_deadline": 0},
    {"pace": "real-time", "move_deadline": 3600},
    {"move_deadline": 86400},
    {"pace": "slow"},
    {"pace": "turn-based", "turn_timer": 60},
    {"pace": "turn-based", "away_bot": 120},
])
def test_a_pace_or_deadline_out_of_bounds_is_refused_with_422(client: TestClient,
                                                               body: dict[str, Any]) -> None:
    r = client.post("/api/games", json={"players": 2, **body})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("bad_message", "bad_config")


def test_the_summary_carries_the_pace_and_the_deadline(client: TestClient) -> None:
    plain = client.post("/api/games", json={"players": 2}).json()["game"]
    assert plain["settings"]["pace"] == "real-time" and plain["settings"]["move_deadline"] is None
    assert plain["deadline"] is None
    made = client.post("/api/games", json={"players": 2, "pace": "turn-based",
                                           "listed": True}).json()["game"]
    # one day by default; an open turn-based table gets no turn timer and no away bot
    assert made["settings"] == {"listed": True, "pace": "turn-based", "move_deadline": 86400,
                                "turn_timer": None, "away_bot": None, "hints": True,
                                "hints_used": []}
    for seconds in (3600, 7 * 86400):
        ok = client.post("/api/games", json={"players": 2, "pace": "turn-based",
                                             "move_deadline": seconds})
        assert ok.status_code == 201 and ok.json()["game"]["settings"]["move_deadline"] == seconds
    # the open turn-based table is listed, with its pace
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[made["id"]]["settings"]["pace"] == "turn-based"


# --- a game over several days ---------------------------------------------------------------------
def test_a_two_seat_game_over_several_days_deadlines_bot_and_taking_the_seat_back(
        client: TestClient, clock: FakeClock, db_url: str) -> None:
    start = clock.now()
    gid, tokens = _turn_based_game(client)
    s = client.get(f"/api/games/{gid}").json()
    assert s["status"] == "playing" and s["away"] is None and s["clock"] is None
    dl = s["deadline"]
    assert dl["seat"] == s["to_move"] and dl["seconds"] == 86400 and dl["missed"] == 0
    assert dl["at"] == pytest.approx(clock.now() + DAY, abs=1) and dl["remaining"] == DAY
    victim, diligent = dl["seat"], 1 - dl["seat"]
    # the state a player sees carries it too
    st = _state(client, gid, tokens[victim])
    assert st["deadline"]["seat"] == victim and st["your_turn"]

    # day 1: the victim lets the deadline pass: the bot makes that one decision, the chat says so
    s = _let_pass(client, clock, gid, db_url)
    notes = until(lambda: _system_lines(db_url, gid, "deadline"), "the chat line")
    assert [(n["for_seat"], n["missed"], n["player"]) for n in notes] == [(victim, 1, "Ada" if
                                                                           victim == 0 else "Bo")]
    assert "deadline" in notes[0]["text"] and s["seats"][victim]["kind"] == "human"
    # the next decision has a new deadline from now
    assert s["deadline"]["at"] == pytest.approx(clock.now() + DAY, abs=1)

    # then both decide for themselves, but for one deadline the other player misses: what the
    # pages show is the deadlines a seat missed in a row (a decision of its own starts afresh)
    missed = {victim: 1, diligent: 0}
    while True:
        s = client.get(f"/api/games/{gid}").json()
        mover = s["deadline"]["seat"]
        assert s["deadline"]["missed"] == missed[mover]
        if mover == diligent and not _system_lines(db_url, gid, "deadline")[1:]:
            _let_pass(client, clock, gid, db_url)
            missed[diligent] = 1
            continue
        if mover == diligent and missed[victim] == 0:
            break  # both have decided for themselves since their miss
        clock.advance(3 * 3600)  # a few hours later the player decides
        _act_oneself(client, gid, tokens[mover])
        missed[mover] = 0
    # from now on the victim never decides: three deadlines in a row give the seat to the bot
    while (s := client.get(f"/api/games/{gid}").json())["seats"][victim]["kind"] != "bot":
        if s["deadline"] is None or s["deadline"]["missed"] >= 3:  # the seat goes to the bot
            time.sleep(0.02)
            continue
        mover = s["deadline"]["seat"]
        if mover == victim:
            _let_pass(client, clock, gid, db_url)
        else:
            clock.advance(3600)
            _act_oneself(client, gid, tokens[diligent])
    assert clock.now() - start > 3 * DAY  # several simulated days went by
    s = until(lambda: (g := client.get(f"/api/games/{gid}").json())["seats"][victim]["kind"]
              == "bot" and g, "the seat going to the bot")
    notes = _system_lines(db_url, gid, "deadline")
    assert [n["missed"] for n in notes if n["for_seat"] == victim] == [1, 1, 2, 3]
    assert [n["missed"] for n in notes if n["for_seat"] == diligent] == [1]
    handed = until(lambda: _system_lines(db_url, gid, "to_bot"), "the hand-over line")
    assert [(h["for_seat"], h["auto"], h["bot"]) for h in handed] == [(victim, True, "heuristic")]

    # the player takes the seat back: their deadlines start afresh
    r = client.post(f"/api/games/{gid}/seats/{victim}/reclaim", headers=_bearer(tokens[victim]))
    assert r.status_code == 200, r.text
    assert until(lambda: _system_lines(db_url, gid, "back"), "the back line")
    while (s := client.get(f"/api/games/{gid}").json())["deadline"]["seat"] != victim:
        _act_oneself(client, gid, tokens[diligent])
    assert s["seats"][victim]["kind"] == "human" and s["deadline"]["missed"] == 0
    s = _let_pass(client, clock, gid, db_url)
    notes = _system_lines(db_url, gid, "deadline")
    assert notes[-1]["for_seat"] == victim and notes[-1]["missed"] == 1
    assert s["seats"][victim]["kind"] == "human"
    # every decision the deadlines and the bot made is the stand-ins': the victim's many, the
    # diligent player's one missed deadline
    rec = _record(db_url, gid)
    assert rec is not None
    made_for = sum(a == -1 - victim for a in rec.actors)
    assert made_for >= 5 and sum(a == -1 - diligent for a in rec.actors) == 1
    assert len(_state(client, gid, tokens[victim])["standins"]) == made_for



def test_a_decision_made_for_a_seat_is_marked_as_the_stand_ins_not_its_players(
        client: TestClient, clock: FakeClock, db_url: str) -> None:
    """The deadline's decision is the server's, not the player's: stored so (``-1 - seat``),
    named in the seat's state as the log entries it made (``standins``: the page's recap says
    what was decided for them and starts after their own last decision), also once the game
    is rebuilt from the database; a replay names the seat it was made for."""
    gid, tokens = _turn_based_game(client)
    victim = client.get(f"/api/games/{gid}").json()["deadline"]["seat"]
    other = 1 - victim
    before = _state(client, gid, tokens[victim])
    assert before["standins"] == []
    start = len(before["log"])
    _let_pass(client, clock, gid, db_url)
    st = _state(client, gid, tokens[victim])
    [[a, b]] = st["standins"]
    assert a == start < b <= len(st["log"])
    gnomes = {g["number"] for g in st["view"]["gnomes"] if g["player"] == victim}
    assert st["log"][a][1] in gnomes  # the decision's first entry: the victim's gnome's choice
    assert _state(client, gid, tokens[other])["standins"] == []  # each seat its own
    assert client.get(f"/api/games/{gid}/state").json()["standins"] == []  # a spectator: none
    rec = _record(db_url, gid)
    assert rec is not None and rec.actors == [-1 - victim]
    assert client.get(f"/api/games/{gid}/replay/1").json()["actor"] == victim
    # the players go on for themselves: the range stays where it was
    for _ in range(4):
        mover = client.get(f"/api/games/{gid}").json()["to_move"]
        _act_oneself(client, gid, tokens[mover])
    assert _state(client, gid, tokens[victim])["standins"] == [[a, b]]
    # rebuilt from the database (another server on it): the same ranges
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as again:
        assert _state(again, gid, tokens[victim])["standins"] == [[a, b]]


def test_a_seat_handed_over_and_taken_back_moves_no_deadline_and_keeps_its_name(
        client: TestClient, clock: FakeClock) -> None:
    """A change that decides nothing (the other seat handed to a bot and taken back without a
    name) leaves the decision in play its deadline, and the seat its player's name."""
    gid, tokens = _turn_based_game(client)
    s = client.get(f"/api/games/{gid}").json()
    mover, due = s["deadline"]["seat"], s["deadline"]["at"]
    other = 1 - mover
    clock.advance(3600)
    r = client.post(f"/api/games/{gid}/seats/{other}/bot", json={"bot": "heuristic"},
                    headers=_bearer(tokens[other]))
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/seats/{other}/reclaim", headers=_bearer(tokens[other]))
    assert r.status_code == 200, r.text
    after = client.get(f"/api/games/{gid}").json()
    assert after["version"] > s["version"] and after["to_move"] == mover
    assert after["deadline"]["at"] == pytest.approx(due, abs=0.01)
    assert after["deadline"]["remaining"] == pytest.approx(DAY - 3600, abs=1)
    assert after["seats"][other]["name"] == ("Ada", "Bo")[other]


def test_at_a_turn_based_table_nobody_gives_an_away_players_seat_to_a_bot(
        client: TestClient, clock: FakeClock) -> None:
    """Its players are away between moves: another player (or the creator) giving an absent
    player's seat to a bot went round the deadlines and their three misses (browser audit,
    stop 55). Refused; the player still can, and the deadlines still do."""
    gid, tokens = _turn_based_game(client)
    mover = client.get(f"/api/games/{gid}").json()["to_move"]
    other = 1 - mover
    clock.advance(3600)  # long gone, by any grace
    r = client.post(f"/api/games/{gid}/seats/{mover}/bot", json={"bot": "heuristic"},
                    headers=_bearer(tokens[other]))
    assert r.status_code == 403, r.text
    err = r.json()["error"]
    assert (err["code"], err["detail"], err["params"]["seat"]) == \
        ("forbidden", "turn_based", mover)
    assert client.get(f"/api/games/{gid}").json()["seats"][mover]["kind"] == "human"
    r = client.post(f"/api/games/{gid}/seats/{mover}/bot", json={"bot": "heuristic"},
                    headers=_bearer(tokens[mover]))
    assert r.status_code == 200, r.text  # her own seat: hers to give


# --- what a player away for days reads in their mail ----------------------------------------------
def _mail_text(msg: Message) -> str:
    return str(msg.get_payload(decode=True).decode()).replace("\r\n", "\n")


def _confirm_by_mail(c: TestClient, inbox: Inbox, address: str) -> None:
    """The owner of ``address`` says yes through the confirmation email's link."""
    found = until(lambda: [re.search(r"https://rn\.example(/confirm/[\w-]+)", _mail_text(m))
                           for m in inbox.messages if m["To"] == address], "the confirmation")
    inbox.messages.clear()
    assert found[0], "no confirmation link"
    r = c.post(f"{found[0].group(1)}?answer=yes")
    assert r.status_code == 200, r.text


def test_a_seat_away_for_days_is_told_its_missed_deadlines_and_that_a_bot_took_it(
        inbox: Inbox, db_url: str, clock: FakeClock) -> None:
    """Play-over-days audit (stop 55): after a missed deadline the seat's next turn email was
    the first one again, word for word; after the third, the bot took the seat and no email
    said so, and the chat said the player "was away too long". Now a turn email counts the
    deadlines missed in a row, one email says that a bot plays the seat and how to take it
    back, and the chat names the missed deadlines."""
    mailer = Mailer.from_url(inbox.url, "crew@rn.example",  # type: ignore[attr-defined]
                             "https://rn.example")
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock, mailer=mailer,
                               mail_after=0.2)) as c:
        gid, tokens = _turn_based_game(c)
        victim = c.get(f"/api/games/{gid}").json()["deadline"]["seat"]
        diligent = 1 - victim
        r = c.post(f"/api/games/{gid}/seats/{victim}/notify", headers=_bearer(tokens[victim]),
                   json={"email": "ada@example.org", "lang": "en"})
        assert r.status_code == 200, r.text
        _confirm_by_mail(c, inbox, "ada@example.org")
        first = _mail_text(inbox.wait(1)[0])
        assert "must decide" in first and "without you" not in first
        told = 1
        while (s := c.get(f"/api/games/{gid}").json())["seats"][victim]["kind"] != "bot":
            if s["deadline"] is None or s["deadline"]["missed"] >= 3:  # the seat goes now
                time.sleep(0.02)
                continue
            if s["deadline"]["seat"] == diligent:
                _act_oneself(c, gid, tokens[diligent])
                continue
            missed = s["deadline"]["missed"]
            if missed and len(inbox.messages) == told:  # this wait's email, before it passes
                told += 1
                said = _mail_text(inbox.wait(told)[-1])
                assert ("A deadline has passed without you" if missed == 1 else
                        f"{missed} deadlines in a row have passed without you") in said, said
                assert "At 3 in a row the bot keeps your seat." in said
            _let_pass(c, clock, gid, db_url)
        taken = until(lambda: [m for m in inbox.messages if "a bot plays" in m["Subject"]],
                      "the email that a bot took the seat")
        assert len(taken) == 1 and taken[0]["Subject"].endswith(gid)
        body = _mail_text(taken[0])
        assert ("3 deadlines in a row passed without you in game " + gid) in body
        assert "“Take my seat back”" in body and f"https://rn.example/g/{gid}" in body
        assert "/unsubscribe/" in body and taken[0]["List-Unsubscribe"]
        assert told >= 2  # (a turn email came while the seat had missed one or two)
        [handed] = until(lambda: _system_lines(db_url, gid, "to_bot"), "the hand-over line")
        assert (handed["auto"], handed["missed"]) == (True, 3)
        assert "let 3 deadlines in a row pass" in handed["text"]
        assert "away too long" not in handed["text"]
        time.sleep(1.0)  # nothing more comes: the seat is the bot's, it waits for nobody
        assert len([m for m in inbox.messages if "a bot plays" in m["Subject"]]) == 1


def test_a_browser_that_asked_for_pushes_is_told_that_a_bot_took_the_seat(
        service: PushService, db_url: str, clock: FakeClock) -> None:
    """The push side of the hand-over after three missed deadlines: the seat's browser gets a
    notice of it (replacing its turn notice: the same tag), in the seat's language."""
    pusher = Pusher(test_hosts=frozenset({service.host}))
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock, pusher=pusher,
                               mail_after=0.2)) as c:
        gid, tokens = _turn_based_game(c)
        victim = c.get(f"/api/games/{gid}").json()["deadline"]["seat"]
        ada = service.browser("ada")
        r = c.post(f"/api/games/{gid}/seats/{victim}/push", headers=_bearer(tokens[victim]),
                   json={**ada.subscription(), "lang": "de"})
        assert r.status_code == 200, r.text
        while (s := c.get(f"/api/games/{gid}").json())["seats"][victim]["kind"] != "bot":
            if s["deadline"] is None or s["deadline"]["missed"] >= 3:
                time.sleep(0.02)
            elif s["deadline"]["seat"] == victim:
                _let_pass(c, clock, gid, db_url)
            else:
                _act_oneself(c, gid, tokens[1 - victim])
        taken = until(lambda: [d for d in map(ada.read, service.at("ada"))
                               if "Bot spielt deinen Platz" in d["title"]], "the push")
        assert len(taken) == 1 and taken[0]["game"] == gid and taken[0]["url"] == f"g/{gid}"
        assert "3 Fristen in Folge" in taken[0]["body"]
        assert taken[0]["tag"] == f"rn-turn-{gid}"


# --- restarts and several processes ---------------------------------------------------------------
def _stored(url: str, gid: str) -> tuple[int, int]:
    """The stored game's version and its number of actions."""
    rec = _record(url, gid)
    assert rec is not None
    return rec.version, len(rec.actions)


def test_a_deadline_that_passed_while_no_server_ran_acts_once_after_the_restart(
        db_url: str, clock: FakeClock) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as c:
        gid, _ = _turn_based_game(c)
        due = c.get(f"/api/games/{gid}").json()["deadline"]
        until(lambda: _stored_deadline(db_url, gid), "the stored deadline")
    version, actions = _stored(db_url, gid)
    clock.advance(2 * DAY)  # nobody runs the server meanwhile
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as c:
        # nobody asks for the game: the server loads it by itself and the bot decides, once
        until(lambda: _system_lines(db_url, gid, "deadline"), "the deadline's decision")
        assert _stored(db_url, gid) == (version + 1, actions + 1)
        s = c.get(f"/api/games/{gid}").json()
        assert s["version"] == version + 1 and s["deadline"]["missed"] in (0, 1)
        assert s["deadline"]["at"] == pytest.approx(clock.now() + DAY, abs=1)
        stored = until(lambda: (d := _stored_deadline(db_url, gid)) and d.version == version + 1
                       and d, "the next deadline stored")
        assert stored.misses == {due["seat"]: 1}
    # started again at the same moment: nothing more is due, nothing more is decided
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert c.portal.call(hub.deadlines.adopt) == []  # type: ignore[union-attr]
        assert c.get(f"/api/games/{gid}").json()["version"] == version + 1
    assert _stored(db_url, gid) == (version + 1, actions + 1)
    notes = _system_lines(db_url, gid, "deadline")
    assert [(n["for_seat"], n["missed"]) for n in notes] == [(due["seat"], 1)]


def _stored_deadline(url: str, gid: str) -> Any:
    rec = _record(url, gid)
    return rec.deadline if rec is not None else None


def test_two_processes_on_one_database_decide_nothing_twice(db_url: str,
                                                              clock: FakeClock) -> None:
    """Both hold the game (one owns it on PostgreSQL; on SQLite each thinks it does): however
    many deadlines pass, each decision is made once and said once."""
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as a, \
            TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as b:
        gid, _ = _turn_based_game(a)
        assert b.get(f"/api/games/{gid}").json()["status"] == "playing"  # b holds a copy
        version, actions = _stored(db_url, gid)
        for n in range(1, 4):
            clock.advance(DAY + 1)
            until(lambda n=n: len(_system_lines(db_url, gid, "deadline")) >= n  # type: ignore[misc]
                  and _stored(db_url, gid)[0] >= version + n, f"decision {n}")
            for c in (a, b):  # both copies follow
                until(lambda c=c, n=n: c.get(f"/api/games/{gid}").json()["version"]  # type: ignore[misc]
                      >= version + n, "the copies")
    decided = _stored(db_url, gid)
    notes = _system_lines(db_url, gid, "deadline")
    # three deadlines, three decisions, three lines (plus the bot's own moves if it took a seat)
    assert len(notes) == 3 and len({n["idx"] for n in notes}) == 3
    if BACKEND == "postgresql":  # one owner counts: each seat's misses go 1, 2, 3 (on SQLite
        # each process counts the decisions it made itself: several processes need PostgreSQL)
        for seat in {n["for_seat"] for n in notes}:
            row = [n["missed"] for n in notes if n["for_seat"] == seat]
            assert row == list(range(1, len(row) + 1))
        assert len(_system_lines(db_url, gid, "to_bot")) == (notes[-1]["missed"] == 3)
    # the hand-over is read from the database: on SQLite either process may have made it, and
    # the other one's copy can still show the seat as a person's
    handed = bool(_system_lines(db_url, gid, "to_bot"))
    if handed:
        assert notes[-1]["missed"] == 3
    assert decided[1] == actions + 3 or handed
    if not handed:
        assert decided == (version + 3, actions + 3)


def test_two_processes_tell_a_seat_once_that_a_bot_took_it(inbox: Inbox, db_url: str,
                                                            clock: FakeClock) -> None:
    """Both processes have a mailer and hold the game while its seat misses three deadlines in
    a row: the seat is handed to the bot once, and one email says so (the hand-over and its
    notice are the owner's; on SQLite, where each process thinks it owns every game, the other
    one's hand-over is refused as stale and sends nothing)."""
    def mailer() -> Mailer:
        return Mailer.from_url(inbox.url, "crew@rn.example",  # type: ignore[attr-defined]
                               "https://rn.example")

    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock, mailer=mailer(),
                               mail_after=0.2)) as a, \
            TestClient(create_app(db_url, bot_delay=0.0, clock=clock, mailer=mailer(),
                                  mail_after=0.2)) as b:
        gid, tokens = _turn_based_game(a)
        assert b.get(f"/api/games/{gid}").json()["status"] == "playing"  # b holds a copy
        victim = a.get(f"/api/games/{gid}").json()["deadline"]["seat"]
        r = a.post(f"/api/games/{gid}/seats/{victim}/notify", headers=_bearer(tokens[victim]),
                   json={"email": "ada@example.org", "lang": "en"})
        assert r.status_code == 200, r.text
        _confirm_by_mail(a, inbox, "ada@example.org")
        while (s := a.get(f"/api/games/{gid}").json())["seats"][victim]["kind"] != "bot":
            if s["deadline"] is None or s["deadline"]["missed"] >= 3:  # the seat goes now
                time.sleep(0.02)
            elif s["deadline"]["seat"] == victim:
                _let_pass(a, clock, gid, db_url)
            else:
                _act_oneself(a, gid, tokens[1 - victim])
        if BACKEND == "postgresql":  # (on SQLite b's copy learns of it only on its next write)
            until(lambda: b.get(f"/api/games/{gid}").json()["seats"][victim]["kind"] == "bot",
                  "b's copy of the hand-over")
        until(lambda: [m for m in inbox.messages if "a bot plays" in m["Subject"]],
              "the email that a bot took the seat")
        time.sleep(1.5)  # (a second email would come now)
        taken = [m for m in inbox.messages if "a bot plays" in m["Subject"]]
        assert len(taken) == 1 and taken[0]["To"] == "ada@example.org"
    assert len(_system_lines(db_url, gid, "to_bot")) == 1


@pytest.mark.skipif(BACKEND == "postgresql", reason="one process owns a game on PostgreSQL")
def test_a_copy_refused_its_deadline_move_keeps_the_misses_it_reloaded(db_url: str,
                                                                       clock: FakeClock) -> None:
    """Two processes on SQLite both decide the same passed deadline; the one whose write is
    refused reloads the game, and the seat's misses it reloads (the winner's count) stand: they
    are not rolled back to its own count before the try, which made it decide a fourth time
    after the third miss (a deadline due at once) instead of handing the seat over."""
    with TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as a, \
            TestClient(create_app(db_url, bot_delay=0.0, clock=clock)) as b:
        gid, _ = _turn_based_game(a)
        assert b.get(f"/api/games/{gid}").json()["status"] == "playing"  # b holds a copy
        hub_b = b.app.state.hub  # type: ignore[attr-defined]
        b.portal.call(lambda: hub_b.deadlines.tasks.pop(gid).cancel())  # b waits no more
        version, _ = _stored(db_url, gid)
        seat = a.get(f"/api/games/{gid}").json()["deadline"]["seat"]
        clock.advance(DAY + 1)  # a decides for the seat and stores its next deadline
        until(lambda: (d := _stored_deadline(db_url, gid)) and d.version == version + 1,
              "a's decision stored")
        lg = hub_b.games[gid]
        assert lg.version == version  # b's copy is behind: its try is refused as stale
        b.portal.call(hub_b.deadlines.decide, lg, version)
        assert lg.version == version + 1 and lg.misses == {seat: 1}
        assert len(_system_lines(db_url, gid, "deadline")) == 1
