"""Browser tests of the game on phones and tablets (issue 8): at 390×844, 844×390, 1024×768 and
1180×820 (touch contexts) the page never scrolls sideways, every control a finger may tap is at
least 44×44 px (an SVG hatch by its invisible hit circle), and a 3-player game with one person and
two bots is played by tapping the board and the bottom sheet. At 1366×768 the whole time track
shows without scrolling. Debian's Chromium and the session's real server (tests/web/conftest.py);
screenshots of every screen at every size go to artifacts/screenshots/mobile-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsertools import (
    ALL,
    ROOT,
    SKIP,
    TOUCH,
    _page,
    expect,
    shot,
    state,
)
from webtools import bot_game

pytestmark = SKIP

Page = Any  # playwright.sync_api.Page
I18N = ROOT / "src" / "rednovember" / "i18n"


# --- what the tests read ----------------------------------------------------------------------
def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"


# Every visible control: buttons, links, fields, tabs and the board's targets (rooms, the Sea,
# hatches and gnomes; a hatch or a gnome by its hit circle; a checkbox by its label). Returns the
# ones under 44×44 px.
_SMALL = """() => {
    const out = [];
    const sel = "button, a[href], select, input:not([type=hidden]), [role=tab], "
        + ".board-svg .room.target, .board-svg .sea-zone.target, .board-svg .hatch.target, "
        + ".board-svg .gnome.target";
    for (const el of document.querySelectorAll(sel)) {
        if (el.closest(".sr-only")) continue;  // keyboard-only copies of the options
        let hit = el;
        if (el.matches("input[type=checkbox], input[type=radio]")) hit = el.closest("label") || el;
        if (el.matches(".hatch.target, .gnome.target")) hit = el.querySelector(".hit") || el;
        const r = hit.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        // an HTML control by its layout size: a card sliding in is scaled for a moment, its
        // buttons are not smaller for it; the board's SVG targets by what the zoom shows
        const [w, h] = hit instanceof HTMLElement ? [hit.offsetWidth, hit.offsetHeight]
            : [r.width, r.height];
        if (w < 43.5 || h < 43.5) {
            out.push(`${el.tagName.toLowerCase()}[${el.dataset.testid || el.className.baseVal
                || el.className || el.id}] ${w.toFixed(1)}×${h.toFixed(1)}`);
        }
    }
    return out;
}"""


def targets_fit_fingers(page: Page) -> int:
    """Asserts every visible control is at least 44×44 px; returns how many were checked."""
    small = page.evaluate(_SMALL)
    assert not small, f"controls under 44×44 px: {small}"
    return int(page.evaluate("() => document.querySelectorAll('button, a[href], select, input').length"))


def board_targets(page: Page) -> Any:
    return page.locator(".board-svg .hatch.target[data-act], .board-svg .room.target[data-act], "
                        ".board-svg .sea-zone.target[data-act]")


# The state shown on our turn, or once the game is over (bots move in between).
_TURN = """([after]) => {
    const g = window.rnGame, s = g && g.state();
    const el = document.querySelector("[data-testid=game-page]");
    if (!s || !el || el.dataset.version !== String(s.version) || s.version <= after) return null;
    if (!s.your_turn && !s.view.result) return null;
    return {version: s.version, your_turn: !!s.your_turn, over: !!s.view.result};
}"""


def my_turn(page: Page, after: int = -1) -> dict[str, Any]:
    got: dict[str, Any] = page.wait_for_function(_TURN, arg=[after]).json_value()
    return got


# A point inside a board target that a tap there reaches (not a gnome standing on it, not the
# sheet over the page's bottom): the target is scrolled to the window's top first.
_FREE_POINT = """(el) => {
    el.scrollIntoView({block: "start", inline: "center"});
    const r = el.getBoundingClientRect();
    for (const fy of [0.5, 0.35, 0.65, 0.2, 0.8]) for (const fx of [0.5, 0.3, 0.7, 0.15, 0.85]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        const hit = document.elementFromPoint(x, y);
        if (hit && el.contains(hit)) return {x: r.width * fx, y: r.height * fy};
    }
    return null;
}"""


def tap_board(page: Page) -> str:
    target = board_targets(page).first
    act = str(target.get_attribute("data-act"))
    point = target.evaluate(_FREE_POINT)
    assert point, f"no free point on the board target {act!r}"
    target.tap(position=point)
    return act


CARDS = {"options": "#actions", "crew": "#crew", "log": "#log", "chat": "#chat", "table": "#seats"}


def open_sheet(page: Page, tab: str) -> None:
    """Shows a tab of the bottom sheet (or of the side column of a phone held sideways); a tablet
    shows every card in its side column, without tabs."""
    side = page.locator(".col-side")
    if not page.get_by_test_id("sheet-bar").is_visible():
        expect(side.locator(CARDS[tab])).to_be_visible()
        return
    if side.get_attribute("data-tab") != tab:
        page.get_by_test_id(f"sheet-tab-{tab}").tap()
    if "collapsed" in (side.get_attribute("class") or ""):
        page.get_by_test_id("sheet-toggle").tap()
    expect(side).to_have_attribute("data-tab", tab)
    expect(side).not_to_have_class("collapsed")


def tap_sheet(page: Page) -> str:
    """One choice from the options in the sheet: Done or the first decision, a repair with the
    minutes it shows, the most cards, else End / No Action / the first option."""
    open_sheet(page, "options")
    panel = page.get_by_test_id("actions")
    panel.locator("[data-act]:not([disabled])").first.wait_for()
    decision = panel.locator("[data-testid=decision] button[data-act]")
    repair = panel.locator("[data-testid$=-go][data-act]")
    draws = panel.locator("[data-testid=draw-group] button[data-act]")
    if decision.count():
        done = panel.locator("[data-testid=act-done]")
        button = done if done.count() else decision.first
    elif repair.count():
        button = repair.first
    elif draws.count():
        button = draws.last
    else:
        button = panel.locator("button[data-act]:visible").first
        for tid in ("act-no_action", "act-end"):
            if panel.get_by_test_id(tid).count():
                button = panel.get_by_test_id(tid)
                break
    act = str(button.get_attribute("data-act"))
    button.tap()
    return act


def start_game_by_taps(page: Page, seed: int) -> None:
    """Creates a 3-player game on the start page, takes seat 0 and gives seats 1 and 2 to bots,
    all by tapping."""
    page.wait_for_selector("[data-testid=create-form]")
    page.select_option("[data-testid=create-players]", "3")
    page.fill("[data-testid=create-seed]", str(seed))
    page.get_by_test_id("create-game").tap()
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    expect(page.locator(".col-side")).to_have_attribute("data-tab", "table")  # the seats first
    # the banner asks to share the link: its copy button is right there, in sight
    copy = page.get_by_test_id("banner-copy-link")
    expect(copy).to_be_in_viewport(ratio=1)
    shot(page, f"mobile-{page.viewport_size['width']}x{page.viewport_size['height']}-waiting")
    copy.tap()
    expect(page.get_by_text("Link copied")).to_be_visible()
    expect(page.get_by_text("Link copied")).to_be_hidden()  # (a toast: gone by itself)
    page.fill("[data-testid=seat-name]", "Ada")
    page.get_by_test_id("take-seat-0").tap()
    expect(page.get_by_test_id("seat-tab-0")).to_be_visible()
    expect(page.get_by_test_id("undo")).to_have_count(0)  # nothing to undo before the start
    for seat in (1, 2):
        page.select_option(f"[data-testid=bot-select-{seat}]", "heuristic")
        page.get_by_test_id(f"bot-seat-{seat}").tap()
        expect(page.get_by_test_id(f"seat-{seat}")).to_have_attribute("data-kind", "bot")


_WIDTHS = """() => [Math.round(document.querySelector(".board-svg").getBoundingClientRect().width),
    document.querySelector("#board").clientWidth]"""


# --- 1-4: a game played by tapping, at each phone and tablet size -------------------------------
@pytest.mark.parametrize("size", list(TOUCH))
def test_a_game_is_played_by_tapping_without_sideways_scroll(sized: Callable[[str], Any],
                                                             size: str) -> None:
    page = _page(sized(size), "/")
    page.wait_for_selector("[data-testid=create-form]")
    no_sideways_scroll(page)
    targets_fit_fingers(page)
    shot(page, f"mobile-{size}-lobby")
    start_game_by_taps(page, seed=31)
    st = my_turn(page)
    first_version = st["version"]
    first_board = page.locator("#board").inner_html()
    no_sideways_scroll(page)
    assert targets_fit_fingers(page) > 5
    # our turn opened the options; the board above shows the choices on it
    expect(page.locator(".col-side")).to_have_attribute("data-tab", "options")
    expect(page.locator(".col-side")).not_to_have_class("collapsed")
    expect(page.get_by_test_id("actions").locator("[data-act]").first).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"mobile-{size}-game-sheet-open")
    board_taps, sheet_taps, applied = 0, 0, 0
    for _ in range(40):
        if st["over"] or (applied >= 6 and board_taps >= 2 and sheet_taps >= 2):
            break
        assert st["your_turn"]
        if board_targets(page).count() and board_taps <= sheet_taps:
            tap_board(page)
            board_taps += 1
        else:
            tap_sheet(page)
            sheet_taps += 1
        now = state(page, after=st["version"])  # the tap was applied: a newer state shows
        applied += 1
        no_sideways_scroll(page)
        targets_fit_fingers(page)
        st = my_turn(page, after=now["version"] - 1)
    assert board_taps >= 2 and sheet_taps >= 2, (board_taps, sheet_taps)
    assert st["version"] > first_version + applied - 1
    assert page.locator("#board").inner_html() != first_board
    # the log and the chat are one tap away; the sheet folds away to show the whole board
    open_sheet(page, "log")
    expect(page.get_by_test_id("log").locator("[data-testid=log-entry]").last).to_be_visible()
    if page.get_by_test_id("sheet-bar").is_visible():
        expect(page.get_by_test_id("actions")).to_be_hidden()
    targets_fit_fingers(page)
    shot(page, f"mobile-{size}-log")
    open_sheet(page, "chat")
    page.fill("[data-testid=chat-input]", "Pumps first, then the reactor")
    page.get_by_test_id("chat-send").tap()
    expect(page.get_by_test_id("chat-message").last).to_contain_text("Pumps first")
    for tab in ("crew", "table"):
        open_sheet(page, tab)
        expect(page.get_by_test_id(tab if tab == "crew" else "seats")).to_be_visible()
        targets_fit_fingers(page)
    if size == "phone":
        page.get_by_test_id("sheet-toggle").tap()
        expect(page.locator(".col-side")).to_have_class("col-side collapsed")
        expect(page.get_by_test_id("board")).to_be_in_viewport()
        page.evaluate("() => window.scrollTo(0, 0)")
        shot(page, f"mobile-{size}-game-sheet-closed")
        # zoomed in, the board pans sideways inside its frame; the corner button shows it whole
        svg, frame = page.evaluate(_WIDTHS)
        assert svg >= 600 > frame, (svg, frame)
        page.get_by_test_id("board-zoom").tap()
        page.wait_for_function(f"() => (({_WIDTHS})()).every((w, _, a) => w === a[1])")
        shot(page, f"mobile-{size}-game-whole-board")
        page.get_by_test_id("board-zoom").tap()
        page.wait_for_function(f"() => (({_WIDTHS})())[0] >= 600")
    no_sideways_scroll(page)
    assert not page.js_errors, page.js_errors


# --- 5: the page fits a phone in every language -----------------------------------------------
_CLIPPED = """() => [...document.querySelectorAll(".sheet-tab-label")]
    .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)"""


def test_every_language_fits_a_phone(sized: Callable[[str], Any], rn_url: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid = api.post("/api/games", json={"players": 3, "seed": 34}).json()["game"]["id"]
    page = _page(sized("phone"), f"/g/{gid}")
    expect(page.get_by_test_id("sheet-bar")).to_be_visible()
    for lang in ("en", "de", "fr", "pl", "ru", "es"):
        page.select_option("[data-testid=language-select]", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        crew = json.loads((I18N / f"{lang}.json").read_text("utf-8"))["web_mobile"]["tab_crew"]
        expect(page.locator("[data-testid=sheet-tab-crew]")).to_have_text(crew)
        no_sideways_scroll(page)
        targets_fit_fingers(page)
        assert not page.evaluate(_CLIPPED), f"{lang}: tab names cut off: {page.evaluate(_CLIPPED)}"
        shot(page, f"mobile-phone-{lang}")
    page.get_by_test_id("rules-button").tap()  # the rules reference: its links fit fingers too
    expect(page.get_by_test_id("rules-dialog")).to_be_visible()
    no_sideways_scroll(page)
    targets_fit_fingers(page)
    shot(page, "mobile-phone-rules")
    page.get_by_test_id("rules-close").tap()
    expect(page.get_by_test_id("rules-dialog")).to_be_hidden()
    assert not page.js_errors, page.js_errors


def test_the_chat_tab_marks_new_messages(sized: Callable[[str], Any], rn_url: str,
                                         ws_client: Callable[..., Any]) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid = api.post("/api/games", json={"players": 3, "seed": 35}).json()["game"]["id"]
        token = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Bea"}).json()["token"]
    page = _page(sized("phone"), f"/g/{gid}")
    tab = page.get_by_test_id("sheet-tab-chat")
    expect(tab).to_be_visible()
    expect(tab).not_to_have_class(re.compile(r"\bunread\b"))
    # the page's first state, and the talk it opens with, must have come: a line sent before
    # that arrives with the opening talk, which counts as read (the reload below)
    state(page)
    bea = ws_client(gid, tokens=[token])
    bea.send({"type": "chat", "seat": 0, "text": "Anyone for the reactor?"})
    expect(tab).to_have_class(re.compile(r"\bunread\b"))  # a new line while the chat is closed
    tab.tap()
    expect(page.get_by_test_id("chat-message").last).to_contain_text("Anyone for the reactor?")
    expect(tab).not_to_have_class(re.compile(r"\bunread\b"))
    shot(page, "mobile-phone-chat")
    page.reload()  # the talk the game opens with counts as read
    expect(page.get_by_test_id("chat-message")).to_have_count(1)
    expect(page.locator("[data-testid=game-page]")).to_have_attribute("data-version", re.compile(r"\d"))
    expect(page.get_by_test_id("sheet-tab-chat")).not_to_have_class(re.compile(r"\bunread\b"))
    assert not page.js_errors, page.js_errors


# --- 6: the time track on a laptop ------------------------------------------------------------
@pytest.mark.parametrize("size", ["laptop", "desktop", "tablet", "tablet-large"])
def test_the_whole_time_track_shows_without_scrolling(sized: Callable[[str], Any],
                                                      size: str) -> None:
    page = _page(sized(size), "/")
    page.wait_for_selector("[data-testid=create-form]")
    shot(page, f"mobile-{size}-lobby")
    page.select_option("[data-testid=create-players]", "3")
    page.fill("[data-testid=create-seed]", "32")
    page.click("[data-testid=create-game]")
    for seat, name in enumerate(("Ada", "Bob", "Cy")):  # hot-seat: one person, three seats
        page.fill("[data-testid=seat-name]", name)
        page.click(f"[data-testid=take-seat-{seat}]")
        expect(page.get_by_test_id(f"seat-tab-{seat}")).to_be_visible()
    state(page, your_turn=True)
    view = ALL[size]
    for lang in ("en", "de"):  # longer texts: the head may take more lines, the board gives way
        page.select_option("[data-testid=language-select]", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.evaluate("() => window.scrollTo(0, 0)")
        track = page.get_by_test_id("time-track")
        expect(track).to_be_in_viewport(ratio=1)
        box = track.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (box, view)
        assert box["width"] >= 500, box  # still readable
        no_sideways_scroll(page)
        # nor up and down: a page a little taller than the window scrolls its top bar away
        # whenever something is brought into view
        high = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
        assert high[0] <= high[1], f"the page is {high[0]} px high in a {high[1]} px window"
        shot(page, f"mobile-{size}-game-{lang}")
    if size in TOUCH:
        targets_fit_fingers(page)
    assert not page.js_errors, page.js_errors


# The result's headline is on screen and not under a phone's sheet tabs (a box that scrolls to
# the result must not stop at its bottom buttons when the result is taller than the box).
_HEADLINE = """() => {
    const h = document.querySelector("[data-testid=result-headline]");
    const r = h.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
    return {top: r.top, bottom: r.bottom, height: innerHeight, seen: h.contains(hit),
            over: hit ? `${hit.className} ${hit.closest("[data-testid]")?.dataset.testid || ""}` : null};
}"""


def headline_in_sight(page: Page) -> None:
    at = page.evaluate(_HEADLINE)
    assert at["seen"] and at["top"] >= 0 and at["bottom"] <= at["height"], f"{at}"


# --- 7: the end screen at every size ------------------------------------------------------------
@pytest.fixture(scope="module")
def finished_game(rn_url: str) -> str:
    return bot_game(rn_url, 3, seed=33)[0]


@pytest.mark.parametrize("size", list(ALL))
def test_the_end_screen_fits(sized: Callable[[str], Any], finished_game: str, size: str) -> None:
    page = _page(sized(size), f"/g/{finished_game}")
    overlay = page.get_by_test_id("end-overlay")
    expect(overlay).to_be_visible()  # the bots play it to its end
    expect(overlay).to_be_in_viewport()
    no_sideways_scroll(page)
    if size in TOUCH:
        targets_fit_fingers(page)
        expect(page.get_by_test_id("game-over")).to_be_visible()  # the result opens on the sheet
        headline_in_sight(page)  # at its top, even when it is taller than the sheet
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"mobile-{size}-end")
    page.get_by_test_id("close-overlay").click()
    expect(overlay).to_be_hidden()
    assert not page.js_errors, page.js_errors


def test_a_gnome_to_trade_with_is_a_target_for_a_finger(sized: Callable[[str], Any]) -> None:
    """A gnome that is an option (a trade, or an attack in Mad Gnomes) is tapped by its hit
    circle, at least 44 px across on a phone, not by its 20-px figure."""
    page = _page(sized("phone"), "/")
    start_game_by_taps(page, seed=31)
    my_turn(page)
    other = page.evaluate("""() => {
        const g = window.rnGame, st = g.state(), v = st.view;
        const me = v.gnomes[v.active];
        const other = v.gnomes.find(x => x.number !== me.number && x.alive);
        other.room = me.room;
        st.actions = [{kind: "trade", text: `trade ${other.number}`, arg: 0, minutes: 1, cost: 1,
                       item: null, room: null, gnome: other.number, count: null, penalty: 0,
                       repair: false, bonus: 0, chance: null, doomed: false, token_lost: null}];
        g.render();
        return other.number;
    }""")
    gnome = page.get_by_test_id(f"gnome-{other}")
    expect(gnome).to_have_attribute("data-act", f"trade {other}")
    gnome.scroll_into_view_if_needed()
    targets_fit_fingers(page)
    # a point of the hit circle well outside the figure still reaches the gnome
    reached = gnome.evaluate("""el => {
        const r = el.querySelector(".hit").getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width * 0.15, r.top + r.height / 2);
        return [r.width, hit && hit.closest(".gnome") === el];
    }""")
    assert reached[0] >= 44 and reached[1], reached
    shot(page, "mobile-phone-gnome-target")


# --- 8: on a phone the tracks and our keeper stay in view, labels are readable (issue 18 §5) -----
_IN_VIEW = """() => {
    const vw = innerWidth, vh = innerHeight, out = {};
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    out.tracks = [...document.querySelectorAll("[data-testid^=phone-track-]")].map((el) => ({
        id: el.dataset.testid, box: box(el), shown: el.checkVisibility()}));
    out.view = [vw, vh];
    return out;
}"""

# Every room label shown on the board (names and numbers) with its size on screen in px.
_LABELS = """() => [...document.querySelectorAll(
        ".board-svg .room-name, .board-svg .room-num, .board-svg .sea-label")]
    .filter((el) => el.getClientRects().length)
    .map((el) => [el.textContent, parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a])"""

# Our keeper on the time track: inside the track's frame and the window, and not under the sheet.
_KEEPER = """([seat]) => {
    const g = window.rnGame, v = g.state().view;
    const mine = v.gnomes.filter((x) => x.player === seat && x.alive).map((x) => x.number);
    const el = document.querySelector(`[data-testid="keeper-${mine[0]}"]`);
    el.scrollIntoView({block: "center", inline: "nearest"});
    const r = el.getBoundingClientRect(), f = document.querySelector("#track").getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {keeper: [r.left, r.right], frame: [f.left, f.right], width: innerWidth,
            reached: !!hit && !!hit.closest("#track")};
}"""


def tracks_and_keeper_in_view(page: Page, seat: int) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = page.evaluate(_IN_VIEW)
    vw, vh = seen["view"]
    assert len(seen["tracks"]) == 3, seen
    for t in seen["tracks"]:
        left, top, right, bottom = t["box"]
        assert t["shown"] and left >= 0 and right <= vw and top >= 0 and bottom <= vh, (t, vw, vh)
    kept = page.evaluate(_KEEPER, [seat])
    (left, right), (f_left, f_right) = kept["keeper"], kept["frame"]
    assert f_left - 0.5 <= left and right <= f_right + 0.5 and right <= kept["width"], kept
    assert kept["reached"], kept  # not under the sheet nor anything else


def labels_readable(page: Page) -> int:
    labels = page.evaluate(_LABELS)
    small = [(text, round(px, 1)) for text, px in labels if px < 11]
    assert not small, f"room labels under 11 px: {small}"
    return len(labels)


@pytest.mark.parametrize("size", ["phone", "phone-sideways"])
def test_a_phone_keeps_the_tracks_and_our_keeper_in_view(sized: Callable[[str], Any],
                                                          size: str) -> None:
    page = _page(sized(size), "/")
    start_game_by_taps(page, seed=36)
    st = my_turn(page)
    view = ALL[size]
    for step in range(3):  # our turn, and again after a choice of ours and the bots' turns
        zoomed = page.get_by_test_id("board-zoom").get_attribute("aria-pressed") == "true"
        tracks_and_keeper_in_view(page, seat=0)
        assert labels_readable(page) >= 11  # every room has a label
        if zoomed:  # the names show, enlarged; the board pans sideways
            assert page.locator(".board-svg .room-name").first.is_visible()
        else:  # the board shows whole (in the window's height held sideways)
            page.evaluate("() => window.scrollTo(0, 0)")
            box = page.get_by_test_id("board").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 0.5, box
            if size == "phone-sideways":
                assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 0.5, box
        page.evaluate("() => window.scrollTo(0, 0)")
        shot(page, f"mobile-{size}-tracks-{'zoomed' if zoomed else 'whole'}-{step}")
        page.get_by_test_id("board-zoom").tap()  # the other view
        if step == 1:
            tap_sheet(page)
            st = my_turn(page, after=st["version"])
    no_sideways_scroll(page)
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("size", ["phone", "phone-sideways"])
def test_the_show_skip_button_fits_a_finger(sized: Callable[[str], Any], size: str) -> None:
    page = _page(sized(size), "/")
    start_game_by_taps(page, seed=37)
    st = my_turn(page)
    skip = page.get_by_test_id("show-skip")
    for _ in range(12):  # our choices until the turn ends: the keeper walks, events are drawn
        tap_sheet(page)
        st = state(page, after=st["version"])
        if skip.is_visible():
            break
        st = my_turn(page, after=st["version"] - 1)
    expect(skip).to_be_visible()
    size_px = skip.evaluate("(el) => [el.offsetWidth, el.offsetHeight]")
    assert size_px[0] >= 44 and size_px[1] >= 44, size_px
    reached = skip.evaluate("""(el) => {  // a finger reaches it: not under the sheet
        el.scrollIntoView({block: "nearest"});
        const r = el.getBoundingClientRect();
        return document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2) === el;
    }""")
    assert reached, "the Skip button is covered"
    expect(page.locator("[data-testid^=phone-track-]")).to_have_count(3)  # the tracks stay in view
    for row in page.locator("[data-testid^=phone-track-]").all():
        expect(row).to_be_in_viewport()
    shot(page, f"mobile-{size}-show-skip")
    skip.tap()
    expect(skip).to_be_hidden()
    assert not page.js_errors, page.js_errors
