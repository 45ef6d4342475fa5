"""Opting in to be told with the page closed (issue 20 §3), through the game page's turn-alerts card
(static/js/remote.js): "Notify me even when the browser is closed" subscribes this browser's push
for the seat it holds, and the email field gives the seat's address; then, with the page closed,
the seat's turn brings an email (a real SMTP server, aiosmtpd) and a push (the test's own push
service, which decrypts it). Chromium's own push service is out of this machine's reach, so the
page's ``pushManager.subscribe`` answers with a subscription whose keys the test holds (the
server's key it was asked with is checked). A server without mail or push offers neither.
Debian's Chromium (fixtures in conftest.py)."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsertools import SKIP, _page, create_game, expect, shot, take_seat
from test_browser_a11y import SIZES, axe_violations
from test_server_mail import Inbox, confirm, confirm_link, confirmation, mail_flags, play_until
from test_server_push import AFTER, Browser, PushService
from webtools import Server, auth, new_game, take

from rednovember.web.push import unb64url

# the card's words for an address its owner has not confirmed yet
WAIT = "We sent a link to %s: open it to confirm the address for this game. Emails go there only then."

pytestmark = SKIP

# The browser's push service, answered by the test: the subscription's JSON is the test's. It
# answers after a moment, as a real one does (the page stays usable meanwhile).
FAKE_PUSH = """(() => {
  const sub = %s;
  let made = null;
  PushManager.prototype.subscribe = async function (options) {
    await new Promise((r) => setTimeout(r, 400));
    const key = new Uint8Array(options.applicationServerKey);
    window.rnAskedKey = btoa(String.fromCharCode(...key));
    made = { endpoint: sub.endpoint, expirationTime: null, toJSON: () => sub,
             unsubscribe: async () => { made = null; return true; } };
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return made; };
})();"""


@pytest.fixture
def server(tmp_path: Path, service: PushService, inbox: Inbox) -> Iterator[Server]:
    flags = [*mail_flags(inbox)[:6], "--mail-after", str(AFTER), "--push", "--push-test-host",
             service.host]
    s = Server(tmp_path / "remote.db", extra=flags).start()
    yield s
    s.stop()


def seated_page(new_context: Callable[..., Any], base: str, browser: Browser,
                before: Callable[[Any], None] | None = None, **options: Any) -> tuple[Any, str]:
    """A page of a new 2-seat game on ``base`` holding seat 1 (Bea), push answered by the test;
    ``before(page)`` runs before the game is made; ``options`` are the browser context's."""
    ctx = new_context(**options)
    ctx.grant_permissions(["notifications"], origin=base)
    ctx.add_init_script(FAKE_PUSH % json.dumps(browser.subscription()))
    page = _page(ctx, f"{base}/")
    if before is not None:
        before(page)
    create_game(page, 2, 3)
    take_seat(page, 1, "Bea")
    return page, page.url.rstrip("/").rsplit("/", 1)[-1]


def test_the_card_opts_in_to_pushes_and_emails_that_come_with_the_page_closed(
        new_context: Callable[..., Any], server: Server, service: PushService,
        inbox: Inbox) -> None:
    bea = service.browser("bea")
    page, gid = seated_page(new_context, server.url, bea)
    card = page.get_by_test_id("notices")
    box = card.get_by_test_id("notice-push")
    expect(box).not_to_be_checked()
    box.check()
    expect(box).to_be_checked()
    key = httpx.get(f"{server.url}/api/notices").json()["push_key"]
    asked = page.wait_for_function("() => window.rnAskedKey").json_value()
    assert unb64url(key) == base64.b64decode(asked)
    field = card.get_by_test_id("notice-email")
    field.fill("not an address")
    card.get_by_test_id("notice-email-save").click()
    expect(card.get_by_test_id("notice-remote-why")).to_have_text("That is not an email address.")
    field.fill("bea@example.org")
    card.get_by_test_id("notice-email-save").click()
    expect(card.get_by_test_id("notice-email-status")).to_have_text(
        f"{WAIT % 'bea@example.org'}")  # a stranger could give anybody's address
    expect(card.get_by_test_id("notice-remote-why")).to_have_count(0)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        confirm(api, inbox, "bea@example.org")  # in her mail program
    page.evaluate("() => window.dispatchEvent(new Event('focus'))")  # back to the game's tab
    expect(card.get_by_test_id("notice-email-status")).to_have_text(
        "Emails go to bea@example.org.")
    page.reload()  # what the seat asked for is the server's: the page reads it back
    expect(page.get_by_test_id("notice-email-status")).to_have_text("Emails go to bea@example.org.")
    expect(page.get_by_test_id("notice-push")).to_be_checked()
    assert page.js_errors == []
    page.context.close()  # Bea has gone: the browser is closed
    with httpx.Client(base_url=server.url, timeout=10) as api:
        ann = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ann"}).json()["token"]
        play_until(api, gid, [ann, ""], 1)
        [msg] = inbox.wait(1)
        assert msg["To"] == "bea@example.org" and gid in msg["Subject"]
        [push] = service.wait("bea", 1)
        assert bea.read(push)["url"] == f"g/{gid}"
        assert api.get(f"/api/games/{gid}/seats/0/notify", headers=auth(ann)).json()["email"] is None


