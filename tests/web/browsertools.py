"""Helpers of the browser tests (the fixtures ``browser``, ``new_context`` and ``rn_url`` are in
conftest.py): Debian's Chromium (/usr/bin/chromium), never a downloaded browser; pages opened on
the session's real server; waits for what a test reads; screenshots to artifacts/screenshots/."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = os.environ.get("RN_CHROMIUM", "/usr/bin/chromium")
# No --disable-dev-shm-usage here: Playwright already passes it to every Chromium it launches, and
# Chromium on Linux keeps its shared memory in memfd regions, not in /dev/shm files (the browser
# tests pass with a 1 MB /dev/shm, with or without the flag). The flakes came from the helpers
# below reading the page before it had the state they asked about.
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 1440, "height": 900}
TIMEOUT = 10_000  # ms, for every wait
# The pages' Content-Security-Policy has no 'unsafe-eval': give page.wait_for_function a function
# ("() => …"), never a bare expression, which Playwright would have to eval.
expect.set_options(timeout=TIMEOUT)

SKIP = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed")


# The window sizes of the phone, tablet and desktop tests (the ``sized`` fixture, conftest.py).
PHONE = {"width": 390, "height": 844}
PHONE_SIDEWAYS = {"width": 844, "height": 390}
TABLET = {"width": 1024, "height": 768}
TABLET_LARGE = {"width": 1180, "height": 820}
LAPTOP = {"width": 1366, "height": 768}
DESKTOP = {"width": 1440, "height": 900}
TOUCH = {"phone": PHONE, "phone-sideways": PHONE_SIDEWAYS, "tablet": TABLET,
         "tablet-large": TABLET_LARGE}
ALL = {**TOUCH, "laptop": LAPTOP, "desktop": DESKTOP}

def _csp_violation(message: Any, errors: list[str]) -> None:
    """Chromium reports what the Content-Security-Policy blocked on the console: an error too."""
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


def _page(ctx: Any, path: str, accept_dialogs: bool = True) -> Any:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: _csp_violation(m, errors))
    if accept_dialogs:
        page.on("dialog", lambda d: d.accept())
    page.js_errors = errors
    page.goto(path)
    return page


# Screenshots fast-forward finite CSS animations (fade-ins, highlights) to their end and stop the
# endless ones, so a picture never depends on how long after a change it was taken. They wait for
# the page to paint two frames first: Chromium refuses a capture ("Unable to capture screenshot")
# while a page just loaded or resized has no frame of its new size yet, which a loaded machine
# made happen on the rules page at phone size, straight after set_viewport_size and goto.
def two_frames(page: Any) -> None:
    """Waits until the page has drawn twice (a change made now is on the screen)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    two_frames(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, animations="disabled")


def board_shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".col-board").screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


# --- helpers: driving the UI ------------------------------------------------------------------
def create_game(page: Any, players: int, seed: int, variants: tuple[str, ...] = ()) -> str:
    page.wait_for_selector("[data-testid=create-form]")
    page.select_option("[data-testid=create-players]", str(players))
    for v in variants:
        page.check(f"[data-testid=variant-{v}]")
    page.fill("[data-testid=create-seed]", str(seed))
    page.click("[data-testid=create-game]")
    page.wait_for_selector("[data-testid=game-page]")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    return str(page.input_value("[data-testid=share-link]"))


def take_seat(page: Any, seat: int, name: str) -> None:
    page.fill("[data-testid=seat-name]", name)
    page.click(f"[data-testid=take-seat-{seat}]")
    page.wait_for_selector(f"[data-testid=seat-tab-{seat}]")


# The state the page shows: the game page has a state for the seat it looks through and has drawn
# it (game.js marks the drawn version and seat on the game element; a state arrives before the
# next animation frame draws it). Optionally newer than a version, the page's turn, or one seat's.
_SHOWN = """([after, mine, seat]) => {
    const g = window.rnGame, s = g && g.state();
    const el = document.querySelector("[data-testid=game-page]");
    if (!s || !el || el.dataset.version !== String(s.version)
        || el.dataset.seat !== String(s.seat ?? "spec")) return null;
    if (s.version <= after || (mine && !s.your_turn) || (seat !== null && s.seat !== seat)) return null;
    return {version: s.version, your_turn: !!s.your_turn, status: s.status, seat: s.seat,
            to_move: s.to_move, over: !!s.view.result, actions: (s.actions || []).map(a => a.text)};
}"""


