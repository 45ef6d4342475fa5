"""Web Push in the browser (issue 20 §3): the service worker (/sw.js, static/sw/worker.js) shows the
server's push as a notification, with the game page's address, the seat's words and the game's
tag, so a second push of the same game replaces the first and the page's own clearing closes it.
A real subscription needs a push service this machine cannot reach: the push is delivered with the
DevTools protocol (``ServiceWorker.deliverPushMessage``), the payload being the server's own
(web/push.payload). Debian's Chromium and the session's real server (fixtures in conftest.py)."""

from __future__ import annotations

import time
from typing import Any

import httpx
from browsertools import SKIP, TIMEOUT, _page, expect

from rednovember.web.push import payload

pytestmark = SKIP

CONTROLLED = "() => navigator.serviceWorker && !!navigator.serviceWorker.controller"
# The notifications the worker shows, as the page reads them.
NOTES = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url,
                  icon: n.icon}))"""
# Waits (up to ms) until the worker shows ``count`` notifications; then what they are.
NOTES_WHEN = """async ([count, ms]) => {
    const until = Date.now() + ms;
    for (;;) {
        const ns = await (await navigator.serviceWorker.ready).getNotifications();
        if (ns.length === count || Date.now() > until) return ns.map((n) => ({
            title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url, icon: n.icon}));
        await new Promise((r) => setTimeout(r, 50));
    }
}"""


def worker_registration(ctx: Any, page: Any) -> tuple[Any, str]:
    """A DevTools session on the page and the id of the service worker registration that controls
    this page. Not any registration of the site's scope: the browser also reports those of an
    earlier test's context (the same scope), and a push delivered there shows nothing here."""
    cdp = ctx.new_cdp_session(page)
    me = cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
    found: set[str] = set()
    cdp.on("ServiceWorker.workerVersionUpdated",
           lambda e: found.update(v["registrationId"] for v in e["versions"]
                                  if me in v.get("controlledClients", [])))
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + TIMEOUT / 1000
    while not found:  # the events come while Playwright waits
        assert time.monotonic() < end, "no service worker reported controlling the page"
        page.wait_for_timeout(50)
    [rid] = found
    return cdp, rid


def test_a_push_becomes_a_notification_that_leads_to_the_game(new_context: Any,
                                                              rn_url: str) -> None:
    gid = httpx.post(f"{rn_url}/api/games", json={"players": 2, "seed": 3}).json()["game"]["id"]
    ctx = new_context()
    ctx.grant_permissions(["notifications"], origin=rn_url)
    page = _page(ctx, "/")  # any page of the site: the worker then runs for all of it
    page.wait_for_function(CONTROLLED)
    cdp, rid = worker_registration(ctx, page)
    data = payload("de", gid, "Rot", "Bea")
    cdp.send("ServiceWorker.deliverPushMessage",
             {"origin": rn_url, "registrationId": rid, "data": data})
    [note] = page.evaluate(NOTES_WHEN, [1, TIMEOUT])
    assert note["title"] == "Red November: Du bist am Zug"
    assert note["body"] == f"Bea, die Mannschaft wartet auf dich: Rot muss in Spiel {gid} entscheiden."
    assert note["tag"] == f"rn-turn-{gid}" and note["url"] == f"{rn_url}/g/{gid}"
    assert "/static/img/icon-192." in note["icon"]
    # the same game again: it replaces the first (one notification per game)
    cdp.send("ServiceWorker.deliverPushMessage",
             {"origin": rn_url, "registrationId": rid, "data": payload("en", gid, "Red", "Bea")})
    page.wait_for_function(f"""async () => (await (await navigator.serviceWorker.ready)
        .getNotifications()).some((n) => n.title === "Red November: your turn"
                                  && n.tag === "rn-turn-{gid}")""")
    assert len(page.evaluate(NOTES)) == 1
    # a page of that game, shown, closes its notification (static/js/notices.js)
    game = _page(ctx, f"/g/{gid}")
    expect(game.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    game.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate(NOTES_WHEN, [0, TIMEOUT]) == []
    assert page.js_errors == [] and game.js_errors == []


def test_a_push_never_leads_away_from_the_site(new_context: Any, rn_url: str) -> None:
    """A payload that is not the server's (another site's address, no JSON at all) still shows a
    notification (browsers allow push only so), and it leads to the site's own start page."""
    ctx = new_context()
    ctx.grant_permissions(["notifications"], origin=rn_url)
    page = _page(ctx, "/")
    page.wait_for_function(CONTROLLED)
    cdp, rid = worker_registration(ctx, page)
    for n, data in enumerate(['{"url": "https://elsewhere.example/g/x", "game": "a"}',
                              '{"url": "//elsewhere.example/x", "game": "b"}', "not json"], 1):
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": rn_url, "registrationId": rid, "data": data})
        notes = page.evaluate(NOTES_WHEN, [n, TIMEOUT])
        assert len(notes) == n
    assert {note["url"] for note in notes} == {f"{rn_url}/"}
    assert {note["title"] for note in notes} == {"Red November"}
    assert page.js_errors == []
