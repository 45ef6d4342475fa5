"""The web game under a sub-path (issue 9): ``rednovember serve --root-path /rn`` behind a reverse
proxy that strips /rn (tests/web/stripproxy.py answers 404 to anything outside /rn itself). A game
is created and played a few moves, its seat link opened on another device, the rules page, the
replay and the lobby visited; every request the pages make, WebSockets included, stays under /rn.
Debian's Chromium, with the helpers of browsertools.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browsertools import SKIP, TIMEOUT, VIEWPORT, _page, expect, play_one, shot, state
from stripproxy import StripProxy, strip_proxy
from webtools import Server

pytestmark = SKIP


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StripProxy]:
    server = Server(tmp_path_factory.mktemp("rootpath-browser") / "games.db",
                    extra=["--root-path", "/rn"]).start()
    try:
        with strip_proxy(server.port, "/rn") as p:
            yield p
    finally:
        server.stop()


class Recorder:
    """Every request (and WebSocket) of one browser context."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.failed: list[str] = []  # answers of 400 and more

    def context(self, browser: Any) -> Any:
        ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("request", lambda r: self.urls.append(r.url))
        ctx.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))
        ctx.on("page", lambda page: page.on("websocket", lambda ws: self.urls.append(ws.url)))
        return ctx

    def outside(self, base: str) -> list[str]:
        ws_base = base.replace("http://", "ws://", 1)
        return [u for u in self.urls
                if not u.startswith((base + "/", ws_base + "/", "data:", "blob:"))]


@pytest.fixture
def recorder(browser: Any) -> Iterator[tuple[Recorder, list[Any]]]:
    rec, made = Recorder(), []
    yield rec, made
    for ctx in made:
        ctx.close()


def test_a_game_under_a_sub_path_keeps_every_request_under_it(
        browser: Any, proxy: StripProxy, recorder: tuple[Recorder, list[Any]]) -> None:
    rec, made = recorder
    base = proxy.url  # http://127.0.0.1:PORT/rn
    host = rec.context(browser)
    made.append(host)
    page = _page(host, base + "/")
    page.wait_for_selector("[data-testid=create-form]")
    assert page.evaluate("() => document.documentElement.dataset.root") == "/rn"
    shot(page, "rootpath-lobby")
    page.select_option("[data-testid=create-players]", "3")
    page.fill("[data-testid=create-seed]", "11")
    page.click("[data-testid=create-game]")
    page.wait_for_selector("[data-testid=game-page]")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    gid = page.evaluate("() => window.rnGame.id")
    assert page.evaluate("() => location.pathname") == f"/rn/g/{gid}"
    expect(page.get_by_test_id("share-link")).to_have_value(f"{base}/g/{gid}")
    for seat in range(3):  # hot seat: this browser holds every seat
        page.fill("[data-testid=seat-name]", f"P{seat}")
        page.click(f"[data-testid=take-seat-{seat}]")
        page.wait_for_selector(f"[data-testid=seat-tab-{seat}]")
    st = state(page, your_turn=True)
    for _ in range(3):  # a few moves, through the WebSocket under /rn
        st = play_one(page, st)
        st = state(page, after=st["version"] - 1, your_turn=True)
    shot(page, "rootpath-game")

    # the seat link (and its QR code) point under /rn; another device adopts the seat from it
    page.click("[data-testid=seat-tab-0]")
    page.click("[data-testid=seat-link-0]")
    link_box = page.get_by_test_id("seat-link-url")
    expect(link_box).to_have_value(re.compile("^" + re.escape(f"{base}/g/{gid}#seat=") + r"[\w-]+$"))
    link = link_box.input_value()
    page.click("[data-testid=seat-link-close]")
    other = rec.context(browser)
    made.append(other)
    laptop = _page(other, link)
    expect(laptop.get_by_test_id("seat-tab-0")).to_be_visible()
    assert laptop.evaluate("() => location.pathname + location.hash") == f"/rn/g/{gid}"
    token = json.loads(laptop.evaluate(f"() => localStorage.getItem('rn.game.{gid}')"))
    assert list(token["seats"]) == ["0"]

    # the rules: the dialog's link opens the full page under /rn, and its back link returns
    page.click("#rules-btn")
    full = page.get_by_test_id("rules-full-page")
    expect(full).to_have_attribute("href", f"/rn/rules/en?back=%2Fg%2F{gid}")
    full.click()
    page.wait_for_url(f"{base}/rules/en?back=%2Fg%2F{gid}")
    expect(page.get_by_test_id("rules-toc")).to_be_visible()
    shot(page, "rootpath-rules")
    expect(page.get_by_test_id("rules-lang-de")).to_have_attribute("href",
                                                                   f"/rn/rules/de?back=/g/{gid}")
    page.click("[data-testid=rules-back]")
    page.wait_for_url(f"{base}/g/{gid}")
    state(page)

    # the replay and back, then the lobby (the home link) listing this game
    page.click("[data-testid=replay-link]")
    page.wait_for_url(f"{base}/g/{gid}/replay?step=*")
    viewer = page.get_by_test_id("replay-page")
    expect(viewer).to_be_visible()
    assert int(viewer.get_attribute("data-steps") or 0) >= 3
    page.click("[data-testid=replay-back]")
    page.wait_for_url(f"{base}/g/{gid}")
    state(page)
    page.click("[data-testid=home-link]")
    page.wait_for_url(f"{base}/")
    expect(page.get_by_test_id("my-games")).to_contain_text(gid)
    shot(page, "rootpath-lobby-with-game")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_test_id("my-games")).to_be_visible()
    shot(page, "rootpath-lobby-phone")

    assert not page.js_errors and not laptop.js_errors, (page.js_errors, laptop.js_errors)
    assert any(u.startswith(base.replace("http://", "ws://") + "/ws/games/") for u in rec.urls)
    assert not rec.outside(base), rec.outside(base)
    assert not proxy.refused, proxy.refused
    assert not rec.failed, rec.failed  # every page's styles, scripts and images were found


def test_the_installed_app_lives_under_the_sub_path(
        browser: Any, proxy: StripProxy, recorder: tuple[Recorder, list[Any]]) -> None:
    """Issue 20 §4: the service worker's scope, the manifest's start and icons, and the offline
    shell are all under /rn."""
    rec, made = recorder
    base = proxy.url
    ctx = rec.context(browser)
    made.append(ctx)
    page = _page(ctx, base + "/")
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == base + "/"
    manifest = page.evaluate("async () => (await fetch("
                             "document.querySelector('link[rel=manifest]').href)).json()")
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/rn/"
    assert all(i["src"].startswith("/rn/static/img/icon-") for i in manifest["icons"])
    ctx.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("offline-note")).to_have_text("You are offline; reconnecting…")
    ctx.set_offline(False)
    expect(page.get_by_test_id("create-form")).to_be_visible()
    assert rec.outside(base) == []
    assert rec.failed == []
    assert page.js_errors == []
