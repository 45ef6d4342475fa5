"""Web Push in the browser (issue 20 §3): the service worker (/sw.js, static/sw/worker.js) shows the
server's push as a notification, with the game page's address, the seat's words and the game's
tag, so a second push of the same game replaces the first and the page's own clearing closes it.
A real subscription needs a push service this machine cannot reach: the push is delivered with the
DevTools protocol (``ServiceWorker.deliverPushMessage``), the payload being the server's own
(web/push.payload), and the notifications are read once the worker's push event has completed
(the protocol's BackgroundService reports it). Debian's Chromium and the session's real server
(fixtures in conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from browsertools import SKIP, TIMEOUT, _page, expect

from rednovember.web.push import payload

pytestmark = SKIP

CONTROLLED = "() => navigator.serviceWorker && !!navigator.serviceWorker.controller"
# The notifications the worker shows, as the page reads them: once the worker has finished its
# push event, not while it shows one. Chromium's getNotifications() deletes from its records each
# notification made before the call that its display does not list yet, so a call that overlaps
# the showing can lose the new one for good (it stays on the screen, but is never listed).
NOTES = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url,
                  icon: n.icon}))"""
# Waits (up to ms) until the worker shows ``count`` notifications; then what they are. Only while
# none is being shown (above).
NOTES_WHEN = """async ([count, ms]) => {
    const until = Date.now() + ms;
    for (;;) {
        const ns = await (await navigator.serviceWorker.ready).getNotifications();
        if (ns.length === count || Date.now() > until) return ns.map((n) => ({
            title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url, icon: n.icon}));
        await new Promise((r) => setTimeout(r, 50));
    }
}"""
# The DevTools protocol's BackgroundService reports what the browser did with each push and
# notification: "Push event dispatched", "Notification displayed", "Push event completed" (once the
# worker's waitUntil promise settled, with its status). A failing test shows them.
SERVICES = ("pushMessaging", "notifications")
DONE = "Push event completed"


def wait_until(page: Any, ready: Callable[[], object], what: str) -> None:
    """Until ``ready()`` holds: DevTools events come while Playwright waits."""
    end = time.monotonic() + TIMEOUT / 1000
    while not ready():
        assert time.monotonic() < end, what
        page.wait_for_timeout(20)


class Pushes:
    """Delivers pushes to the service worker that controls ``page``: each call returns once the
    worker has handled the push (its push event completed: the worker waits for showNotification).
    Every browser context has its own registrations (the first one's id is "0" in each): the one
    of the version that controls this page."""

    def __init__(self, ctx: Any, page: Any, origin: str) -> None:
        self.page, self.origin = page, origin
        self.cdp = ctx.new_cdp_session(page)
        self.events: list[tuple[str, str, dict[str, str]]] = []  # what the browser reported
        me = self.cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
        found: set[str] = set()
        self.cdp.on("ServiceWorker.workerVersionUpdated",
                    lambda e: found.update(v["registrationId"] for v in e["versions"]
                                           if me in v.get("controlledClients", [])))
        self.cdp.on("BackgroundService.backgroundServiceEventReceived",
                    lambda e: self.reported(e["backgroundServiceEvent"]))
        for service in SERVICES:
            self.cdp.send("BackgroundService.startObserving", {"service": service})
            self.cdp.send("BackgroundService.setRecording",
                          {"shouldRecord": True, "service": service})
        self.cdp.send("ServiceWorker.enable")
        wait_until(page, lambda: found, "no service worker reported controlling the page")
        [self.rid] = found

    def reported(self, event: dict[str, Any]) -> None:
        meta = {m["key"]: m["value"] for m in event["eventMetadata"]}
        self.events.append((event["eventName"], event["instanceId"], meta))

    def completed(self) -> list[dict[str, str]]:
        return [meta for name, _, meta in self.events if name == DONE]

    def __call__(self, data: str) -> None:
        before = len(self.completed())
        self.cdp.send("ServiceWorker.deliverPushMessage",
                      {"origin": self.origin, "registrationId": self.rid, "data": data})
        wait_until(self.page, lambda: len(self.completed()) > before,
                   f"the worker did not finish the push event: {self.events}")
        assert self.completed()[before].get("Status") == "Success", self.events


def shown(page: Any, count: int, push: Pushes) -> list[dict[str, Any]]:
    """The notifications, ``count`` of them (else what the browser reported of the pushes)."""
    notes: list[dict[str, Any]] = page.evaluate(NOTES)
    assert len(notes) == count, (notes, push.events)
    return notes


def test_a_push_becomes_a_notification_that_leads_to_the_game(new_context: Any,
                                                              rn_url: str) -> None:
    gid = httpx.post(f"{rn_url}/api/games", json={"players": 2, "seed": 3}).json()["game"]["id"]
    ctx = new_context()
    ctx.grant_permissions(["notifications"], origin=rn_url)
    page = _page(ctx, "/")  # any page of the site: the worker then runs for all of it
    page.wait_for_function(CONTROLLED)
    push = Pushes(ctx, page, rn_url)
    push(payload("de", gid, "Rot", "Bea"))
    [note] = shown(page, 1, push)
    assert note["title"] == "Roter November: Du bist am Zug"
    assert note["body"] == f"Bea, die Mannschaft wartet auf dich: Rot muss in Spiel {gid} entscheiden."
    assert note["tag"] == f"rn-turn-{gid}" and note["url"] == f"{rn_url}/g/{gid}"
    assert "/static/img/icon-192." in note["icon"]
    # the same game again: it replaces the first (one notification per game)
    push(payload("en", gid, "Red", "Bea"))
    [note] = shown(page, 1, push)
    assert note["title"] == "Red November: your turn" and note["tag"] == f"rn-turn-{gid}"
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
    push = Pushes(ctx, page, rn_url)
    for n, data in enumerate(['{"url": "https://elsewhere.example/g/x", "game": "a"}',
                              '{"url": "//elsewhere.example/x", "game": "b"}', "not json"], 1):
        push(data)
        notes = shown(page, n, push)  # other games' tags, and none: one each
    assert {note["tag"] for note in notes} == {"rn-turn-a", "rn-turn-b", "rn-turn"}
    assert {note["url"] for note in notes} == {f"{rn_url}/"}
    assert {note["title"] for note in notes} == {"Red November"}
    assert page.js_errors == []