def test_the_card_stops_them_too(new_context: Callable[..., Any], server: Server,
                                 service: PushService, inbox: Inbox) -> None:
    bea = service.browser("bea")
    page, gid = seated_page(new_context, server.url, bea)
    card = page.get_by_test_id("notices")
    away = card.locator("[data-part=away]")
    card.get_by_test_id("notice-push").check()  # the address is given while it subscribes
    card.get_by_test_id("notice-email").fill("bea@example.org")
    card.get_by_test_id("notice-email-save").click()
    expect(card.get_by_test_id("notice-email-stop")).to_be_visible()
    assert card.get_by_test_id("notice-push").is_checked()  # (redrawn while subscribing: still)
    expect(away).to_have_attribute("data-synced", "1")
    card.get_by_test_id("notice-email-stop").click()
    expect(card.get_by_test_id("notice-email-status")).to_have_count(0)
    expect(card.get_by_test_id("notice-email")).to_have_value("")
    card.get_by_test_id("notice-push").uncheck()
    expect(card.get_by_test_id("notice-push")).not_to_be_checked()
    assert page.js_errors == []
    page.context.close()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        ann = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ann"}).json()["token"]
        play_until(api, gid, [ann, ""], 1)
    service.stays("bea", 0)
    assert [m["Subject"] for m in inbox.messages] == [  # only the address's confirmation
        "Red November: confirm your address for turn emails"]


def test_an_address_given_again_soon_after_says_no_new_link_went(
        new_context: Callable[..., Any], server: Server, service: PushService,
        inbox: Inbox) -> None:
    """Stop the emails and give the address again a moment later: no second confirmation email
    goes (one per 10 minutes), yet the card said "We sent a link to …" (browser audit, stop 55).
    It now says that no new link went, and when one goes (the last one may name another game:
    play-over-days audit, stop 64); after a reload it says what the seat's address waits for."""
    page, _ = seated_page(new_context, server.url, service.browser("bea"))
    card = page.get_by_test_id("notices")
    status = card.get_by_test_id("notice-email-status")
    card.get_by_test_id("notice-email").fill("bea@example.org")
    card.get_by_test_id("notice-email-save").click()
    expect(status).to_contain_text("We sent a link to bea@example.org")
    card.get_by_test_id("notice-email-stop").click()
    expect(status).to_have_count(0)
    card.get_by_test_id("notice-email").fill("bea@example.org")
    card.get_by_test_id("notice-email-save").click()
    expect(status).to_contain_text("No new link went to bea@example.org now")
    expect(status).to_contain_text("One goes the next time your seat waits for you")
    shot(page, "notices_email_later")
    assert len(inbox.messages) == 1  # the first confirmation only
    page.reload()
    expect(page.get_by_test_id("notices").get_by_test_id("notice-email-status")).to_contain_text(
        "We sent a link to bea@example.org")
    assert page.js_errors == []


