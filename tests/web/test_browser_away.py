"""Issue 18 §2 in the browser: three people play, the one to move closes the page; the other two
see at once, at the top of the page and without scrolling, a banner saying who is gone with the
server's countdown to when the seat may go to a bot, and one button; pressed within 35 s of the
close (the real 30 s takeover grace), it gives the seat to a bot, the chat says so, and the game
plays on to its end (the other two hand their seats to bots too: bots finish it).

Its own ``rednovember serve`` (``--takeover-grace 30``, ``--bot-delay 0``) on Debian's Chromium.
Screenshots of the banner at desktop (1366×768, 1920×1080) and phone (390×844, 844×390) sizes go
to artifacts/screenshots/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsertools import SHOTS, SKIP, TIMEOUT, VIEWPORT, _page, expect, state, take_seat
from webtools import Server, new_game

pytestmark = SKIP

Page = Any  # playwright.sync_api.Page
SIZES = {"desktop": {"width": 1366, "height": 768}, "wide": {"width": 1920, "height": 1080},
         "phone": {"width": 390, "height": 844}, "phone-landscape": {"width": 844, "height": 390}}
GRACE = 30.0  # the server's default takeover grace


@pytest.fixture
def grace_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "away.db", bot_delay=0.0, takeover_grace=GRACE).start()
    try:
        yield server
    finally:
        server.stop()


def _banner_in_view(page: Page, name: str) -> None:
    """The banner and its button are on screen without scrolling at every size (screenshots)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("() => window.scrollTo(0, 0)")
        for tid in ("away-banner", "away-give"):
            expect(page.get_by_test_id(tid)).to_be_in_viewport(ratio=1.0)
        page.screenshot(path=str(SHOTS / f"away-{name}-{label}.png"), animations="disabled")
    page.set_viewport_size(VIEWPORT)


def test_a_player_who_leaves_is_replaced_from_the_banner_and_the_game_ends(
        browser: Any, grace_server: Server) -> None:
    base = grace_server.url
    with httpx.Client(base_url=base, timeout=10.0) as api:
        gid, _ = new_game(api, 3, seed=18)
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB", base_url=base)
                for _ in range(3)]
    try:
        pages = []
        for seat, ctx in enumerate(contexts):
            ctx.set_default_timeout(TIMEOUT)
            page = _page(ctx, f"/g/{gid}")
            take_seat(page, seat, ["Ann", "Bob", "Cleo"][seat])
            pages.append(page)
        mover = state(pages[0], seat=0)["to_move"]
        for seat, page in enumerate(pages):
            assert state(page, seat=seat)["status"] == "playing"
            expect(page.get_by_test_id("away-banner")).to_be_hidden()
        name = ["Ann", "Bob", "Cleo"][mover]
        others = [p for seat, p in enumerate(pages) if seat != mover]

        pages[mover].close()
        closed = time.monotonic()
        for page in others:
            banner = page.get_by_test_id("away-banner")
            expect(banner).to_be_visible()
            expect(page.get_by_test_id("away-title")).to_contain_text(f"{name} (")
            expect(page.get_by_test_id("away-countdown")).to_contain_text("give the seat to a bot in 0:")
            expect(page.get_by_test_id("away-give")).to_be_disabled()
            assert banner.locator("button").count() == 1  # one button
        _banner_in_view(others[0], "countdown")
        # the chat says who left
        expect(others[1].get_by_test_id("chat-away")).to_contain_text(f"{name} (")
        # the button comes alive when the server's countdown ends
        give = others[0].get_by_test_id("away-give")
        expect(give).to_be_enabled(timeout=int((GRACE + 5) * 1000))
        expect(others[0].get_by_test_id("away-countdown")).to_contain_text("can go to a bot now")
        _banner_in_view(others[0], "ready")
        give.click()  # at the top of the page, no scrolling
        assert time.monotonic() - closed < 35.0
        for page in others:
            expect(page.get_by_test_id("away-banner")).to_be_hidden()
            expect(page.get_by_test_id(f"seat-{mover}")).to_have_attribute("data-kind", "bot")
            expect(page.get_by_test_id("chat-to_bot")).to_contain_text(name)
        # the game plays on: the two left hand their own seats to bots, and the bots finish it
        for seat, page in enumerate(pages):
            if seat != mover:
                page.evaluate("(s) => window.rnGame.giveToBot(s, 'heuristic')", seat)
        for page in others:
            expect(page.get_by_test_id("game-over")).to_be_attached(timeout=120_000)
            assert not page.js_errors, page.js_errors
    finally:
        for ctx in contexts:
            ctx.close()
