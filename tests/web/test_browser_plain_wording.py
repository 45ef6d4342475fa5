"""Issue 11's wording fixes reach the web game too (static/js/describe.js and show.js mirror
i18n/describe.py): Grog taken from the captain's stock is a public log entry (`draw_stock`, also
in Mad Gnomes, with its own show card), and in Harder a drawn Respite says it leaves the game.
Debian's Chromium and the session's real server (fixtures of conftest.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from browsertools import SKIP, _page, expect, shot, state
from webtools import new_game, take

from rednovember.i18n import catalog
from rednovember.i18n.describe import describe_entry
from rednovember.rules import Config
from rednovember.rules import new_game as engine_game

pytestmark = SKIP
VARIANTS = ["mad-gnomes", "harder"]
SEED = 5

# The sentences of made-up entries, and the show card of a stock draw, drawn by the page itself.
_TEXTS = """async (respite) => {
    const d = await import("/static/js/describe.js");
    const show = await import("/static/js/show.js");
    const model = window.rnGame.model();
    const steps = show.buildSteps([["draw_stock", 1, 2]], model.view, model.view);
    const box = document.createElement("div");
    box.innerHTML = show.stepHTML(model, steps[0]);
    const card = document.createElement("div");  // the event's card on the board's show
    card.innerHTML = show.stepHTML(model, show.buildSteps([["event", respite, 39]], model.view,
                                                          model.view).find((s) => s.kind === "event"));
    return {stock: d.describeEntry(model, ["draw_stock", 1, 2]),
            respite: d.describeEntry(model, ["event", respite, 39]),
            fire: d.describeEntry(model, ["fire", 4]),
            kinds: steps.map((s) => s.kind),
            items: [...box.querySelectorAll("[data-testid=show-item]")].map((e) => e.textContent),
            hidden: box.querySelectorAll("[data-testid=show-hidden]").length,
            effect: card.querySelector("[data-testid=show-effect]").textContent};
}"""


# Blue's stock draw queued on the board's show, held until the test moves on.
_SHOW_STOCK = """async () => {
    const show = await import("/static/js/show.js");
    const game = window.rnGame;
    game.show.pace = 600000;
    const view = game.model().view;
    game.show.enqueue(show.buildSteps([["draw_stock", 1, 2]], view, view));
}"""
PHONE = {"width": 390, "height": 844}


def _open(new_context: Any, rn_url: str, lang: str) -> Any:
    api = httpx.Client(base_url=rn_url, timeout=30)
    gid, _ = new_game(api, 3, seed=SEED, variants=VARIANTS)
    token = take(api, gid, 0)
    api.close()
    ctx = new_context()
    saved = json.dumps({"seats": {"0": token}})
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {json.dumps(saved)});"
                        f"localStorage.setItem('rn.lang', {json.dumps(lang)})")
    page = _page(ctx, f"/g/{gid}")
    state(page)
    return page


def test_stock_grog_and_harders_respite_in_the_web_log(new_context: Any, rn_url: str) -> None:
    g = engine_game(Config(players=3, seed=SEED, variants=frozenset(VARIANTS)))
    respite = next(i for i, c in enumerate(g.data.events) if c.respite)
    for lang in ("en", "de"):
        page = _open(new_context, rn_url, lang)
        got = page.evaluate(_TEXTS, respite)
        # the page says what the Python describer says, for seat 0 (Blue's cards are not its own)
        assert got["stock"] == describe_entry(("draw_stock", 1, 2), g, lang, 0)
        assert got["respite"] == describe_entry(("event", respite, 39), g, lang, 0)
        assert got["fire"] == describe_entry(("fire", 4), g, lang, 0)
        grog = catalog(lang).raw("items", g.data.items[g.data.stock_item].id)
        assert got["kinds"] == ["items"] and got["items"] == [grog, grog] and got["hidden"] == 0
        assert page.js_errors == []
    assert got["stock"] == "Blau nimmt 2 Grog aus dem Vorrat des Käptns."
    assert got["respite"].endswith("Größere Herausforderung: diese Atempause verlässt das Spiel.")
    assert got["effect"].endswith("Größere Herausforderung: diese Atempause verlässt das Spiel.")
    # the card of a stock draw on the board, as a seat that is not Blue's sees it
    page.evaluate(_SHOW_STOCK)
    card = page.locator("[data-testid=show-card]")
    expect(card).to_be_visible()
    expect(card.locator("[data-testid=show-item]")).to_have_count(2)
    expect(card.locator("[data-testid=show-hidden]")).to_have_count(0)
    shot(page, "plain-web-de-stock-card")
    page.set_viewport_size(PHONE)
    expect(card).to_be_visible()
    shot(page, "plain-web-de-stock-card-phone")