def test_an_address_saved_while_the_card_reads_the_seat_s_old_one_stays(
        new_context: Callable[..., Any], server: Server, service: PushService) -> None:
    """The card reads the seat's address when the seat is taken; an answer that comes only after
    a new address was saved (read before it was stored) does not wipe the new one."""
    held: list[tuple[Any, Any]] = []  # the card's first read: answered now, delivered late

    def hold_read(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page, _ = seated_page(new_context, server.url, service.browser("bea"),
                          before=lambda p: p.route("**/seats/*/notify", hold_read))
    card = page.get_by_test_id("notices")
    card.get_by_test_id("notice-email").fill("bea@example.org")
    card.get_by_test_id("notice-email-save").click()
    expect(card.get_by_test_id("notice-email-stop")).to_be_visible()
    [(route, stale)] = held
    assert stale.json()["email"] is None  # read before the address was saved
    with page.expect_response("**/seats/*/notify"):
        route.fulfill(response=stale)
    page.evaluate("() => new Promise((r) => setTimeout(r, 300))")  # (the answer handled)
    expect(card.get_by_test_id("notice-email-stop")).to_be_visible()
    expect(card.get_by_test_id("notice-email-status")).to_contain_text("bea@example.org")
    assert page.js_errors == []


def test_a_server_without_mail_or_push_offers_neither(new_context: Callable[..., Any],
                                                      rn_url: str) -> None:
    page, _ = seated_page(new_context, rn_url, Browser("https://push.example.invalid/x"))
    card = page.get_by_test_id("notices")
    expect(card.get_by_test_id("notice-sound")).to_be_visible()
    page.wait_for_function("() => document.querySelector('[data-part=away]').dataset.state")
    expect(card.get_by_test_id("notice-push")).to_have_count(0)
    expect(card.get_by_test_id("notice-email-form")).to_have_count(0)
    assert page.js_errors == []


def test_a_seat_taken_after_opting_in_is_subscribed_too(new_context: Callable[..., Any],
                                                       server: Server,
                                                       service: PushService) -> None:
    """Hot seat: the page opted in for Bea's seat, then takes Ann's as well; with the page
    closed, Ann's turn is pushed to this browser."""
    bea = service.browser("both")
    page, gid = seated_page(new_context, server.url, bea)
    card = page.get_by_test_id("notices")
    card.get_by_test_id("notice-push").check()
    away = card.locator("[data-part=away]")
    expect(away).to_have_attribute("data-synced", "1")
    take_seat(page, 0, "Ann")
    expect(away).to_have_attribute("data-synced", "0,1")
    assert page.js_errors == []
    page.context.close()
    data = bea.read(service.wait("both", 1)[0])  # seed 3: Ann's gnome moves first
    assert "Ann" in data["body"] and data["game"] == gid


def test_the_address_field_shows_the_address_the_seat_gave(new_context: Callable[..., Any],
                                                           server: Server,
                                                           service: PushService) -> None:
    """Opened again (another day), the card shows the seat's address in its field as well as
    "Emails go to …": the empty field of the first drawing was taken for the player's draft, so
    it stayed empty beside the address; what the player types is kept while the card redraws."""
    page, gid = seated_page(new_context, server.url, service.browser("bea"))
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('rn.game.{gid}')).seats['1']")
    r = httpx.post(f"{server.url}/api/games/{gid}/seats/1/notify", headers=auth(token),
                   json={"email": "bea@example.org", "lang": "en"})
    assert r.status_code == 200, r.text
    page.reload()
    card = page.get_by_test_id("notices")
    expect(card.get_by_test_id("notice-email-status")).to_have_text(WAIT % "bea@example.org")
    expect(card.get_by_test_id("notice-email")).to_have_value("bea@example.org")
    card.get_by_test_id("notice-email").fill("bea@work.example")  # a draft, then a redraw
    card.get_by_test_id("notice-push").check()
    expect(card.get_by_test_id("notice-push")).to_be_checked()
    expect(card.get_by_test_id("notice-email")).to_have_value("bea@work.example")
    card.get_by_test_id("notice-email-save").click()
    expect(card.get_by_test_id("notice-email-status")).to_have_text(WAIT % "bea@work.example")
    expect(card.get_by_test_id("notice-email")).to_have_value("bea@work.example")
    assert page.js_errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_confirmation_link_asks_its_owner_in_their_language(
        browser: Any, size: str, server: Server, inbox: Inbox) -> None:
    """The page of the confirmation email's link (opened from a mail program, at a phone's and
    a desktop's size): it names the address and the game, in the language the seat asked for,
    offers yes and never, has no serious axe-core violation, and says what its button did."""
    with httpx.Client(base_url=server.url, timeout=10) as api:
        gid, _ = new_game(api, 2, seed=3)
        token = take(api, gid, 1, "Bea")
        api.post(f"/api/games/{gid}/seats/1/notify", headers=auth(token),
                 json={"email": "bea@example.org", "lang": "pl"})
    link = confirm_link(confirmation(inbox, "bea@example.org"))
    touch = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], base_url=server.url, has_touch=touch,
                              is_mobile=touch, bypass_csp=True)
    try:
        page = _page(ctx, link)
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        expect(page.get_by_text("bea@example.org")).to_be_visible()
        expect(page.get_by_test_id("unsubscribe-text")).to_contain_text(
            f"Chodzi o grę {gid}: każda gra pyta raz.")  # a yes is for this game only
        expect(page.get_by_test_id("unsubscribe-game")).to_have_attribute("href", f"../g/{gid}")
        assert axe_violations(page) == []
        shot(page, f"confirm-address-{size}")
        never = page.get_by_test_id("confirm-never")
        expect(never).to_have_text("Nie, nigdy nie piszcie na ten adres")
        never.click()
        expect(page.locator("main p")).to_contain_text("nie wyśle już żadnego e-maila")
        shot(page, f"confirm-address-never-{size}")
        assert page.js_errors == []
    finally:
        ctx.close()
    with httpx.Client(base_url=server.url, timeout=10) as api:
        assert api.get(f"/api/games/{gid}/seats/1/notify",
                       headers=auth(token)).json()["address"] == "refused"


