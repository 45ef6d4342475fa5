"""The installable app (issue 20 §4), in the browser: Chromium finds the site installable (the
DevTools protocol's own check, and the manifest it read); once the service worker controls a page,
the page opened offline shows the app shell saying "You are offline; reconnecting…" and gets
going by itself when the network is back — a game page to its open connection. The worker keeps
exactly one shell cache, named by this build's version, and an upgrade of the server replaces it
and runs the new code.
Debian's Chromium and the session's real server (fixtures in conftest.py)."""

from __future__ import annotations

import shutil
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
from browsertools import ARGS, CHROMIUM, SKIP, TIMEOUT, VIEWPORT, _page, expect, shot
from webtools import free_port, in_process

from rednovember.web.app import STATIC_DIR, create_app

pytestmark = SKIP

CONTROLLED = "() => navigator.serviceWorker && !!navigator.serviceWorker.controller"


def test_chromium_finds_the_site_installable(browser: Any, rn_url: str, tmp_path: Path) -> None:
    # a profile on disk: Chromium installs nothing from an off-the-record context ("in-incognito")
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, viewport=VIEWPORT,
        base_url=rn_url)
    try:
        ctx.set_default_timeout(TIMEOUT)
        installable(ctx, rn_url)
    finally:
        ctx.close()


def installable(ctx: Any, rn_url: str) -> None:
    page = _page(ctx, "/")
    page.wait_for_function(CONTROLLED)
    cdp = ctx.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    got = cdp.send("Page.getAppManifest")
    assert got["url"] == f"{rn_url}/manifest.webmanifest"
    assert got["errors"] == []
    manifest = httpx.get(got["url"]).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    assert page.js_errors == []


def test_a_game_opened_offline_says_so_and_reconnects_by_itself(new_context: Any,
                                                               rn_url: str) -> None:
    gid = httpx.post(f"{rn_url}/api/games", json={"players": 2, "seed": 3}).json()["game"]["id"]
    ctx = new_context()
    page = _page(ctx, f"/g/{gid}")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    page.wait_for_function(CONTROLLED)
    version = httpx.get(f"{rn_url}/sw.js").text.split('"version":"')[1].split('"')[0]
    assert page.evaluate("() => caches.keys()") == [f"rn-shell-{version}"]
    conn = page.get_by_test_id("conn-status")
    ctx.set_offline(True)
    # the socket drops (the emulation keeps open sockets open: close it as a lost network would)
    page.evaluate("() => window.rnGame.socket.ws.close()")
    expect(conn).to_have_attribute("data-state", "offline")
    expect(conn).to_have_text("You are offline; reconnecting…")
    ctx.set_offline(False)
    expect(conn).to_have_attribute("data-state", "open")
    ctx.set_offline(True)
    page.reload()  # the app shell, from the worker
    note = page.get_by_test_id("offline-note")
    expect(note).to_have_text("You are offline; reconnecting…")
    expect(conn).to_have_text("You are offline; reconnecting…")
    expect(page.get_by_test_id("home-link")).to_be_visible()
    # a style sheet's plain url() (the brand's mark) comes from the shell too
    assert page.evaluate("async () => (await fetch('/static/img/favicon.svg')).status") == 200
    expect(page.get_by_test_id("language-select")).to_be_hidden()  # it needs the server
    shot(page, "app-offline")
    ctx.set_offline(False)  # no click: the page goes on by itself
    expect(conn).to_have_attribute("data-state", "open")
    expect(note).to_have_count(0)
    expect(page.get_by_test_id("game-id")).to_have_text(gid)
    assert page.js_errors == []


def test_the_offline_note_speaks_the_players_language(new_context: Any) -> None:
    ctx = new_context(locale="de-DE")
    page = _page(ctx, "/")
    page.wait_for_function(CONTROLLED)
    expect(page.get_by_test_id("create-form")).to_be_visible()
    ctx.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("offline-note")).to_have_text("Du bist offline; verbinde neu …")
    ctx.set_offline(False)
    expect(page.get_by_test_id("create-form")).to_be_visible()
    expect(page.get_by_test_id("offline-note")).to_have_count(0)


def serving(static: Path, port: int, db: Path) -> AbstractContextManager[str]:
    """The app on ``port`` with its front-end from ``static``, in this process."""
    return in_process(create_app(f"sqlite:///{db}", static_dir=static), port)


SHELLS = "async () => (await caches.keys()).filter((k) => k.startsWith('rn-shell-'))"
# Waits (up to a time in ms) until the only shell is another than ``old``.
NEW_SHELL = """async ([old, ms]) => {
    const until = Date.now() + ms;
    for (;;) {
        const k = (await caches.keys()).filter((n) => n.startsWith("rn-shell-"));
        if (k.length === 1 && k[0] !== old) return true;
        if (Date.now() > until) return k;
        await new Promise((r) => setTimeout(r, 50));
    }
}"""
BRAND = "() => getComputedStyle(document.querySelector('.brand')).outlineColor"


def test_an_upgrade_replaces_the_shell_and_runs_the_new_code(new_context: Any,
                                                            tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    port, db = free_port(), tmp_path / "games.db"
    ctx = new_context()
    with serving(static, port, db) as url:
        page = _page(ctx, url + "/")
        page.wait_for_function(CONTROLLED)
        old = page.evaluate(SHELLS)
        assert len(old) == 1
        colour = page.evaluate(BRAND)
    with (static / "css" / "app.css").open("a", encoding="utf-8") as f:
        f.write("\n.brand { outline: 2px solid rgb(1, 2, 3); }\n")
    with serving(static, port, db) as url:
        page.reload()  # the page from the network, which names the new files
        expect(page.get_by_test_id("create-form")).to_be_visible()
        assert page.evaluate(BRAND) == "rgb(1, 2, 3)" != colour
        # the new worker took over: one shell, the new one
        assert page.evaluate(NEW_SHELL, [old[0], TIMEOUT]) is True
        page.reload()
        assert page.evaluate(BRAND) == "rgb(1, 2, 3)"
    assert page.js_errors == []