def state(page: Any, after: int = -1, your_turn: bool = False,
          seat: int | None = None) -> dict[str, Any]:
    """Waits until the page shows a state (newer than version ``after``; the page's turn when
    ``your_turn``; seat ``seat``'s view when given) and returns it."""
    try:
        handle = page.wait_for_function(_SHOWN, arg=[after, your_turn, seat])
    except playwright_api.TimeoutError as e:
        raise AssertionError(f"no state after version {after} (your turn: {your_turn}, seat: "
                             f"{seat}); the page shows {page.evaluate(_NOW)}") from e
    got: dict[str, Any] = handle.json_value()
    return got


# What the page shows now, for a failure's message: its state, messages and socket.
_NOW = """() => {
    const g = window.rnGame, s = g && g.state();
    const el = document.querySelector("[data-testid=game-page]");
    return {version: s && s.version, your_turn: s && !!s.your_turn, seat: s && s.seat,
            to_move: s && s.to_move, page_version: el && el.dataset.version,
            messages: [...document.querySelectorAll("[data-testid=error],[data-testid=toast]")]
                .map((m) => m.textContent),
            socket: g && g.socket && g.socket.ws ? g.socket.ws.readyState : null};
}"""


def wait_version_after(page: Any, version: int) -> dict[str, Any]:
    return state(page, after=version)


def next_mover(pages: list[Any], limit: int = 2000) -> tuple[Any, dict[str, Any]]:
    """Waits until one of the pages must decide, through bot moves: returns that page and its
    state, or ``None`` and the final state once the game is over."""
    for _ in range(limit):
        shown = [state(p) for p in pages]
        newest = max(range(len(pages)), key=lambda i: shown[i]["version"])
        st = shown[newest]
        if st["over"]:
            return None, st
        for p, s in zip(pages, shown, strict=True):
            if s["seat"] == st["to_move"]:
                # nothing moves before this seat does: its page reaches the version on its turn
                return p, state(p, after=st["version"] - 1, your_turn=True)
        state(pages[newest], after=st["version"])  # a bot decides: wait for its move
    raise AssertionError(f"no page had to decide in {limit} moves")


def play_one(page: Any, st: dict[str, Any]) -> dict[str, Any]:
    """Make one choice through the UI with a quick deterministic policy: a repair with the most
    minutes, else the most cards, else No Action / End / Done / the first option. ``st`` is the
    page's state on its turn (from ``state(page, your_turn=True)``); returns the next state."""
    panel = page.locator("[data-testid=actions]")
    panel.locator("[data-act]:not([disabled])").first.wait_for()  # enabled once the last ack came
    decision = panel.locator("[data-testid=decision] button[data-act]")
    repair = panel.locator("input[type=range][data-minutes]")
    draws = panel.locator("[data-testid=draw-group] button[data-act]")
    if decision.count():
        done = panel.locator("[data-testid=act-done]")
        (done if done.count() else decision.first).click()
    elif repair.count():
        slider = repair.first
        slider.focus()
        slider.press("End")
        group = slider.get_attribute("data-minutes").replace(":", "-")
        panel.locator(f"[data-testid=repair-{group}-go]").click()
    elif draws.count():
        draws.last.click()
    else:
        for tid in ("act-no_action", "act-end"):
            btn = panel.locator(f"[data-testid={tid}]")
            if btn.count():
                btn.click()
                break
        else:
            panel.locator("button[data-act]:visible").first.click()
    return wait_version_after(page, st["version"])


def play_until_over(pages: list[Any], limit: int = 400, on_step: Any = None) -> int:
    """The pages play (bots too, on the server) until the game ends; returns the pages' choices.
    ``pages`` may change during ``on_step(steps)`` (a page reloaded)."""
    for steps in range(limit + 1):
        page, st = next_mover(pages)
        if page is None:
            return steps
        if steps == limit:
            break
        play_one(page, st)
        if on_step:
            on_step(steps + 1)
    raise AssertionError(f"the game did not end after {limit} steps")