def test_a_confirmation_email_that_could_not_be_sent_asks_to_check_the_address(
        new_context: Callable[..., Any], tmp_path: Path, service: PushService) -> None:
    """The mail server refused the confirmation email (here: nobody answers on its port): the
    card said "We sent a link to …" all the same, and the player waited for an email that never
    came. It now says the email could not be sent and asks to check the address, also after a
    reload."""
    server = Server(tmp_path / "down.db", extra=[
        "--smtp", "smtp://127.0.0.1:9", "--mail-from", "crew@rn.example",
        "--public-url", "https://rn.example"]).start()
    try:
        page, _ = seated_page(new_context, server.url, service.browser("bea"),
                              bypass_csp=True)  # (for axe-core's script)
        card = page.get_by_test_id("notices")
        card.get_by_test_id("notice-email").fill("bea@exmaple.org")
        card.get_by_test_id("notice-email-save").click()
        unsent = ("The email to bea@exmaple.org could not be sent. Check the address and press "
                  "“Email me” again; if it is right, try again later.")
        status = card.get_by_test_id("notice-email-status")
        expect(status).to_have_text(unsent)
        expect(status).to_have_class("warn")  # it stands out, as the lobby's warnings do
        status.scroll_into_view_if_needed()
        shot(page, "notices_email_unsent")
        assert axe_violations(page) == []
        page.set_viewport_size(SIZES["phone"])
        status.scroll_into_view_if_needed()
        shot(page, "notices_email_unsent_phone")
        page.reload()
        expect(page.get_by_test_id("notices").get_by_test_id("notice-email-status")).to_have_text(
            unsent)
        assert page.js_errors == []
    finally:
        server.stop()


def test_too_many_addresses_are_refused_in_the_page_s_words_with_the_wait(
        new_context: Callable[..., Any], tmp_path: Path, service: PushService,
        inbox: Inbox) -> None:
    """The refusal read "Slow down: too many messages. (too many unconfirmed email addresses:
    at most 10 in 3600 s; try again in 3597 s)", the server's English in every language
    (play-over-days audit, stop 55). It now says to try again in so many minutes, translated,
    and in the language the page switches to."""
    flags = [*mail_flags(inbox)[:6], "--limit-addresses-per-hour", "1"]
    s = Server(tmp_path / "limited.db", extra=flags, limits=True).start()
    try:
        page, _ = seated_page(new_context, s.url, service.browser("bea"))
        card = page.get_by_test_id("notices")
        card.get_by_test_id("notice-email").fill("bea@example.org")
        card.get_by_test_id("notice-email-save").click()
        expect(card.get_by_test_id("notice-email-status")).to_contain_text(
            "We sent a link to bea@example.org")
        card.get_by_test_id("notice-email").fill("other@example.org")
        card.get_by_test_id("notice-email-save").click()
        why = card.get_by_test_id("notice-remote-why")
        # (the hour is counted in clock-hour buckets: the wait is what is left of this one)
        expect(why).to_have_text(re.compile(r"^Slow down: too many requests\. "
                                            r"Try again in \d+ (min|s)\.$"))
        why.scroll_into_view_if_needed()
        shot(page, "notices_email_rate")
        page.get_by_test_id("language-select").select_option("de")
        expect(why).to_have_text(re.compile(r"^Langsamer: zu viele Anfragen\. "
                                            r"Versuche es in \d+ (Min\.|s) wieder\.$"))
        assert page.js_errors == []
    finally:
        s.stop()
