"""Fixtures for the web tests (server side and browser tests alike).

- ``live_server`` (session scope): a real ``rednovember serve`` subprocess (uvicorn) on a free
  loopback port with a temporary SQLite file, ``--bot-delay 0 --takeover-grace 0``; yields the
  base URL, e.g. ``"http://127.0.0.1:41234"``.
- ``server_factory``: ``start(db_path=None, bot_delay=0.0, takeover_grace=0.0, extra=(),
  limits=False) -> Server`` for
  tests that need their own server (restarts, other options). ``Server`` has ``url``,
  ``db_path``, ``kill()`` (SIGKILL), ``stop()`` (SIGTERM), ``start()``; every server it started
  is stopped at the end of the test.
- ``api``: an ``httpx.Client`` with ``base_url=live_server``.
- ``ws_client``: ``connect(game_id, tokens=(), creator=None) -> WsClient`` on ``live_server``
  (closed at the end of the test); see ``webtools.WsClient``.
- ``inbox``: a real SMTP server (test_server_mail.Inbox); ``service``: a browser push service
  (test_server_push.PushService).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aiosmtpd.controller import Controller  # noqa: E402
from browsertools import ALL, ARGS, CHROMIUM, TIMEOUT, TOUCH, VIEWPORT, playwright_api  # noqa: E402
from test_server_mail import Inbox  # noqa: E402
from test_server_push import PushService  # noqa: E402
from webtools import Server, WsClient, free_port  # noqa: E402


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("live_server") / "games.db"
    server = Server(db).start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(db_path: Path | None = None, bot_delay: float = 0.0,
              takeover_grace: float = 0.0, extra: tuple[str, ...] = (),
              limits: bool = False) -> Server:
        server = Server(db_path or tmp_path / f"games{len(started)}.db", bot_delay,
                        takeover_grace, extra=extra, limits=limits).start()
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def api(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=10.0) as client:
        yield client


@pytest.fixture
def ws_client(live_server: str) -> Iterator[Callable[..., WsClient]]:
    clients: list[WsClient] = []

    def connect(game_id: str, tokens: Any = (), creator: str | None = None,
                hello: bool = True) -> WsClient:
        c = WsClient(live_server, game_id, tokens, creator, hello)
        clients.append(c)
        return c

    yield connect
    for c in clients:
        c.close()


# --- browser tests (Playwright on Debian's Chromium; helpers in browsertools.py) ---------------
@pytest.fixture(scope="session")
def rn_url(live_server: str) -> str:
    """The real server of tests/web/conftest.py (``rednovember serve`` on a loopback port)."""
    return live_server.rstrip("/")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def sized(browser: Any, rn_url: str) -> Iterator[Callable[[str], Any]]:
    """Makes a browser context of one of the sizes of browsertools.ALL: a touch screen for phones
    and tablets."""
    made: list[Any] = []

    def make(size: str) -> Any:
        touch = size in TOUCH
        ctx = browser.new_context(viewport=ALL[size], locale="en-GB", base_url=rn_url,
                                  has_touch=touch, is_mobile=touch)
        ctx.set_default_timeout(TIMEOUT)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def new_context(browser: Any, rn_url: str) -> Iterator[Any]:
    """Makes browser contexts (separate people: own localStorage), all closed after the test (its
    pages with them), even when one fails to close. A page whose renderer died fails the test by
    name instead of leaving later waits to time out."""
    made: list[Any] = []
    crashed: list[str] = []

    def make(locale: str = "en-GB", **options: Any) -> Any:
        ctx = browser.new_context(viewport=VIEWPORT, locale=locale, base_url=rn_url, **options)
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: page.on("crash", lambda p: crashed.append(p.url)))
        made.append(ctx)
        return ctx

    yield make
    errors = []
    for ctx in made:
        try:
            ctx.close()
        except Exception as exc:  # close the others, then report
            errors.append(exc)
    assert not crashed, f"the page renderer crashed at {crashed}"
    assert not errors, errors


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """A real SMTP server (aiosmtpd) on a free loopback port; its ``url`` for ``--smtp``."""
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.url = f"smtp://127.0.0.1:{controller.port}"  # type: ignore[attr-defined]
    yield handler
    controller.stop()


@pytest.fixture
def service() -> Iterator[PushService]:
    """A browser push service on a free loopback port that keeps every push it gets."""
    s = PushService()
    yield s
    s.close()
